// Repositories: create, get, update, delete, list, topics, languages.
import { paged, pageOf } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { Type } from '@sinclair/typebox';
import { UsernameParams } from '../users/users.schemas.ts';
import { presentDetail, presentFull, presentRepos } from './repos.present.ts';
import { CreateRepoBody, createInput, FullRepository, Languages, Repository, ListReposQuery, RepoParams, Topics, TopicsBody, UpdateRepoBody, updateInput } from './repos.schemas.ts';
import * as repos from './repos.service.ts';
import { PagedArray } from '../../http/schema-types.ts';

const OrgParams = Type.Object({ org: Type.String() });

export function reposRoutes(app: Router): void {
  app.post('/user/repos', {
    schema: { body: CreateRepoBody, response: { 201: FullRepository } },
    config: { operationId: 'repos/create-for-authenticated-user', resource: 'Repository', acceptedScopes: ['public_repo', 'repo'] },
  }, async (request, reply) => {
    const p = await repos.createRepo(request.server.ctx, request.actor, null, createInput(request.body));
    return reply.code(201).send(presentFull(request, p));
  });

  app.post('/orgs/:org/repos', {
    schema: { params: OrgParams, body: CreateRepoBody, response: { 201: FullRepository } },
    config: { operationId: 'repos/create-in-org', resource: 'Repository', acceptedScopes: ['public_repo', 'repo'] },
  }, async (request, reply) => {
    const p = await repos.createRepo(request.server.ctx, request.actor, request.params.org, createInput(request.body));
    return reply.code(201).send(presentFull(request, p));
  });

  app.get('/repos/:owner/:repo', {
    schema: { params: RepoParams, response: { 200: FullRepository } },
    config: { operationId: 'repos/get', answerCache: true },
  }, async (request) => {
    const d = await repos.getRepo(request.server.ctx, request.actor, request.params.owner, request.params.repo);
    return presentDetail(request, d);
  });

  app.patch('/repos/:owner/:repo', {
    schema: { params: RepoParams, body: UpdateRepoBody, response: { 200: FullRepository } },
    config: { operationId: 'repos/update', resource: 'Repository', acceptedScopes: ['public_repo', 'repo'] },
  }, async (request) => {
    const { owner, repo } = request.params;
    const p = await repos.updateRepo(request.server.ctx, request.actor, owner, repo, updateInput(request.body));
    return presentFull(request, p);
  });

  app.delete('/repos/:owner/:repo', {
    schema: { params: RepoParams, response: { 204: Type.Null() } },
    config: { operationId: 'repos/delete', acceptedScopes: ['delete_repo'] },
  }, async (request, reply) => {
    await repos.deleteRepo(request.server.ctx, request.actor, request.params.owner, request.params.repo);
    return reply.code(204).send(null);
  });

  app.get('/user/repos', {
    schema: { querystring: ListReposQuery, response: { 200: PagedArray(Repository) } },
    config: { operationId: 'repos/list-for-authenticated-user', resource: 'Repository', answerCache: true },
  }, async (request) => {
    const p = pageOf(request.query);
    const r = await repos.listForAuthenticatedUser(request.server.ctx, request.actor, { ...request.query, limit: p.perPage, offset: p.offset });
    return paged(presentRepos(request, r.items), p, r.total);
  });

  app.get('/users/:username/repos', {
    schema: { params: UsernameParams, querystring: ListReposQuery, response: { 200: PagedArray(Repository) } },
    config: { operationId: 'repos/list-for-user', resource: 'Repository' },
  }, async (request) => {
    const p = pageOf(request.query);
    const r = await repos.listForUser(request.server.ctx, request.actor, request.params.username, { ...request.query, limit: p.perPage, offset: p.offset });
    return paged(presentRepos(request, r.items), p, r.total);
  });

  app.get('/orgs/:org/repos', {
    schema: { params: OrgParams, querystring: ListReposQuery, response: { 200: PagedArray(Repository) } },
    config: { operationId: 'repos/list-for-org', resource: 'Repository' },
  }, async (request) => {
    const p = pageOf(request.query);
    const r = await repos.listForOrg(request.server.ctx, request.actor, request.params.org, { ...request.query, limit: p.perPage, offset: p.offset });
    return paged(presentRepos(request, r.items), p, r.total);
  });

  app.get('/repos/:owner/:repo/topics', {
    schema: { params: RepoParams, response: { 200: Topics } },
    config: { operationId: 'repos/get-all-topics' },
  }, async (request) => ({ names: await repos.getTopics(request.server.ctx, request.actor, request.params.owner, request.params.repo) }));

  app.put('/repos/:owner/:repo/topics', {
    schema: { params: RepoParams, body: TopicsBody, response: { 200: Topics } },
    config: { operationId: 'repos/replace-all-topics', resource: 'Repository', acceptedScopes: ['public_repo', 'repo'] },
  }, async (request) => ({ names: await repos.replaceTopics(request.server.ctx, request.actor, request.params.owner, request.params.repo, request.body.names) }));

  app.get('/repos/:owner/:repo/languages', {
    schema: { params: RepoParams, response: { 200: Languages } },
    config: { operationId: 'repos/list-languages' },
  }, async (request) => Object.fromEntries(await repos.listLanguages(request.server.ctx, request.actor, request.params.owner, request.params.repo)));
}
