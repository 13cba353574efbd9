// Review threads: a first review comment and its replies (threads are flat), resolved or
// not. Resolving matters to the base branch's required conversation resolution; upstream
// lets those with write access and the pull request's author resolve a thread, and
// tells webhooks with `pull_request_review_thread` resolved/unresolved.
import { inTransaction, type AppContext } from '../../context.ts';
import { requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { ForbiddenError, NotFoundError } from '../../domain/errors.ts';
import { encodeNodeId } from '../../domain/node-id.ts';
import { recordEvent } from '../../events/outbox.ts';
import type { IssueRecord } from '../issues/issues.model.ts';
import { roleAtLeast, type Role } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { orgIdOf } from './pulls.events.ts';
import type { ReviewCommentRecord } from './pulls.model.ts';
import { locatePull, reload, requireWritable, type LocatedPull } from './pulls.service.ts';
import { presentReviewComments } from './reviews.present.ts';
import { payloadPullSimple } from './reviews.service.ts';
import * as pullStore from './pulls.store.ts';
import * as reviewStore from './reviews.store.ts';
import * as store from './review-threads.store.ts';
import type { Resolution } from './review-threads.store.ts';

export interface ReviewThread {
  /** The first comment: its id names the thread. */
  root: ReviewCommentRecord;
  /** The first comment and its replies, oldest first. */
  comments: ReviewCommentRecord[];
  resolution: Resolution | null;
}

/** Those with write access and the pull request's author resolve and unresolve threads. */
export function canResolveThread(viewerId: number | null, role: Role | null, issue: IssueRecord): boolean {
  return roleAtLeast(role, 'push') || (viewerId !== null && issue.userId === viewerId);
}

function grouped(comments: readonly ReviewCommentRecord[], resolutions: Map<number, Resolution>): ReviewThread[] {
  const threads = new Map<number, ReviewThread>();
  for (const c of comments) {
    if (c.inReplyToId === null) threads.set(c.id, { root: c, comments: [c], resolution: resolutions.get(c.id) ?? null });
  }
  for (const c of comments) {
    if (c.inReplyToId !== null) threads.get(c.inReplyToId)?.comments.push(c);
  }
  return [...threads.values()];
}

/** The review threads of pull requests as the viewer sees them (their own pending comments included), in order. */
export async function threadsOfPull(ctx: AppContext, viewerId: number | null, pullRequestId: number): Promise<ReviewThread[]> {
  const comments = await reviewStore.commentsOfPull(ctx.db, pullRequestId, viewerId);
  const resolutions = await store.resolutionsOf(ctx.db, comments.filter((c) => c.inReplyToId === null).map((c) => c.id));
  return grouped(comments, resolutions);
}

export interface LocatedThread extends LocatedPull {
  thread: ReviewThread;
}

/** The thread whose first comment is `commentId`, on a pull request the caller may read. */
export async function requireThread(ctx: AppContext, actor: Actor, commentId: number): Promise<LocatedThread> {
  const viewerId = actor.user?.id ?? null;
  const [root] = await reviewStore.findCommentsByIds(ctx.db, [commentId], viewerId);
  if (!root || root.inReplyToId !== null) throw new NotFoundError();
  const [repo] = await repos.reposByIds(ctx, [root.repositoryId]);
  const [pull] = await pullStore.findByIds(ctx.db, [root.pullRequestId]);
  if (!repo || !pull) throw new NotFoundError();
  const l = await locatePull(ctx, actor, repo.owner.login, repo.name, pull.number);
  const thread = (await threadsOfPull(ctx, viewerId, l.pull.id)).find((t) => t.root.id === root.id);
  if (!thread) throw new NotFoundError();
  return { ...l, thread };
}

/** resolveReviewThread and unresolveReviewThread; a thread already so stays as it is, without an event. */
export async function setThreadResolved(ctx: AppContext, actor: Actor, commentId: number, resolved: boolean): Promise<LocatedThread> {
  const user = requireUser(actor);
  const l = await requireThread(ctx, actor, commentId);
  requireWritable(l.repo);
  if (!canResolveThread(user.id, l.role, l.issue)) throw new ForbiddenError('Must have push access or be the author of the pull request to resolve a conversation.');
  if ((l.thread.resolution !== null) === resolved) return l;
  return inTransaction(ctx, async (tx) => {
    if (resolved) await store.resolve(tx.db, commentId, l.pull.id, user.id, nowIso(tx.clock));
    else await store.unresolve(tx.db, commentId);
    const fresh = await reload(tx, l);
    const [thread] = grouped(l.thread.comments, await store.resolutionsOf(tx.db, [commentId]));
    const comments = await presentReviewComments(tx, l.repo, thread!.comments, 'raw', [l.pull]);
    await recordEvent(tx, {
      event: 'pull_request_review_thread', action: resolved ? 'resolved' : 'unresolved', repositoryId: l.repo.id,
      organizationId: orgIdOf(l.repo), actorId: user.id,
      payload: {
        thread: { node_id: encodeNodeId('PullRequestReviewThread', commentId), comments },
        pull_request: await payloadPullSimple(tx, actor, fresh),
      },
    });
    return { ...fresh, thread: thread! };
  });
}

/** Which of these threads (named by their first comments, already read by the caller) are resolved, by whom and when. */
export function resolutionsOfThreads(ctx: AppContext, rootIds: readonly number[]): Promise<Map<number, Resolution>> {
  return store.resolutionsOf(ctx.db, rootIds);
}
