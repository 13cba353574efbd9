// Forks, stars, watching and repositories generated from templates.
import type { FastifyRequest } from 'fastify';
import { pageOf, setPageLinks } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { simpleUser } from '../users/users.views.ts';
import { UsernameParams } from '../users/users.schemas.ts';
import * as forks from './forks.ts';
import { presentDetail, presentRepo, presentRepos } from './repos.presenter.ts';
import { RepoParams } from './repos.schemas.ts';
import {
  CreateForkBody, GenerateBody, ListForksQuery, ListStarredQuery, PageQuery, SubscriptionBody, TemplateParams,
} from './social.schemas.ts';
import { repositorySubscription, stargazer, starredRepository } from './social.views.ts';
import * as stars from './stars.ts';
import { generateFromTemplate } from './templates-generate.ts';
import * as watching from './watching.ts';

/** application/vnd.service.star+json (or vnd.github.star+json) adds when each star was given. */
function wantsStarDates(request: FastifyRequest): boolean {
  return request.media.param === 'star';
}

function presentStarred(request: FastifyRequest, items: stars.StarredRepo[]) {
  return wantsStarDates(request)
    ? items.map((s) => starredRepository(presentRepo(request, s), s.starredAt))
    : presentRepos(request, items);
}

export function socialRoutes(app: Router): void {
  // ------------------------------------------------------------ forks

  app.post('/repos/:owner/:repo/forks', {
    schema: { params: RepoParams, body: CreateForkBody },
    config: { operationId: 'repos/create-fork', resource: 'Fork', acceptedScopes: ['public_repo', 'repo'] },
  }, async (request, reply) => {
    const b = request.body;
    const d = await forks.createFork(request.server.ctx, request.actor, request.params.owner, request.params.repo, {
      organization: b.organization, name: b.name, defaultBranchOnly: b.default_branch_only,
    });
    return reply.code(202).send(presentDetail(request, d));
  });

  app.get('/repos/:owner/:repo/forks', {
    schema: { params: RepoParams, querystring: ListForksQuery },
    config: { operationId: 'repos/list-forks' },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    const r = await forks.listForks(request.server.ctx, request.actor, request.params.owner, request.params.repo, {
      sort: request.query.sort, limit: p.perPage, offset: p.offset,
    });
    setPageLinks(request, reply, p, r.total);
    return presentRepos(request, r.items);
  });

  // ------------------------------------------------------------ templates

  app.post('/repos/:template_owner/:template_repo/generate', {
    schema: { params: TemplateParams, body: GenerateBody },
    config: { operationId: 'repos/create-using-template', resource: 'Repository', acceptedScopes: ['public_repo', 'repo'] },
  }, async (request, reply) => {
    const { template_owner: owner, template_repo: repo } = request.params;
    const b = request.body;
    const d = await generateFromTemplate(request.server.ctx, request.actor, owner, repo, {
      owner: b.owner, name: b.name, description: b.description, includeAllBranches: b.include_all_branches, private: b.private,
    });
    return reply.code(201).send(presentDetail(request, d));
  });

  // ------------------------------------------------------------ stars

  app.put('/user/starred/:owner/:repo', {
    schema: { params: RepoParams },
    config: { operationId: 'activity/star-repo-for-authenticated-user', acceptedScopes: ['public_repo', 'repo'] },
  }, async (request, reply) => {
    await stars.starRepo(request.server.ctx, request.actor, request.params.owner, request.params.repo);
    return reply.code(204).send();
  });

  app.delete('/user/starred/:owner/:repo', {
    schema: { params: RepoParams },
    config: { operationId: 'activity/unstar-repo-for-authenticated-user', acceptedScopes: ['public_repo', 'repo'] },
  }, async (request, reply) => {
    await stars.unstarRepo(request.server.ctx, request.actor, request.params.owner, request.params.repo);
    return reply.code(204).send();
  });

  app.get('/user/starred/:owner/:repo', {
    schema: { params: RepoParams },
    config: { operationId: 'activity/check-repo-is-starred-by-authenticated-user' },
  }, async (request, reply) => {
    await stars.checkStarred(request.server.ctx, request.actor, request.params.owner, request.params.repo);
    return reply.code(204).send();
  });

  app.get('/user/starred', {
    schema: { querystring: ListStarredQuery },
    config: { operationId: 'activity/list-repos-starred-by-authenticated-user' },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    const r = await stars.listStarredByAuthenticatedUser(request.server.ctx, request.actor, { ...request.query, limit: p.perPage, offset: p.offset });
    setPageLinks(request, reply, p, r.total);
    return presentStarred(request, r.items);
  });

  app.get('/users/:username/starred', {
    schema: { params: UsernameParams, querystring: ListStarredQuery },
    config: { operationId: 'activity/list-repos-starred-by-user' },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    const r = await stars.listStarredByUser(request.server.ctx, request.actor, request.params.username, { ...request.query, limit: p.perPage, offset: p.offset });
    setPageLinks(request, reply, p, r.total);
    return presentStarred(request, r.items);
  });

  app.get('/repos/:owner/:repo/stargazers', {
    schema: { params: RepoParams, querystring: PageQuery },
    config: { operationId: 'activity/list-stargazers-for-repo' },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    const { urls } = request.server.ctx;
    const r = await stars.listStargazers(request.server.ctx, request.actor, request.params.owner, request.params.repo, { limit: p.perPage, offset: p.offset });
    setPageLinks(request, reply, p, r.total);
    return wantsStarDates(request)
      ? r.items.map((s) => stargazer(s.user, s.starredAt, urls))
      : r.items.map((s) => simpleUser(s.user, urls));
  });

  // ------------------------------------------------------------ watching

  app.put('/repos/:owner/:repo/subscription', {
    schema: { params: RepoParams, body: SubscriptionBody },
    config: { operationId: 'activity/set-repo-subscription', resource: 'Subscription', acceptedScopes: ['notifications', 'repo'] },
  }, async (request) => {
    const s = await watching.setSubscription(request.server.ctx, request.actor, request.params.owner, request.params.repo, request.body);
    return repositorySubscription(s.subscription, s.repo, request.server.ctx.urls);
  });

  app.get('/repos/:owner/:repo/subscription', {
    schema: { params: RepoParams },
    config: { operationId: 'activity/get-repo-subscription', acceptedScopes: ['notifications', 'repo'] },
  }, async (request) => {
    const s = await watching.getSubscription(request.server.ctx, request.actor, request.params.owner, request.params.repo);
    return repositorySubscription(s.subscription, s.repo, request.server.ctx.urls);
  });

  app.delete('/repos/:owner/:repo/subscription', {
    schema: { params: RepoParams },
    config: { operationId: 'activity/delete-repo-subscription', acceptedScopes: ['notifications', 'repo'] },
  }, async (request, reply) => {
    await watching.deleteSubscription(request.server.ctx, request.actor, request.params.owner, request.params.repo);
    return reply.code(204).send();
  });

  app.get('/repos/:owner/:repo/subscribers', {
    schema: { params: RepoParams, querystring: PageQuery },
    config: { operationId: 'activity/list-watchers-for-repo' },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    const r = await watching.listWatchers(request.server.ctx, request.actor, request.params.owner, request.params.repo, { limit: p.perPage, offset: p.offset });
    setPageLinks(request, reply, p, r.total);
    return r.items.map((u) => simpleUser(u, request.server.ctx.urls));
  });

  app.get('/user/subscriptions', {
    schema: { querystring: PageQuery },
    config: { operationId: 'activity/list-watched-repos-for-authenticated-user' },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    const r = await watching.listWatchedByAuthenticatedUser(request.server.ctx, request.actor, { limit: p.perPage, offset: p.offset });
    setPageLinks(request, reply, p, r.total);
    return presentRepos(request, r.items);
  });

  app.get('/users/:username/subscriptions', {
    schema: { params: UsernameParams, querystring: PageQuery },
    config: { operationId: 'activity/list-repos-watched-by-user' },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    const r = await watching.listWatchedByUser(request.server.ctx, request.actor, request.params.username, { limit: p.perPage, offset: p.offset });
    setPageLinks(request, reply, p, r.total);
    return presentRepos(request, r.items);
  });
}
