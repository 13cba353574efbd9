// Registration and remove tokens and runner credentials: random, shown once, stored as
// SHA-256 hashes (DESIGN: data rules).
import { createHash, randomBytes } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Upstream's tokens are 29 upper-case letters and digits. */
export function newRunnerToken(): string {
  const bytes = randomBytes(29);
  let out = '';
  for (const b of bytes) out += BASE32[b % 32];
  return out;
}

export function newRunnerCredential(): string {
  return `whr_${randomBytes(24).toString('base64url')}`;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
