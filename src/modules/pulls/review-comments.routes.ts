// Review comments of pull requests: of a repository, of a pull request; get, update,
// delete, create, reply.
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { storedTimestamp } from '../../domain/clock.ts';
import { paged, pageOf } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { CommentBody, CommentParams, CreateCommentBody, ListCommentsQuery, PullCommentParams, PullParams, ReplyBody, RepoParams, ReviewComment } from './pulls.schemas.ts';
import * as comments from './review-comments.service.ts';
import { presentReviewComments } from './reviews.present.ts';
import type { ReviewCommentView } from './reviews.views.ts';
import { PagedArray } from '../../http/schema-types.ts';

const RESOURCE = 'PullRequestReviewComment';
const WRITE = ['public_repo', 'repo'];

async function present(request: FastifyRequest, c: comments.LocatedComment): Promise<ReviewCommentView> {
  const [view] = await presentReviewComments(request.server.ctx, c.repo, [c.comment], request.media.bodyFormat, c.pull ? [c.pull] : []);
  return view!;
}

function listQuery(q: ListCommentsQuery): comments.ListCommentsQuery {
  return { sort: q.sort, direction: q.direction, since: storedTimestamp(q.since) };
}

export function reviewCommentsRoutes(app: Router): void {
  app.get('/repos/:owner/:repo/pulls/comments', {
    schema: { params: RepoParams, querystring: ListCommentsQuery, response: { 200: PagedArray(ReviewComment) } },
    config: { operationId: 'pulls/list-review-comments-for-repo' },
  }, async (request) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const page = await comments.listRepoReviewComments(request.server.ctx, request.actor, owner, repo, listQuery(request.query), p);
    return paged(await presentReviewComments(request.server.ctx, page.repo, page.items, request.media.bodyFormat, page.pulls), p, page.total);
  });

  app.get('/repos/:owner/:repo/pulls/comments/:comment_id', {
    schema: { params: CommentParams, response: { 200: ReviewComment } },
    config: { operationId: 'pulls/get-review-comment' },
  }, async (request) => {
    const { owner, repo, comment_id: id } = request.params;
    return present(request, await comments.getReviewComment(request.server.ctx, request.actor, owner, repo, id));
  });

  app.patch('/repos/:owner/:repo/pulls/comments/:comment_id', {
    schema: { params: CommentParams, body: CommentBody, response: { 200: ReviewComment } },
    config: { operationId: 'pulls/update-review-comment', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, comment_id: id } = request.params;
    return present(request, await comments.updateReviewComment(request.server.ctx, request.actor, owner, repo, id, request.body.body));
  });

  app.delete('/repos/:owner/:repo/pulls/comments/:comment_id', {
    schema: { params: CommentParams, response: { 204: Type.Null() } },
    config: { operationId: 'pulls/delete-review-comment', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, comment_id: id } = request.params;
    await comments.deleteReviewComment(request.server.ctx, request.actor, owner, repo, id);
    return reply.code(204).send(null);
  });

  app.get('/repos/:owner/:repo/pulls/:pull_number/comments', {
    schema: { params: PullParams, querystring: ListCommentsQuery, response: { 200: PagedArray(ReviewComment) } },
    config: { operationId: 'pulls/list-review-comments' },
  }, async (request) => {
    const { owner, repo, pull_number: number } = request.params;
    const p = pageOf(request.query);
    const page = await comments.listPullReviewComments(request.server.ctx, request.actor, owner, repo, number, listQuery(request.query), p);
    return paged(await presentReviewComments(request.server.ctx, page.repo, page.items, request.media.bodyFormat, page.pulls), p, page.total);
  });

  app.post('/repos/:owner/:repo/pulls/:pull_number/comments', {
    schema: { params: PullParams, body: CreateCommentBody, response: { 201: ReviewComment } },
    config: { operationId: 'pulls/create-review-comment', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, pull_number: number } = request.params;
    const b = request.body;
    const view = await present(request, await comments.createReviewComment(request.server.ctx, request.actor, owner, repo, number, {
      body: b.body, commitId: b.commit_id, path: b.path, position: b.position, side: b.side, line: b.line,
      startLine: b.start_line, startSide: b.start_side, inReplyTo: b.in_reply_to, subjectType: b.subject_type,
    }));
    return reply.code(201).header('location', view.url).send(view);
  });

  app.post('/repos/:owner/:repo/pulls/:pull_number/comments/:comment_id/replies', {
    schema: { params: PullCommentParams, body: ReplyBody, response: { 201: ReviewComment } },
    config: { operationId: 'pulls/create-reply-for-review-comment', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, pull_number: number, comment_id: id } = request.params;
    const view = await present(request, await comments.createReviewComment(request.server.ctx, request.actor, owner, repo, number, {
      body: request.body.body, inReplyTo: id,
    }));
    return reply.code(201).header('location', view.url).send(view);
  });
}
