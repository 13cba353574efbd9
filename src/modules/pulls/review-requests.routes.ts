// Requested reviewers of a pull request: list, request, withdraw.
import type { Router } from '../../http/router.ts';
import { presentPulls } from './pulls.present.ts';
import { PullParams, PullRequestSimple, RequestedReviewers, ReviewersBody } from './pulls.schemas.ts';
import { requestedReviewers } from './pulls.views.ts';
import * as requests from './review-requests.service.ts';

const RESOURCE = 'PullRequest';
const WRITE = ['public_repo', 'repo'];

export function reviewRequestsRoutes(app: Router): void {
  app.get('/repos/:owner/:repo/pulls/:pull_number/requested_reviewers', {
    schema: { params: PullParams, response: { 200: RequestedReviewers } },
    config: { operationId: 'pulls/list-requested-reviewers' },
  }, async (request) => {
    const { owner, repo, pull_number: number } = request.params;
    const r = await requests.listRequestedReviewers(request.server.ctx, request.actor, owner, repo, number);
    return requestedReviewers(r.users, r.teams, request.server.ctx.urls);
  });

  app.post('/repos/:owner/:repo/pulls/:pull_number/requested_reviewers', {
    schema: { params: PullParams, body: ReviewersBody, response: { 201: PullRequestSimple } },
    config: { operationId: 'pulls/request-reviewers', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { ctx } = request.server;
    const { owner, repo, pull_number: number } = request.params;
    const b = request.body ?? {};
    const l = await requests.requestReviewers(ctx, request.actor, owner, repo, number, { reviewers: b.reviewers, teamReviewers: b.team_reviewers });
    const [view] = await presentPulls(ctx, request.actor, l.repo, [l], request.media);
    return reply.code(201).send(view!);
  });

  app.delete('/repos/:owner/:repo/pulls/:pull_number/requested_reviewers', {
    schema: { params: PullParams, body: ReviewersBody, response: { 200: PullRequestSimple } },
    config: { operationId: 'pulls/remove-requested-reviewers', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request) => {
    const { ctx } = request.server;
    const { owner, repo, pull_number: number } = request.params;
    const b = request.body ?? {};
    const l = await requests.removeRequestedReviewers(ctx, request.actor, owner, repo, number, { reviewers: b.reviewers, teamReviewers: b.team_reviewers });
    const [view] = await presentPulls(ctx, request.actor, l.repo, [l], request.media);
    return view!;
  });
}
