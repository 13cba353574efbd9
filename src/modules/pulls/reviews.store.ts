// SQL for pull request reviews and review comments. Only the pulls module calls this.
// A pending review, and the comments in it, are seen by their author alone: every
// read takes the viewer and leaves out the pending work of others.
import type { Executor } from '../../db/database.ts';
import type { PullRequestReviewCommentsTable, PullRequestReviewsTable } from '../../db/schema.ts';
import type { Slice } from '../../domain/page.ts';
import type { ReviewCommentRecord, ReviewRecord } from './pulls.model.ts';

type ReviewRow = Omit<PullRequestReviewsTable, 'id'> & { id: number };
type CommentRow = Omit<PullRequestReviewCommentsTable, 'id'> & { id: number };

function toReview(r: ReviewRow): ReviewRecord {
  return {
    id: r.id, pullRequestId: r.pull_request_id, repositoryId: r.repository_id, userId: r.user_id, state: r.state,
    body: r.body, commitId: r.commit_id, submittedAt: r.submitted_at, createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

function toComment(r: CommentRow): ReviewCommentRecord {
  return {
    id: r.id, pullRequestId: r.pull_request_id, repositoryId: r.repository_id, reviewId: r.review_id, userId: r.user_id,
    inReplyToId: r.in_reply_to_id, body: r.body, path: r.path, commitId: r.commit_id, originalCommitId: r.original_commit_id,
    diffHunk: r.diff_hunk, position: r.position, originalPosition: r.original_position, line: r.line, originalLine: r.original_line,
    side: r.side, startLine: r.start_line, originalStartLine: r.original_start_line, startSide: r.start_side,
    subjectType: r.subject_type, createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

// ---------------------------------------------------------------- reviews

export type NewReview = Pick<ReviewRecord, 'pullRequestId' | 'repositoryId' | 'userId' | 'state' | 'body' | 'commitId' | 'submittedAt'>;

export async function insertReview(db: Executor, r: NewReview, now: string): Promise<ReviewRecord> {
  const row = await db.insertInto('pull_request_reviews').values({
    pull_request_id: r.pullRequestId, repository_id: r.repositoryId, user_id: r.userId, state: r.state,
    body: r.body, commit_id: r.commitId, submitted_at: r.submittedAt, created_at: now, updated_at: now,
  }).returningAll().executeTakeFirstOrThrow();
  return toReview(row as ReviewRow);
}

/** The review, unless it is someone else's pending one. */
export async function findReview(db: Executor, pullId: number, id: number, viewerId: number | null): Promise<ReviewRecord | null> {
  const row = await db.selectFrom('pull_request_reviews').selectAll()
    .where('pull_request_id', '=', pullId).where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  const review = toReview(row as ReviewRow);
  return review.state === 'PENDING' && review.userId !== viewerId ? null : review;
}

export async function findPendingReview(db: Executor, pullId: number, userId: number): Promise<ReviewRecord | null> {
  const row = await db.selectFrom('pull_request_reviews').selectAll()
    .where('pull_request_id', '=', pullId).where('user_id', '=', userId).where('state', '=', 'PENDING').executeTakeFirst();
  return row ? toReview(row as ReviewRow) : null;
}

function visibleReviews(db: Executor, pullId: number, viewerId: number | null) {
  return db.selectFrom('pull_request_reviews').where('pull_request_id', '=', pullId)
    .where((eb) => eb.or([eb('state', '!=', 'PENDING'), eb('user_id', '=', viewerId ?? -1)]));
}

export async function listReviews(db: Executor, pullId: number, viewerId: number | null, slice: Slice): Promise<{ rows: ReviewRecord[]; total: number }> {
  const [rows, count] = await Promise.all([
    visibleReviews(db, pullId, viewerId).selectAll().orderBy('id').limit(slice.perPage).offset(slice.offset).execute(),
    visibleReviews(db, pullId, viewerId).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((r) => toReview(r as ReviewRow)), total: Number(count.n) };
}

/** Submitted reviews of several pull requests (GraphQL's reviewDecision and lists). */
export async function listSubmittedReviews(db: Executor, pullIds: readonly number[]): Promise<ReviewRecord[]> {
  if (!pullIds.length) return [];
  const rows = await db.selectFrom('pull_request_reviews').selectAll()
    .where('pull_request_id', 'in', [...new Set(pullIds)]).where('state', '!=', 'PENDING').orderBy('id').execute();
  return rows.map((r) => toReview(r as ReviewRow));
}

/** Reviews of several pull requests as the viewer sees them (others' pending ones left out), in order. */
export async function listReviewsOfPulls(db: Executor, pullIds: readonly number[], viewerId: number | null): Promise<ReviewRecord[]> {
  if (!pullIds.length) return [];
  const rows = await db.selectFrom('pull_request_reviews').selectAll().where('pull_request_id', 'in', [...new Set(pullIds)])
    .where((eb) => eb.or([eb('state', '!=', 'PENDING'), eb('user_id', '=', viewerId ?? -1)])).orderBy('id').execute();
  return rows.map((r) => toReview(r as ReviewRow));
}

/** Reviews by id, of any pull request, as the viewer sees them. */
export async function findReviewsByIds(db: Executor, ids: readonly number[], viewerId: number | null): Promise<ReviewRecord[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('pull_request_reviews').selectAll().where('id', 'in', [...new Set(ids)])
    .where((eb) => eb.or([eb('state', '!=', 'PENDING'), eb('user_id', '=', viewerId ?? -1)])).execute();
  return rows.map((r) => toReview(r as ReviewRow));
}

export type ReviewChanges = Partial<Pick<ReviewRecord, 'state' | 'body' | 'submittedAt'>>;

export async function updateReview(db: Executor, id: number, c: ReviewChanges, now: string): Promise<ReviewRecord> {
  const row = await db.updateTable('pull_request_reviews').set({
    ...(c.state !== undefined ? { state: c.state } : {}),
    ...(c.body !== undefined ? { body: c.body } : {}),
    ...(c.submittedAt !== undefined ? { submitted_at: c.submittedAt } : {}),
    updated_at: now,
  }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  return toReview(row as ReviewRow);
}

export async function deleteReview(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('pull_request_reviews').where('id', '=', id).execute();
}

// ---------------------------------------------------------------- review comments

/** A new comment: fields of the record (its original position, line and start line are the ones given). */
export type NewComment = Pick<ReviewCommentRecord,
  | 'pullRequestId' | 'repositoryId' | 'reviewId' | 'userId' | 'inReplyToId' | 'body' | 'path' | 'commitId' | 'originalCommitId'
  | 'diffHunk' | 'position' | 'line' | 'side' | 'startLine' | 'startSide' | 'subjectType'
>;

export async function insertComments(db: Executor, comments: readonly NewComment[], now: string): Promise<ReviewCommentRecord[]> {
  if (!comments.length) return [];
  const rows = await db.insertInto('pull_request_review_comments').values(comments.map((c) => ({
    pull_request_id: c.pullRequestId, repository_id: c.repositoryId, review_id: c.reviewId, user_id: c.userId,
    in_reply_to_id: c.inReplyToId, body: c.body, path: c.path, commit_id: c.commitId, original_commit_id: c.originalCommitId,
    diff_hunk: c.diffHunk, position: c.position, original_position: c.position, line: c.line, original_line: c.line,
    side: c.side, start_line: c.startLine, original_start_line: c.startLine, start_side: c.startSide,
    subject_type: c.subjectType, created_at: now, updated_at: now,
  }))).returningAll().execute();
  return rows.map((r) => toComment(r as CommentRow)).sort((a, b) => a.id - b.id);
}

/** Comments visible to the viewer: those of submitted reviews, and the viewer's pending ones. */
function visibleComments(db: Executor, viewerId: number | null) {
  return db.selectFrom('pull_request_review_comments as c')
    .innerJoin('pull_request_reviews as r', 'r.id', 'c.review_id')
    .where((eb) => eb.or([eb('r.state', '!=', 'PENDING'), eb('r.user_id', '=', viewerId ?? -1)]));
}

export async function findComment(db: Executor, repositoryId: number, id: number, viewerId: number | null): Promise<ReviewCommentRecord | null> {
  const row = await visibleComments(db, viewerId).selectAll('c').where('c.repository_id', '=', repositoryId).where('c.id', '=', id).executeTakeFirst();
  return row ? toComment(row as CommentRow) : null;
}

export interface CommentListFilter {
  repositoryId: number;
  pullRequestId?: number;
  reviewId?: number;
  viewerId: number | null;
  sort: 'created' | 'updated';
  direction: 'asc' | 'desc';
  since?: string;
}

export async function listComments(db: Executor, f: CommentListFilter, slice: Slice): Promise<{ rows: ReviewCommentRecord[]; total: number }> {
  let q = visibleComments(db, f.viewerId).where('c.repository_id', '=', f.repositoryId);
  if (f.pullRequestId !== undefined) q = q.where('c.pull_request_id', '=', f.pullRequestId);
  if (f.reviewId !== undefined) q = q.where('c.review_id', '=', f.reviewId);
  if (f.since !== undefined) q = q.where('c.updated_at', '>=', f.since);
  const column = f.sort === 'updated' ? 'c.updated_at' : 'c.created_at';
  const [rows, count] = await Promise.all([
    q.selectAll('c').orderBy(column, f.direction).orderBy('c.id', f.direction).limit(slice.perPage).offset(slice.offset).execute(),
    q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((r) => toComment(r as CommentRow)), total: Number(count.n) };
}

/** Submitted review comments per pull request (the `review_comments` count). */
export async function countSubmittedComments(db: Executor, pullIds: readonly number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (!pullIds.length) return out;
  const rows = await db.selectFrom('pull_request_review_comments as c')
    .innerJoin('pull_request_reviews as r', 'r.id', 'c.review_id')
    .select(['c.pull_request_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('c.pull_request_id', 'in', [...new Set(pullIds)]).where('r.state', '!=', 'PENDING')
    .groupBy('c.pull_request_id').execute();
  for (const r of rows) out.set(r.pull_request_id, Number(r.n));
  return out;
}

/** Comments of reviews, in order (the pull_request_review payloads and submit). */
export async function commentsOfReview(db: Executor, reviewId: number): Promise<ReviewCommentRecord[]> {
  const rows = await db.selectFrom('pull_request_review_comments').selectAll().where('review_id', '=', reviewId).orderBy('id').execute();
  return rows.map((r) => toComment(r as CommentRow));
}

/** Comments of several reviews, in order. */
export async function commentsOfReviews(db: Executor, reviewIds: readonly number[]): Promise<ReviewCommentRecord[]> {
  if (!reviewIds.length) return [];
  const rows = await db.selectFrom('pull_request_review_comments').selectAll().where('review_id', 'in', [...new Set(reviewIds)]).orderBy('id').execute();
  return rows.map((r) => toComment(r as CommentRow));
}

/** Every comment of a pull request as the viewer sees them, oldest first (its review threads). */
export async function commentsOfPull(db: Executor, pullRequestId: number, viewerId: number | null): Promise<ReviewCommentRecord[]> {
  const rows = await visibleComments(db, viewerId).selectAll('c').where('c.pull_request_id', '=', pullRequestId).orderBy('c.id').execute();
  return rows.map((r) => toComment(r as CommentRow));
}

/** Review comments by id, of any repository, as the viewer sees them. */
export async function findCommentsByIds(db: Executor, ids: readonly number[], viewerId: number | null): Promise<ReviewCommentRecord[]> {
  if (!ids.length) return [];
  const rows = await visibleComments(db, viewerId).selectAll('c').where('c.id', 'in', [...new Set(ids)]).execute();
  return rows.map((r) => toComment(r as CommentRow));
}

export async function updateComment(db: Executor, id: number, body: string, now: string): Promise<ReviewCommentRecord> {
  const row = await db.updateTable('pull_request_review_comments').set({ body, updated_at: now })
    .where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  return toComment(row as CommentRow);
}

/** The line comments of a pull request that still have a place in its diff (outdated ones stay so). */
export async function placedLineComments(db: Executor, pullRequestId: number): Promise<ReviewCommentRecord[]> {
  const rows = await db.selectFrom('pull_request_review_comments').selectAll().where('pull_request_id', '=', pullRequestId)
    .where('subject_type', '=', 'line').where('position', 'is not', null).orderBy('id').execute();
  return rows.map((r) => toComment(r as CommentRow));
}

/** Where a comment sits in the diff of `commitId`, the head it was last placed against (position null: outdated). */
export interface CommentPlace {
  commitId: string;
  position: number | null;
  line: number | null;
  startLine: number | null;
}

/** Moves comments to their places in a new diff; the original_* fields and updated_at stay as they were. */
export async function placeComments(db: Executor, places: ReadonlyMap<number, CommentPlace>): Promise<void> {
  for (const [id, p] of places) {
    await db.updateTable('pull_request_review_comments')
      .set({ commit_id: p.commitId, position: p.position, line: p.line, start_line: p.startLine }).where('id', '=', id).execute();
  }
}

export async function deleteComment(db: Executor, id: number): Promise<void> {
  // Replies keep pointing at a removed comment's id, as upstream's do.
  await db.deleteFrom('pull_request_review_comments').where('id', '=', id).execute();
}

/** How many comments a review holds (a pending review with comments may be submitted without a body). */
export async function countCommentsOfReview(db: Executor, reviewId: number): Promise<number> {
  const row = await db.selectFrom('pull_request_review_comments').select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('review_id', '=', reviewId).executeTakeFirstOrThrow();
  return Number(row.n);
}
