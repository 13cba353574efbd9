// Pull requests: list, create, get (JSON, diff, patch), update, commits, files, merge,
// update-branch, requested reviewers.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageOf, setPageLinks } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { commitRecord } from '../git-data/commits.views.ts';
import { repoUrls } from '../git-data/git-data.views.ts';
import { bodyFormatOf } from '../issues/issues.views.ts';
import * as changes from './pulls.changes.ts';
import * as merging from './pulls.merge.ts';
import { registerIssueInfo } from './pulls.present.ts';
import * as issuesService from '../issues/issues.service.ts';
import {
  CreatePullBody, ListPullsQuery, MergeBody, PageQuery, PullParams, RepoParams, ReviewersBody, UpdateBranchBody, UpdatePullBody,
} from './pulls.schemas.ts';
import * as pulls from './pulls.service.ts';
import { subscribePushes } from './pulls.sync.ts';
import { mergeResult, pullFile, pullRequest, pullRequestSimple, requestedReviewers, type PullViewOptions } from './pulls.views.ts';
import * as requests from './review-requests.service.ts';
import { reviewsRoutes } from './reviews.routes.ts';

const RESOURCE = 'PullRequest';
const WRITE = ['public_repo', 'repo'];
const TEXT_MEDIA = { diff: 'application/vnd.service.diff; charset=utf-8', patch: 'application/vnd.service.patch; charset=utf-8' } as const;

/** The representation the Accept header asks for: body fields and previews. */
export function viewOptions(request: FastifyRequest): pulls.ViewOptions {
  return { bodyFormat: bodyFormatOf(request.media.param), previews: request.media.previews };
}

function present(request: FastifyRequest): PullViewOptions {
  return { urls: request.server.ctx.urls, previews: request.media.previews };
}

export function pullsRoutes(app: Router): void {
  registerIssueInfo();
  subscribePushes();
  // PATCH /issues/{n} on a pull request: title, body and state go through updatePull.
  issuesService.providePullRequestEditor(async (ctx, actor, owner, name, number, changes) => {
    await pulls.updatePull(ctx, actor, owner, name, number, changes);
  });

  app.get('/repos/:owner/:repo/pulls', {
    schema: { params: RepoParams, querystring: ListPullsQuery },
    config: { operationId: 'pulls/list', resource: RESOURCE },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const { state, head, base, sort, direction } = request.query;
    const page = await pulls.listPulls(request.server.ctx, request.actor, owner, repo, {
      state, head, base, sort, direction, offset: p.offset, limit: p.perPage,
    }, viewOptions(request));
    setPageLinks(request, reply, p, page.total);
    return page.items.map((d) => pullRequestSimple(d, present(request)));
  });

  app.post('/repos/:owner/:repo/pulls', {
    schema: { params: RepoParams, body: CreatePullBody },
    config: { operationId: 'pulls/create', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const b = request.body;
    const full = await pulls.createPull(request.server.ctx, request.actor, owner, repo, {
      title: b.title, body: b.body, head: b.head, headRepo: b.head_repo, base: b.base, draft: b.draft,
      maintainerCanModify: b.maintainer_can_modify, issue: b.issue,
    }, viewOptions(request));
    const view = pullRequest(full.detail, full.figures, present(request));
    return reply.code(201).header('location', view.url).send(view);
  });

  app.get('/repos/:owner/:repo/pulls/:pull_number', {
    schema: { params: PullParams },
    config: { operationId: 'pulls/get', resource: RESOURCE },
  }, async (request, reply) => {
    const { owner, repo, pull_number: number } = request.params;
    const media = request.media.param;
    if (media === 'diff' || media === 'patch') {
      const text = await changes.pullText(request.server.ctx, request.actor, owner, repo, number, media);
      // Text media types answer outside the JSON representation.
      return (reply as FastifyReply).type(TEXT_MEDIA[media]).send(text);
    }
    const full = await pulls.getPull(request.server.ctx, request.actor, owner, repo, number, viewOptions(request));
    return pullRequest(full.detail, full.figures, present(request));
  });

  app.patch('/repos/:owner/:repo/pulls/:pull_number', {
    schema: { params: PullParams, body: UpdatePullBody },
    config: { operationId: 'pulls/update', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, pull_number: number } = request.params;
    const b = request.body ?? {};
    const full = await pulls.updatePull(request.server.ctx, request.actor, owner, repo, number, {
      title: b.title, body: b.body, state: b.state, base: b.base, maintainerCanModify: b.maintainer_can_modify,
    }, viewOptions(request));
    return pullRequest(full.detail, full.figures, present(request));
  });

  app.get('/repos/:owner/:repo/pulls/:pull_number/commits', {
    schema: { params: PullParams, querystring: PageQuery },
    config: { operationId: 'pulls/list-commits' },
  }, async (request, reply) => {
    const { owner, repo, pull_number: number } = request.params;
    const { urls } = request.server.ctx;
    const p = pageOf(request.query, 30, 100);
    const page = await changes.listPullCommits(request.server.ctx, request.actor, owner, repo, number, { offset: p.offset, limit: p.perPage });
    setPageLinks(request, reply, p, page.total);
    const u = repoUrls(urls, page.repo);
    return page.items.map((d) => commitRecord(urls, u, page.repo, d));
  });

  app.get('/repos/:owner/:repo/pulls/:pull_number/files', {
    schema: { params: PullParams, querystring: PageQuery },
    config: { operationId: 'pulls/list-files' },
  }, async (request, reply) => {
    const { owner, repo, pull_number: number } = request.params;
    const { urls } = request.server.ctx;
    const p = pageOf(request.query, 30, 100);
    const page = await changes.listPullFiles(request.server.ctx, request.actor, owner, repo, number, { offset: p.offset, limit: p.perPage });
    setPageLinks(request, reply, p, page.total);
    const api = urls.api('repos', page.repo.owner.login, page.repo.name);
    const html = urls.html(page.repo.owner.login, page.repo.name);
    return page.items.map((f) => pullFile(api, html, page.headSha, f));
  });

  app.get('/repos/:owner/:repo/pulls/:pull_number/merge', {
    schema: { params: PullParams },
    config: { operationId: 'pulls/check-if-merged' },
  }, async (request, reply) => {
    const { owner, repo, pull_number: number } = request.params;
    await merging.checkMerged(request.server.ctx, request.actor, owner, repo, number);
    return reply.code(204).send();
  });

  app.put('/repos/:owner/:repo/pulls/:pull_number/merge', {
    schema: { params: PullParams, body: MergeBody },
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
    schema: { params: PullParams, body: UpdateBranchBody },
    config: { operationId: 'pulls/update-branch', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, pull_number: number } = request.params;
    const outcome = await merging.updateBranch(request.server.ctx, request.actor, owner, repo, number, request.body?.expected_head_sha);
    return reply.code(202).send(outcome);
  });

  // ---------------------------------------------------------------- requested reviewers

  app.get('/repos/:owner/:repo/pulls/:pull_number/requested_reviewers', {
    schema: { params: PullParams },
    config: { operationId: 'pulls/list-requested-reviewers' },
  }, async (request) => {
    const { owner, repo, pull_number: number } = request.params;
    const r = await requests.listRequestedReviewers(request.server.ctx, request.actor, owner, repo, number);
    return requestedReviewers(r.users, r.teams, request.server.ctx.urls);
  });

  app.post('/repos/:owner/:repo/pulls/:pull_number/requested_reviewers', {
    schema: { params: PullParams, body: ReviewersBody },
    config: { operationId: 'pulls/request-reviewers', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, pull_number: number } = request.params;
    const b = request.body ?? {};
    const d = await requests.requestReviewers(request.server.ctx, request.actor, owner, repo, number, {
      reviewers: b.reviewers, teamReviewers: b.team_reviewers,
    }, viewOptions(request));
    return reply.code(201).send(pullRequestSimple(d, present(request)));
  });

  app.delete('/repos/:owner/:repo/pulls/:pull_number/requested_reviewers', {
    schema: { params: PullParams, body: ReviewersBody },
    config: { operationId: 'pulls/remove-requested-reviewers', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, pull_number: number } = request.params;
    const b = request.body ?? {};
    const d = await requests.removeRequestedReviewers(request.server.ctx, request.actor, owner, repo, number, {
      reviewers: b.reviewers, teamReviewers: b.team_reviewers,
    }, viewOptions(request));
    return pullRequestSimple(d, present(request));
  });

  reviewsRoutes(app);
}
