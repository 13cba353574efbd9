// /applications/{client_id}/token (check, reset, delete) and …/grant, authenticated by
// the app's client id and secret over Basic; and the user's authorized-apps page.
import type { FastifyInstance } from 'fastify';
import type { Router } from '../../http/router.ts';
import { NoContent } from '../../http/schema-types.ts';
import { Authorization } from '../admin/admin.schemas.ts';
import { csrfValid, frameOf, redirectToLogin, registerPageScope, sendCsrfFailure, sendPage, sessionOf, PAGE } from '../web-session/web-request.ts';
import * as tokens from './app-tokens.service.ts';
import { authorizedAppsPage } from './authorized-apps.pages.ts';
import { AccessTokenInput, ClientIdParams, CsrfForm } from './oauth.schemas.ts';
import { appAuthorization } from './oauth.views.ts';

export function appTokensRoutes(app: Router): void {
  const { urls } = app.ctx;
  const schema = { params: ClientIdParams, body: AccessTokenInput };

  app.post('/applications/:client_id/token', {
    schema: { ...schema, response: { 200: Authorization } },
    config: { operationId: 'apps/check-token', resource: 'OauthAccess' },
  }, async (request) => appAuthorization(await tokens.checkToken(request.server.ctx, request.actor, request.params.client_id, request.body.access_token), urls));

  // PATCH only: POST on this path is the check above, not PATCH-as-POST (the conventions
  // add POST to a PATCH route declared with a single method, not to a list).
  app.route({
    method: ['PATCH'], url: '/applications/:client_id/token',
    schema: { ...schema, response: { 200: Authorization } },
    config: { operationId: 'apps/reset-token', resource: 'OauthAccess' },
    handler: async (request) => appAuthorization(await tokens.resetToken(request.server.ctx, request.actor, request.params.client_id, request.body.access_token), urls),
  });

  app.delete('/applications/:client_id/token', {
    schema: { ...schema, response: { 204: NoContent } },
    config: { operationId: 'apps/delete-token', resource: 'OauthAccess' },
  }, async (request, reply) => {
    await tokens.deleteToken(request.server.ctx, request.actor, request.params.client_id, request.body.access_token);
    return reply.code(204).send();
  });

  app.delete('/applications/:client_id/grant', {
    schema: { ...schema, response: { 204: NoContent } },
    config: { operationId: 'apps/delete-authorization', resource: 'OauthAccess' },
  }, async (request, reply) => {
    await tokens.deleteGrant(request.server.ctx, request.actor, request.params.client_id, request.body.access_token);
    return reply.code(204).send();
  });

  app.register(async (scope: FastifyInstance) => {
    registerPageScope(scope);
    const r = scope as unknown as Router;

    r.get('/settings/applications', { config: { ...PAGE, operationId: 'wharf/authorized-apps-page' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      const list = await tokens.listAuthorizedApps(request.server.ctx, session.user.id);
      return sendPage(reply, authorizedAppsPage(frameOf(session, 'Authorized OAuth apps'), list));
    });

    r.post('/settings/connections/applications/:client_id/revoke', {
      schema: { params: ClientIdParams, body: CsrfForm }, config: { ...PAGE, operationId: 'wharf/revoke-authorized-app' },
    }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      if (!csrfValid(request, session, request.body.authenticity_token)) return sendCsrfFailure(reply, session);
      const ctx = request.server.ctx;
      const revoked = await tokens.revokeAuthorizedApp(ctx, session.user.id, request.params.client_id);
      const list = await tokens.listAuthorizedApps(ctx, session.user.id);
      return sendPage(reply, authorizedAppsPage(frameOf(session, 'Authorized OAuth apps'), list, `Revoked ${revoked.name}: its tokens no longer work.`));
    });
  });
}
