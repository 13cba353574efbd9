// What the page handlers share: the route options of a page, page and issue numbers
// from the address, a signed-in form post with its CSRF token, and a refused write as
// messages shown inline in the form.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConflictError, DomainError, ForbiddenError, NotAllowedError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { csrfValid, redirectToLogin, sendCsrfFailure } from '../web-session/web-request.ts';
import { PAGE_CONSTRAINT, viewerOf, type Viewer } from './web.request.ts';
import { isStoredId } from '../../domain/ids.ts';

export { PAGE } from '../web-session/web-request.ts';
export const BROWSER_ONLY = { [PAGE_CONSTRAINT]: 'html' };

export function pageNumber(raw: string | undefined): number {
  const n = raw && /^\d{1,6}$/.test(raw) ? Number(raw) : 1;
  return Math.max(1, n);
}

export function issueNumber(raw: string): number {
  if (!/^\d{1,15}$/.test(raw) || !isStoredId(Number(raw))) throw new NotFoundError();
  return Number(raw);
}

/** The API's error codes (its `errors[].code`) in words. */
const FIELD_CODES: Record<string, string> = { missing_field: 'is missing', already_exists: 'already exists', invalid: 'is invalid' };

/** What a refused form shows inline, and the status it answers with. */
export function formErrors(err: unknown): { status: number; messages: string[] } {
  if (err instanceof ValidationError) {
    return { status: 422, messages: err.errors.length ? err.errors.map((e) => e.message ?? `${e.field} ${FIELD_CODES[e.code] ?? 'is invalid'}`) : [err.message] };
  }
  if (err instanceof ForbiddenError) return { status: 403, messages: [err.message] };
  if (err instanceof ConflictError) return { status: 409, messages: [err.message] };
  if (err instanceof NotAllowedError) return { status: 405, messages: [err.message] };
  if (err instanceof DomainError && !(err instanceof NotFoundError)) return { status: 422, messages: [err.message] };
  throw err;
}

/** A form post of a signed-in browser with its CSRF token; anything else never reaches `act`. */
export async function signedInPost(
  request: FastifyRequest, reply: FastifyReply, token: string | undefined,
  act: (viewer: Viewer) => Promise<FastifyReply>,
): Promise<FastifyReply> {
  const viewer = await viewerOf(request);
  if (!viewer.session) return redirectToLogin(request, reply);
  if (!csrfValid(request, viewer.session, token)) return sendCsrfFailure(reply, viewer.session);
  return act(viewer);
}

