// The OpenPGP work of the verification area, on openpgp.js: reading uploaded public keys,
// reading detached signatures, and the cryptographic check of a signature by one key.
// openpgp is loaded on first use (it is large, and most processes never verify a
// signature); should it fail to load, verification reports gpgverify_unavailable.
import type * as OpenPGP from 'openpgp';

type Openpgp = typeof OpenPGP;

/** The OpenPGP implementation could not be loaded: verification cannot run at all. */
export class OpenpgpUnavailableError extends Error {}

/** An uploaded key that cannot be registered; the message says why, for the 422. */
export class KeyParseError extends Error {}

/** An armored PGP signature that does not parse. */
export class MalformedSignatureError extends Error {}

let loading: Promise<Openpgp> | null = null;

export function loadOpenpgp(): Promise<Openpgp> {
  loading ??= import('openpgp').catch((err: unknown) => {
    loading = null;
    throw new OpenpgpUnavailableError(`openpgp could not be loaded: ${String(err)}`);
  });
  return loading;
}

export interface KeyUsage {
  canSign: boolean;
  canEncryptComms: boolean;
  canEncryptStorage: boolean;
  canCertify: boolean;
}

export interface ParsedSubkey extends KeyUsage {
  keyId: string;
  /** Base64 of the key packet with its header, as upstream's public_key. */
  publicKey: string;
  createdAt: Date;
  expiresAt: Date | null;
  revoked: boolean;
}

export interface ParsedKey extends ParsedSubkey {
  /** Addresses of the user ids that carry a valid self-certification. */
  emails: string[];
  subkeys: ParsedSubkey[];
}

// Key flags (RFC 4880 5.2.3.21).
const FLAG_CERTIFY = 0x01;
const FLAG_SIGN = 0x02;
const FLAG_ENCRYPT_COMMS = 0x04;
const FLAG_ENCRYPT_STORAGE = 0x08;

type KeyPacket = OpenPGP.PublicKeyPacket | OpenPGP.PublicSubkeyPacket | OpenPGP.SecretKeyPacket | OpenPGP.SecretSubkeyPacket;

/**
 * What a key may be used for, from the flags of its self-signature (or binding
 * signature); a signature without flags leaves it to the algorithm, as GnuPG does.
 */
function usageOf(pgp: Openpgp, packet: KeyPacket, flags: Uint8Array | null, isPrimary: boolean): KeyUsage {
  if (flags && flags.length > 0) {
    const f = flags[0]!;
    return {
      canSign: (f & FLAG_SIGN) !== 0, canEncryptComms: (f & FLAG_ENCRYPT_COMMS) !== 0,
      canEncryptStorage: (f & FLAG_ENCRYPT_STORAGE) !== 0, canCertify: (f & FLAG_CERTIFY) !== 0,
    };
  }
  const a = pgp.enums.publicKey;
  const signs = ([a.rsaEncryptSign, a.rsaSign, a.dsa, a.ecdsa, a.eddsaLegacy, a.ed25519, a.ed448] as number[]).includes(packet.algorithm);
  const encrypts = ([a.rsaEncryptSign, a.rsaEncrypt, a.elgamal, a.ecdh, a.x25519, a.x448] as number[]).includes(packet.algorithm);
  return { canSign: signs, canEncryptComms: encrypts, canEncryptStorage: encrypts, canCertify: signs && isPrimary };
}

function packetBase64(pgp: Openpgp, packet: KeyPacket): string {
  const list = new pgp.PacketList<KeyPacket>();
  list.push(packet);
  return Buffer.from(list.write()).toString('base64');
}

function expiry(value: Date | number | null): Date | null {
  return value instanceof Date ? value : null;
}

// Members openpgp has but does not declare.
interface KeyInternals {
  getPrimarySelfSignature(date: Date | null): Promise<OpenPGP.SignaturePacket>;
}
interface UserInternals {
  verify(date: Date | null): Promise<true>;
}

/** Reads an armored public key for registration; KeyParseError says what is wrong with it. */
export async function parsePublicKey(armored: string): Promise<ParsedKey> {
  const pgp = await loadOpenpgp();
  let key: OpenPGP.Key;
  try {
    key = await pgp.readKey({ armoredKey: armored });
  } catch {
    throw new KeyParseError('We got an error doing that. The key is not a valid ASCII-armored OpenPGP public key.');
  }
  if (key.isPrivate()) throw new KeyParseError('The key is a private key; upload the public key only.');
  // Dates are not checked here (null): an expired key is still registered, and says so.
  let selfSignature: OpenPGP.SignaturePacket;
  try {
    selfSignature = await (key as unknown as KeyInternals).getPrimarySelfSignature(null);
  } catch {
    throw new KeyParseError('The key has no valid self-signature.');
  }
  const emails: string[] = [];
  for (const user of key.users) {
    const email = user.userID?.email;
    if (!email) continue;
    try {
      await (user as unknown as UserInternals).verify(null);
    } catch {
      continue;
    }
    if (!emails.some((e) => e.toLowerCase() === email.toLowerCase())) emails.push(email);
  }
  const subkeys: ParsedSubkey[] = [];
  for (const subkey of key.subkeys) {
    let binding: OpenPGP.SignaturePacket;
    try {
      binding = await subkey.verify(null as unknown as Date);
    } catch {
      continue; // a subkey without a valid binding signature is not part of the key
    }
    const usage = usageOf(pgp, subkey.keyPacket, binding.keyFlags, false);
    if (usage.canSign && !(await hasValidBackSignature(pgp, key, subkey, binding))) usage.canSign = false;
    subkeys.push({
      keyId: subkey.getKeyID().toHex().toUpperCase(),
      publicKey: packetBase64(pgp, subkey.keyPacket),
      createdAt: subkey.getCreationTime(),
      expiresAt: expiry(await subkey.getExpirationTime(null as unknown as Date)),
      revoked: await subkey.isRevoked(binding, null as unknown as OpenPGP.AnyKeyPacket).catch(() => false),
      ...usage,
    });
  }
  return {
    keyId: key.getKeyID().toHex().toUpperCase(),
    publicKey: packetBase64(pgp, key.keyPacket),
    createdAt: key.getCreationTime(),
    expiresAt: expiry(await key.getExpirationTime()),
    revoked: await key.isRevoked().catch(() => false),
    emails,
    subkeys,
    ...usageOf(pgp, key.keyPacket, selfSignature.keyFlags, true),
  };
}

/**
 * A signing subkey must certify its primary in turn (the embedded "back" signature),
 * or anyone could bind another person's signing key to theirs.
 */
async function hasValidBackSignature(pgp: Openpgp, key: OpenPGP.Key, subkey: OpenPGP.Subkey, binding: OpenPGP.SignaturePacket): Promise<boolean> {
  const back = binding.embeddedSignature;
  if (!back) return false;
  try {
    await back.verify(subkey.keyPacket, pgp.enums.signature.keyBinding, { key: key.keyPacket, bind: subkey.keyPacket }, null as unknown as Date);
    return true;
  } catch {
    return false;
  }
}

export interface DetachedSignature {
  /** Issuer key ids of each signature packet, 16 upper-case hex digits. */
  issuers: { packet: OpenPGP.SignaturePacket; keyId: string; created: Date | null }[];
}

/** Reads an armored detached signature; MalformedSignatureError when it does not parse. */
export async function readDetachedSignature(armored: string): Promise<DetachedSignature> {
  const pgp = await loadOpenpgp();
  let signature: OpenPGP.Signature;
  try {
    signature = await pgp.readSignature({ armoredSignature: armored });
  } catch (err) {
    throw new MalformedSignatureError(String(err));
  }
  const issuers = signature.packets.map((packet) => ({ packet, keyId: issuerKeyId(packet), created: packet.created }))
    .filter((i): i is typeof i & { keyId: string } => i.keyId !== null);
  if (issuers.length === 0) throw new MalformedSignatureError('no signature packet names its issuer');
  return { issuers };
}

function issuerKeyId(packet: OpenPGP.SignaturePacket): string | null {
  const hex = packet.issuerKeyID?.toHex();
  if (hex && !/^0+$/.test(hex)) return hex.toUpperCase();
  // A wildcard issuer: the fingerprint names the key (the key id is its last 8 bytes
  // for v4 keys, its first 8 for v5 and v6).
  const fp = packet.issuerFingerprint;
  if (!fp || fp.length < 8) return null;
  const bytes = packet.issuerKeyVersion === 4 ? fp.subarray(fp.length - 8) : fp.subarray(0, 8);
  return Buffer.from(bytes).toString('hex').toUpperCase();
}

// Parsed registered keys by their armored text (immutable once stored), so a list of
// commits signed with the same key parses it once.
const keyCache = new Map<string, Promise<OpenPGP.Key>>();
const KEY_CACHE_SIZE = 200;

function readRegisteredKey(pgp: Openpgp, armored: string): Promise<OpenPGP.Key> {
  let key = keyCache.get(armored);
  if (!key) {
    key = pgp.readKey({ armoredKey: armored });
    key.catch(() => keyCache.delete(armored));
    if (keyCache.size >= KEY_CACHE_SIZE) keyCache.delete(keyCache.keys().next().value!);
    keyCache.set(armored, key);
  }
  return key;
}

/**
 * The cryptographic check alone: did the key packet `keyId` of the registered key make
 * this signature over `payload`? Key validity (expiry, usage) is judged by the caller;
 * dates are therefore not checked here. Throws when the registered key cannot be read
 * (not the signature's fault).
 */
export async function signatureMatches(packet: OpenPGP.SignaturePacket, armoredKey: string, keyId: string, payload: Buffer): Promise<boolean> {
  const pgp = await loadOpenpgp();
  const key = await readRegisteredKey(pgp, armoredKey);
  const signer = [key, ...key.subkeys].find((k) => k.getKeyID().toHex().toUpperCase() === keyId);
  if (!signer) throw new Error(`key ${keyId} is not part of the registered key ${key.getKeyID().toHex()}`);
  const type = packet.signatureType;
  if (type !== pgp.enums.signature.binary && type !== pgp.enums.signature.text) return false;
  const message = await pgp.createMessage({ binary: new Uint8Array(payload) });
  const literal = message.packets[0];
  try {
    await packet.verify(signer.keyPacket, type, literal as object, null as unknown as Date, true);
    return true;
  } catch {
    // Digest mismatch, failed verification, algorithm mismatch, a rejected hash
    // algorithm, an unknown critical subpacket: all mean this signature does not hold.
    return false;
  }
}
