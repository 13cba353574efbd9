// Pull requests: list, create, get (JSON, diff, patch), update, commits, files, merge,
// update-branch. Requested reviewers, reviews and review comments have their own route
// files, registered from here.
import type { FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';
import { paged, pageOf } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { commitRecord, diffEntry } from '../git-data/commits.views.ts';
import { repoUrls } from '../git-data/git-data.views.ts';
import * as changes from './pulls.changes.ts';
import * as merging from './pulls.merge.ts';
import { presentPull, presentPulls } from './pulls.present.ts';
import { Commit, CreatePullBody, DiffEntry, ListPullsQuery, MergeBody, MergeResult, PageQuery, PullParams, PullRequest, PullRequestOrText, PullRequestSimple, RepoParams, UpdateBranchAccepted, UpdateBranchBody, UpdatePullBody } from './pulls.schemas.ts';
import * as pulls from './pulls.service.ts';
import { listPullsOfCommit } from './pulls.of-commit.ts';
import { mergeResult } from './pulls.views.ts';
import { reviewCommentsRoutes } from './review-comments.routes.ts';
import { reviewRequestsRoutes } from './review-requests.routes.ts';
import { reviewsRoutes } from './reviews.routes.ts';
import { PagedArray } from '../../http/schema-types.ts';

const RESOURCE = 'PullRequest';
const WRITE = ['public_repo', 'repo'];
const TEXT_MEDIA = { diff: 'application/vnd.service.diff; charset=utf-8', patch: 'application/vnd.service.patch; charset=utf-8' } as const;

export function pullsRoutes(app: Router): void {

  app.get('/repos/:owner/:repo/commits/:commit_sha/pulls', {
    schema: { params: Type.Object({ owner: Type.String(), repo: Type.String(), commit_sha: Type.String() }), querystring: PageQuery, response: { 200: PagedArray(PullRequestSimple) } },
    config: { operationId: 'repos/list-pull-requests-associated-with-commit' },
  }, async (request) => {
    const { ctx } = request.server;
    const { owner, repo, commit_sha: sha } = request.params;
    const p = pageOf(request.query);
    const page = await listPullsOfCommit(ctx, request.actor, owner, repo, sha, p);
    return paged(await presentPulls(ctx, request.actor, page.repo, page.items, request.media), p, page.total);
  });

  app.get('/repos/:owner/:repo/pulls', {
    schema: { params: RepoParams, querystring: ListPullsQuery, response: { 200: PagedArray(PullRequestSimple) } },
    config: { operationId: 'pulls/list', resource: RESOURCE, answerCache: true },
  }, async (request) => {
    const { ctx } = request.server;
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const { state, head, base, sort, direction } = request.query;
    const page = await pulls.listPulls(ctx, request.actor, owner, repo, {
      state, head, base, sort, direction, offset: p.offset, limit: p.perPage,
    });
    return paged(await presentPulls(ctx, request.actor, page.repo, page.items, request.media), p, page.total);
  });

  app.post('/repos/:owner/:repo/pulls', {
    schema: { params: RepoParams, body: CreatePullBody, response: { 201: PullRequest } },
    config: { operationId: 'pulls/create', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { ctx } = request.server;
    const { owner, repo } = request.params;
    const b = request.body;
    const l = await pulls.createPull(ctx, request.actor, owner, repo, {
      title: b.title, body: b.body, head: b.head, headRepo: b.head_repo, base: b.base, draft: b.draft,
      maintainerCanModify: b.maintainer_can_modify, issue: b.issue,
    });
    const view = await presentPull(ctx, request.actor, l.repo, l, request.media);
    return reply.code(201).header('location', view.url).send(view);
  });

  app.get('/repos/:owner/:repo/pulls/:pull_number', {
    schema: { params: PullParams, response: { 200: PullRequestOrText } },
    config: { operationId: 'pulls/get', resource: RESOURCE, answerCache: true },
  }, async (request, reply) => {
    const { ctx } = request.server;
    const { owner, repo, pull_number: number } = request.params;
    const media = request.media.param;
    if (media === 'diff' || media === 'patch') {
      const text = await changes.pullText(ctx, request.actor, owner, repo, number, media);
      // Text media types answer outside the JSON representation.
      return (reply as FastifyReply).type(TEXT_MEDIA[media]).send(text);
    }
    const l = await pulls.getPull(ctx, request.actor, owner, repo, number);
    return presentPull(ctx, request.actor, l.repo, l, request.media);
  });

  app.patch('/repos/:owner/:repo/pulls/:pull_number', {
    schema: { params: PullParams, body: UpdatePullBody, response: { 200: PullRequest } },
    config: { operationId: 'pulls/update', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request) => {
    const { ctx } = request.server;
    const { owner, repo, pull_number: number } = request.params;
    const b = request.body ?? {};
    const l = await pulls.updatePull(ctx, request.actor, owner, repo, number, {
      title: b.title, body: b.body, state: b.state, base: b.base, maintainerCanModify: b.maintainer_can_modify,
    });
    return presentPull(ctx, request.actor, l.repo, l, request.media);
  });

  app.get('/repos/:owner/:repo/pulls/:pull_number/commits', {
    schema: { params: PullParams, querystring: PageQuery, response: { 200: PagedArray(Commit) } },
    config: { operationId: 'pulls/list-commits' },
  }, async (request) => {
    const { owner, repo, pull_number: number } = request.params;
    const { urls } = request.server.ctx;
    const p = pageOf(request.query, 30, 100);
    const page = await changes.listPullCommits(request.server.ctx, request.actor, owner, repo, number, { offset: p.offset, limit: p.perPage });
    const u = repoUrls(urls, page.repo);
    return paged(page.items.map((d) => commitRecord(urls, u, page.repo, d)), p, page.total);
  });

  app.get('/repos/:owner/:repo/pulls/:pull_number/files', {
    schema: { params: PullParams, querystring: PageQuery, response: { 200: PagedArray(DiffEntry) } },
    config: { operationId: 'pulls/list-files' },
  }, async (request) => {
    const { owner, repo, pull_number: number } = request.params;
    const p = pageOf(request.query, 30, 100);
    const page = await changes.listPullFiles(request.server.ctx, request.actor, owner, repo, number, { offset: p.offset, limit: p.perPage });
    // A pull request's files point at its head commit.
    const u = repoUrls(request.server.ctx.urls, page.repo);
    return paged(page.items.map((f) => diffEntry(u, page.headSha, f)), p, page.total);
  });

  app.get('/repos/:owner/:repo/pulls/:pull_number/merge', {
    schema: { params: PullParams, response: { 204: Type.Null() } },
    config: { operationId: 'pulls/check-if-merged' },
  }, async (request, reply) => {
    const { owner, repo, pull_number: number } = request.params;
    await merging.checkMerged(request.server.ctx, request.actor, owner, repo, number);
    return reply.code(204).send(null);
  });

  app.put('/repos/:owner/:repo/pulls/:pull_number/merge', {
    schema: { params: PullParams, body: MergeBody, response: { 200: MergeResult } },
    config: { operationId: 'pulls/merge', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, pull_number: number } = request.params;
    const b = request.body ?? {};
    const outcome = await merging.mergePull(request.server.ctx, request.actor, owner, repo, number, {
      commitTitle: b.commit_title, commitMessage: b.commit_message, sha: b.sha, mergeMethod: b.merge_method,
    });
    return mergeResult(outcome.sha);
  });

  app.put('/repos/:owner/:repo/pulls/:pull_number/update-branch', {
    schema: { params: PullParams, body: UpdateBranchBody, response: { 202: UpdateBranchAccepted } },
    config: { operationId: 'pulls/update-branch', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, pull_number: number } = request.params;
    const outcome = await merging.updateBranch(request.server.ctx, request.actor, owner, repo, number, request.body?.expected_head_sha);
    return reply.code(202).send(outcome);
  });

  reviewRequestsRoutes(app);
  reviewsRoutes(app);
  reviewCommentsRoutes(app);
}
