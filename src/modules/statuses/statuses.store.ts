// SQL for commit statuses. Only the statuses module calls this.
import type { Executor } from '../../db/database.ts';
import type { CommitStatusesTable } from '../../db/schema.ts';
import type { Slice } from '../../domain/page.ts';
import { contextKey, type CommitState, type CommitStatus } from './statuses.model.ts';

const COLUMNS = [
  'id', 'repository_id', 'sha', 'state', 'target_url', 'description', 'context', 'creator_id', 'created_at', 'updated_at',
] as const;

type Row = Pick<CommitStatusesTable, Exclude<(typeof COLUMNS)[number], 'id'>> & { id: number };

function toStatus(r: Row): CommitStatus {
  return {
    id: r.id,
    repositoryId: r.repository_id,
    sha: r.sha,
    state: r.state as CommitState,
    targetUrl: r.target_url,
    description: r.description,
    context: r.context,
    creatorId: r.creator_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** What a new status is given (the store sets id and timestamps); fields as the model has them. */
export type NewStatus = Pick<CommitStatus, 'repositoryId' | 'sha' | 'state' | 'targetUrl' | 'description' | 'context'> & { creatorId: number };

export async function insert(db: Executor, v: NewStatus, now: string): Promise<CommitStatus> {
  const row = await db.insertInto('commit_statuses').values({
    repository_id: v.repositoryId,
    sha: v.sha,
    state: v.state,
    target_url: v.targetUrl,
    description: v.description,
    context: v.context,
    context_key: contextKey(v.context),
    creator_id: v.creatorId,
    created_at: now,
    updated_at: now,
  }).returning(COLUMNS).executeTakeFirstOrThrow();
  return toStatus(row);
}

export async function countForContext(db: Executor, repositoryId: number, sha: string, context: string): Promise<number> {
  const row = await db.selectFrom('commit_statuses').select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('repository_id', '=', repositoryId).where('sha', '=', sha).where('context_key', '=', contextKey(context))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findById(db: Executor, id: number): Promise<CommitStatus | null> {
  const row = await db.selectFrom('commit_statuses').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toStatus(row) : null;
}

/** A commit's statuses, newest first. */
export async function listForSha(db: Executor, repositoryId: number, sha: string, slice: Slice): Promise<CommitStatus[]> {
  const rows = await db.selectFrom('commit_statuses').select(COLUMNS)
    .where('repository_id', '=', repositoryId).where('sha', '=', sha)
    .orderBy('id', 'desc').limit(slice.perPage).offset(slice.offset).execute();
  return rows.map(toStatus);
}

export async function countForSha(db: Executor, repositoryId: number, sha: string): Promise<number> {
  const row = await db.selectFrom('commit_statuses').select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('repository_id', '=', repositoryId).where('sha', '=', sha).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The latest status of each context of each of several commits (one query for a page of commits). */
export async function latestPerContextOfShas(db: Executor, repositoryId: number, shas: readonly string[]): Promise<CommitStatus[]> {
  if (!shas.length) return [];
  const rows = await db.selectFrom('commit_statuses').select(COLUMNS)
    .where('id', 'in', (eb) => eb.selectFrom('commit_statuses').select((e) => e.fn.max('id').as('id'))
      .where('repository_id', '=', repositoryId).where('sha', 'in', [...shas]).groupBy(['sha', 'context_key']))
    .orderBy('id').execute();
  return rows.map(toStatus);
}

/** The latest status of each context of a commit, in the order those were created. */
export async function latestPerContext(db: Executor, repositoryId: number, sha: string): Promise<CommitStatus[]> {
  const rows = await db.selectFrom('commit_statuses').select(COLUMNS)
    .where('id', 'in', (eb) => eb.selectFrom('commit_statuses').select((e) => e.fn.max('id').as('id'))
      .where('repository_id', '=', repositoryId).where('sha', '=', sha).groupBy('context_key'))
    .orderBy('id').execute();
  return rows.map(toStatus);
}
