// SQL for pull request auto-merge requests (pull_request_auto_merges): one per pull
// request, `pending` while the worker should judge it again, claimed by a lease so that
// one process merges it. Only the pulls module calls this.
import type { Selectable } from 'kysely';
import type { Dialect, Executor } from '../../db/database.ts';
import { skipLocked } from '../../db/claims.ts';
import type { PullRequestAutoMergesTable } from '../../db/schema.ts';
import type { AutoMergeRecord } from './auto-merge.model.ts';
import type { MergeMethod } from './pulls.model.ts';

function toRecord(r: Selectable<PullRequestAutoMergesTable>): AutoMergeRecord {
  return {
    pullRequestId: r.pull_request_id, repositoryId: r.repository_id, enabledById: r.enabled_by_id, mergeMethod: r.merge_method as MergeMethod,
    commitTitle: r.commit_title, commitMessage: r.commit_message, authorEmail: r.author_email, enabledAt: r.enabled_at,
  };
}

export async function findMany(db: Executor, pullIds: readonly number[]): Promise<Map<number, AutoMergeRecord>> {
  if (!pullIds.length) return new Map();
  const rows = await db.selectFrom('pull_request_auto_merges').selectAll().where('pull_request_id', 'in', [...new Set(pullIds)]).execute();
  return new Map(rows.map((r) => [r.pull_request_id, toRecord(r)]));
}

/** Enables (or replaces) the request; it waits for the worker's judgement at once. */
export async function put(db: Executor, r: AutoMergeRecord): Promise<void> {
  const values = {
    repository_id: r.repositoryId, enabled_by_id: r.enabledById, merge_method: r.mergeMethod, commit_title: r.commitTitle,
    commit_message: r.commitMessage, author_email: r.authorEmail, enabled_at: r.enabledAt, pending: 1,
  };
  await db.insertInto('pull_request_auto_merges').values({ pull_request_id: r.pullRequestId, ...values, claimed_until: null })
    .onConflict((oc) => oc.column('pull_request_id').doUpdateSet(values)).execute();
}

/** Removes the request; whether there was one. */
export async function remove(db: Executor, pullId: number): Promise<boolean> {
  const res = await db.deleteFrom('pull_request_auto_merges').where('pull_request_id', '=', pullId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function markPending(db: Executor, pullIds: readonly number[]): Promise<void> {
  if (!pullIds.length) return;
  await db.updateTable('pull_request_auto_merges').set({ pending: 1 }).where('pull_request_id', 'in', [...new Set(pullIds)]).execute();
}

/** Requests of the repository's pull requests whose head is one of `shas` (a status or check run on it). */
export async function markPendingByHead(db: Executor, repositoryId: number, shas: readonly string[]): Promise<void> {
  if (!shas.length) return;
  await db.updateTable('pull_request_auto_merges').set({ pending: 1 })
    .where('pull_request_id', 'in', (eb) => eb.selectFrom('pull_requests').select('id')
      .where('repository_id', '=', repositoryId).where('head_sha', 'in', [...new Set(shas)]))
    .execute();
}

/** Requests of the repository's pull requests into `branch` (the base moved). */
export async function markPendingByBase(db: Executor, repositoryId: number, branch: string): Promise<void> {
  await db.updateTable('pull_request_auto_merges').set({ pending: 1 })
    .where('pull_request_id', 'in', (eb) => eb.selectFrom('pull_requests').select('id')
      .where('repository_id', '=', repositoryId).where('base_ref', '=', branch))
    .execute();
}

/**
 * Takes up to `limit` pending requests for `leaseMs` (no longer pending: a change while
 * the worker judges them marks them again, for the next pass). PostgreSQL skips rows
 * another process holds.
 */
export async function claimPending(db: Executor, dialect: Dialect, nowMs: number, leaseMs: number, limit: number): Promise<number[]> {
  const q = db.selectFrom('pull_request_auto_merges').select('pull_request_id').where('pending', '=', 1)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', nowMs)]))
    .orderBy('pull_request_id').limit(limit);
  const ids = (await skipLocked(q, dialect).execute()).map((r) => r.pull_request_id);
  if (ids.length) {
    await db.updateTable('pull_request_auto_merges').set({ pending: 0, claimed_until: nowMs + leaseMs }).where('pull_request_id', 'in', ids).execute();
  }
  return ids;
}

export async function release(db: Executor, pullId: number): Promise<void> {
  await db.updateTable('pull_request_auto_merges').set({ claimed_until: null }).where('pull_request_id', '=', pullId).execute();
}

export async function countClaimable(db: Executor, nowMs: number): Promise<number> {
  const row = await db.selectFrom('pull_request_auto_merges').select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('pending', '=', 1).where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', nowMs)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
