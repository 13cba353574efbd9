// REST of installations: the app's (JWT) list, lookup, suspension, deletion and access
// tokens; the installation lookups by account and repository; what a user sees of
// installations; and what an installation token reaches.
import { Type } from '@sinclair/typebox';
import type { Router } from '../../http/router.ts';
import { paged, pagedRecord, pageOf } from '../../http/pagination.ts';
import { NoContent, PagedArray, PagedObject } from '../../http/schema-types.ts';
import { presentRepos } from '../repos/repos.present.ts';
import { Repository, RepoParams } from '../repos/repos.schemas.ts';
import { OrgParams } from '../orgs/orgs.schemas.ts';
import { UsernameParams } from '../users/users.schemas.ts';
import * as installations from './installations.service.ts';
import * as tokens from './installation-tokens.service.ts';
import {
  AccessTokenBody, InstallationIdParams, InstallationRecord, InstallationRepoParams, ListInstallationsQuery, PageQuery,
} from './apps.schemas.ts';
import { installationRecord, installationToken } from './installations.views.ts';

const JWT = { acceptedScopes: [] as string[], appJwt: true };

const InstallationToken = Type.Object({
  token: Type.String(),
  expires_at: Type.String(),
  permissions: Type.Record(Type.String(), Type.String()),
  repository_selection: Type.String(),
  repositories: Type.Optional(Type.Array(Repository)),
});

export function installationsRoutes(app: Router): void {
  const { urls } = app.ctx;

  app.get('/app/installations', {
    schema: { querystring: ListInstallationsQuery, response: { 200: PagedArray(InstallationRecord) } },
    config: { operationId: 'apps/list-installations', ...JWT },
  }, async (request) => {
    const p = pageOf(request.query);
    const { items, total } = await installations.listForApp(request.server.ctx, request.actor, { since: request.query.since, outdated: request.query.outdated }, p);
    return paged(items.map((i) => installationRecord(i, urls)), p, total);
  });

  app.get('/app/installations/:installation_id', {
    schema: { params: InstallationIdParams, response: { 200: InstallationRecord } },
    config: { operationId: 'apps/get-installation', ...JWT },
  }, async (request) => installationRecord(await installations.getForApp(request.server.ctx, request.actor, Number(request.params.installation_id)), urls));

  app.delete('/app/installations/:installation_id', {
    schema: { params: InstallationIdParams, response: { 204: NoContent } },
    config: { operationId: 'apps/delete-installation', ...JWT },
  }, async (request, reply) => {
    await installations.deleteForApp(request.server.ctx, request.actor, Number(request.params.installation_id));
    return reply.code(204).send();
  });

  app.put('/app/installations/:installation_id/suspended', {
    schema: { params: InstallationIdParams, response: { 204: NoContent } },
    config: { operationId: 'apps/suspend-installation', ...JWT },
  }, async (request, reply) => {
    await installations.setSuspended(request.server.ctx, request.actor, Number(request.params.installation_id), true);
    return reply.code(204).send();
  });

  app.delete('/app/installations/:installation_id/suspended', {
    schema: { params: InstallationIdParams, response: { 204: NoContent } },
    config: { operationId: 'apps/unsuspend-installation', ...JWT },
  }, async (request, reply) => {
    await installations.setSuspended(request.server.ctx, request.actor, Number(request.params.installation_id), false);
    return reply.code(204).send();
  });

  app.post('/app/installations/:installation_id/access_tokens', {
    schema: { params: InstallationIdParams, body: AccessTokenBody, response: { 201: InstallationToken } },
    config: { operationId: 'apps/create-installation-access-token', resource: 'InstallationToken', ...JWT },
  }, async (request, reply) => {
    const b = request.body;
    const issued = await tokens.createAccessToken(request.server.ctx, request.actor, Number(request.params.installation_id), {
      repositories: b.repositories, repositoryIds: b.repository_ids, permissions: b.permissions,
    });
    const repositories = issued.repositories ? presentRepos(request, issued.repositories) : null;
    return reply.code(201).send(installationToken(issued, repositories));
  });

  app.get('/repos/:owner/:repo/installation', {
    schema: { params: RepoParams, response: { 200: InstallationRecord } },
    config: { operationId: 'apps/get-repo-installation', ...JWT },
  }, async (request) => installationRecord(await installations.findForRepository(request.server.ctx, request.actor, request.params.owner, request.params.repo), urls));

  app.get('/orgs/:org/installation', {
    schema: { params: OrgParams, response: { 200: InstallationRecord } },
    config: { operationId: 'apps/get-org-installation', ...JWT },
  }, async (request) => installationRecord(await installations.findForAccount(request.server.ctx, request.actor, request.params.org, 'Organization'), urls));

  app.get('/users/:username/installation', {
    schema: { params: UsernameParams, response: { 200: InstallationRecord } },
    config: { operationId: 'apps/get-user-installation', ...JWT },
  }, async (request) => installationRecord(await installations.findForAccount(request.server.ctx, request.actor, request.params.username, 'User'), urls));

  app.get('/user/installations', {
    schema: { querystring: PageQuery, response: { 200: PagedObject(Type.Object({ total_count: Type.Integer(), installations: Type.Array(InstallationRecord) })) } },
    config: { operationId: 'apps/list-installations-for-authenticated-user', acceptedScopes: [] },
  }, async (request) => {
    const p = pageOf(request.query);
    const { items, total } = await installations.listForUser(request.server.ctx, request.actor, p);
    return pagedRecord({ total_count: total, installations: items.map((i) => installationRecord(i, urls)) }, p, total);
  });

  app.get('/user/installations/:installation_id/repositories', {
    schema: { params: InstallationIdParams, querystring: PageQuery, response: { 200: PagedObject(Type.Object({ total_count: Type.Integer(), repository_selection: Type.String(), repositories: Type.Array(Repository) })) } },
    config: { operationId: 'apps/list-installation-repos-for-authenticated-user', acceptedScopes: [] },
  }, async (request) => {
    const p = pageOf(request.query);
    const r = await installations.listRepositoriesForUser(request.server.ctx, request.actor, Number(request.params.installation_id), p);
    return pagedRecord({ total_count: r.total, repository_selection: r.installation.repositorySelection, repositories: presentRepos(request, r.items) }, p, r.total);
  });

  app.put('/user/installations/:installation_id/repositories/:repository_id', {
    schema: { params: InstallationRepoParams, response: { 204: NoContent } },
    config: { operationId: 'apps/add-repo-to-installation-for-authenticated-user', resource: 'Installation', acceptedScopes: [] },
  }, async (request, reply) => {
    await installations.changeSelectedRepository(request.server.ctx, request.actor, Number(request.params.installation_id), Number(request.params.repository_id), true);
    return reply.code(204).send();
  });

  app.delete('/user/installations/:installation_id/repositories/:repository_id', {
    schema: { params: InstallationRepoParams, response: { 204: NoContent } },
    config: { operationId: 'apps/remove-repo-from-installation-for-authenticated-user', resource: 'Installation', acceptedScopes: [] },
  }, async (request, reply) => {
    await installations.changeSelectedRepository(request.server.ctx, request.actor, Number(request.params.installation_id), Number(request.params.repository_id), false);
    return reply.code(204).send();
  });

  app.get('/installation/repositories', {
    schema: { querystring: PageQuery, response: { 200: PagedObject(Type.Object({ total_count: Type.Integer(), repository_selection: Type.String(), repositories: Type.Array(Repository) })) } },
    config: { operationId: 'apps/list-repos-accessible-to-installation', acceptedScopes: [] },
  }, async (request) => {
    const p = pageOf(request.query);
    const r = await tokens.listTokenRepositories(request.server.ctx, request.actor, p);
    return pagedRecord({ total_count: r.total, repository_selection: r.selection, repositories: presentRepos(request, r.items) }, p, r.total);
  });

  app.delete('/installation/token', {
    schema: { response: { 204: NoContent } },
    config: { operationId: 'apps/revoke-installation-access-token', acceptedScopes: [] },
  }, async (request, reply) => {
    await tokens.revokeCurrentToken(request.server.ctx, request.actor);
    return reply.code(204).send();
  });
}
