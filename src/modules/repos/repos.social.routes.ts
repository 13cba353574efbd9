// Forks, stars, watching and repositories generated from templates.
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { paged, pageOf } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { simpleUser } from '../users/users.views.ts';
import { SimpleUser, UsernameParams } from '../users/users.schemas.ts';
import * as forks from './repos.forks.ts';
import { presentDetail, presentRepo, presentRepos } from './repos.present.ts';
import { FullRepository, RepoParams, Repository } from './repos.schemas.ts';
import {
  CreateForkBody, GenerateBody, ListForksQuery, ListStarredQuery, PageQuery, RepositorySubscription, StargazerList, StarredList,
  SubscriptionBody, TemplateParams, type StargazerItem, type StarredItem,
} from './repos.social.schemas.ts';
import { repositorySubscription, stargazer, starredRepository } from './repos.social.views.ts';
import * as stars from './repos.stars.ts';
import { generateFromTemplate } from './repos.generate.ts';
import * as watching from './repos.watching.ts';
import { PagedArray } from '../../http/schema-types.ts';

const NO_CONTENT = { 204: Type.Null() };

/** application/vnd.service.star+json (or vnd.github.star+json) adds when each star was given. */
function wantsStarDates(request: FastifyRequest): boolean {
  return request.media.param === 'star';
}

function presentStarred(request: FastifyRequest, items: stars.StarredRepo[]): StarredItem[] {
  return wantsStarDates(request)
    ? items.map((s) => starredRepository(presentRepo(request, s), s.starredAt))
    : presentRepos(request, items);
}

export function socialRoutes(app: Router): void {
  // ------------------------------------------------------------ forks

  app.post('/repos/:owner/:repo/forks', {
    schema: { params: RepoParams, body: CreateForkBody, response: { 202: FullRepository } },
    config: { operationId: 'repos/create-fork', resource: 'Fork', acceptedScopes: ['public_repo', 'repo'] },
  }, async (request, reply) => {
    const b = request.body;
    const d = await forks.createFork(request.server.ctx, request.actor, request.params.owner, request.params.repo, {
      organization: b.organization, name: b.name, defaultBranchOnly: b.default_branch_only,
    });
    return reply.code(202).send(presentDetail(request, d));
  });

  app.get('/repos/:owner/:repo/forks', {
    schema: { params: RepoParams, querystring: ListForksQuery, response: { 200: PagedArray(Repository) } },
    config: { operationId: 'repos/list-forks' },
  }, async (request) => {
    const p = pageOf(request.query);
    const r = await forks.listForks(request.server.ctx, request.actor, request.params.owner, request.params.repo, {
      sort: request.query.sort, limit: p.perPage, offset: p.offset,
    });
    return paged(presentRepos(request, r.items), p, r.total);
  });

  // ------------------------------------------------------------ templates

  app.post('/repos/:template_owner/:template_repo/generate', {
    schema: { params: TemplateParams, body: GenerateBody, response: { 201: FullRepository } },
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
    schema: { params: RepoParams, response: NO_CONTENT },
    config: { operationId: 'activity/star-repo-for-authenticated-user', acceptedScopes: ['public_repo', 'repo'] },
  }, async (request, reply) => {
    await stars.starRepo(request.server.ctx, request.actor, request.params.owner, request.params.repo);
    return reply.code(204).send(null);
  });

  app.delete('/user/starred/:owner/:repo', {
    schema: { params: RepoParams, response: NO_CONTENT },
    config: { operationId: 'activity/unstar-repo-for-authenticated-user', acceptedScopes: ['public_repo', 'repo'] },
  }, async (request, reply) => {
    await stars.unstarRepo(request.server.ctx, request.actor, request.params.owner, request.params.repo);
    return reply.code(204).send(null);
  });

  app.get('/user/starred/:owner/:repo', {
    schema: { params: RepoParams, response: NO_CONTENT },
    config: { operationId: 'activity/check-repo-is-starred-by-authenticated-user' },
  }, async (request, reply) => {
    await stars.checkStarred(request.server.ctx, request.actor, request.params.owner, request.params.repo);
    return reply.code(204).send(null);
  });

  app.get('/user/starred', {
    schema: { querystring: ListStarredQuery, response: { 200: StarredList } },
    config: { operationId: 'activity/list-repos-starred-by-authenticated-user' },
  }, async (request) => {
    const p = pageOf(request.query);
    const r = await stars.listStarredByAuthenticatedUser(request.server.ctx, request.actor, { ...request.query, limit: p.perPage, offset: p.offset });
    return paged(presentStarred(request, r.items), p, r.total);
  });

  app.get('/users/:username/starred', {
    schema: { params: UsernameParams, querystring: ListStarredQuery, response: { 200: StarredList } },
    config: { operationId: 'activity/list-repos-starred-by-user' },
  }, async (request) => {
    const p = pageOf(request.query);
    const r = await stars.listStarredByUser(request.server.ctx, request.actor, request.params.username, { ...request.query, limit: p.perPage, offset: p.offset });
    return paged(presentStarred(request, r.items), p, r.total);
  });

  app.get('/repos/:owner/:repo/stargazers', {
    schema: { params: RepoParams, querystring: PageQuery, response: { 200: StargazerList } },
    config: { operationId: 'activity/list-stargazers-for-repo' },
  }, async (request) => {
    const p = pageOf(request.query);
    const { urls } = request.server.ctx;
    const r = await stars.listStargazers(request.server.ctx, request.actor, request.params.owner, request.params.repo, { limit: p.perPage, offset: p.offset });
    const items: StargazerItem[] = wantsStarDates(request)
      ? r.items.map((s) => stargazer(s.user, s.starredAt, urls))
      : r.items.map((s) => simpleUser(s.user, urls));
    return paged(items, p, r.total);
  });

  // ------------------------------------------------------------ watching

  app.put('/repos/:owner/:repo/subscription', {
    schema: { params: RepoParams, body: SubscriptionBody, response: { 200: RepositorySubscription } },
    config: { operationId: 'activity/set-repo-subscription', resource: 'Subscription', acceptedScopes: ['notifications', 'repo'] },
  }, async (request) => {
    const s = await watching.setSubscription(request.server.ctx, request.actor, request.params.owner, request.params.repo, request.body);
    return repositorySubscription(s.subscription, s.repo, request.server.ctx.urls);
  });

  app.get('/repos/:owner/:repo/subscription', {
    schema: { params: RepoParams, response: { 200: RepositorySubscription } },
    config: { operationId: 'activity/get-repo-subscription', acceptedScopes: ['notifications', 'repo'] },
  }, async (request) => {
    const s = await watching.getSubscription(request.server.ctx, request.actor, request.params.owner, request.params.repo);
    return repositorySubscription(s.subscription, s.repo, request.server.ctx.urls);
  });

  app.delete('/repos/:owner/:repo/subscription', {
    schema: { params: RepoParams, response: NO_CONTENT },
    config: { operationId: 'activity/delete-repo-subscription', acceptedScopes: ['notifications', 'repo'] },
  }, async (request, reply) => {
    await watching.deleteSubscription(request.server.ctx, request.actor, request.params.owner, request.params.repo);
    return reply.code(204).send(null);
  });

  app.get('/repos/:owner/:repo/subscribers', {
    schema: { params: RepoParams, querystring: PageQuery, response: { 200: PagedArray(SimpleUser) } },
    config: { operationId: 'activity/list-watchers-for-repo' },
  }, async (request) => {
    const p = pageOf(request.query);
    const r = await watching.listWatchers(request.server.ctx, request.actor, request.params.owner, request.params.repo, { limit: p.perPage, offset: p.offset });
    return paged(r.items.map((u) => simpleUser(u, request.server.ctx.urls)), p, r.total);
  });

  app.get('/user/subscriptions', {
    schema: { querystring: PageQuery, response: { 200: PagedArray(Repository) } },
    config: { operationId: 'activity/list-watched-repos-for-authenticated-user' },
  }, async (request) => {
    const p = pageOf(request.query);
    const r = await watching.listWatchedByAuthenticatedUser(request.server.ctx, request.actor, { limit: p.perPage, offset: p.offset });
    return paged(presentRepos(request, r.items), p, r.total);
  });

  app.get('/users/:username/subscriptions', {
    schema: { params: UsernameParams, querystring: PageQuery, response: { 200: PagedArray(Repository) } },
    config: { operationId: 'activity/list-repos-watched-by-user' },
  }, async (request) => {
    const p = pageOf(request.query);
    const r = await watching.listWatchedByUser(request.server.ctx, request.actor, request.params.username, { limit: p.perPage, offset: p.offset });
    return paged(presentRepos(request, r.items), p, r.total);
  });
}
