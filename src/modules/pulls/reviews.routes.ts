// Reviews of pull requests: list, create, get, update, delete a pending one, its
// comments, submit, dismiss.
import type { FastifyRequest } from 'fastify';
import { paged, pageOf } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { CreateReviewBody, DismissReviewBody, PageQuery, PullParams, Review, ReviewComment, ReviewParams, SubmitReviewBody, UpdateReviewBody } from './pulls.schemas.ts';
import { presentReviewComments, presentReviews } from './reviews.present.ts';
import * as reviews from './reviews.service.ts';
import type { ReviewView } from './reviews.views.ts';
import { PagedArray } from '../../http/schema-types.ts';

const RESOURCE = 'PullRequestReview';
const WRITE = ['public_repo', 'repo'];

async function present(request: FastifyRequest, r: reviews.LocatedReview): Promise<ReviewView> {
  const [view] = await presentReviews(request.server.ctx, r.repo, r.pull, [r.review], request.media.bodyFormat);
  return view!;
}

export function reviewsRoutes(app: Router): void {
  app.get('/repos/:owner/:repo/pulls/:pull_number/reviews', {
    schema: { params: PullParams, querystring: PageQuery, response: { 200: PagedArray(Review) } },
    config: { operationId: 'pulls/list-reviews' },
  }, async (request) => {
    const { owner, repo, pull_number: number } = request.params;
    const p = pageOf(request.query);
    const page = await reviews.listReviews(request.server.ctx, request.actor, owner, repo, number, p);
    return paged(await presentReviews(request.server.ctx, page.repo, page.pull, page.items, request.media.bodyFormat), p, page.total);
  });

  app.post('/repos/:owner/:repo/pulls/:pull_number/reviews', {
    schema: { params: PullParams, body: CreateReviewBody, response: { 200: Review } },
    config: { operationId: 'pulls/create-review', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, pull_number: number } = request.params;
    const b = request.body ?? {};
    return present(request, await reviews.createReview(request.server.ctx, request.actor, owner, repo, number, {
      commitId: b.commit_id, body: b.body, event: b.event,
      comments: b.comments?.map((c) => ({
        path: c.path, position: c.position, body: c.body, line: c.line, side: c.side, startLine: c.start_line, startSide: c.start_side,
      })),
    }));
  });

  app.get('/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id', {
    schema: { params: ReviewParams, response: { 200: Review } },
    config: { operationId: 'pulls/get-review' },
  }, async (request) => {
    const { owner, repo, pull_number: number, review_id: id } = request.params;
    return present(request, await reviews.getReview(request.server.ctx, request.actor, owner, repo, number, id));
  });

  app.put('/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id', {
    schema: { params: ReviewParams, body: UpdateReviewBody, response: { 200: Review } },
    config: { operationId: 'pulls/update-review', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, pull_number: number, review_id: id } = request.params;
    return present(request, await reviews.updateReview(request.server.ctx, request.actor, owner, repo, number, id, request.body.body));
  });

  app.delete('/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id', {
    schema: { params: ReviewParams, response: { 200: Review } },
    config: { operationId: 'pulls/delete-pending-review', acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, pull_number: number, review_id: id } = request.params;
    return present(request, await reviews.deletePendingReview(request.server.ctx, request.actor, owner, repo, number, id));
  });

  app.get('/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id/comments', {
    schema: { params: ReviewParams, querystring: PageQuery, response: { 200: PagedArray(ReviewComment) } },
    config: { operationId: 'pulls/list-comments-for-review' },
  }, async (request) => {
    const { owner, repo, pull_number: number, review_id: id } = request.params;
    const p = pageOf(request.query);
    const page = await reviews.listReviewComments(request.server.ctx, request.actor, owner, repo, number, id, p);
    return paged(await presentReviewComments(request.server.ctx, page.repo, page.items, request.media.bodyFormat, [page.pull]), p, page.total);
  });

  app.post('/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id/events', {
    schema: { params: ReviewParams, body: SubmitReviewBody, response: { 200: Review } },
    config: { operationId: 'pulls/submit-review', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, pull_number: number, review_id: id } = request.params;
    return present(request, await reviews.submitReview(request.server.ctx, request.actor, owner, repo, number, id, request.body));
  });

  app.put('/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id/dismissals', {
    schema: { params: ReviewParams, body: DismissReviewBody, response: { 200: Review } },
    config: { operationId: 'pulls/dismiss-review', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, pull_number: number, review_id: id } = request.params;
    return present(request, await reviews.dismissReview(request.server.ctx, request.actor, owner, repo, number, id, request.body.message));
  });
}
