// Commit and tag signature verification: the `verification` object of every commit
// (and annotated tag) record, checked with openpgp.js against the GPG keys and the
// e-mail addresses registered here.
import type { AppContext } from '../../context.ts';
import { isoSeconds } from '../../domain/clock.ts';
import * as users from '../users/users.service.ts';
import type { SigningKeyRecord } from './verification.model.ts';
import {
  MalformedSignatureError, OpenpgpUnavailableError, readDetachedSignature, signatureMatches, type DetachedSignature,
} from './verification.openpgp.ts';
import * as store from './verification.store.ts';

export type VerificationReason =
  | 'expired_key' | 'not_signing_key' | 'gpgverify_error' | 'gpgverify_unavailable' | 'unsigned'
  | 'unknown_signature_type' | 'no_user' | 'unverified_email' | 'bad_email' | 'unknown_key'
  | 'malformed_signature' | 'invalid' | 'valid';

export interface Verification {
  verified: boolean;
  reason: VerificationReason;
  signature: string | null;
  payload: string | null;
  verified_at: string | null;
}

const NL = 0x0a;
const SPACE = 0x20;

interface SignedBytes {
  signature: string | null;
  /** Exactly the bytes that were signed. */
  payload: Buffer;
}

/**
 * A commit's signature (its gpgsig header, continuation lines unfolded, ending with a
 * newline as git prints it) and the signed payload: the object without that header.
 * Works on bytes, so that a commit in another encoding is checked as written. In a
 * SHA-1 repository git signs over the object without either signature header, and
 * verifies `gpgsig`; `gpgsig-sha256` alone is used when it is all there is.
 */
function splitCommitBytes(raw: Buffer): SignedBytes {
  const headerEnd = raw.indexOf('\n\n');
  const headersEnd = headerEnd < 0 ? raw.length : headerEnd + 1;
  const keep: Buffer[] = [];
  const found: Record<'gpgsig' | 'gpgsig-sha256', string[] | undefined> = { gpgsig: undefined, 'gpgsig-sha256': undefined };
  let current: string[] | null = null;
  let pos = 0;
  while (pos < headersEnd) {
    const eol = raw.indexOf(NL, pos);
    const next = eol < 0 || eol >= headersEnd ? headersEnd : eol + 1;
    const line = raw.subarray(pos, next);
    if (current && line[0] === SPACE) {
      current.push(line.subarray(1).toString('utf8'));
    } else {
      current = null;
      const name = line.subarray(0, Math.max(0, line.indexOf(SPACE))).toString('latin1');
      if ((name === 'gpgsig' || name === 'gpgsig-sha256') && found[name] === undefined) {
        current = [line.subarray(name.length + 1).toString('utf8')];
        found[name] = current;
      } else {
        keep.push(line);
      }
    }
    pos = next;
  }
  keep.push(raw.subarray(headersEnd));
  const lines = found.gpgsig ?? found['gpgsig-sha256'];
  if (!lines) return { signature: null, payload: raw };
  const signature = lines.map((l) => (l.endsWith('\n') ? l : `${l}\n`)).join('');
  return { signature, payload: Buffer.concat(keep) };
}

/** Splits a raw commit object into its signature (gpgsig header) and the signed payload. */
export function splitSignature(raw: Buffer): { signature: string | null; payload: string } {
  const { signature, payload } = splitCommitBytes(raw);
  return { signature, payload: payload.toString('utf8') };
}

const SIGNATURE_STARTS = [
  '-----BEGIN PGP SIGNATURE-----', '-----BEGIN PGP MESSAGE-----', '-----BEGIN SSH SIGNATURE-----',
  '-----BEGIN SIGNED MESSAGE-----', '-----BEGIN PKCS7-----',
];

/**
 * A tag's signature is appended to its message; as git does, it starts at the last line
 * that opens a known signature format, and the payload is everything before it. A tag
 * converted from a SHA-256 repository may carry it as a gpgsig header instead.
 */
function splitTagBytes(raw: Buffer): SignedBytes {
  const headerEnd = raw.indexOf('\n\n');
  const headers = raw.subarray(0, headerEnd < 0 ? raw.length : headerEnd + 1);
  if (/^gpgsig(-sha256)? /m.test(headers.toString('latin1'))) return splitCommitBytes(raw);
  let start = -1;
  let pos = headerEnd < 0 ? raw.length : headerEnd + 2;
  while (pos < raw.length) {
    if (SIGNATURE_STARTS.some((s) => raw.subarray(pos, pos + s.length).toString('latin1') === s)) start = pos;
    const eol = raw.indexOf(NL, pos);
    if (eol < 0) break;
    pos = eol + 1;
  }
  if (start < 0) return { signature: null, payload: raw };
  return { signature: raw.subarray(start).toString('utf8'), payload: raw.subarray(0, start) };
}

/** Splits a raw annotated tag object into its signature and the signed payload. */
export function splitTagSignature(raw: Buffer): { signature: string | null; payload: string } {
  const { signature, payload } = splitTagBytes(raw);
  return { signature, payload: payload.toString('utf8') };
}

/** The address in a `committer`/`tagger` header line of the payload, or null. */
function identityEmail(payload: Buffer, header: 'committer' | 'tagger'): string | null {
  const end = payload.indexOf('\n\n');
  const headers = payload.subarray(0, end < 0 ? payload.length : end).toString('utf8');
  const m = new RegExp(`^${header} [^\\n]*<([^>\\n]*)>`, 'm').exec(headers);
  return m && m[1] ? m[1] : null;
}

type SignatureKind = 'pgp' | 'ssh' | 'x509' | 'unknown';

function signatureKind(signature: string): SignatureKind {
  const s = signature.trimStart();
  if (s.startsWith('-----BEGIN PGP SIGNATURE-----') || s.startsWith('-----BEGIN PGP MESSAGE-----')) return 'pgp';
  if (s.startsWith('-----BEGIN SSH SIGNATURE-----')) return 'ssh';
  if (s.startsWith('-----BEGIN SIGNED MESSAGE-----') || s.startsWith('-----BEGIN PKCS7-----')) return 'x509';
  return 'unknown';
}

function isPast(limit: string | null, at: Date): boolean {
  return limit !== null && Date.parse(limit) <= at.getTime();
}

/**
 * The reason for a signed payload. The checks run in this order, and the first that
 * fails decides (upstream reports one reason; this is the order its verifier answers in):
 *
 *  1. unknown_signature_type  the signature is not OpenPGP (SSH, X.509/S-MIME, or no
 *                             format git knows): nothing here can check it.
 *  2. gpgverify_unavailable   openpgp.js cannot be loaded: no signature can be checked.
 *  3. malformed_signature     OpenPGP armor that does not parse, or names no issuer.
 *  4. unknown_key             no issuer key id is registered to any account. Decided
 *                             before anything about the committer: a key nobody
 *                             registered tells nothing about who signed.
 *  5. gpgverify_error         the registered key cannot be read, or openpgp.js fails
 *                             for a reason that is not the signature's.
 *  6. invalid                 the cryptographic check fails (payload altered, another
 *                             key's signature), the signature predates the key, or the
 *                             key is revoked.
 *  7. not_signing_key         the key packet that signed lacks the signing usage flag.
 *                             Before expiry: extending such a key would not help.
 *  8. expired_key             that key packet, or its primary key, had expired when the
 *                             signature was made, or has expired now (upstream checks the
 *                             key as registered now, so re-uploading an extended key
 *                             makes older signatures verify again).
 *  9. no_user                 the committer's address belongs to no account.
 * 10. unverified_email        it belongs to an account but is not verified.
 * 11. bad_email               it is not among the key's user-id addresses, or the account
 *                             holding it is not the key's owner.
 * 12. valid
 */
async function verifySigned(ctx: AppContext, signature: string, payload: Buffer, email: string | null): Promise<VerificationReason> {
  if (signatureKind(signature) !== 'pgp') return 'unknown_signature_type';

  let parsed: DetachedSignature;
  try {
    parsed = await readDetachedSignature(signature);
  } catch (err) {
    if (err instanceof OpenpgpUnavailableError) return 'gpgverify_unavailable';
    if (err instanceof MalformedSignatureError) return 'malformed_signature';
    ctx.log.error({ err }, 'reading a commit signature failed');
    return 'gpgverify_error';
  }

  const records = await store.findSigningKeys(ctx.db, parsed.issuers.map((i) => i.keyId));
  let match: { issuer: DetachedSignature['issuers'][number]; record: SigningKeyRecord } | null = null;
  for (const issuer of parsed.issuers) {
    const record = records.find((r) => r.key.keyId === issuer.keyId);
    if (record) { match = { issuer, record }; break; }
  }
  if (!match) return 'unknown_key';
  const { issuer, record } = match;

  let holds: boolean;
  try {
    holds = await signatureMatches(issuer.packet, record.rawKey, record.key.keyId, payload);
  } catch (err) {
    if (err instanceof OpenpgpUnavailableError) return 'gpgverify_unavailable';
    ctx.log.error({ err, keyId: record.key.keyId }, 'checking a commit signature failed');
    return 'gpgverify_error';
  }
  const signedAt = issuer.created ?? ctx.clock.now();
  if (!holds || record.key.revoked || record.primaryRevoked) return 'invalid';
  if (signedAt.getTime() < Date.parse(record.key.createdAt) - 1000) return 'invalid';

  if (!record.key.canSign) return 'not_signing_key';

  const now = ctx.clock.now();
  for (const at of [signedAt, now]) {
    if (isPast(record.key.expiresAt, at) || isPast(record.primaryExpiresAt, at)) return 'expired_key';
  }

  if (!email) return 'no_user';
  const [address] = await users.findEmailAddresses(ctx, [email]);
  if (!address) return 'no_user';
  if (!address.verified) return 'unverified_email';
  const lower = email.toLowerCase();
  if (address.userId !== record.key.userId || !record.emails.some((e) => e.toLowerCase() === lower)) return 'bad_email';
  return 'valid';
}

async function verification(ctx: AppContext, split: SignedBytes, email: string | null): Promise<Verification> {
  const { signature, payload } = split;
  if (signature === null) return { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null };
  const reason = await verifySigned(ctx, signature, payload, email);
  const valid = reason === 'valid';
  return {
    verified: valid, reason, signature, payload: payload.toString('utf8'),
    verified_at: valid ? isoSeconds(ctx.clock.now()) : null,
  };
}

/**
 * The verification object of a commit, from its raw object (as `git cat-file commit`
 * prints it). Callers verifying many commits should call this once per commit;
 * it loads what it needs itself.
 */
export async function verifyCommit(ctx: AppContext, raw: Buffer): Promise<Verification> {
  const split = splitCommitBytes(raw);
  // A tag handed over in commit layout (signature moved to a gpgsig header) has a tagger.
  return verification(ctx, split, identityEmail(split.payload, 'committer') ?? identityEmail(split.payload, 'tagger'));
}

/** The verification object of an annotated tag, from its raw object; the tagger's address is checked. */
export async function verifyTag(ctx: AppContext, raw: Buffer): Promise<Verification> {
  const split = splitTagBytes(raw);
  return verification(ctx, split, identityEmail(split.payload, 'tagger'));
}
