// SQL for review threads marked resolved. A thread is named by its first comment (replies
// point at it); a row marks it resolved. Only the pulls module calls this.
import type { Executor } from '../../db/database.ts';

export interface Resolution {
  commentId: number;
  resolvedById: number | null;
  resolvedAt: string;
}

export async function resolutionsOf(db: Executor, commentIds: readonly number[]): Promise<Map<number, Resolution>> {
  if (!commentIds.length) return new Map();
  const rows = await db.selectFrom('review_thread_resolutions').select(['comment_id', 'resolved_by_id', 'resolved_at'])
    .where('comment_id', 'in', [...new Set(commentIds)]).execute();
  return new Map(rows.map((r) => [r.comment_id, { commentId: r.comment_id, resolvedById: r.resolved_by_id, resolvedAt: r.resolved_at }]));
}

/** Marks the thread resolved; a thread resolved already keeps who resolved it first. */
export async function resolve(db: Executor, commentId: number, pullRequestId: number, userId: number, now: string): Promise<void> {
  await db.insertInto('review_thread_resolutions')
    .values({ comment_id: commentId, pull_request_id: pullRequestId, resolved_by_id: userId, resolved_at: now })
    .onConflict((oc) => oc.column('comment_id').doNothing()).execute();
}

export async function unresolve(db: Executor, commentId: number): Promise<void> {
  await db.deleteFrom('review_thread_resolutions').where('comment_id', '=', commentId).execute();
}

/** Threads of submitted reviews (a pending one is its author's draft) that nobody resolved. */
export async function countUnresolved(db: Executor, pullRequestId: number): Promise<number> {
  const row = await db.selectFrom('pull_request_review_comments as c')
    .innerJoin('pull_request_reviews as r', 'r.id', 'c.review_id')
    .leftJoin('review_thread_resolutions as t', 't.comment_id', 'c.id')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('c.pull_request_id', '=', pullRequestId).where('c.in_reply_to_id', 'is', null)
    .where('r.state', '!=', 'PENDING').where('t.comment_id', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
