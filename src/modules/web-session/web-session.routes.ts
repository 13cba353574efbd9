// GET/POST /login, POST /logout, /settings, /settings/password and the pages' stylesheet.
import type { FastifyInstance } from 'fastify';
import type { Router } from '../../http/router.ts';
import { BadCredentialsError, DomainError, ValidationError } from '../../domain/errors.ts';
import { CsrfBody, LoginBody, LoginQuery, PasswordBody } from './web-session.schemas.ts';
import * as web from './web-session.service.ts';
import {
  anonymousCsrf, csrfValid, endSessionCookie, frameOf, safeReturnTo, sendCsrfFailure, sendPage, sessionOf, startSession,
  redirectToLogin, registerPageScope, PAGE,
} from './web-request.ts';
import { STYLESHEET, loginPage, passwordPage, settingsPage } from './web-session.views.ts';

/** What a failed sign-in shows: one message for a wrong login and a wrong password alike. */
function signInError(err: unknown): string {
  if (err instanceof BadCredentialsError) return 'Incorrect username or password.';
  if (err instanceof DomainError) return err.message;
  throw err;
}

export function webSessionRoutes(app: Router): void {
  app.get('/web/wharf.css', { config: { ...PAGE, operationId: 'wharf/web-stylesheet' } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'max-age=300').send(STYLESHEET));

  app.register(async (scope: FastifyInstance) => {
    registerPageScope(scope);
    const r = scope as unknown as Router;

    r.get('/login', { schema: { querystring: LoginQuery }, config: { ...PAGE, operationId: 'wharf/login-page' } }, async (request, reply) => {
      const returnTo = safeReturnTo(request.query.return_to);
      if (await sessionOf(request)) return reply.redirect(returnTo ?? '/settings', 302);
      return sendPage(reply, loginPage({ csrf: anonymousCsrf(request, reply), returnTo, login: request.query.login ?? null, error: null }));
    });

    r.post('/login', { schema: { body: LoginBody }, config: { ...PAGE, operationId: 'wharf/login' } }, async (request, reply) => {
      const body = request.body;
      const returnTo = safeReturnTo(body.return_to);
      if (!csrfValid(request, null, body.authenticity_token)) return sendCsrfFailure(reply, null);
      try {
        const session = await web.signIn(request.server.ctx, body.login ?? '', body.password ?? '');
        startSession(request, reply, session);
        return reply.redirect(returnTo ?? '/settings', 303);
      } catch (err) {
        const error = signInError(err);
        return sendPage(reply.code(err instanceof BadCredentialsError ? 401 : 403),
          loginPage({ csrf: anonymousCsrf(request, reply), returnTo, login: body.login ?? null, error }));
      }
    });

    r.post('/logout', { schema: { body: CsrfBody }, config: { ...PAGE, operationId: 'wharf/logout' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (session && !csrfValid(request, session, request.body.authenticity_token)) return sendCsrfFailure(reply, session);
      await web.signOut(request.server.ctx, session?.token ?? null);
      endSessionCookie(request, reply);
      return reply.redirect('/login', 303);
    });

    r.get('/settings', { config: { ...PAGE, operationId: 'wharf/settings' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      return sendPage(reply, settingsPage(frameOf(session, 'Settings')));
    });

    r.get('/settings/password', { config: { ...PAGE, operationId: 'wharf/password-page' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      return sendPage(reply, passwordPage(frameOf(session, 'Password')));
    });

    r.post('/settings/password', { schema: { body: PasswordBody }, config: { ...PAGE, operationId: 'wharf/change-password' } }, async (request, reply) => {
      const session = await sessionOf(request);
      if (!session) return redirectToLogin(request, reply);
      if (!csrfValid(request, session, request.body.authenticity_token)) return sendCsrfFailure(reply, session);
      try {
        const next = await web.changeOwnPassword(request.server.ctx, session, request.body.current_password ?? '', request.body.new_password ?? '');
        startSession(request, reply, next);
        return sendPage(reply, passwordPage(frameOf(next, 'Password'), { notice: 'Password changed. Every other session has been signed out.' }));
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        return sendPage(reply.code(422), passwordPage(frameOf(session, 'Password'), { error: err.errors[0]?.message ?? err.message }));
      }
    });
  });
}
