// GPG keys of users: registration (read with openpgp.js), lists, removal.
import { inTransaction, type AppContext } from '../../context.ts';
import { requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { isoSeconds } from '../../domain/clock.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import * as users from '../users/users.service.ts';
import type { GpgKey } from './verification.model.ts';
import { KeyParseError, parsePublicKey, type ParsedSubkey } from './verification.openpgp.ts';
import * as store from './verification.store.ts';

const READ_SCOPES = ['read:gpg_key'];
const WRITE_SCOPES = ['write:gpg_key'];
const ADMIN_SCOPES = ['admin:gpg_key'];

/** Keys ready to present: with their subkeys, and the owner's verified addresses (lower case). */
export interface KeyList {
  keys: GpgKey[];
  total: number;
  verifiedEmails: Set<string>;
}

async function withSubkeys(ctx: AppContext, keys: GpgKey[]): Promise<GpgKey[]> {
  const subkeys = await store.subkeysOf(ctx.db, keys.map((k) => k.id));
  for (const k of keys) k.subkeys = subkeys.get(k.id) ?? [];
  return keys;
}

async function verifiedEmailsOf(ctx: AppContext, userId: number): Promise<Set<string>> {
  const emails = await users.listEmailAddresses(ctx, userId);
  return new Set(emails.filter((e) => e.verified).map((e) => e.email.toLowerCase()));
}

async function listFor(ctx: AppContext, userId: number, limit: number, offset: number): Promise<KeyList> {
  const [keys, total, verifiedEmails] = await Promise.all([
    store.listPrimary(ctx.db, userId, limit, offset), store.countPrimary(ctx.db, userId), verifiedEmailsOf(ctx, userId),
  ]);
  return { keys: await withSubkeys(ctx, keys), total, verifiedEmails };
}

export async function listOwnKeys(ctx: AppContext, actor: Actor, limit: number, offset: number): Promise<KeyList> {
  const user = requireUser(actor);
  requireScope(actor, ...READ_SCOPES);
  return listFor(ctx, user.id, limit, offset);
}

/** Anyone may list a user's keys (they are public keys). */
export async function listUserKeys(ctx: AppContext, login: string, limit: number, offset: number): Promise<KeyList> {
  const account = await users.requireAccount(ctx, login);
  if (account.type !== 'User') return { keys: [], total: 0, verifiedEmails: new Set() };
  return listFor(ctx, account.id, limit, offset);
}

export interface OneKey {
  key: GpgKey;
  verifiedEmails: Set<string>;
}

export async function getOwnKey(ctx: AppContext, actor: Actor, id: number): Promise<OneKey> {
  const user = requireUser(actor);
  requireScope(actor, ...READ_SCOPES);
  const key = await store.findPrimary(ctx.db, user.id, id);
  if (!key) throw new NotFoundError();
  const [withSubs] = await withSubkeys(ctx, [key]);
  return { key: withSubs!, verifiedEmails: await verifiedEmailsOf(ctx, user.id) };
}

function time(d: Date): string {
  return isoSeconds(d);
}

function packetOf(p: ParsedSubkey): store.NewKeyPacket {
  return {
    keyId: p.keyId, publicKey: p.publicKey, canSign: p.canSign, canEncryptComms: p.canEncryptComms,
    canEncryptStorage: p.canEncryptStorage, canCertify: p.canCertify, revoked: p.revoked,
    createdAt: time(p.createdAt), expiresAt: p.expiresAt ? time(p.expiresAt) : null,
  };
}

export interface NewGpgKey {
  armored_public_key: string;
  name?: string | null;
}

/** Registers a public key; a key (or subkey) registered already, by anyone, is refused. */
export async function createKey(ctx: AppContext, actor: Actor, input: NewGpgKey): Promise<OneKey> {
  const user = requireUser(actor);
  requireScope(actor, ...WRITE_SCOPES);
  let parsed;
  try {
    parsed = await parsePublicKey(input.armored_public_key);
  } catch (err) {
    if (!(err instanceof KeyParseError)) throw err;
    throw new ValidationError([{ resource: 'GpgKey', field: 'armored_public_key', code: 'custom', message: err.message }]);
  }
  const keyIds = [parsed.keyId, ...parsed.subkeys.map((s) => s.keyId)];
  if (new Set(keyIds).size !== keyIds.length) {
    throw new ValidationError([{ resource: 'GpgKey', field: 'armored_public_key', code: 'custom', message: 'The key has two key packets with the same key id.' }]);
  }
  const key = await inTransaction(ctx, async (tx) => {
    if ((await store.existingKeyIds(tx.db, keyIds)).length) {
      throw new ValidationError([{ resource: 'GpgKey', field: 'key_id', code: 'custom', message: 'key_id already exists' }]);
    }
    return store.insert(tx.db, {
      ...packetOf(parsed), userId: user.id, name: input.name ?? null, rawKey: input.armored_public_key,
      emails: parsed.emails, subkeys: parsed.subkeys.map(packetOf),
    });
  });
  return { key, verifiedEmails: await verifiedEmailsOf(ctx, user.id) };
}

export async function deleteKey(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  const user = requireUser(actor);
  requireScope(actor, ...ADMIN_SCOPES);
  if (!(await store.remove(ctx.db, user.id, id))) throw new NotFoundError();
}
