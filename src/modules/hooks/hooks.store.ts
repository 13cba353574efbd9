// SQL for webhooks. Only the hooks module calls this. The secret is written here sealed
// (hooks.secrets.ts) and read back only for delivery: every other read goes through
// HOOK_COLUMNS, which leaves it out.
import { skipLocked } from '../../db/claims.ts';
import type { Dialect, Executor } from '../../db/database.ts';
import type { HooksTable } from '../../db/schema.ts';
import type { Slice } from '../../domain/page.ts';
import type { ContentType, Hook, HookScope } from './hooks.model.ts';

const HOOK_COLUMNS = [
  'id', 'scope', 'target_id', 'name', 'active', 'events', 'config_url', 'config_content_type', 'config_insecure_ssl',
  'last_response_code', 'last_response_status', 'last_response_message', 'created_at', 'updated_at',
] as const;

export interface Target {
  scope: HookScope;
  targetId: number;
}

type Row = Pick<HooksTable, Exclude<(typeof HOOK_COLUMNS)[number], 'id'>> & { id: number; has_secret: number | string | boolean };

function toHook(r: Row): Hook {
  return {
    id: r.id,
    scope: r.scope,
    targetId: r.target_id,
    name: r.name,
    active: Number(r.active) === 1,
    events: JSON.parse(r.events) as string[],
    config: {
      url: r.config_url,
      contentType: r.config_content_type,
      insecureSsl: r.config_insecure_ssl,
      hasSecret: Number(r.has_secret) === 1,
    },
    lastResponse: { code: r.last_response_code, status: r.last_response_status, message: r.last_response_message },
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function selectHooks(db: Executor) {
  return db.selectFrom('hooks').select(HOOK_COLUMNS)
    .select((eb) => eb.case().when('config_secret', 'is not', null).then(1).else(0).end().as('has_secret'));
}

export interface HookValues {
  name: string;
  active: boolean;
  events: string[];
  url: string;
  contentType: ContentType;
  insecureSsl: '0' | '1';
  /** The sealed secret: undefined keeps the stored one; null removes it. */
  secret?: string | null;
}

export async function findById(db: Executor, t: Target, id: number): Promise<Hook | null> {
  const row = await selectHooks(db).where('scope', '=', t.scope).where('target_id', '=', t.targetId).where('id', '=', id).executeTakeFirst();
  return row ? toHook(row as Row) : null;
}

export async function list(db: Executor, t: Target, slice: Slice): Promise<Hook[]> {
  const rows = await selectHooks(db).where('scope', '=', t.scope).where('target_id', '=', t.targetId)
    .orderBy('id').limit(slice.perPage).offset(slice.offset).execute();
  return rows.map((r) => toHook(r as Row));
}

export async function count(db: Executor, t: Target): Promise<number> {
  const row = await db.selectFrom('hooks').select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('scope', '=', t.scope).where('target_id', '=', t.targetId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The target's hooks that deliver to `url` (to refuse duplicates). */
export async function findByUrl(db: Executor, t: Target, url: string): Promise<Hook[]> {
  const rows = await selectHooks(db).where('scope', '=', t.scope).where('target_id', '=', t.targetId)
    .where('config_url', '=', url).execute();
  return rows.map((r) => toHook(r as Row));
}

export async function insert(db: Executor, t: Target, v: HookValues, now: string): Promise<number> {
  const row = await db.insertInto('hooks').values({
    scope: t.scope,
    target_id: t.targetId,
    name: v.name,
    active: v.active ? 1 : 0,
    events: JSON.stringify(v.events),
    config_url: v.url,
    config_content_type: v.contentType,
    config_secret: v.secret ?? null,
    config_insecure_ssl: v.insecureSsl,
    last_response_code: null,
    last_response_status: 'unused',
    last_response_message: null,
    created_at: now,
    updated_at: now,
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function update(db: Executor, id: number, v: HookValues, now: string): Promise<void> {
  await db.updateTable('hooks').set({
    active: v.active ? 1 : 0,
    events: JSON.stringify(v.events),
    config_url: v.url,
    config_content_type: v.contentType,
    config_insecure_ssl: v.insecureSsl,
    ...(v.secret !== undefined ? { config_secret: v.secret } : {}),
    updated_at: now,
  }).where('id', '=', id).execute();
}

export async function remove(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('hooks').where('id', '=', id).execute();
}

// ---------------------------------------------------------------- delivery side

/** Active hooks of these repositories and organizations; the caller matches events. */
export async function findActiveFor(db: Executor, repositoryIds: readonly number[], organizationIds: readonly number[]): Promise<Hook[]> {
  if (repositoryIds.length === 0 && organizationIds.length === 0) return [];
  const rows = await selectHooks(db).where('active', '=', 1).where((eb) => eb.or([
    ...(repositoryIds.length ? [eb.and([eb('scope', '=', 'repository'), eb('target_id', 'in', repositoryIds)])] : []),
    ...(organizationIds.length ? [eb.and([eb('scope', '=', 'organization'), eb('target_id', 'in', organizationIds)])] : []),
  ])).orderBy('id').execute();
  return rows.map((r) => toHook(r as Row));
}

/** The app hooks of these apps that are active; the caller matches events and installations. */
export async function findActiveAppHooks(db: Executor, appIds: readonly number[]): Promise<Hook[]> {
  if (appIds.length === 0) return [];
  const rows = await selectHooks(db).where('active', '=', 1).where('scope', '=', 'app').where('target_id', 'in', [...appIds]).orderBy('id').execute();
  return rows.map((r) => toHook(r as Row));
}

/** Hooks by id, whatever they are set on (ping and test events name theirs). */
export async function findByIds(db: Executor, ids: readonly number[]): Promise<Hook[]> {
  if (ids.length === 0) return [];
  const rows = await selectHooks(db).where('id', 'in', ids).execute();
  return rows.map((r) => toHook(r as Row));
}

/**
 * Locks these hooks for the transaction (PostgreSQL; skipping those another transaction
 * holds: a worker claiming their deliveries, an outcome being recorded, a deletion), so
 * two processes never claim one hook's deliveries at once. Returns the ids locked (on
 * SQLite, the one writer: those that exist).
 */
export async function lockHooks(db: Executor, dialect: Dialect, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await skipLocked(db.selectFrom('hooks').select('id').where('id', 'in', ids), dialect).execute();
  return new Set(rows.map((r) => r.id));
}

/** What sending a delivery needs, secret included (as stored): the only read of the secret. */
export interface StoredTarget {
  id: number;
  scope: HookScope;
  targetId: number;
  active: boolean;
  url: string;
  contentType: ContentType;
  insecureSsl: boolean;
  storedSecret: string | null;
}

export async function deliveryTargets(db: Executor, ids: readonly number[]): Promise<Map<number, StoredTarget>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('hooks')
    .select(['id', 'scope', 'target_id', 'active', 'config_url', 'config_content_type', 'config_insecure_ssl', 'config_secret'])
    .where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, {
    id: r.id, scope: r.scope, targetId: r.target_id, active: Number(r.active) === 1, url: r.config_url,
    contentType: r.config_content_type, insecureSsl: r.config_insecure_ssl === '1', storedSecret: r.config_secret,
  }]));
}

/** Secrets stored before sealing (without the sealed prefix). */
export async function unsealedSecrets(db: Executor, sealedPrefix: string): Promise<{ id: number; secret: string }[]> {
  const rows = await db.selectFrom('hooks').select(['id', 'config_secret']).where('config_secret', 'is not', null)
    .where('config_secret', 'not like', `${sealedPrefix}%`).execute();
  return rows.map((r) => ({ id: r.id, secret: r.config_secret! }));
}

/** Replaces a stored secret, unless it changed meanwhile (another process sealed it, or a PATCH). */
export async function replaceSecret(db: Executor, id: number, old: string, sealed: string): Promise<void> {
  await db.updateTable('hooks').set({ config_secret: sealed }).where('id', '=', id).where('config_secret', '=', old).execute();
}

/** Several hooks' last_response in one statement. */
export async function setLastResponses(db: Executor, responses: ReadonlyMap<number, Hook['lastResponse']>): Promise<void> {
  if (responses.size === 0) return;
  const entries = [...responses];
  const [[firstId, first], ...rest] = entries;
  await db.updateTable('hooks').set((eb) => {
    let code = eb.case().when('id', '=', firstId!).then(first!.code);
    let status = eb.case().when('id', '=', firstId!).then(first!.status);
    let message = eb.case().when('id', '=', firstId!).then(first!.message);
    for (const [id, r] of rest) {
      code = code.when('id', '=', id).then(r.code);
      status = status.when('id', '=', id).then(r.status);
      message = message.when('id', '=', id).then(r.message);
    }
    return {
      last_response_code: code.else(eb.ref('last_response_code')).end(),
      last_response_status: status.else(eb.ref('last_response_status')).end(),
      last_response_message: message.else(eb.ref('last_response_message')).end(),
    };
  }).where('id', 'in', entries.map(([id]) => id)).execute();
}

/** Every hook of a repository or organization (when it is deleted); deliveries cascade. */
export async function removeAllOf(db: Executor, t: Target): Promise<void> {
  await db.deleteFrom('hooks').where('scope', '=', t.scope).where('target_id', '=', t.targetId).execute();
}
