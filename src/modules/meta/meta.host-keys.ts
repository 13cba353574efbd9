// The server's SSH host keys: generated on first use, kept in $WHARF_DATA_DIR/keys,
// published (public halves and SHA256 fingerprints) by GET /meta.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export type HostKeyType = 'RSA' | 'DSA' | 'ECDSA' | 'ED25519';

export interface HostKey {
  type: HostKeyType;
  /** OpenSSH public key line, e.g. "ssh-ed25519 AAAA…". */
  openssh: string;
  /** "SHA256:" fingerprint body as ssh-keygen -l prints it, without the prefix. */
  fingerprint: string;
}

const KINDS: { type: HostKeyType; file: string; generate: () => KeyObject }[] = [
  { type: 'RSA', file: 'ssh_host_rsa_key', generate: () => generateKeyPairSync('rsa', { modulusLength: 3072 }).privateKey },
  { type: 'DSA', file: 'ssh_host_dsa_key', generate: () => generateKeyPairSync('dsa', { modulusLength: 1024, divisorLength: 160 }).privateKey },
  { type: 'ECDSA', file: 'ssh_host_ecdsa_key', generate: () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey },
  { type: 'ED25519', file: 'ssh_host_ed25519_key', generate: () => generateKeyPairSync('ed25519').privateKey },
];

function sshString(buf: Buffer | string): Buffer {
  const b = typeof buf === 'string' ? Buffer.from(buf) : buf;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(b.length);
  return Buffer.concat([len, b]);
}

/** SSH mpint: big-endian, leading zero byte when the high bit is set. */
function mpint(b: Buffer): Buffer {
  let i = 0;
  while (i < b.length - 1 && b[i] === 0) i++;
  const trimmed = b.subarray(i);
  return sshString(trimmed[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

/**
 * Reads the INTEGERs of a DER structure in order: of DSA SubjectPublicKeyInfo p, q, g
 * from the parameters, then y; of a DSA PKCS#8 key the version, p, q, g, then x.
 */
function dsaIntegers(spki: Buffer): Buffer[] {
  const out: Buffer[] = [];
  const walk = (buf: Buffer) => {
    let i = 0;
    while (i < buf.length) {
      const tag = buf[i++]!;
      let len = buf[i++]!;
      if (len & 0x80) {
        const n = len & 0x7f;
        len = 0;
        for (let k = 0; k < n; k++) len = (len << 8) | buf[i++]!;
      }
      const body = buf.subarray(i, i + len);
      i += len;
      if (tag === 0x02) out.push(body);
      else if (tag === 0x30) walk(body);
      else if (tag === 0x03) walk(body.subarray(1)); // BIT STRING: skip the unused-bits byte
      else if (tag === 0x04) walk(body); // OCTET STRING: PKCS#8's private key
    }
  };
  walk(spki);
  return out;
}

function wireFormat(type: HostKeyType, pub: KeyObject): { name: string; blob: Buffer } {
  const b64u = (s: string | undefined) => Buffer.from(s ?? '', 'base64url');
  switch (type) {
    case 'ED25519': {
      const jwk = pub.export({ format: 'jwk' });
      return { name: 'ssh-ed25519', blob: Buffer.concat([sshString('ssh-ed25519'), sshString(b64u(jwk.x))]) };
    }
    case 'ECDSA': {
      const jwk = pub.export({ format: 'jwk' });
      const point = Buffer.concat([Buffer.from([4]), b64u(jwk.x), b64u(jwk.y)]);
      const name = 'ecdsa-sha2-nistp256';
      return { name, blob: Buffer.concat([sshString(name), sshString('nistp256'), sshString(point)]) };
    }
    case 'RSA': {
      const jwk = pub.export({ format: 'jwk' });
      return { name: 'ssh-rsa', blob: Buffer.concat([sshString('ssh-rsa'), mpint(b64u(jwk.e)), mpint(b64u(jwk.n))]) };
    }
    case 'DSA': {
      const [p, q, g, y] = dsaIntegers(pub.export({ format: 'der', type: 'spki' }));
      return { name: 'ssh-dss', blob: Buffer.concat([sshString('ssh-dss'), mpint(p!), mpint(q!), mpint(g!), mpint(y!)]) };
    }
  }
}

/** Creates any missing host key; existing keys are kept across restarts. */
export function ensureHostKeys(dataDir: string): void {
  const dir = path.join(dataDir, 'keys');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const kind of KINDS) {
    const file = path.join(dir, kind.file);
    if (fs.existsSync(file)) continue;
    const pem = kind.generate().export({ format: 'pem', type: 'pkcs8' }) as string;
    // Written aside, then linked into place: a process sharing the data dir never reads
    // half a key, and when two race, the first link wins and both use its key.
    const aside = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
    fs.writeFileSync(aside, pem, { mode: 0o600, flag: 'wx' });
    try {
      fs.linkSync(aside, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      fs.rmSync(aside, { force: true });
    }
  }
}

export function loadHostKeys(dataDir: string): HostKey[] {
  return KINDS.map((kind) => {
    const pem = fs.readFileSync(path.join(dataDir, 'keys', kind.file), 'utf8');
    const { name, blob } = wireFormat(kind.type, createPublicKey(pem));
    return {
      type: kind.type,
      openssh: `${name} ${blob.toString('base64')}`,
      fingerprint: createHash('sha256').update(blob).digest('base64').replace(/=+$/, ''),
    };
  });
}

// ---------------------------------------------------------------- for the SSH server

function derLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function der(tag: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), derLength(body.length), body]);
}

/** OpenSSH's own private key format (openssh-key-v1, unencrypted) for an Ed25519 key. */
function opensshEd25519(key: KeyObject): string {
  const jwk = key.export({ format: 'jwk' });
  const pub = Buffer.from(jwk.x ?? '', 'base64url');
  const seed = Buffer.from(jwk.d ?? '', 'base64url');
  const type = 'ssh-ed25519';
  const check = randomBytes(4);
  let priv = Buffer.concat([check, check, sshString(type), sshString(pub), sshString(Buffer.concat([seed, pub])), sshString('')]);
  const pad = (8 - (priv.length % 8)) % 8;
  priv = Buffer.concat([priv, Buffer.from(Array.from({ length: pad }, (_, i) => i + 1))]);
  const count = Buffer.alloc(4);
  count.writeUInt32BE(1);
  const body = Buffer.concat([
    Buffer.from('openssh-key-v1\0', 'latin1'), sshString('none'), sshString('none'), sshString(''), count,
    sshString(Buffer.concat([sshString(type), sshString(pub)])), sshString(priv),
  ]);
  const lines = body.toString('base64').match(/.{1,70}/g) ?? [];
  return `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\n`;
}

/** The traditional "DSA PRIVATE KEY" (OpenSSL's: version, p, q, g, y, x). */
function traditionalDsa(key: KeyObject): string {
  const [, p, q, g, x] = dsaIntegers(key.export({ format: 'der', type: 'pkcs8' }));
  const y = dsaIntegers(createPublicKey(key).export({ format: 'der', type: 'spki' }))[3]!;
  const seq = der(0x30, Buffer.concat([der(0x02, Buffer.from([0])), ...[p!, q!, g!, y, x!].map((n) => der(0x02, n))]));
  const lines = seq.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN DSA PRIVATE KEY-----\n${lines.join('\n')}\n-----END DSA PRIVATE KEY-----\n`;
}

/**
 * The private host keys in formats an SSH server library reads (OpenSSH's for Ed25519,
 * the traditional PEM forms for the others): the same keys GET /meta publishes.
 */
export function loadHostPrivateKeys(dataDir: string): string[] {
  return KINDS.map((kind) => {
    const key = createPrivateKey(fs.readFileSync(path.join(dataDir, 'keys', kind.file), 'utf8'));
    switch (kind.type) {
      case 'RSA': return key.export({ format: 'pem', type: 'pkcs1' }) as string;
      case 'ECDSA': return key.export({ format: 'pem', type: 'sec1' }) as string;
      case 'ED25519': return opensshEd25519(key);
      case 'DSA': return traditionalDsa(key);
    }
  });
}
