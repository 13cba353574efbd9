// The pulls module's part of the wiring: pushes synchronize pull requests (whose review
// comments then follow the new diff), statuses,
// checks, reviews and pushes wake auto-merge, the issues
// module learns of pull requests and the reactions module of review comments through
// providers (they may not import pulls, which imports them).
import type { EventBus } from '../../events/bus.ts';
import { pullRequestInfo } from './pulls.present.ts';
import { updatePull } from './pulls.service.ts';
import { requireReviewComment } from './review-comments.service.ts';
import { requireSubmittedReview } from './reviews.service.ts';
import { onEvent } from './pulls.sync.ts';
import { onEvent as onAutoMergeEvent } from './auto-merge.subscribers.ts';
import { onEvent as onOutdatingEvent } from './review-comments.outdating.ts';

export function register(bus: EventBus): void {
  bus.subscribe(onEvent);
  bus.subscribe(onAutoMergeEvent);
  bus.subscribe(onOutdatingEvent);
  bus.provide('pullRequestInfo', pullRequestInfo);
  // PATCH /issues/{n} on a pull request: title, body and state go through updatePull.
  bus.provide('pullRequestEditor', async (ctx, actor, owner, name, number, changes) => {
    await updatePull(ctx, actor, owner, name, number, changes);
  });
  bus.provide('reviewCommentSubject', async (ctx, actor, owner, name, commentId) =>
    (await requireReviewComment(ctx, actor, owner, name, commentId)).comment.id);
  bus.provide('reviewSubject', async (ctx, actor, owner, name, reviewId) =>
    (await requireSubmittedReview(ctx, actor, owner, name, reviewId)).id);
}
