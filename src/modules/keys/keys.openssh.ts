// OpenSSH public keys ("<type> <base64> [comment]") read from their wire format
// (RFC 4253 § 6.6, RFC 5656 § 3.1, RFC 8709): the blob must hold exactly the fields
// of its type, so a truncated or doctored key is refused rather than stored.
import { createHash } from 'node:crypto';

export class SshKeyError extends Error {}

export interface ParsedSshKey {
  type: string;
  /** "<type> <base64>": the key as stored and shown, without its comment. */
  key: string;
  /** "SHA256:<base64 without padding>", as `ssh-keygen -lf` prints it. */
  fingerprint: string;
  bits: number;
}

/** Upstream refuses RSA keys shorter than this. */
export const MIN_RSA_BITS = 2048;

const ECDSA_POINT_BYTES: Record<string, number> = { nistp256: 65, nistp384: 97, nistp521: 133 };
const ECDSA_BITS: Record<string, number> = { nistp256: 256, nistp384: 384, nistp521: 521 };

class Reader {
  private at = 0;
  constructor(private readonly buf: Buffer) {}

  string(): Buffer {
    if (this.at + 4 > this.buf.length) throw new SshKeyError('Key is invalid. You must supply a key in OpenSSH public key format');
    const len = this.buf.readUInt32BE(this.at);
    this.at += 4;
    if (this.at + len > this.buf.length) throw new SshKeyError('Key is invalid. You must supply a key in OpenSSH public key format');
    const out = this.buf.subarray(this.at, this.at + len);
    this.at += len;
    return out;
  }

  get done(): boolean {
    return this.at === this.buf.length;
  }
}

const INVALID = 'Key is invalid. You must supply a key in OpenSSH public key format';

/** Bits of an mpint (a positive one: leading zero bytes carry no bits). */
function mpintBits(n: Buffer): number {
  let i = 0;
  while (i < n.length && n[i] === 0) i++;
  if (i === n.length) return 0;
  return (n.length - i - 1) * 8 + (32 - Math.clz32(n[i]!));
}

function bitsOf(type: string, r: Reader): number {
  if (type === 'ssh-ed25519') {
    if (r.string().length !== 32) throw new SshKeyError(INVALID);
    return 256;
  }
  if (type === 'ssh-rsa') {
    const e = r.string();
    const bits = mpintBits(r.string());
    if (mpintBits(e) === 0) throw new SshKeyError(INVALID);
    if (bits < MIN_RSA_BITS) throw new SshKeyError(`Key is weak. RSA keys must be at least ${MIN_RSA_BITS} bits.`);
    return bits;
  }
  const curve = /^ecdsa-sha2-(nistp256|nistp384|nistp521)$/.exec(type)?.[1];
  if (curve) {
    if (r.string().toString('latin1') !== curve) throw new SshKeyError(INVALID);
    const q = r.string();
    // Only uncompressed points, as OpenSSH writes them.
    if (q.length !== ECDSA_POINT_BYTES[curve] || q[0] !== 4) throw new SshKeyError(INVALID);
    return ECDSA_BITS[curve]!;
  }
  throw new SshKeyError(`Key type ${type} is not supported. Use ssh-ed25519, ecdsa-sha2-nistp256/384/521 or ssh-rsa.`);
}

export function parseSshKey(text: string): ParsedSshKey {
  const fields = text.trim().split(/\s+/);
  if (fields.length < 2) throw new SshKeyError(INVALID);
  const [type, b64] = fields as [string, string];
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) throw new SshKeyError(INVALID);
  const blob = Buffer.from(b64, 'base64');
  const r = new Reader(blob);
  if (r.string().toString('latin1') !== type) throw new SshKeyError(INVALID);
  const bits = bitsOf(type, r);
  if (!r.done) throw new SshKeyError(INVALID);
  return { type, key: `${type} ${blob.toString('base64')}`, fingerprint: fingerprintOf(blob), bits };
}

/** SHA256 fingerprint of a key blob, as OpenSSH prints it. */
export function fingerprintOf(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}
