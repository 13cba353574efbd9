// POST /hub: the PubSubHubbub hub. Its clients post forms, so this one route reads
// form bodies (JSON bodies too, as everywhere else).
import type { FastifyInstance } from 'fastify';
import { registerFormBody } from '../../http/form-body.ts';
import type { Router } from '../../http/router.ts';
import { NoContent } from '../../http/schema-types.ts';
import { hubRequest } from './hooks.hub.ts';
import { HubBody } from './hooks.schemas.ts';
import { SCOPES } from './hooks.service.ts';

export function hubRoutes(app: Router): void {
  app.register(async (scope: FastifyInstance) => {
    registerFormBody(scope);
    const r = scope as unknown as Router;
    r.post('/hub', {
      schema: { body: HubBody, response: { 204: NoContent } },
      config: { operationId: 'wharf/pubsubhubbub', resource: 'Hook', acceptedScopes: [...SCOPES.repositoryWrite] },
    }, async (request, reply) => {
      const acceptsJson = /application\/json/i.test(request.headers.accept ?? '');
      await hubRequest(request.server.ctx, request.actor, request.body ?? {}, acceptsJson);
      return reply.code(204).send();
    });
  });
}
