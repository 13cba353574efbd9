// Review threads on the pull request page: which are resolved (and by whom), a reply to a
// thread as POST …/pulls/{n}/comments/{id}/replies makes it, and resolving or unresolving
// one as GraphQL's resolveReviewThread and unresolveReviewThread do, each through the
// pulls module's services with the viewer as actor (their rules decide who may).
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { ReviewCommentRecord } from '../pulls/pulls.model.ts';
import * as reviewComments from '../pulls/review-comments.service.ts';
import { requireThread, resolutionsOfThreads, setThreadResolved } from '../pulls/review-threads.service.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';

export interface ThreadResolution {
  resolvedBy: Account | null;
  resolvedAt: string;
}

/** The resolved threads among these comments, by their first comment's id. */
export async function resolvedThreadsOf(ctx: AppContext, comments: readonly ReviewCommentRecord[]): Promise<Map<number, ThreadResolution>> {
  const found = await resolutionsOfThreads(ctx, comments.filter((c) => c.inReplyToId === null).map((c) => c.id));
  const people = await users.accountsByIds(ctx, [...found.values()].flatMap((r) => (r.resolvedById === null ? [] : [r.resolvedById])));
  return new Map([...found].map(([id, r]) => [id, { resolvedBy: r.resolvedById === null ? null : people.get(r.resolvedById) ?? null, resolvedAt: r.resolvedAt }]));
}

/** A reply to the thread of comment `commentId` (a reply to a reply answers the thread), on pull request `number`. */
export async function replyToThread(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, commentId: number, body: string,
): Promise<{ id: number }> {
  const made = await reviewComments.createReviewComment(ctx, actor, owner, name, number, { body, inReplyTo: commentId });
  return { id: made.comment.id };
}

/** Resolves or unresolves the thread that comment `commentId` starts, when it is one of pull request `number` of this repository. */
export async function resolveThread(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, commentId: number, resolved: boolean,
): Promise<void> {
  const at = await requireThread(ctx, actor, commentId);
  // A thread of another pull request is not at this address.
  if (at.pull.number !== number || at.repo.owner.login.toLowerCase() !== owner.toLowerCase() || at.repo.name.toLowerCase() !== name.toLowerCase()) {
    throw new NotFoundError();
  }
  await setThreadResolved(ctx, actor, commentId, resolved);
}
