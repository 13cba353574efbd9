// SQL for runners, their labels and registration tokens. Only the runners module calls
// this (groups: runner-groups.store.ts).
import type { Executor } from '../../db/database.ts';
import type { Slice } from '../../domain/page.ts';
import './runners.tables.ts';

export { isDuplicate } from './runner-groups.store.ts';
import type { LabelType, Runner, RunnerLabel, RunnerOs, RunnerScope, RunnerToken, RunnerTokenKind } from './runners.model.ts';

const RUNNER_COLUMNS = [
  'id', 'organization_id', 'repository_id', 'group_id', 'name', 'os', 'version', 'ephemeral', 'busy', 'last_seen_at', 'created_at',
] as const;

interface RunnerRow {
  id: number; organization_id: number | null; repository_id: number | null; group_id: number | null; name: string; os: string;
  version: string | null; ephemeral: number; busy: number; last_seen_at: string | null; created_at: string;
}

function toRunner(r: RunnerRow): Runner {
  return {
    id: r.id,
    organizationId: r.organization_id,
    repositoryId: r.repository_id,
    groupId: r.group_id,
    name: r.name,
    os: r.os as RunnerOs,
    version: r.version,
    ephemeral: Number(r.ephemeral) === 1,
    busy: Number(r.busy) === 1,
    lastSeenAt: r.last_seen_at,
    createdAt: r.created_at,
  };
}

// ---------------------------------------------------------------- runners

export interface NewRunner {
  scope: RunnerScope;
  groupId: number | null;
  name: string;
  os: RunnerOs;
  version: string | null;
  ephemeral: boolean;
  credentialHash: string;
}

export async function insertRunner(db: Executor, v: NewRunner, now: string): Promise<Runner> {
  const row = await db.insertInto('runners').values({
    organization_id: v.scope.kind === 'org' ? v.scope.organizationId : null,
    repository_id: v.scope.kind === 'repo' ? v.scope.repositoryId : null,
    group_id: v.groupId,
    name: v.name,
    os: v.os,
    version: v.version,
    ephemeral: v.ephemeral ? 1 : 0,
    busy: 0,
    credential_hash: v.credentialHash,
    // Registering is the runner's first sign of life.
    last_seen_at: now,
    created_at: now,
  }).returning(RUNNER_COLUMNS).executeTakeFirstOrThrow();
  return toRunner(row);
}

function inScope(db: Executor, scope: RunnerScope) {
  const q = db.selectFrom('runners');
  return scope.kind === 'org' ? q.where('organization_id', '=', scope.organizationId) : q.where('repository_id', '=', scope.repositoryId);
}

export async function findRunner(db: Executor, scope: RunnerScope, id: number): Promise<Runner | null> {
  const row = await inScope(db, scope).select(RUNNER_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toRunner(row) : null;
}

export async function findRunnerByName(db: Executor, scope: RunnerScope, name: string): Promise<Runner | null> {
  const row = await inScope(db, scope).select(RUNNER_COLUMNS).where('name', '=', name).executeTakeFirst();
  return row ? toRunner(row) : null;
}

export async function findRunnerByCredential(db: Executor, hash: string): Promise<Runner | null> {
  const row = await db.selectFrom('runners').select(RUNNER_COLUMNS).where('credential_hash', '=', hash).executeTakeFirst();
  return row ? toRunner(row) : null;
}

export interface RunnerFilter {
  name?: string;
  groupId?: number;
}

function filteredRunners(db: Executor, scope: RunnerScope, f: RunnerFilter) {
  let q = inScope(db, scope);
  if (f.name !== undefined) q = q.where('name', '=', f.name);
  if (f.groupId !== undefined) q = q.where('group_id', '=', f.groupId);
  return q;
}

export async function listRunners(db: Executor, scope: RunnerScope, f: RunnerFilter, slice: Slice): Promise<Runner[]> {
  const rows = await filteredRunners(db, scope, f).select(RUNNER_COLUMNS).orderBy('id').limit(slice.perPage).offset(slice.offset).execute();
  return rows.map(toRunner);
}

export async function countRunners(db: Executor, scope: RunnerScope, f: RunnerFilter): Promise<number> {
  const row = await filteredRunners(db, scope, f).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function runnerIdsOf(db: Executor, organizationId: number, ids: readonly number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('runners').select('id').where('organization_id', '=', organizationId).where('id', 'in', [...new Set(ids)]).execute();
  return rows.map((r) => r.id);
}

export async function moveRunners(db: Executor, ids: readonly number[], groupId: number): Promise<void> {
  if (!ids.length) return;
  await db.updateTable('runners').set({ group_id: groupId }).where('id', 'in', [...ids]).execute();
}

/** Moves every runner of group `from` to group `to`. */
export async function moveGroupRunners(db: Executor, from: number, to: number): Promise<void> {
  await db.updateTable('runners').set({ group_id: to }).where('group_id', '=', from).execute();
}

export async function deleteRunner(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('runners').where('id', '=', id).execute();
}

export async function touchRunner(db: Executor, id: number, now: string, busy: boolean | undefined): Promise<Runner> {
  const row = await db.updateTable('runners').set({ last_seen_at: now, ...(busy === undefined ? {} : { busy: busy ? 1 : 0 }) })
    .where('id', '=', id).returning(RUNNER_COLUMNS).executeTakeFirstOrThrow();
  return toRunner(row);
}

// ---------------------------------------------------------------- labels

export async function labelsOf(db: Executor, runnerIds: readonly number[]): Promise<Map<number, RunnerLabel[]>> {
  const out = new Map<number, RunnerLabel[]>(runnerIds.map((id) => [id, []]));
  if (!runnerIds.length) return out;
  const rows = await db.selectFrom('runner_labels').select(['id', 'runner_id', 'name', 'type'])
    .where('runner_id', 'in', [...new Set(runnerIds)]).orderBy('id').execute();
  for (const r of rows) out.get(r.runner_id)?.push({ id: r.id, runnerId: r.runner_id, name: r.name, type: r.type as LabelType });
  return out;
}

export async function insertLabels(db: Executor, runnerId: number, names: readonly string[], type: LabelType): Promise<void> {
  if (!names.length) return;
  await db.insertInto('runner_labels').values(names.map((name) => ({ runner_id: runnerId, name, name_key: name.toLowerCase(), type })))
    .onConflict((oc) => oc.columns(['runner_id', 'name_key']).doNothing()).execute();
}

export async function deleteCustomLabels(db: Executor, runnerId: number, name?: string): Promise<void> {
  let q = db.deleteFrom('runner_labels').where('runner_id', '=', runnerId).where('type', '=', 'custom');
  if (name !== undefined) q = q.where('name_key', '=', name.toLowerCase());
  await q.execute();
}

// ---------------------------------------------------------------- tokens

export async function insertToken(db: Executor, hash: string, kind: RunnerTokenKind, scope: RunnerScope, expiresAt: string, now: string): Promise<void> {
  await db.insertInto('runner_tokens').values({
    token_hash: hash, kind,
    organization_id: scope.kind === 'org' ? scope.organizationId : null,
    repository_id: scope.kind === 'repo' ? scope.repositoryId : null,
    expires_at: expiresAt, created_at: now,
  }).execute();
}

export async function findToken(db: Executor, hash: string, kind: RunnerTokenKind): Promise<RunnerToken | null> {
  const row = await db.selectFrom('runner_tokens').select(['id', 'kind', 'organization_id', 'repository_id', 'expires_at'])
    .where('token_hash', '=', hash).where('kind', '=', kind).executeTakeFirst();
  return row ? { id: row.id, kind, organizationId: row.organization_id, repositoryId: row.repository_id, expiresAt: row.expires_at } : null;
}

/** Drops expired tokens (kept tidy whenever a new one is made). */
export async function deleteExpiredTokens(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('runner_tokens').where('expires_at', '<=', now).execute();
}
