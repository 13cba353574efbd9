// SQL for gpg_keys. Only the verification module calls this.
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { GpgKeysTable } from '../../db/schema.ts';
import type { GpgKey, SigningKeyRecord } from './verification.model.ts';

const COLUMNS = [
  'id', 'user_id', 'primary_key_id', 'name', 'key_id', 'raw_key', 'public_key', 'emails', 'can_sign',
  'can_encrypt_comms', 'can_encrypt_storage', 'can_certify', 'revoked', 'created_at', 'expires_at',
] as const;

type Row = Pick<Selectable<GpgKeysTable>, (typeof COLUMNS)[number]>;

function toKey(r: Row): GpgKey {
  return {
    id: r.id,
    userId: r.user_id,
    primaryKeyId: r.primary_key_id,
    name: r.name,
    keyId: r.key_id,
    rawKey: r.raw_key,
    publicKey: r.public_key,
    emails: JSON.parse(r.emails) as string[],
    canSign: r.can_sign === 1,
    canEncryptComms: r.can_encrypt_comms === 1,
    canEncryptStorage: r.can_encrypt_storage === 1,
    canCertify: r.can_certify === 1,
    revoked: r.revoked === 1,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    subkeys: [],
  };
}

/** A user's primary keys, oldest first. */
export async function listPrimary(db: Executor, userId: number, limit: number, offset: number): Promise<GpgKey[]> {
  const rows = await db.selectFrom('gpg_keys').select(COLUMNS)
    .where('user_id', '=', userId).where('primary_key_id', 'is', null)
    .orderBy('id').limit(limit).offset(offset).execute();
  return rows.map(toKey);
}

export async function countPrimary(db: Executor, userId: number): Promise<number> {
  const row = await db.selectFrom('gpg_keys').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId).where('primary_key_id', 'is', null).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A primary key of the user, or null (also for a subkey's id). */
export async function findPrimary(db: Executor, userId: number, id: number): Promise<GpgKey | null> {
  const row = await db.selectFrom('gpg_keys').select(COLUMNS)
    .where('id', '=', id).where('user_id', '=', userId).where('primary_key_id', 'is', null).executeTakeFirst();
  return row ? toKey(row) : null;
}

/** The subkeys of these primary keys, by primary id, in key order. */
export async function subkeysOf(db: Executor, primaryIds: readonly number[]): Promise<Map<number, GpgKey[]>> {
  const out = new Map<number, GpgKey[]>();
  if (primaryIds.length === 0) return out;
  const rows = await db.selectFrom('gpg_keys').select(COLUMNS)
    .where('primary_key_id', 'in', [...new Set(primaryIds)]).orderBy('id').execute();
  for (const r of rows) {
    const list = out.get(r.primary_key_id!) ?? [];
    list.push(toKey(r));
    out.set(r.primary_key_id!, list);
  }
  return out;
}

/** Which of these key ids are registered already (to anyone). */
export async function existingKeyIds(db: Executor, keyIds: readonly string[]): Promise<string[]> {
  if (keyIds.length === 0) return [];
  const rows = await db.selectFrom('gpg_keys').select('key_id').where('key_id', 'in', [...keyIds]).execute();
  return rows.map((r) => r.key_id);
}

export interface NewKeyPacket {
  keyId: string;
  publicKey: string;
  canSign: boolean;
  canEncryptComms: boolean;
  canEncryptStorage: boolean;
  canCertify: boolean;
  revoked: boolean;
  createdAt: string;
  expiresAt: string | null;
}

export interface NewKey extends NewKeyPacket {
  userId: number;
  name: string | null;
  rawKey: string;
  emails: string[];
  subkeys: NewKeyPacket[];
}

function packetValues(p: NewKeyPacket) {
  return {
    key_id: p.keyId,
    public_key: p.publicKey,
    can_sign: p.canSign ? 1 : 0,
    can_encrypt_comms: p.canEncryptComms ? 1 : 0,
    can_encrypt_storage: p.canEncryptStorage ? 1 : 0,
    can_certify: p.canCertify ? 1 : 0,
    revoked: p.revoked ? 1 : 0,
    created_at: p.createdAt,
    expires_at: p.expiresAt,
  };
}

/** Inserts a primary key and its subkeys; run it in a transaction. */
export async function insert(db: Executor, k: NewKey): Promise<GpgKey> {
  const primary = await db.insertInto('gpg_keys').values({
    ...packetValues(k), user_id: k.userId, primary_key_id: null, name: k.name, raw_key: k.rawKey, emails: JSON.stringify(k.emails),
  }).returning(COLUMNS).executeTakeFirstOrThrow();
  const key = toKey(primary);
  if (k.subkeys.length) {
    const rows = await db.insertInto('gpg_keys').values(k.subkeys.map((s) => ({
      ...packetValues(s), user_id: k.userId, primary_key_id: primary.id, name: null, raw_key: null, emails: '[]',
    }))).returning(COLUMNS).execute();
    key.subkeys = rows.map(toKey).sort((a, b) => a.id - b.id);
  }
  return key;
}

/** Deletes a primary key of the user with its subkeys; false when there was none. */
export async function remove(db: Executor, userId: number, id: number): Promise<boolean> {
  const res = await db.deleteFrom('gpg_keys')
    .where('id', '=', id).where('user_id', '=', userId).where('primary_key_id', 'is', null).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/**
 * The registered key packets with these key ids, each with its primary key's armored
 * text, addresses, expiry and revocation: one query for a signature's issuers.
 */
export async function findSigningKeys(db: Executor, keyIds: readonly string[]): Promise<SigningKeyRecord[]> {
  if (keyIds.length === 0) return [];
  const rows = await db.selectFrom('gpg_keys as k')
    .leftJoin('gpg_keys as p', 'p.id', 'k.primary_key_id')
    .select(COLUMNS.map((c) => `k.${c}` as const))
    .select(['p.raw_key as p_raw_key', 'p.emails as p_emails', 'p.expires_at as p_expires_at', 'p.revoked as p_revoked'])
    .where('k.key_id', 'in', [...new Set(keyIds)])
    .execute();
  return rows.map((r) => {
    const key = toKey(r);
    const isPrimary = key.primaryKeyId === null;
    return {
      key,
      rawKey: (isPrimary ? key.rawKey : r.p_raw_key) ?? '',
      emails: isPrimary ? key.emails : (JSON.parse(r.p_emails ?? '[]') as string[]),
      primaryExpiresAt: isPrimary ? key.expiresAt : r.p_expires_at,
      primaryRevoked: isPrimary ? key.revoked : r.p_revoked === 1,
    };
  });
}
