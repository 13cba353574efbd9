// REST of an app's user-to-server tokens: POST /applications/{client_id}/token/scoped,
// authenticated by the app's client id and secret over Basic.
import type { Router } from '../../http/router.ts';
import { ClientIdParams, ScopedTokenRecord, ScopeTokenBody } from './apps.schemas.ts';
import { scopedTokenRecord } from './installations.views.ts';
import { scopeToken } from './scoped-tokens.service.ts';

export function userTokensRoutes(app: Router): void {
  const { urls } = app.ctx;

  app.post('/applications/:client_id/token/scoped', {
    schema: { params: ClientIdParams, body: ScopeTokenBody, response: { 200: ScopedTokenRecord } },
    config: { operationId: 'apps/scope-token', resource: 'ScopedToken', acceptedScopes: [] },
  }, async (request) => {
    const b = request.body;
    return scopedTokenRecord(await scopeToken(request.server.ctx, request.actor, request.params.client_id, {
      accessToken: b.access_token, target: b.target, targetId: b.target_id, repositories: b.repositories,
      repositoryIds: b.repository_ids, permissions: b.permissions,
    }), urls);
  });
}
