// Settings pages of personal access tokens: /settings/tokens (list, revoke) and
// /settings/tokens/new (the form, then the token shown once). A signed-in browser
// manages its own tokens here, as upstream's classic token pages.
import type { FastifyInstance } from 'fastify';
import type { Router } from '../../http/router.ts';
import { ALL_SCOPES } from '../../domain/scopes.ts';
import { ValidationError } from '../../domain/errors.ts';
import { frameOf, redirectToLogin, registerPageScope, sendPage, sessionOf, signedInForm, PAGE } from '../web-session/web-request.ts';
import * as auth from './auth.service.ts';
import { CsrfForm, NewTokenForm, TokenIdParams } from './auth.schemas.ts';
import { EMPTY_TOKEN_FORM, newTokenPage, scopeField, tokensPage, type TokenFormValues } from './tokens.pages.ts';

function formValues(body: NewTokenForm): TokenFormValues {
  return { note: body.note ?? '', lifetime: body.lifetime ?? '', scopes: ALL_SCOPES.filter((s) => body[scopeField(s)] === '1') };
}

/** 'none' never expires; anything else is a number of days, which must be one the form offers (the service checks). */
function lifetimeOf(raw: string): number | null {
  return raw === 'none' ? null : Number(raw);
}

export function tokensPagesRoutes(app: Router): void {
  app.register(async (scope: FastifyInstance) => {
    registerPageScope(scope);
    const r = scope as unknown as Router;

    r.get('/settings/tokens', { config: { ...PAGE, operationId: 'wharf/tokens-page' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      return sendPage(reply, tokensPage(frameOf(session, 'Personal access tokens'), await auth.listPersonalTokens(request.server.ctx, session.user.id)));
    });

    r.get('/settings/tokens/new', { config: { ...PAGE, operationId: 'wharf/new-token-page' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      return sendPage(reply, newTokenPage(frameOf(session, 'New personal access token'), EMPTY_TOKEN_FORM));
    });

    r.post('/settings/tokens/new', { schema: { body: NewTokenForm }, config: { ...PAGE, operationId: 'wharf/create-token' } }, async (request, reply) => {
      const ctx = request.server.ctx;
      return signedInForm(request, reply, request.body.authenticity_token, async (session) => {
        const values = formValues(request.body as NewTokenForm);
        try {
          const { token } = await auth.createPersonalToken(ctx, session.user.id, { note: values.note, scopes: values.scopes, lifetimeDays: lifetimeOf(values.lifetime) });
          return sendPage(reply.code(201), tokensPage(frameOf(session, 'Personal access tokens'), await auth.listPersonalTokens(ctx, session.user.id), { token }));
        } catch (err) {
          if (!(err instanceof ValidationError)) throw err;
          return sendPage(reply.code(422), newTokenPage(frameOf(session, 'New personal access token'), values, err.messages()));
        }
      });
    });

    r.post('/settings/tokens/:id/delete', { schema: { params: TokenIdParams, body: CsrfForm }, config: { ...PAGE, operationId: 'wharf/revoke-token' } }, async (request, reply) => {
      const ctx = request.server.ctx;
      return signedInForm(request, reply, request.body.authenticity_token, async (session) => {
        await auth.revokePersonalToken(ctx, session.user.id, Number(request.params.id));
        return sendPage(reply, tokensPage(frameOf(session, 'Personal access tokens'), await auth.listPersonalTokens(ctx, session.user.id), { notice: 'Token revoked.' }));
      });
    });
  });
}
