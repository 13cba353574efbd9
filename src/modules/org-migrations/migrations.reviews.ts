// pull_request_reviews_*.json and pull_request_review_comments_*.json: submitted
// reviews and their comments as the REST API represents them, plus upstream's archive
// layout fields (type, pull_request, pull_request_review, created_at). Pending reviews
// are their author's drafts, unseen by anyone else: they stay out, with their comments.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { everyPage } from '../../domain/page.ts';
import type { PullRequestRecord, ReviewCommentRecord, ReviewRecord } from '../pulls/pulls.model.ts';
import * as reviewComments from '../pulls/review-comments.service.ts';
import { presentReviewComments, presentReviews } from '../pulls/reviews.present.ts';
import * as reviews from '../pulls/reviews.service.ts';
import type { Repo } from '../repos/repos.model.ts';

type Json = Record<string, unknown>;

export async function reviewRecords(
  ctx: AppContext, actor: Actor, repo: Repo, pulls: readonly PullRequestRecord[],
): Promise<{ pull_request_reviews: Json[]; pull_request_review_comments: Json[] }> {
  const owner = repo.owner.login;
  const reviewJson: Json[] = [];
  const kept = new Map<number, ReviewRecord>();
  for (const pull of pulls) {
    const found = (await everyPage((s) => reviews.listReviews(ctx, actor, owner, repo.name, pull.number, s))).filter((r) => r.state !== 'PENDING');
    const views = await presentReviews(ctx, repo, pull, found);
    // presentReviews leaves out reviews whose author is gone; match by id, not position.
    const byId = new Map(found.map((r) => [r.id, r]));
    for (const v of views) {
      const r = byId.get(v.id)!;
      kept.set(r.id, r);
      reviewJson.push({ ...v, type: 'pull_request_review', pull_request: v.pull_request_url, created_at: r.createdAt });
    }
  }
  const comments: ReviewCommentRecord[] = (await everyPage((s) => reviewComments.listRepoReviewComments(ctx, actor, owner, repo.name, { sort: 'created', direction: 'asc' }, s)))
    .filter((c) => kept.has(c.reviewId));
  const commentViews = await presentReviewComments(ctx, repo, comments, 'raw', pulls);
  const reviewUrl = (c: { pull_request_url: string; pull_request_review_id: number | null }) => `${c.pull_request_url}/reviews/${c.pull_request_review_id}`;
  return {
    pull_request_reviews: reviewJson,
    pull_request_review_comments: commentViews.map((v) => ({
      ...v, type: 'pull_request_review_comment', pull_request: v.pull_request_url, pull_request_review: reviewUrl(v),
    })),
  };
}
