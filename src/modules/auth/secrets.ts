// Generation and hashing of bearer secrets. Only hashes are stored.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomBase62(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b < 248) out += ALPHABET[b % 62]; // 248 = 4 * 62: rejects the biased tail
  }
  return out.length === length ? out : out + randomBase62(length - out.length);
}

export function sha256Hex(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Personal access token (classic), shaped like upstream's ghp_ tokens. */
export function newPersonalToken(): string {
  return `whp_${randomBase62(36)}`;
}

export function newClientId(): string {
  return `Iv1.${randomBytes(8).toString('hex')}`;
}

export function newClientSecret(): string {
  return randomBytes(20).toString('hex');
}

export function hashesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Installation access token, shaped like upstream's ghs_ tokens (the prefix tells them apart). */
export function newInstallationToken(): string {
  return `whs_${randomBase62(36)}`;
}

export function isInstallationToken(token: string): boolean {
  return token.startsWith('whs_');
}

/** An app's user-to-server token, shaped like upstream's ghu_ tokens. */
export function newUserToServerToken(): string {
  return `whu_${randomBase62(36)}`;
}

export function isUserToServerToken(token: string): boolean {
  return token.startsWith('whu_');
}

/** The refresh token of an expiring user-to-server token, shaped like upstream's ghr_ tokens. */
export function newRefreshToken(): string {
  return `whr_${randomBase62(76)}`;
}
