// Interaction limits of an organization, a repository and the authenticated user.
import { Type } from '@sinclair/typebox';
import type { Router } from '../../http/router.ts';
import {
  InteractionLimitOrEmpty, InteractionLimitResponse, OrgParams, RepoParams, SetInteractionLimitBody,
} from './interactions.schemas.ts';
import * as interactions from './interactions.service.ts';
import { SCOPES } from './interactions.service.ts';
import { interactionLimit, interactionLimitOrEmpty } from './interactions.views.ts';

const REPO_SCOPES = ['public_repo', 'repo'];
const RESOURCE = 'InteractionLimit';

export function interactionsRoutes(app: Router): void {
  // Organizations

  app.get('/orgs/:org/interaction-limits', {
    schema: { params: OrgParams, response: { 200: InteractionLimitOrEmpty } },
    config: { operationId: 'interactions/get-restrictions-for-org', acceptedScopes: [...SCOPES.organization] },
  }, async (request) => {
    const l = await interactions.getOrganizationLimit(request.server.ctx, request.actor, request.params.org);
    return interactionLimitOrEmpty(l);
  });

  app.put('/orgs/:org/interaction-limits', {
    schema: { params: OrgParams, body: SetInteractionLimitBody, response: { 200: InteractionLimitResponse } },
    config: { operationId: 'interactions/set-restrictions-for-org', resource: RESOURCE, acceptedScopes: [...SCOPES.organization] },
  }, async (request) => {
    const l = await interactions.setOrganizationLimit(request.server.ctx, request.actor, request.params.org, request.body ?? {});
    return interactionLimit(l);
  });

  app.delete('/orgs/:org/interaction-limits', {
    schema: { params: OrgParams, response: { 204: Type.Null() } },
    config: { operationId: 'interactions/remove-restrictions-for-org', acceptedScopes: [...SCOPES.organization] },
  }, async (request, reply) => {
    await interactions.removeOrganizationLimit(request.server.ctx, request.actor, request.params.org);
    return reply.code(204).send(null);
  });

  // Repositories

  app.get('/repos/:owner/:repo/interaction-limits', {
    schema: { params: RepoParams, response: { 200: InteractionLimitOrEmpty } },
    config: { operationId: 'interactions/get-restrictions-for-repo', acceptedScopes: REPO_SCOPES },
  }, async (request) => {
    const { owner, repo } = request.params;
    return interactionLimitOrEmpty(await interactions.getRepositoryLimit(request.server.ctx, request.actor, owner, repo));
  });

  app.put('/repos/:owner/:repo/interaction-limits', {
    schema: { params: RepoParams, body: SetInteractionLimitBody, response: { 200: InteractionLimitResponse } },
    config: { operationId: 'interactions/set-restrictions-for-repo', resource: RESOURCE, acceptedScopes: REPO_SCOPES },
  }, async (request) => {
    const { owner, repo } = request.params;
    return interactionLimit(await interactions.setRepositoryLimit(request.server.ctx, request.actor, owner, repo, request.body ?? {}));
  });

  app.delete('/repos/:owner/:repo/interaction-limits', {
    schema: { params: RepoParams, response: { 204: Type.Null() } },
    config: { operationId: 'interactions/remove-restrictions-for-repo', acceptedScopes: REPO_SCOPES },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    await interactions.removeRepositoryLimit(request.server.ctx, request.actor, owner, repo);
    return reply.code(204).send(null);
  });

  // The authenticated user's public repositories

  app.get('/user/interaction-limits', {
    schema: { response: { 200: InteractionLimitResponse, 204: Type.Null() } },
    config: { operationId: 'interactions/get-restrictions-for-authenticated-user', acceptedScopes: [...SCOPES.user] },
  }, async (request, reply) => {
    const l = await interactions.getUserLimit(request.server.ctx, request.actor);
    // Upstream answers 204 here when there is no limit (the other two answer {}).
    if (!l) return reply.code(204).send(null);
    return interactionLimit(l);
  });

  app.put('/user/interaction-limits', {
    schema: { body: SetInteractionLimitBody, response: { 200: InteractionLimitResponse } },
    config: { operationId: 'interactions/set-restrictions-for-authenticated-user', resource: RESOURCE, acceptedScopes: [...SCOPES.user] },
  }, async (request) => {
    return interactionLimit(await interactions.setUserLimit(request.server.ctx, request.actor, request.body ?? {}));
  });

  app.delete('/user/interaction-limits', {
    schema: { response: { 204: Type.Null() } },
    config: { operationId: 'interactions/remove-restrictions-for-authenticated-user', acceptedScopes: [...SCOPES.user] },
  }, async (request, reply) => {
    await interactions.removeUserLimit(request.server.ctx, request.actor);
    return reply.code(204).send(null);
  });
}
