// App JSON web tokens: RS256, signed by one of the app's private keys (Wharf holds the
// public halves), `iss` the app id or client id, `iat`/`exp` at most ten minutes apart.
// The checks and their 401 messages are upstream's; a minute of clock skew is allowed
// either way, as upstream recommends clients backdate `iat` by 60 seconds.
import { createPublicKey, verify } from 'node:crypto';
import { BadCredentialsError } from '../../domain/errors.ts';

export const MAX_LIFETIME_SECONDS = 600;
export const SKEW_SECONDS = 60;

export const MESSAGES = {
  undecodable: 'A JSON web token could not be decoded',
  expired: "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires.",
  tooLong: "'Expiration time' claim ('exp') is too far in the future",
  issuedLater: "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued.",
  issuer: "'Issuer' claim ('iss') must be an Integer",
  unknownIssuer: 'Integration not found',
} as const;

export interface ParsedJwt {
  signingInput: string;
  signature: Buffer;
  iss: number | string;
  iat: number;
  exp: number;
}

function decodeJson(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
}

const SEGMENT = /^[A-Za-z0-9_-]+$/;

/** True when the bearer value has a JWT's shape (three base64url parts, a JSON header naming an alg). */
export function looksLikeJwt(token: string): boolean {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((p) => SEGMENT.test(p))) return false;
  const header = decodeJson(parts[0]!);
  return header !== null && typeof header === 'object' && 'alg' in header;
}

/** Parses a JWT-shaped token; 401 with upstream's message when it is not one Wharf accepts. */
export function parseAppJwt(token: string): ParsedJwt {
  const [h, p, s] = token.split('.') as [string, string, string];
  const header = decodeJson(h) as { alg?: unknown } | null;
  const payload = decodeJson(p) as { iss?: unknown; iat?: unknown; exp?: unknown } | null;
  if (!header || header.alg !== 'RS256' || !payload || typeof payload !== 'object') throw new BadCredentialsError(MESSAGES.undecodable);
  const { iss, iat, exp } = payload;
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw new BadCredentialsError(MESSAGES.issuedLater);
  if (typeof exp !== 'number' || !Number.isFinite(exp)) throw new BadCredentialsError(MESSAGES.expired);
  if (!(typeof iss === 'number' && Number.isSafeInteger(iss)) && !(typeof iss === 'string' && iss.length > 0 && iss.length <= 100)) {
    throw new BadCredentialsError(MESSAGES.issuer);
  }
  return { signingInput: `${h}.${p}`, signature: Buffer.from(s, 'base64url'), iss, iat: Math.floor(iat), exp: Math.floor(exp) };
}

/** True when one of the public keys verifies the token's RS256 signature. */
export function signedByOneOf(jwt: ParsedJwt, publicKeys: readonly string[]): boolean {
  return publicKeys.some((pem) => {
    try {
      return verify('RSA-SHA256', Buffer.from(jwt.signingInput), createPublicKey(pem), jwt.signature);
    } catch {
      return false;
    }
  });
}

/** The time rules, checked after the signature (an unsigned token learns nothing about them). */
export function checkTimes(jwt: ParsedJwt, nowSeconds: number): void {
  if (jwt.exp + SKEW_SECONDS <= nowSeconds) throw new BadCredentialsError(MESSAGES.expired);
  if (jwt.iat - SKEW_SECONDS > nowSeconds) throw new BadCredentialsError(MESSAGES.issuedLater);
  if (jwt.exp - jwt.iat > MAX_LIFETIME_SECONDS || jwt.exp > nowSeconds + MAX_LIFETIME_SECONDS + SKEW_SECONDS) {
    throw new BadCredentialsError(MESSAGES.tooLong);
  }
}
