// The web flow: GET/POST /login/oauth/authorize (pages) and POST
// /login/oauth/access_token (the token endpoint, which the device flow shares).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { registerFormBody } from '../../http/form-body.ts';
import type { Router } from '../../http/router.ts';
import {
  csrfValid, frameOf, PAGE, redirectToLogin, registerPageScope, sendCsrfFailure, sendPage, sessionOf,
} from '../web-session/web-request.ts';
import { errorPage } from '../web-session/web-session.views.ts';
import { approvalPage } from './authorize.pages.ts';
import { AuthorizeRefusal, type TokenOutcome } from './oauth.model.ts';
import { AccessTokenBody, AuthorizeForm, AuthorizeQuery } from './oauth.schemas.ts';
import * as flow from './oauth-flow.service.ts';
import * as device from './device-flow.service.ts';
import { renderFields, tokenFields, tokenFormatOf } from './token-response.views.ts';

export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

async function refusalPage(request: FastifyRequest, reply: FastifyReply, err: unknown): Promise<FastifyReply> {
  if (!(err instanceof AuthorizeRefusal)) throw err;
  const session = await sessionOf(request);
  return sendPage(reply.code(400), errorPage(session?.user ?? null, session ? frameOf(session, '').csrf : null, 'Application authorization failed', err.message));
}

export function oauthFlowRoutes(app: Router): void {
  app.register(async (scope: FastifyInstance) => {
    registerPageScope(scope);
    const r = scope as unknown as Router;

    r.get('/login/oauth/authorize', { schema: { querystring: AuthorizeQuery }, config: { ...PAGE, operationId: 'wharf/oauth-authorize-page' } }, async (request, reply) => {
      const ctx = request.server.ctx;
      let req;
      try {
        req = await flow.describeRequest(ctx, request.query);
      } catch (err) {
        return refusalPage(request, reply, err);
      }
      const session = await sessionOf(request);
      if (!session) {
        if (!req.login) return redirectToLogin(request, reply);
        return reply.redirect(`/login?login=${encodeURIComponent(req.login)}&return_to=${encodeURIComponent(request.url)}`, 302);
      }
      if (await flow.isGranted(ctx, session.user.id, req)) {
        return reply.redirect(flow.callbackUrl(req, { code: await flow.approve(ctx, session.user.id, req) }), 302);
      }
      return sendPage(reply, approvalPage(frameOf(session, `Authorize ${req.app.name}`), req));
    });

    r.post('/login/oauth/authorize', { schema: { body: AuthorizeForm }, config: { ...PAGE, operationId: 'wharf/oauth-authorize' } }, async (request, reply) => {
      const ctx = request.server.ctx;
      const session = await sessionOf(request);
      if (!session) return reply.redirect('/login', 303);
      if (!csrfValid(request, session, request.body.authenticity_token)) return sendCsrfFailure(reply, session);
      let req;
      try {
        req = await flow.describeRequest(ctx, request.body);
      } catch (err) {
        return refusalPage(request, reply, err);
      }
      if (request.body.authorize !== '1') {
        return reply.redirect(flow.callbackUrl(req, {
          error: 'access_denied', error_description: 'The user has denied your application access.',
          error_uri: 'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-authorization-request-errors/#access-denied',
        }), 303);
      }
      return reply.redirect(flow.callbackUrl(req, { code: await flow.approve(ctx, session.user.id, req) }), 303);
    });
  });

  app.register(async (scope: FastifyInstance) => {
    registerFormBody(scope);
    const r = scope as unknown as Router;

    // Upstream answers with HTTP 200 and the error in the body, in the form Accept asks for.
    r.post('/login/oauth/access_token', {
      schema: { body: AccessTokenBody },
      config: { rawResponse: true, rateLimit: 'none', operationId: 'wharf/oauth-access-token' },
    }, async (request, reply) => {
      const ctx = request.server.ctx;
      const body = request.body;
      const grant = body.grant_type;
      let outcome: TokenOutcome;
      if (grant === DEVICE_GRANT) outcome = await device.pollDeviceCode(ctx, body);
      else if (grant === undefined || grant === '' || grant === 'authorization_code') outcome = await flow.exchangeCode(ctx, body);
      else if (grant === 'refresh_token') outcome = await flow.refreshToken(ctx, body);
      else outcome = flow.tokenError('unsupported_grant_type');
      const { type, body: text } = renderFields(tokenFields(outcome), tokenFormatOf(request.headers.accept));
      return reply.type(type).header('cache-control', 'no-store').send(text);
    });
  });
}
