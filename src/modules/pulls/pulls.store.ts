// SQL for pull requests and their review requests. Only the pulls module calls this;
// reviews and review comments are in reviews.store.ts.
import type { Executor } from '../../db/database.ts';
import type { Selectable } from 'kysely';
import type { PullRequestsTable, ReviewRequestsTable } from '../../db/schema.ts';
import type { PullRequestRecord, ReviewRequestRecord } from './pulls.model.ts';

type Row = Omit<PullRequestsTable, 'id'> & { id: number };

const bool = (v: number | null): boolean | null => (v === null ? null : Number(v) === 1);
const int = (v: boolean): number => (v ? 1 : 0);

function toPull(r: Row): PullRequestRecord {
  return {
    id: r.id,
    issueId: r.issue_id,
    repositoryId: r.repository_id,
    number: r.number,
    headRepositoryId: r.head_repository_id,
    headRef: r.head_ref,
    headSha: r.head_sha,
    baseRef: r.base_ref,
    baseSha: r.base_sha,
    mergeBaseSha: r.merge_base_sha,
    draft: Number(r.draft) === 1,
    maintainerCanModify: Number(r.maintainer_can_modify) === 1,
    mergedAt: r.merged_at,
    mergedById: r.merged_by_id,
    mergeCommitSha: r.merge_commit_sha,
    mergeable: bool(r.mergeable),
    rebaseable: bool(r.rebaseable),
    checkedHeadSha: r.checked_head_sha,
    checkedBaseSha: r.checked_base_sha,
    lastPusherId: r.last_pusher_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function pulls(db: Executor) {
  return db.selectFrom('pull_requests').selectAll();
}

/** A new pull request: fields of the record (a new one always has its head repository). */
export type NewPull = Pick<PullRequestRecord,
  'issueId' | 'repositoryId' | 'number' | 'headRef' | 'headSha' | 'baseRef' | 'baseSha' | 'mergeBaseSha' | 'draft' | 'maintainerCanModify'
> & { headRepositoryId: number };

export async function insert(db: Executor, p: NewPull, now: string): Promise<PullRequestRecord> {
  const row = await db.insertInto('pull_requests').values({
    issue_id: p.issueId, repository_id: p.repositoryId, number: p.number,
    head_repository_id: p.headRepositoryId, head_ref: p.headRef, head_sha: p.headSha,
    base_ref: p.baseRef, base_sha: p.baseSha, merge_base_sha: p.mergeBaseSha,
    draft: int(p.draft), maintainer_can_modify: int(p.maintainerCanModify),
    merged_at: null, merged_by_id: null, merge_commit_sha: null,
    mergeable: null, rebaseable: null, checked_head_sha: null, checked_base_sha: null, last_pusher_id: null,
    created_at: now, updated_at: now,
  }).returningAll().executeTakeFirstOrThrow();
  return toPull(row as Row);
}

export async function findByNumber(db: Executor, repositoryId: number, number: number): Promise<PullRequestRecord | null> {
  const row = await pulls(db).where('repository_id', '=', repositoryId).where('number', '=', number).executeTakeFirst();
  return row ? toPull(row as Row) : null;
}

export async function findById(db: Executor, id: number): Promise<PullRequestRecord | null> {
  const row = await pulls(db).where('id', '=', id).executeTakeFirst();
  return row ? toPull(row as Row) : null;
}

export async function findByIds(db: Executor, ids: readonly number[]): Promise<PullRequestRecord[]> {
  if (!ids.length) return [];
  const rows = await pulls(db).where('id', 'in', [...new Set(ids)]).execute();
  return rows.map((r) => toPull(r as Row));
}

export async function findByIssueIds(db: Executor, issueIds: readonly number[]): Promise<PullRequestRecord[]> {
  if (!issueIds.length) return [];
  const rows = await pulls(db).where('issue_id', 'in', [...new Set(issueIds)]).execute();
  return rows.map((r) => toPull(r as Row));
}

export interface PullFilter {
  repositoryIds: readonly number[];
  baseRef?: string;
  headRef?: string;
  /** Head repositories to match (the owner part of `head=owner:ref`). */
  headRepositoryIds?: readonly number[];
  /** Merged ones only (true), or those not merged (false). */
  merged?: boolean;
}

/** The issue ids of the pull requests of these repositories matching the branch filters. */
export async function issueIdsMatching(db: Executor, f: PullFilter): Promise<number[]> {
  if (!f.repositoryIds.length || f.headRepositoryIds?.length === 0) return [];
  let q = db.selectFrom('pull_requests').select('issue_id').where('repository_id', 'in', [...f.repositoryIds]);
  if (f.baseRef !== undefined) q = q.where('base_ref', '=', f.baseRef);
  if (f.headRef !== undefined) q = q.where('head_ref', '=', f.headRef);
  if (f.headRepositoryIds) q = q.where('head_repository_id', 'in', [...f.headRepositoryIds]);
  if (f.merged !== undefined) q = q.where('merged_at', f.merged ? 'is not' : 'is', null);
  return (await q.execute()).map((r) => r.issue_id);
}

/** Pull requests (of any repository) whose head is this branch of this repository. */
export async function findByHead(db: Executor, headRepositoryId: number, headRef: string): Promise<PullRequestRecord[]> {
  const rows = await pulls(db).where('head_repository_id', '=', headRepositoryId).where('head_ref', '=', headRef).execute();
  return rows.map((r) => toPull(r as Row));
}

export type PullChanges = Partial<Pick<PullRequestRecord,
  'headSha' | 'baseRef' | 'baseSha' | 'mergeBaseSha' | 'draft' | 'maintainerCanModify' | 'mergedAt' | 'mergedById' | 'mergeCommitSha' | 'lastPusherId'
>>;

export async function update(db: Executor, id: number, c: PullChanges, now: string): Promise<PullRequestRecord> {
  const row = await db.updateTable('pull_requests').set({
    ...(c.headSha !== undefined ? { head_sha: c.headSha } : {}),
    ...(c.baseRef !== undefined ? { base_ref: c.baseRef } : {}),
    ...(c.baseSha !== undefined ? { base_sha: c.baseSha } : {}),
    ...(c.mergeBaseSha !== undefined ? { merge_base_sha: c.mergeBaseSha } : {}),
    ...(c.draft !== undefined ? { draft: int(c.draft) } : {}),
    ...(c.maintainerCanModify !== undefined ? { maintainer_can_modify: int(c.maintainerCanModify) } : {}),
    ...(c.mergedAt !== undefined ? { merged_at: c.mergedAt } : {}),
    ...(c.mergedById !== undefined ? { merged_by_id: c.mergedById } : {}),
    ...(c.mergeCommitSha !== undefined ? { merge_commit_sha: c.mergeCommitSha } : {}),
    ...(c.lastPusherId !== undefined ? { last_pusher_id: c.lastPusherId } : {}),
    updated_at: now,
  }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  return toPull(row as Row);
}

/**
 * What git said about a (head, base) pair of commits; mergeCommitSha is the test merge
 * commit of an open pull request (upstream shows it as merge_commit_sha).
 */
export type Mergeability = Pick<PullRequestRecord, 'mergeable' | 'rebaseable' | 'headSha' | 'baseSha' | 'mergeBaseSha' | 'mergeCommitSha'>;

/**
 * Caches what git said about (head, base). Not an update of the pull request: its
 * updated_at stays. Guarded by the head sha so that a push racing the check wins.
 */
export async function saveMergeability(db: Executor, id: number, m: Mergeability): Promise<void> {
  await db.updateTable('pull_requests').set({
    mergeable: m.mergeable === null ? null : int(m.mergeable),
    rebaseable: m.rebaseable === null ? null : int(m.rebaseable),
    checked_head_sha: m.headSha,
    checked_base_sha: m.baseSha,
    merge_base_sha: m.mergeBaseSha,
    merge_commit_sha: m.mergeCommitSha,
  }).where('id', '=', id).where('head_sha', '=', m.headSha).where('merged_at', 'is', null).execute();
}

// ---------------------------------------------------------------- review requests

function toRequest(r: Selectable<ReviewRequestsTable>): ReviewRequestRecord {
  return { id: r.id, pullRequestId: r.pull_request_id, userId: r.user_id, teamId: r.team_id, requestedById: r.requested_by_id, createdAt: r.created_at };
}

export async function listRequests(db: Executor, pullIds: readonly number[]): Promise<ReviewRequestRecord[]> {
  if (!pullIds.length) return [];
  const rows = await db.selectFrom('review_requests').selectAll().where('pull_request_id', 'in', [...new Set(pullIds)]).orderBy('id').execute();
  return rows.map(toRequest);
}

export async function findRequestsByIds(db: Executor, ids: readonly number[]): Promise<ReviewRequestRecord[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('review_requests').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  return rows.map(toRequest);
}

/** Adds the requests not already there; answers the ones added. */
export async function addRequests(
  db: Executor, pullId: number, users: readonly number[], teams: readonly number[], requestedById: number, now: string,
): Promise<ReviewRequestRecord[]> {
  const existing = await listRequests(db, [pullId]);
  const haveUsers = new Set(existing.map((r) => r.userId));
  const haveTeams = new Set(existing.map((r) => r.teamId));
  const rows = [
    ...[...new Set(users)].filter((u) => !haveUsers.has(u)).map((u) => ({ user_id: u, team_id: null })),
    ...[...new Set(teams)].filter((t) => !haveTeams.has(t)).map((t) => ({ user_id: null, team_id: t })),
  ];
  if (!rows.length) return [];
  const inserted = await db.insertInto('review_requests')
    .values(rows.map((r) => ({ ...r, pull_request_id: pullId, requested_by_id: requestedById, created_at: now })))
    .returningAll().execute();
  return inserted.map(toRequest);
}

/** Removes requests of these users and teams; answers the ones removed. */
export async function removeRequests(db: Executor, pullId: number, users: readonly number[], teams: readonly number[]): Promise<ReviewRequestRecord[]> {
  const existing = await listRequests(db, [pullId]);
  const gone = existing.filter((r) => (r.userId !== null && users.includes(r.userId)) || (r.teamId !== null && teams.includes(r.teamId)));
  if (!gone.length) return [];
  await db.deleteFrom('review_requests').where('id', 'in', gone.map((r) => r.id)).execute();
  return gone;
}

/** The open pull requests of a repository whose head commit is one of these (check runs list them). */
export async function openWithHeadShas(db: Executor, repositoryId: number, shas: readonly string[]): Promise<PullRequestRecord[]> {
  if (!shas.length) return [];
  const rows = await db.selectFrom('pull_requests').innerJoin('issues', 'issues.id', 'pull_requests.issue_id').selectAll('pull_requests')
    .where('pull_requests.repository_id', '=', repositoryId).where('pull_requests.head_sha', 'in', [...new Set(shas)])
    .where('issues.state', '=', 'open').orderBy('pull_requests.id').execute();
  return rows.map((r) => toPull(r as Row));
}

/** A repository's pull requests that are open or merged (closed unmerged ones hold no commit of the base), newest first. */
export async function openOrMerged(db: Executor, repositoryId: number, limit: number): Promise<PullRequestRecord[]> {
  const rows = await db.selectFrom('pull_requests').innerJoin('issues', 'issues.id', 'pull_requests.issue_id').selectAll('pull_requests')
    .where('pull_requests.repository_id', '=', repositoryId)
    .where((eb) => eb.or([eb('issues.state', '=', 'open'), eb('pull_requests.merged_at', 'is not', null)]))
    .orderBy('pull_requests.id', 'desc').limit(limit).execute();
  return rows.map((r) => toPull(r as Row));
}
