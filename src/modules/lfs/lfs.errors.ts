// The LFS routes' error handler. git-lfs shows a failure's `message` to the user and
// finds how to authenticate in LFS-Authenticate, so refusals answer in LFS's error form
// (batch.md, "Response Errors") as application/vnd.git-lfs+json. Statuses and the other
// headers are the API's own (src/http/errors.ts); whatever is no client error (a bug)
// goes to the API's handler, which logs it and gives nothing away.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, MovedPermanentlyError, ValidationError } from '../../domain/errors.ts';
import { HttpError, sendError, setErrorHeaders, statusOf } from '../../http/errors.ts';
import { LFS_MEDIA_TYPE, lfsErrorBody } from './lfs.views.ts';

interface Refusal {
  status: number;
  message: string;
}

function messageOf(error: DomainError): string {
  // LFS's form has no errors[]: the problems are the message.
  if (error instanceof ValidationError) return error.messages().join('; ') || error.message;
  return error.message;
}

/** A 4xx and its message, with the headers the API gives it set on the reply; null for anything else. */
function refusal(request: FastifyRequest, reply: FastifyReply, error: unknown): Refusal | null {
  if (error instanceof DomainError) {
    const status = statusOf(error);
    if (status < 400 || status >= 500 || error instanceof MovedPermanentlyError) return null;
    setErrorHeaders(request, reply, error);
    return { status, message: messageOf(error) };
  }
  if (error instanceof HttpError) {
    if (error.statusCode >= 500) return null;
    reply.headers(error.headers);
    return { status: error.statusCode, message: error.message };
  }
  const fe = error as FastifyError;
  if (fe.validation) return { status: 422, message: `Validation Failed: ${fe.message}` };
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) return { status: fe.statusCode, message: fe.message };
  return null;
}

export function sendLfsError(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  const r = refusal(request, reply, error);
  if (!r) return sendError(request, reply, error);
  // git-lfs reads the challenge here (browsers ignore it); the API set WWW-Authenticate for git.
  const challenge = reply.getHeader('www-authenticate');
  if (r.status === 401 && challenge !== undefined) reply.header('lfs-authenticate', challenge);
  return reply.code(r.status).type(LFS_MEDIA_TYPE).send(lfsErrorBody(r.message, request.id));
}
