// Secrets at rest: what Wharf must be able to read back (webhook secrets; later private
// keys, import credentials) is stored sealed with AES-256-GCM under the server's secret
// key. Pure crypto: the key is loaded once at start (src/secret-key.ts) and handed to
// the services as ctx.secrets. (Secrets Wharf only compares, such as tokens and OAuth
// client secrets, are hashed instead and never need this.)
//
// Stored form: "enc:v1:" + base64(iv ‖ tag ‖ ciphertext), a random 96-bit IV per value.
// The purpose ("hooks.config_secret" …) is authenticated data: a sealed value copied into
// another column does not open there.
import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** What every sealed value starts with (a stored value without it predates sealing). */
export const SEALED_PREFIX = 'enc:v1:';
const PREFIX = SEALED_PREFIX;
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A key that is not 32 bytes, or a sealed value that does not open under the key. */
export class SecretKeyError extends Error {
  override name = 'SecretKeyError';
}

/** 32 bytes from base64 (standard or URL alphabet) or hex text; SecretKeyError otherwise. */
export function parseSecretKey(text: string, source: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(t) ? Buffer.from(t, 'hex')
    : /^[A-Za-z0-9+/_-]+={0,2}$/.test(t) ? Buffer.from(t, 'base64') : null;
  if (!key || key.length !== KEY_BYTES) {
    throw new SecretKeyError(`${source} must be 32 bytes written as base64 or hex (e.g. the output of "openssl rand -base64 32")`);
  }
  return key;
}

export function newSecretKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

/** True when `stored` is in the sealed form (anything else is a value written before sealing). */
export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== KEY_BYTES) throw new SecretKeyError(`a secret key is ${KEY_BYTES} bytes, got ${key.length}`);
    this.key = Buffer.from(key);
  }

  seal(plaintext: string, purpose: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(purpose));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  /** The plaintext of a sealed value; SecretKeyError when it was sealed under another key (or altered). */
  open(stored: string, purpose: string): string {
    if (!isSealed(stored)) throw new SecretKeyError('not a sealed value');
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new SecretKeyError('sealed value is truncated');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(purpose));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretKeyError(`a stored secret (${purpose}) does not open with this secret key`);
    }
  }

  /**
   * A signature of `text` under the server's key, for credentials Wharf hands out and
   * checks itself without storing them (signed download addresses). `purpose` keeps a
   * signature made for one use from being accepted by another.
   */
  sign(text: string, purpose: string): string {
    return createHmac('sha256', this.key).update(`${purpose}\n${text}`).digest('base64url');
  }

  /** Whether `signature` is sign(text, purpose), compared in constant time. */
  verify(text: string, purpose: string, signature: string): boolean {
    const mine = Buffer.from(this.sign(text, purpose));
    const theirs = Buffer.from(signature);
    return mine.length === theirs.length && timingSafeEqual(mine, theirs);
  }

  /**
   * A value that names the key without revealing it (HMAC of a fixed text), stored with
   * the data so that a start with another key is refused before anything is sealed.
   */
  keyCheck(): string {
    return createHmac('sha256', this.key).update('wharf secret key check v1').digest('base64');
  }

  matches(check: string): boolean {
    const mine = Buffer.from(this.keyCheck());
    const theirs = Buffer.from(check);
    return mine.length === theirs.length && timingSafeEqual(mine, theirs);
  }
}
