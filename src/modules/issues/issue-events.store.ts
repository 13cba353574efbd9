// SQL for the issue timeline (issue_events). Only the issues module calls this.
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { IssueEventsTable } from '../../db/schema.ts';
import type { Slice } from '../../domain/page.ts';
import type { IssueEventDetail, IssueEventName, IssueEventRecord } from './issues.model.ts';

type Row = Selectable<IssueEventsTable>;

function toRecord(r: Row): IssueEventRecord {
  return {
    id: r.id, repositoryId: r.repository_id, issueId: r.issue_id, actorId: r.actor_id, event: r.event as IssueEventName,
    detail: JSON.parse(r.detail) as IssueEventDetail, commitId: r.commit_id, createdAt: r.created_at,
    performedViaAppId: r.performed_via_app_id,
  };
}

/** A new event row: the record's fields but its id and time; detail, commit and app optional. */
export type NewEvent = Pick<IssueEventRecord, 'repositoryId' | 'issueId' | 'actorId' | 'event'>
  & Partial<Pick<IssueEventRecord, 'detail' | 'commitId' | 'performedViaAppId'>>;

export async function insertMany(db: Executor, events: readonly NewEvent[], now: string): Promise<void> {
  if (!events.length) return;
  await db.insertInto('issue_events').values(events.map((e) => ({
    repository_id: e.repositoryId, issue_id: e.issueId, actor_id: e.actorId, event: e.event,
    detail: JSON.stringify(e.detail ?? {}), commit_id: e.commitId ?? null, created_at: now, performed_via_app_id: e.performedViaAppId ?? null,
  }))).execute();
}

export async function findById(db: Executor, repositoryId: number, id: number): Promise<IssueEventRecord | null> {
  const row = await db.selectFrom('issue_events').selectAll()
    .where('repository_id', '=', repositoryId).where('id', '=', id).executeTakeFirst();
  return row ? toRecord(row) : null;
}

export async function list(db: Executor, f: { repositoryId: number; issueId?: number }, slice: Slice): Promise<{ rows: IssueEventRecord[]; total: number }> {
  let q = db.selectFrom('issue_events').where('repository_id', '=', f.repositoryId);
  if (f.issueId !== undefined) q = q.where('issue_id', '=', f.issueId);
  // The repository-wide list is newest first, an issue's own oldest first (upstream).
  const direction = f.issueId === undefined ? 'desc' : 'asc';
  const [rows, total] = await Promise.all([
    q.selectAll().orderBy('id', direction).limit(slice.perPage).offset(slice.offset).execute(),
    q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toRecord), total: Number(total.n) };
}

/** Whether the issue already has a `referenced` event for the commit (pushes may repeat). */
export async function hasReference(db: Executor, issueId: number, commitId: string): Promise<boolean> {
  const row = await db.selectFrom('issue_events').select('id')
    .where('issue_id', '=', issueId).where('event', '=', 'referenced').where('commit_id', '=', commitId)
    .limit(1).executeTakeFirst();
  return row !== undefined;
}
