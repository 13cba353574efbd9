// SSH keys: users' own keys (/user/keys) and repositories' deploy keys (/repos/…/keys),
// validated by their wire format and registered once on the site by fingerprint. The
// key of an SSH connection is found with `findKeyGrant`.
import { inTransaction, type AppContext } from '../../context.ts';
import { requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import type { SshKey } from './keys.model.ts';
import { fingerprintOf, parseSshKey, SshKeyError } from './keys.openssh.ts';
import * as store from './keys.store.ts';

const READ_SCOPES = ['read:public_key'];
const WRITE_SCOPES = ['write:public_key'];
const ADMIN_SCOPES = ['admin:public_key'];
/** Deploy keys are repository administration: upstream asks for `repo`. */
const DEPLOY_SCOPES = ['repo'];

export interface KeyPage {
  keys: SshKey[];
  total: number;
}

export interface NewKeyInput {
  title?: string;
  key: string;
  read_only?: boolean;
}

async function pageOf(ctx: AppContext, h: store.Holder, limit: number, offset: number): Promise<KeyPage> {
  const [keys, total] = await Promise.all([store.list(ctx.db, h, limit, offset), store.count(ctx.db, h)]);
  return { keys, total };
}

/** The key parsed, or the 422 upstream answers for a key it cannot use. */
function parsed(resource: string, text: string) {
  try {
    return parseSshKey(text);
  } catch (err) {
    if (!(err instanceof SshKeyError)) throw err;
    throw new ValidationError([{ resource, field: 'key', code: 'custom', message: `key ${err.message.replace(/^Key /, '')}` }]);
  }
}

async function register(ctx: AppContext, resource: string, holder: store.Holder, input: NewKeyInput, addedById: number | null): Promise<SshKey> {
  const key = parsed(resource, input.key);
  // Upstream names an untitled key by its comment; Wharf by the comment too, else its type.
  const comment = input.key.trim().split(/\s+/).slice(2).join(' ');
  const title = input.title?.trim() || comment || key.type;
  const inUse = new ValidationError([{ resource, field: 'key', code: 'custom', message: 'key is already in use' }]);
  try {
    return await inTransaction(ctx, async (tx) => {
      if (await store.findByFingerprint(tx.db, key.fingerprint)) throw inUse;
      return store.insert(tx.db, {
        holder, title, key: key.key, fingerprint: key.fingerprint, readOnly: 'repositoryId' in holder && input.read_only === true,
        addedById, createdAt: nowIso(ctx.clock),
      });
    });
  } catch (err) {
    // Two registrations of one key at once: the unique fingerprint lets one through.
    if (store.isDuplicate(err)) throw inUse;
    throw err;
  }
}

// ---------------------------------------------------------------- a user's keys

export async function listOwnKeys(ctx: AppContext, actor: Actor, limit: number, offset: number): Promise<KeyPage> {
  const user = requireUser(actor);
  requireScope(actor, ...READ_SCOPES);
  return pageOf(ctx, { userId: user.id }, limit, offset);
}

/** Anyone may list a user's public keys. */
export async function listUserKeys(ctx: AppContext, login: string, limit: number, offset: number): Promise<KeyPage> {
  const account = await users.requireAccount(ctx, login);
  if (account.type !== 'User') return { keys: [], total: 0 };
  return pageOf(ctx, { userId: account.id }, limit, offset);
}

/** Every key of a user (for the plain-text `/{user}.keys`), or null when there is no such user. */
export async function allUserKeys(ctx: AppContext, login: string): Promise<SshKey[] | null> {
  const account = await users.findAccount(ctx, login);
  if (!account || account.type !== 'User') return null;
  return store.list(ctx.db, { userId: account.id }, 10_000, 0);
}

export async function getOwnKey(ctx: AppContext, actor: Actor, id: number): Promise<SshKey> {
  const user = requireUser(actor);
  requireScope(actor, ...READ_SCOPES);
  const key = await store.find(ctx.db, { userId: user.id }, id);
  if (!key) throw new NotFoundError();
  return key;
}

export async function createOwnKey(ctx: AppContext, actor: Actor, input: NewKeyInput): Promise<SshKey> {
  const user = requireUser(actor);
  requireScope(actor, ...WRITE_SCOPES);
  return register(ctx, 'PublicKey', { userId: user.id }, { key: input.key, title: input.title }, null);
}

export async function deleteOwnKey(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  const user = requireUser(actor);
  requireScope(actor, ...ADMIN_SCOPES);
  if (!(await store.remove(ctx.db, { userId: user.id }, id))) throw new NotFoundError();
}

// ---------------------------------------------------------------- deploy keys

/** Deploy keys are managed by the repository's administrators. */
async function adminRepo(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<Repo> {
  requireUser(actor);
  requireScope(actor, ...DEPLOY_SCOPES);
  return (await repos.locate(ctx, actor, owner, name, 'admin')).repo;
}

export interface DeployKeyPage extends KeyPage {
  repo: Repo;
  addedBy: Map<number, Account>;
}

async function addersOf(ctx: AppContext, keys: SshKey[]): Promise<Map<number, Account>> {
  return users.accountsByIds(ctx, keys.flatMap((k) => (k.addedById === null ? [] : [k.addedById])));
}

export async function listDeployKeys(ctx: AppContext, actor: Actor, owner: string, name: string, limit: number, offset: number): Promise<DeployKeyPage> {
  const repo = await adminRepo(ctx, actor, owner, name);
  const page = await pageOf(ctx, { repositoryId: repo.id }, limit, offset);
  return { ...page, repo, addedBy: await addersOf(ctx, page.keys) };
}

export interface OneDeployKey {
  repo: Repo;
  key: SshKey;
  addedBy: Map<number, Account>;
}

export async function getDeployKey(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<OneDeployKey> {
  const repo = await adminRepo(ctx, actor, owner, name);
  const key = await store.find(ctx.db, { repositoryId: repo.id }, id);
  if (!key) throw new NotFoundError();
  return { repo, key, addedBy: await addersOf(ctx, [key]) };
}

export async function createDeployKey(ctx: AppContext, actor: Actor, owner: string, name: string, input: NewKeyInput): Promise<OneDeployKey> {
  const repo = await adminRepo(ctx, actor, owner, name);
  const key = await register(ctx, 'PublicKey', { repositoryId: repo.id }, input, actor.user!.id);
  return { repo, key, addedBy: await addersOf(ctx, [key]) };
}

export async function deleteDeployKey(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<void> {
  const repo = await adminRepo(ctx, actor, owner, name);
  if (!(await store.remove(ctx.db, { repositoryId: repo.id }, id))) throw new NotFoundError();
}

// ---------------------------------------------------------------- SSH access

/** What a presented key grants: a user (acting as themselves) or one repository. */
export type KeyGrant =
  | { kind: 'user'; key: SshKey; userId: number }
  | { kind: 'deploy'; key: SshKey; repositoryId: number; readOnly: boolean };

/** The registered key with this wire-format blob (as an SSH server receives it), or null. */
export async function findKeyGrant(ctx: AppContext, blob: Buffer): Promise<KeyGrant | null> {
  const key = await store.findByFingerprint(ctx.db, fingerprintOf(blob));
  if (!key) return null;
  if (key.userId !== null) return { kind: 'user', key, userId: key.userId };
  if (key.repositoryId !== null) return { kind: 'deploy', key, repositoryId: key.repositoryId, readOnly: key.readOnly };
  return null;
}

/** last_used is refreshed at most this often, to keep a write off most connections (as tokens' last_used_at). */
const TOUCH_INTERVAL_MS = 60 * 60 * 1000;

/** Notes that the key just authenticated a connection (its `last_used`). */
export async function recordKeyUse(ctx: AppContext, key: SshKey): Promise<void> {
  const now = ctx.clock.now().getTime();
  if (key.lastUsed && now - Date.parse(key.lastUsed) < TOUCH_INTERVAL_MS) return;
  await store.touch(ctx.db, key.id, nowIso(ctx.clock));
}
