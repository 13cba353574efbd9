// Account passwords, for the browser sign-in only (never for the API or git): scrypt
// from node:crypto with a random salt per password; the stored form names its
// parameters so they can be raised later without breaking stored hashes.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const N = 16384;
const R = 8;
const P = 1;
const KEY_BYTES = 32;

export const MIN_PASSWORD_LENGTH = 8;
/** Longer input only costs hashing time; nobody types more. */
export const MAX_PASSWORD_LENGTH = 256;

function derive(password: string, salt: Buffer, options: ScryptOptions, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, { ...options, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N, r: R, p: P }, KEY_BYTES);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** A hash of nothing anyone knows: checked when the account has no password, so timing does not tell. */
let decoy: Promise<string> | null = null;

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const hash = stored ?? await (decoy ??= hashPassword(randomBytes(16).toString('hex')));
  const [scheme, n, r, p, salt, key] = hash.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) }, expected.length);
  return timingSafeEqual(actual, expected) && stored !== null;
}

/** Why a new password is refused, or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `Password is too short (minimum is ${MIN_PASSWORD_LENGTH} characters).`;
  if (password.length > MAX_PASSWORD_LENGTH) return `Password is too long (maximum is ${MAX_PASSWORD_LENGTH} characters).`;
  return null;
}
