// Reviews for the pull request page: the submitted reviews (a pending one shows to its
// author alone through the API; the page shows what was submitted, the pending review's
// line comments beside their lines), and the review form's write, through the pulls
// module's review service with the viewer as actor.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { ValidationError } from '../../domain/errors.ts';
import { renderHtml } from '../markdown/markdown.service.ts';
import { REVIEW_EVENTS, type ReviewEvent, type ReviewRecord } from '../pulls/pulls.model.ts';
import * as reviews from '../pulls/reviews.service.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';

export interface ReviewEntry {
  record: ReviewRecord;
  html: string;
  author: Account | null;
}

/** Reviews shown on one pull request page; the API pages the rest. */
const MAX_REVIEWS = 100;

export async function submittedReviews(ctx: AppContext, actor: Actor, owner: string, name: string, number: number): Promise<ReviewEntry[]> {
  const list = await reviews.listReviews(ctx, actor, owner, name, number, { perPage: MAX_REVIEWS, offset: 0 });
  const submitted = list.items.filter((r) => r.state !== 'PENDING');
  const context = `${list.repo.owner.login}/${list.repo.name}`;
  const [authors, html] = await Promise.all([
    users.accountsByIds(ctx, submitted.map((r) => r.userId)),
    Promise.all(submitted.map((r) => (r.body ? renderHtml(ctx, r.body, { mode: 'gfm', context }) : Promise.resolve('')))),
  ]);
  return submitted.map((r, i) => ({ record: r, html: html[i]!, author: authors.get(r.userId) ?? null }));
}

export function reviewEvent(raw: string | undefined): ReviewEvent {
  const event = REVIEW_EVENTS.find((e) => e === raw);
  if (!event) throw new ValidationError([{ resource: 'PullRequestReview', field: 'event', code: 'invalid', message: 'Choose Comment, Approve or Request changes.' }]);
  return event;
}

/**
 * Submits the viewer's pending review with its line comments (POST …/reviews/{id}/events)
 * or, when they have none, a review at once, as the API's create with an event does;
 * gives it with its repository.
 */
export async function submitReview(ctx: AppContext, actor: Actor, owner: string, name: string, number: number, body: string, event: string | undefined): Promise<reviews.LocatedReview> {
  const chosen = reviewEvent(event);
  const pending = await reviews.findOwnPendingReview(ctx, actor, owner, name, number);
  if (pending) return reviews.submitReview(ctx, actor, owner, name, number, pending.id, { body, event: chosen });
  return reviews.createReview(ctx, actor, owner, name, number, { body, event: chosen });
}
