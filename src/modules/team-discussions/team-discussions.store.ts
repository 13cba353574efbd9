// SQL for team discussions and their comments. Only the team-discussions module calls this.
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { TeamDiscussionCommentsTable, TeamDiscussionsTable } from '../../db/schema.ts';
import type { Slice } from '../../domain/page.ts';
import type { Direction, TeamDiscussion, TeamDiscussionComment } from './team-discussions.model.ts';

function toDiscussion(r: Selectable<TeamDiscussionsTable>): TeamDiscussion {
  return {
    id: r.id,
    teamId: r.team_id,
    number: r.number,
    authorId: r.author_id,
    title: r.title,
    body: r.body,
    bodyHtml: r.body_html,
    bodyVersion: r.body_version,
    private: Number(r.private) === 1,
    pinned: Number(r.pinned) === 1,
    commentsCount: Number(r.comments_count),
    lastEditedAt: r.last_edited_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toComment(r: Selectable<TeamDiscussionCommentsTable>): TeamDiscussionComment {
  return {
    id: r.id,
    discussionId: r.discussion_id,
    number: r.number,
    authorId: r.author_id,
    body: r.body,
    bodyHtml: r.body_html,
    bodyVersion: r.body_version,
    lastEditedAt: r.last_edited_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export type BodyValues = Pick<TeamDiscussion, 'body' | 'bodyHtml' | 'bodyVersion'>;

// ---------------------------------------------------------------- discussions

/** The team's next discussion number, atomically: concurrent posts never share one. */
export async function nextDiscussionNumber(db: Executor, teamId: number): Promise<number> {
  const row = await db.insertInto('team_discussion_counters')
    .values({ team_id: teamId, last_number: 1 })
    .onConflict((oc) => oc.column('team_id').doUpdateSet((eb) => ({ last_number: eb('team_discussion_counters.last_number', '+', 1) })))
    .returning('last_number')
    .executeTakeFirstOrThrow();
  return Number(row.last_number);
}

export type NewDiscussion = BodyValues & Pick<TeamDiscussion, 'teamId' | 'number' | 'title' | 'private'> & { authorId: number };

export async function insertDiscussion(db: Executor, d: NewDiscussion, now: string): Promise<TeamDiscussion> {
  const row = await db.insertInto('team_discussions').values({
    team_id: d.teamId,
    number: d.number,
    author_id: d.authorId,
    title: d.title,
    body: d.body,
    body_html: d.bodyHtml,
    body_version: d.bodyVersion,
    private: d.private ? 1 : 0,
    pinned: 0,
    comments_count: 0,
    last_comment_number: 0,
    last_edited_at: null,
    created_at: now,
    updated_at: now,
  }).returningAll().executeTakeFirstOrThrow();
  return toDiscussion(row);
}

export async function findDiscussion(db: Executor, teamId: number, number: number): Promise<TeamDiscussion | null> {
  const row = await db.selectFrom('team_discussions').selectAll()
    .where('team_id', '=', teamId).where('number', '=', number).executeTakeFirst();
  return row ? toDiscussion(row) : null;
}

/** A discussion by id, of any team (GraphQL node ids: the service checks the caller's seat). */
export async function findDiscussionById(db: Executor, id: number): Promise<TeamDiscussion | null> {
  const row = await db.selectFrom('team_discussions').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toDiscussion(row) : null;
}

export interface DiscussionFilter {
  teamId: number;
  /** Private discussions are listed only for those who may see them. */
  includePrivate: boolean;
  pinned?: boolean;
}

function whereDiscussions(db: Executor, f: DiscussionFilter) {
  let q = db.selectFrom('team_discussions').where('team_id', '=', f.teamId);
  if (!f.includePrivate) q = q.where('private', '=', 0);
  if (f.pinned !== undefined) q = q.where('pinned', '=', f.pinned ? 1 : 0);
  return q;
}

export async function listDiscussions(db: Executor, f: DiscussionFilter, direction: Direction, slice: Slice): Promise<TeamDiscussion[]> {
  const rows = await whereDiscussions(db, f).selectAll()
    .orderBy('number', direction).limit(slice.perPage).offset(slice.offset).execute();
  return rows.map(toDiscussion);
}

export async function countDiscussions(db: Executor, f: DiscussionFilter): Promise<number> {
  const row = await whereDiscussions(db, f).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export type DiscussionChanges = Partial<BodyValues & Pick<TeamDiscussion, 'title' | 'pinned'>> & { lastEditedAt?: string };

export async function updateDiscussion(db: Executor, id: number, c: DiscussionChanges, now: string): Promise<TeamDiscussion> {
  const row = await db.updateTable('team_discussions').set({
    ...(c.title !== undefined ? { title: c.title } : {}),
    ...(c.body !== undefined ? { body: c.body, body_html: c.bodyHtml!, body_version: c.bodyVersion! } : {}),
    ...(c.pinned !== undefined ? { pinned: c.pinned ? 1 : 0 } : {}),
    ...(c.lastEditedAt !== undefined ? { last_edited_at: c.lastEditedAt } : {}),
    updated_at: now,
  }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  return toDiscussion(row);
}

export async function deleteDiscussion(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('team_discussions').where('id', '=', id).execute();
}

// ---------------------------------------------------------------- comments

/**
 * The discussion's next comment number, counted in the same statement: numbers never
 * repeat, even after a deletion, and comments_count stays exact under concurrency.
 */
export async function nextCommentNumber(db: Executor, discussionId: number): Promise<number> {
  const row = await db.updateTable('team_discussions')
    .set((eb) => ({ last_comment_number: eb('last_comment_number', '+', 1), comments_count: eb('comments_count', '+', 1) }))
    .where('id', '=', discussionId)
    .returning('last_comment_number')
    .executeTakeFirstOrThrow();
  return Number(row.last_comment_number);
}

export type NewComment = BodyValues & Pick<TeamDiscussionComment, 'discussionId' | 'number'> & { authorId: number };

export async function insertComment(db: Executor, c: NewComment, now: string): Promise<TeamDiscussionComment> {
  const row = await db.insertInto('team_discussion_comments').values({
    discussion_id: c.discussionId,
    number: c.number,
    author_id: c.authorId,
    body: c.body,
    body_html: c.bodyHtml,
    body_version: c.bodyVersion,
    last_edited_at: null,
    created_at: now,
    updated_at: now,
  }).returningAll().executeTakeFirstOrThrow();
  return toComment(row);
}

export async function findComment(db: Executor, discussionId: number, number: number): Promise<TeamDiscussionComment | null> {
  const row = await db.selectFrom('team_discussion_comments').selectAll()
    .where('discussion_id', '=', discussionId).where('number', '=', number).executeTakeFirst();
  return row ? toComment(row) : null;
}

/** A comment by id, of any discussion (GraphQL node ids). */
export async function findCommentById(db: Executor, id: number): Promise<TeamDiscussionComment | null> {
  const row = await db.selectFrom('team_discussion_comments').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toComment(row) : null;
}

export async function listComments(db: Executor, discussionId: number, direction: Direction, slice: Slice): Promise<TeamDiscussionComment[]> {
  const rows = await db.selectFrom('team_discussion_comments').selectAll()
    .where('discussion_id', '=', discussionId)
    .orderBy('number', direction).limit(slice.perPage).offset(slice.offset).execute();
  return rows.map(toComment);
}

export async function commentIdsOf(db: Executor, discussionId: number): Promise<number[]> {
  const rows = await db.selectFrom('team_discussion_comments').select('id').where('discussion_id', '=', discussionId).execute();
  return rows.map((r) => r.id);
}

export async function updateComment(db: Executor, id: number, body: BodyValues, now: string): Promise<TeamDiscussionComment> {
  const row = await db.updateTable('team_discussion_comments').set({
    body: body.body, body_html: body.bodyHtml, body_version: body.bodyVersion, last_edited_at: now, updated_at: now,
  }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  return toComment(row);
}

/** Deletes the comment and takes it off its discussion's count. */
export async function deleteComment(db: Executor, comment: TeamDiscussionComment): Promise<void> {
  await db.deleteFrom('team_discussion_comments').where('id', '=', comment.id).execute();
  await db.updateTable('team_discussions')
    .set((eb) => ({ comments_count: eb('comments_count', '-', 1) }))
    .where('id', '=', comment.discussionId).execute();
}
