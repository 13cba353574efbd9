// The search index's queue and bookkeeping (search_index_state): a row per
// repository, pending while events have queued it, claimed by an index worker while
// it runs, with the branch and commit the index holds. Only the search module calls this.
import type { Dialect, Executor } from '../../db/database.ts';
import { skipLocked } from '../../db/claims.ts';

export interface IndexState {
  repositoryId: number;
  indexedBranch: string | null;
  indexedCommit: string | null;
  pending: boolean;
  indexedAt: string | null;
}

/** Queues the repository for the indexer (again, if it is being indexed now). */
export async function markPending(db: Executor, repositoryId: number): Promise<void> {
  await db.insertInto('search_index_state')
    .values({ repository_id: repositoryId, indexed_branch: null, indexed_commit: null, pending: 1, claimed_until: null, indexed_at: null })
    .onConflict((oc) => oc.column('repository_id').doUpdateSet({ pending: 1 }))
    .execute();
}

/**
 * Takes up to `limit` queued repositories nobody holds, for `leaseMs`: their pending
 * flag is cleared, so an event arriving meanwhile queues them again. Run in a
 * transaction; on PostgreSQL rows another worker is taking are skipped.
 */
export async function claimPending(db: Executor, dialect: Dialect, nowMs: number, leaseMs: number, limit: number): Promise<number[]> {
  const q = db.selectFrom('search_index_state').select('repository_id')
    .where('pending', '=', 1)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', nowMs)]))
    .orderBy('repository_id').limit(limit);
  const ids = (await skipLocked(q, dialect).execute()).map((r) => Number(r.repository_id));
  if (ids.length) {
    await db.updateTable('search_index_state').set({ pending: 0, claimed_until: nowMs + leaseMs }).where('repository_id', 'in', ids).execute();
  }
  return ids;
}

export async function stateOf(db: Executor, repositoryId: number): Promise<IndexState | null> {
  const r = await db.selectFrom('search_index_state').selectAll().where('repository_id', '=', repositoryId).executeTakeFirst();
  return r ? {
    repositoryId: Number(r.repository_id), indexedBranch: r.indexed_branch, indexedCommit: r.indexed_commit,
    pending: Number(r.pending) === 1, indexedAt: r.indexed_at,
  } : null;
}

/** The indexer finished a repository: what the index now holds; the claim is given back. */
export async function recordIndexed(db: Executor, repositoryId: number, branch: string | null, commit: string | null, at: string): Promise<void> {
  await db.updateTable('search_index_state')
    .set({ indexed_branch: branch, indexed_commit: commit, claimed_until: null, indexed_at: at })
    .where('repository_id', '=', repositoryId).execute();
}

/** Indexing failed: queued again, not before `retryAtMs`. */
export async function retryLater(db: Executor, repositoryId: number, retryAtMs: number): Promise<void> {
  await db.updateTable('search_index_state').set({ pending: 1, claimed_until: retryAtMs }).where('repository_id', '=', repositoryId).execute();
}

/** How many repositories wait for the indexer and may be taken now (not held, nor waiting for a retry). */
export async function countOutstanding(db: Executor, nowMs: number): Promise<number> {
  const r = await db.selectFrom('search_index_state').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('pending', '=', 1)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', nowMs)])).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The commit each indexed repository's index holds (null: not indexed yet). */
export async function indexedCommits(db: Executor, repositoryIds: readonly number[]): Promise<Map<number, string | null>> {
  if (!repositoryIds.length) return new Map();
  const rows = await db.selectFrom('search_index_state').select(['repository_id', 'indexed_commit'])
    .where('repository_id', 'in', [...repositoryIds]).execute();
  return new Map(rows.map((r) => [Number(r.repository_id), r.indexed_commit]));
}

/** Every repository the index knows (searches without repo:, user: or org: start here). */
export async function indexedRepositoryIds(db: Executor): Promise<number[]> {
  const rows = await db.selectFrom('search_index_state').select('repository_id').where('indexed_commit', 'is not', null).execute();
  return rows.map((r) => Number(r.repository_id));
}

/** Every repository the index has a row for (each gets one when created, or by migration 0023). */
export async function knownRepositoryIds(db: Executor): Promise<number[]> {
  const rows = await db.selectFrom('search_index_state').select('repository_id').orderBy('repository_id').execute();
  return rows.map((r) => Number(r.repository_id));
}

export async function clearPending(db: Executor, repositoryId: number): Promise<void> {
  await db.updateTable('search_index_state').set({ pending: 0 }).where('repository_id', '=', repositoryId).where('claimed_until', 'is', null).execute();
}
