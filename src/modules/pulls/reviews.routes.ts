// Reviews and review comments of pull requests.
import type { FastifyRequest } from 'fastify';
import { pageOf, setPageLinks } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { bodyFormatOf, type BodyFormat } from '../issues/issues.views.ts';
import {
  CommentBody, CommentParams, CreateCommentBody, CreateReviewBody, DismissReviewBody, ListCommentsQuery, PageQuery,
  PullCommentParams, PullParams, ReplyBody, RepoParams, ReviewParams, SubmitReviewBody, UpdateReviewBody,
} from './pulls.schemas.ts';
import * as comments from './review-comments.service.ts';
import * as reviews from './reviews.service.ts';

const WRITE = ['public_repo', 'repo'];

function format(request: FastifyRequest): BodyFormat {
  return bodyFormatOf(request.media.param);
}

export function reviewsRoutes(app: Router): void {
  // ---------------------------------------------------------------- reviews

  app.get('/repos/:owner/:repo/pulls/:pull_number/reviews', {
    schema: { params: PullParams, querystring: PageQuery },
    config: { operationId: 'pulls/list-reviews' },
  }, async (request, reply) => {
    const { owner, repo, pull_number: number } = request.params;
    const p = pageOf(request.query);
    const page = await reviews.listReviews(request.server.ctx, request.actor, owner, repo, number, p, format(request));
    setPageLinks(request, reply, p, page.total);
    return page.items;
  });

  app.post('/repos/:owner/:repo/pulls/:pull_number/reviews', {
    schema: { params: PullParams, body: CreateReviewBody },
    config: { operationId: 'pulls/create-review', resource: 'PullRequestReview', acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, pull_number: number } = request.params;
    const b = request.body ?? {};
    return reviews.createReview(request.server.ctx, request.actor, owner, repo, number, {
      commitId: b.commit_id, body: b.body, event: b.event,
      comments: b.comments?.map((c) => ({
        path: c.path, position: c.position, body: c.body, line: c.line, side: c.side, startLine: c.start_line, startSide: c.start_side,
      })),
    }, format(request));
  });

  app.get('/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id', {
    schema: { params: ReviewParams },
    config: { operationId: 'pulls/get-review' },
  }, async (request) => {
    const { owner, repo, pull_number: number, review_id: id } = request.params;
    return reviews.getReview(request.server.ctx, request.actor, owner, repo, number, id, format(request));
  });

  app.put('/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id', {
    schema: { params: ReviewParams, body: UpdateReviewBody },
    config: { operationId: 'pulls/update-review', resource: 'PullRequestReview', acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, pull_number: number, review_id: id } = request.params;
    return reviews.updateReview(request.server.ctx, request.actor, owner, repo, number, id, request.body.body, format(request));
  });

  app.delete('/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id', {
    schema: { params: ReviewParams },
    config: { operationId: 'pulls/delete-pending-review', acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, pull_number: number, review_id: id } = request.params;
    return reviews.deletePendingReview(request.server.ctx, request.actor, owner, repo, number, id, format(request));
  });

  app.get('/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id/comments', {
    schema: { params: ReviewParams, querystring: PageQuery },
    config: { operationId: 'pulls/list-comments-for-review' },
  }, async (request, reply) => {
    const { owner, repo, pull_number: number, review_id: id } = request.params;
    const p = pageOf(request.query);
    const page = await reviews.listReviewComments(request.server.ctx, request.actor, owner, repo, number, id, p, format(request));
    setPageLinks(request, reply, p, page.total);
    return page.items;
  });

  app.post('/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id/events', {
    schema: { params: ReviewParams, body: SubmitReviewBody },
    config: { operationId: 'pulls/submit-review', resource: 'PullRequestReview', acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, pull_number: number, review_id: id } = request.params;
    return reviews.submitReview(request.server.ctx, request.actor, owner, repo, number, id, request.body, format(request));
  });

  app.put('/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id/dismissals', {
    schema: { params: ReviewParams, body: DismissReviewBody },
    config: { operationId: 'pulls/dismiss-review', resource: 'PullRequestReview', acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, pull_number: number, review_id: id } = request.params;
    return reviews.dismissReview(request.server.ctx, request.actor, owner, repo, number, id, request.body.message, format(request));
  });

  // ---------------------------------------------------------------- review comments

  app.get('/repos/:owner/:repo/pulls/comments', {
    schema: { params: RepoParams, querystring: ListCommentsQuery },
    config: { operationId: 'pulls/list-review-comments-for-repo' },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const { sort, direction, since } = request.query;
    const page = await comments.listRepoReviewComments(request.server.ctx, request.actor, owner, repo, { sort, direction, since }, p, format(request));
    setPageLinks(request, reply, p, page.total);
    return page.items;
  });

  app.get('/repos/:owner/:repo/pulls/comments/:comment_id', {
    schema: { params: CommentParams },
    config: { operationId: 'pulls/get-review-comment' },
  }, async (request) => {
    const { owner, repo, comment_id: id } = request.params;
    return comments.getReviewComment(request.server.ctx, request.actor, owner, repo, id, format(request));
  });

  app.patch('/repos/:owner/:repo/pulls/comments/:comment_id', {
    schema: { params: CommentParams, body: CommentBody },
    config: { operationId: 'pulls/update-review-comment', resource: 'PullRequestReviewComment', acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, comment_id: id } = request.params;
    return comments.updateReviewComment(request.server.ctx, request.actor, owner, repo, id, request.body.body, format(request));
  });

  app.delete('/repos/:owner/:repo/pulls/comments/:comment_id', {
    schema: { params: CommentParams },
    config: { operationId: 'pulls/delete-review-comment', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, comment_id: id } = request.params;
    await comments.deleteReviewComment(request.server.ctx, request.actor, owner, repo, id);
    return reply.code(204).send();
  });

  app.get('/repos/:owner/:repo/pulls/:pull_number/comments', {
    schema: { params: PullParams, querystring: ListCommentsQuery },
    config: { operationId: 'pulls/list-review-comments' },
  }, async (request, reply) => {
    const { owner, repo, pull_number: number } = request.params;
    const p = pageOf(request.query);
    const { sort, direction, since } = request.query;
    const page = await comments.listPullReviewComments(request.server.ctx, request.actor, owner, repo, number, { sort, direction, since }, p, format(request));
    setPageLinks(request, reply, p, page.total);
    return page.items;
  });

  app.post('/repos/:owner/:repo/pulls/:pull_number/comments', {
    schema: { params: PullParams, body: CreateCommentBody },
    config: { operationId: 'pulls/create-review-comment', resource: 'PullRequestReviewComment', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, pull_number: number } = request.params;
    const b = request.body;
    const view = await comments.createReviewComment(request.server.ctx, request.actor, owner, repo, number, {
      body: b.body, commitId: b.commit_id, path: b.path, position: b.position, side: b.side, line: b.line,
      startLine: b.start_line, startSide: b.start_side, inReplyTo: b.in_reply_to, subjectType: b.subject_type,
    }, format(request));
    return reply.code(201).header('location', view.url).send(view);
  });

  app.post('/repos/:owner/:repo/pulls/:pull_number/comments/:comment_id/replies', {
    schema: { params: PullCommentParams, body: ReplyBody },
    config: { operationId: 'pulls/create-reply-for-review-comment', resource: 'PullRequestReviewComment', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, pull_number: number, comment_id: id } = request.params;
    const view = await comments.createReviewComment(request.server.ctx, request.actor, owner, repo, number, {
      body: request.body.body, inReplyTo: id,
    }, format(request));
    return reply.code(201).header('location', view.url).send(view);
  });
}
