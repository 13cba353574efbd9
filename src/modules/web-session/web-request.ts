// What every browser page needs from a request: the signed-in session (from its
// cookie), the CSRF token to put in forms and its check on posts, and the redirect to
// sign-in that comes back afterwards.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { registerFormBody } from '../../http/form-body.ts';
import { HttpError, sendError } from '../../http/errors.ts';
import { DomainError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { cookieOf, setCookie } from '../../http/cookies.ts';
import { sessionActor, type Actor } from '../../domain/actor.ts';
import * as web from './web-session.service.ts';
import { errorPage, type PageFrame } from './web-session.views.ts';

export const SESSION_COOKIE = 'wharf_session';
export const CSRF_COOKIE = 'wharf_csrf';

function secure(request: FastifyRequest): boolean {
  const { config } = request.server.ctx;
  return config.tls !== null || config.baseUrl.startsWith('https:');
}

export async function sessionOf(request: FastifyRequest): Promise<web.WebSession | null> {
  return web.sessionFor(request.server.ctx, cookieOf(request, SESSION_COOKIE));
}

export function actorOf(request: FastifyRequest, session: web.WebSession): Actor {
  return sessionActor(session.user, request.ip);
}

export function frameOf(session: web.WebSession, title: string): PageFrame {
  return { title, user: session.user, csrf: web.csrfTokenOf(session) };
}

export function startSession(request: FastifyRequest, reply: FastifyReply, session: web.WebSession): void {
  setCookie(reply, SESSION_COOKIE, session.token, { maxAge: web.SESSION_SECONDS, secure: secure(request) });
}

export function endSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  setCookie(reply, SESSION_COOKIE, '', { maxAge: 0, secure: secure(request) });
}

/** The login form's CSRF token: the browser's anonymous one, made (and set as a cookie) when it has none. */
export function anonymousCsrf(request: FastifyRequest, reply: FastifyReply): string {
  const existing = cookieOf(request, CSRF_COOKIE);
  if (existing && /^[0-9a-f]{64}$/.test(existing)) return existing;
  const token = web.newAnonymousCsrf();
  setCookie(reply, CSRF_COOKIE, token, { secure: secure(request) });
  return token;
}

/** True when a post carries the CSRF token of its browser (of the session, or the anonymous one before sign-in). */
export function csrfValid(request: FastifyRequest, session: web.WebSession | null, submitted: unknown): boolean {
  const expected = session ? web.csrfTokenOf(session) : cookieOf(request, CSRF_COOKIE);
  return web.csrfMatches(expected, submitted);
}

/** Refuses a post without its CSRF token: 403 and a page saying so; nothing was changed. */
export function sendCsrfFailure(reply: FastifyReply, session: web.WebSession | null): FastifyReply {
  return sendPage(reply.code(403), errorPage(session?.user ?? null, session ? web.csrfTokenOf(session) : null,
    'Request refused', 'This form has expired or did not come from Wharf. Go back, reload the page and try again.'));
}

/** The route config of a browser page or form: raw HTML answers (no response schema), no API rate limit. */
export const PAGE = { rateLimit: 'none' as const, rawResponse: true };

/** A form post of a signed-in browser with its session's CSRF token; anything else never reaches `act`. */
export async function signedInForm(
  request: FastifyRequest, reply: FastifyReply, token: unknown, act: (session: web.WebSession) => Promise<FastifyReply>,
): Promise<FastifyReply> {
  const session = await sessionOf(request);
  if (!session) return redirectToLogin(request, reply);
  if (!csrfValid(request, session, token)) return sendCsrfFailure(reply, session);
  return act(session);
}

/** A local path to come back to after sign-in: only absolute paths of this site (no //host, no scheme). */
export function safeReturnTo(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > 4096) return null;
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\') || /[\u0000-\u001f\\]/.test(raw)) return null;
  return raw;
}

export function redirectToLogin(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const back = safeReturnTo(request.url);
  return reply.redirect(back ? `/login?return_to=${encodeURIComponent(back)}` : '/login', 302);
}

export function sendPage(reply: FastifyReply, body: string): FastifyReply {
  // Pages with forms and one-time secrets: never cached, never framed by another site.
  return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY').header('content-security-policy', "default-src 'self'; frame-ancestors 'none'")
    .send(body);
}

/**
 * A scope of browser pages: form bodies are read as forms, and failures are pages, not
 * JSON (a page that is not there, or a form that could not be read); anything
 * unexpected goes to the API's handler, which logs it and gives nothing away.
 */
/** A scope's own answer to an error before the pages' (null: the pages' answer). */
export type PageErrorFirst = (error: unknown, request: FastifyRequest, reply: FastifyReply) => FastifyReply | null;

export function registerPageScope(scope: FastifyInstance, first?: PageErrorFirst): void {
  registerFormBody(scope);
  // One error handler per scope (Fastify warns when a scope sets a second one).
  scope.setErrorHandler(async (error, request, reply) => {
    const own = first?.(error, request, reply);
    if (own) return own;
    const session = await sessionOf(request).catch(() => null);
    const csrf = session ? web.csrfTokenOf(session) : null;
    const user = session?.user ?? null;
    if (error instanceof NotFoundError) return sendPage(reply.code(404), errorPage(user, csrf, 'Not found', 'There is nothing here, or you may not see it.'));
    const fe = error as FastifyError;
    if (error instanceof ValidationError || fe.validation) return sendPage(reply.code(422), errorPage(user, csrf, 'Invalid request', 'The form or address holds a value that cannot be used.'));
    if (error instanceof HttpError || (error instanceof DomainError === false && typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500)) {
      const status = error instanceof HttpError ? error.statusCode : fe.statusCode!;
      return sendPage(reply.code(status), errorPage(user, csrf, 'Request refused', (error as Error).message));
    }
    return sendError(request, reply, error);
  });
}
