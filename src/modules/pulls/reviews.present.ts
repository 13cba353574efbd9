// Loads what review and review comment views need, in bulk: users, author
// associations, rendered bodies, reaction counts, the pull requests' numbers; then
// builds the views.
import type { AppContext } from '../../context.ts';
import * as issues from '../issues/issues.service.ts';
import { renderBodies } from '../issues/issues.present.ts';
import type { BodyFormat } from '../../http/media-type.ts';
import { loadReactionCounts } from '../reactions/reactions.rollup.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as users from '../users/users.service.ts';
import type { PullRequestRecord, ReviewCommentRecord, ReviewRecord } from './pulls.model.ts';
import * as store from './pulls.store.ts';
import { pullUrls } from './pulls.views.ts';
import { reviewCommentView, reviewView, type ReviewCommentView, type ReviewView } from './reviews.views.ts';

function refOf(repo: Repo) {
  return { owner: repo.owner.login, name: repo.name };
}

export async function presentReviews(
  ctx: AppContext, repo: Repo, pull: PullRequestRecord, reviews: readonly ReviewRecord[], bodyFormat: BodyFormat = 'raw',
): Promise<ReviewView[]> {
  if (!reviews.length) return [];
  const [accounts, associations, rendered] = await Promise.all([
    users.accountsByIds(ctx, reviews.map((r) => r.userId)),
    issues.authorAssociations(ctx, reviews.map((r) => ({ repo, userId: r.userId }))),
    renderBodies(ctx, reviews.map((r) => ({ key: r.id, body: r.body, repo: refOf(repo) })), bodyFormat),
  ]);
  const urls = pullUrls(ctx.urls, repo.owner.login, repo.name, pull.number);
  return reviews.flatMap((r) => {
    const user = accounts.get(r.userId);
    if (!user) return [];
    return [reviewView({
      review: r, pull: urls, user, authorAssociation: associations.get(`${repo.id}:${r.userId}`) ?? 'NONE', rendered: rendered.get(r.id),
    }, { urls: ctx.urls, bodyFormat })];
  });
}

export async function presentReviewComments(
  ctx: AppContext, repo: Repo, comments: readonly ReviewCommentRecord[], bodyFormat: BodyFormat = 'raw', known: readonly PullRequestRecord[] = [],
): Promise<ReviewCommentView[]> {
  if (!comments.length) return [];
  const pulls = new Map(known.map((p) => [p.id, p]));
  const missing = comments.map((c) => c.pullRequestId).filter((id) => !pulls.has(id));
  for (const p of await store.findByIds(ctx.db, missing)) pulls.set(p.id, p);
  const [accounts, associations, rendered, reactions] = await Promise.all([
    users.accountsByIds(ctx, comments.map((c) => c.userId)),
    issues.authorAssociations(ctx, comments.map((c) => ({ repo, userId: c.userId }))),
    renderBodies(ctx, comments.map((c) => ({ key: c.id, body: c.body, repo: refOf(repo) })), bodyFormat),
    loadReactionCounts(ctx, 'pull_request_review_comment', comments.map((c) => c.id)),
  ]);
  const repoApi = ctx.urls.api('repos', repo.owner.login, repo.name);
  return comments.flatMap((c) => {
    const user = accounts.get(c.userId);
    const pull = pulls.get(c.pullRequestId);
    if (!user || !pull) return [];
    return [reviewCommentView({
      comment: c, repoApi, pull: pullUrls(ctx.urls, repo.owner.login, repo.name, pull.number), user,
      authorAssociation: associations.get(`${repo.id}:${c.userId}`) ?? 'NONE',
      reactions: reactions.get(c.id), rendered: rendered.get(c.id),
    }, { urls: ctx.urls, bodyFormat })];
  });
}
