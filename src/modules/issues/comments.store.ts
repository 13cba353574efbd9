// SQL for issue comments. Only the issues module calls this.
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { IssueCommentsTable } from '../../db/schema.ts';
import type { Slice } from '../../domain/page.ts';
import type { CommentRecord } from './issues.model.ts';

type Row = Selectable<IssueCommentsTable>;

function toRecord(r: Row): CommentRecord {
  return {
    id: r.id, repositoryId: r.repository_id, issueId: r.issue_id, userId: r.user_id, body: r.body,
    createdAt: r.created_at, updatedAt: r.updated_at, minimizedReason: r.minimized_reason, performedViaAppId: r.performed_via_app_id,
  };
}

export async function insert(
  db: Executor, v: Pick<CommentRecord, 'repositoryId' | 'issueId' | 'userId' | 'body' | 'performedViaAppId'>, now: string,
): Promise<CommentRecord> {
  const row = await db.insertInto('issue_comments').values({
    repository_id: v.repositoryId, issue_id: v.issueId, user_id: v.userId, body: v.body, created_at: now, updated_at: now,
    performed_via_app_id: v.performedViaAppId,
  }).returningAll().executeTakeFirstOrThrow();
  return toRecord(row);
}

export async function findById(db: Executor, repositoryId: number, id: number): Promise<CommentRecord | null> {
  const row = await db.selectFrom('issue_comments').selectAll()
    .where('repository_id', '=', repositoryId).where('id', '=', id).executeTakeFirst();
  return row ? toRecord(row) : null;
}

export async function findByIds(db: Executor, ids: readonly number[]): Promise<CommentRecord[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('issue_comments').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  return rows.map(toRecord);
}

export interface ListFilter {
  repositoryId: number;
  issueId?: number;
  since?: string;
  sort: 'created' | 'updated';
  direction: 'asc' | 'desc';
}

export async function list(db: Executor, f: ListFilter, slice: Slice): Promise<{ rows: CommentRecord[]; total: number }> {
  let q = db.selectFrom('issue_comments').where('repository_id', '=', f.repositoryId);
  if (f.issueId !== undefined) q = q.where('issue_id', '=', f.issueId);
  if (f.since) q = q.where('updated_at', '>=', f.since);
  let page = q.selectAll();
  if (f.sort === 'updated') page = page.orderBy('updated_at', f.direction);
  const [rows, total] = await Promise.all([
    page.orderBy('id', f.direction).limit(slice.perPage).offset(slice.offset).execute(),
    q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toRecord), total: Number(total.n) };
}

/** Hides the comment for `reason`, or shows it again (null); updated_at is left alone, as upstream. */
export async function setMinimized(db: Executor, id: number, reason: string | null): Promise<CommentRecord> {
  const row = await db.updateTable('issue_comments').set({ minimized_reason: reason })
    .where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  return toRecord(row);
}

export async function update(db: Executor, id: number, body: string, now: string): Promise<CommentRecord> {
  const row = await db.updateTable('issue_comments').set({ body, updated_at: now })
    .where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  return toRecord(row);
}

/** Whether a row went (a concurrent delete may have taken it first). */
export async function remove(db: Executor, id: number): Promise<boolean> {
  const r = await db.deleteFrom('issue_comments').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
