// Renders every failure as the spec's error body: {message, documentation_url[, errors]}.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import {
  AuthenticationRequiredError, BadCredentialsError, BadRequestError, ConflictError, DomainError, ForbiddenError,
  GoneError, MissingScopeError, MovedPermanentlyError, NotAllowedError, NotFoundError, SsoRequiredError, ValidationError, type FieldError,
} from '../domain/errors.ts';
import { isDatabaseUnavailable, isStorageFull } from '../db/failures.ts';
import { GitTimedOut } from '../git/run.ts';

export const DOCUMENTATION_URL = 'https://docs.github.com/rest';

export interface ErrorBody {
  message: string;
  documentation_url: string;
  errors?: FieldError[];
  status: string;
}

/** An HTTP-level refusal raised by the conventions themselves (User-Agent, version, rate). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) { super(message); }
}

/** The status a domain error answers with, whatever form its body takes. */
export function statusOf(err: DomainError): number {
  if (err instanceof NotFoundError) return 404;
  if (err instanceof ValidationError) return 422;
  if (err instanceof MissingScopeError) return 403;
  if (err instanceof ForbiddenError) return 403;
  if (err instanceof AuthenticationRequiredError) return 401;
  if (err instanceof BadCredentialsError) return 401;
  if (err instanceof ConflictError) return 409;
  if (err instanceof GoneError) return 410;
  if (err instanceof NotAllowedError) return 405;
  if (err instanceof BadRequestError) return 400;
  if (err instanceof MovedPermanentlyError) return 301;
  return 500;
}

export function errorBody(status: number, message: string, errors?: FieldError[]): ErrorBody {
  return { message, documentation_url: DOCUMENTATION_URL, ...(errors ? { errors } : {}), status: String(status) };
}

/** Maps Ajv failures to the spec's 422 errors[]: a missing property is missing_field, the rest invalid. */
function validationErrors(err: FastifyError, resource: string): FieldError[] {
  return (err.validation ?? []).map((v) => {
    const params = v.params as Record<string, unknown>;
    if (v.keyword === 'required') {
      return { resource, field: String(params.missingProperty), code: 'missing_field' as const };
    }
    const field = v.instancePath.replace(/^\//, '').replace(/\//g, '.') || String(params.additionalProperty ?? '');
    return { resource, field, code: 'invalid' as const, message: `${field || 'value'} ${v.message ?? 'is invalid'}` };
  });
}

function sendMoved(request: FastifyRequest, reply: FastifyReply, error: MovedPermanentlyError): FastifyReply {
  let location = error.location;
  const { rewrite } = error;
  if (rewrite) {
    const prefix = request.originalUrl.startsWith('/api/v3/') ? '/api/v3' : '';
    const path = request.originalUrl.slice(prefix.length);
    if (path.toLowerCase().startsWith(rewrite.from.toLowerCase())) {
      location = `${request.server.ctx.config.baseUrl}${prefix}${rewrite.to}${path.slice(rewrite.from.length)}`;
    }
  }
  return reply.code(301).header('location', location).type('application/json; charset=utf-8')
    .send({ message: error.message, url: location, documentation_url: DOCUMENTATION_URL });
}

/** RFC 7644 § 3.12: SCIM routes answer failures with this body, as application/scim+json. */
export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const SCIM_MEDIA_TYPE = 'application/scim+json; charset=utf-8';

function scimTypeOf(status: number, error: unknown): string | undefined {
  if (status === 409) return 'uniqueness';
  if (status !== 400) return undefined;
  if (error instanceof BadRequestError && error.detail) return error.detail;
  return error instanceof HttpError ? 'invalidSyntax' : 'invalidValue';
}

/** A SCIM route's failure: RFC 7644's error body; bad input (422 elsewhere) is its 400. */
function sendScimError(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  const fe = error as FastifyError;
  let status: number;
  let detail: string;
  if (error instanceof DomainError) {
    status = statusOf(error);
    if (status === 422) status = 400;
    detail = error instanceof ValidationError ? error.errors.map((e) => e.message ?? `${e.field} is ${e.code}`).join('; ') || error.message : error.message;
  } else if (error instanceof HttpError) {
    reply.headers(error.headers);
    ({ statusCode: status, message: detail } = error);
  } else if (fe.validation) {
    status = 400;
    detail = validationErrors(fe, 'User').map((e) => e.message ?? `${e.field} is missing`).join('; ');
  } else if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    ({ statusCode: status, message: detail } = fe as { statusCode: number; message: string });
  } else {
    request.log.error({ err: error }, 'request failed');
    status = 500;
    detail = 'Server Error';
  }
  if (status === 500 && error instanceof DomainError) request.log.error({ err: error }, 'unmapped domain error');
  if (error instanceof SsoRequiredError) {
    const sso = `required; url=${error.authorizationUrl}`;
    reply.header('x-service-sso', sso).header('x-github-sso', sso);
  }
  const scimType = scimTypeOf(status, error);
  return reply.code(status).type(SCIM_MEDIA_TYPE)
    .send({ schemas: [SCIM_ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail });
}

/**
 * The headers a domain error's answer carries whatever its body's form: the scopes the
 * operation accepts, where to authorize a token for SSO, git's credential challenge.
 */
export function setErrorHeaders(request: FastifyRequest, reply: FastifyReply, error: DomainError): void {
  if (error instanceof MissingScopeError) reply.header('x-accepted-oauth-scopes', error.acceptedScopes.join(', '));
  // Clients written for upstream read X-GitHub-SSO to send the user to authorize the token.
  if (error instanceof SsoRequiredError) {
    const sso = `required; url=${error.authorizationUrl}`;
    reply.header('x-service-sso', sso).header('x-github-sso', sso);
  }
  // git asks the user for credentials only when challenged.
  if (statusOf(error) === 401 && request.routeOptions.config?.authChallenge) reply.header('www-authenticate', 'Basic realm="Wharf"');
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  if (request.routeOptions.config?.scim) return sendScimError(request, reply, error);
  if (error instanceof DomainError) {
    const status = statusOf(error);
    if (error instanceof MovedPermanentlyError) return sendMoved(request, reply, error);
    setErrorHeaders(request, reply, error);
    if (status === 500) request.log.error({ err: error }, 'unmapped domain error');
    const errors = error instanceof ValidationError ? error.errors : undefined;
    return reply.code(status).type('application/json; charset=utf-8').send(errorBody(status, error.message, errors));
  }
  if (error instanceof HttpError) {
    reply.headers(error.headers);
    return reply.code(error.statusCode).type('application/json; charset=utf-8').send(errorBody(error.statusCode, error.message));
  }
  const fe = error as FastifyError;
  // A path parameter longer than its schema allows names nothing that can exist:
  // upstream answers such names with 404, not a validation failure.
  if (fe.validation && fe.validationContext === 'params' && fe.validation.every((v) => v.keyword === 'maxLength')) {
    return reply.code(404).type('application/json; charset=utf-8').send(errorBody(404, 'Not Found'));
  }
  if (fe.validation) {
    const resource = request.routeOptions.config.resource ?? 'Request';
    return reply.code(422).send(errorBody(422, 'Validation Failed', validationErrors(fe, resource)));
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return reply.code(fe.statusCode).send(errorBody(fe.statusCode, fe.message));
  }
  // What Wharf stands on failed, not the request: the client may try again later.
  if (isDatabaseUnavailable(error)) {
    request.log.error({ err: error }, 'request failed: the database is unavailable');
    return reply.code(503).header('retry-after', '5').type('application/json; charset=utf-8').send(errorBody(503, 'Service Unavailable'));
  }
  // git stopped past its time (a blame too large): as a search past its budget, 503.
  if (error instanceof GitTimedOut) {
    request.log.warn({ args: error.args, timeoutMs: error.timeoutMs }, 'git took too long and was stopped');
    return reply.code(503).type('application/json; charset=utf-8').send(errorBody(503, 'Service Unavailable'));
  }
  if (isStorageFull(error)) {
    request.log.error({ err: error }, 'request failed: no space left for the write');
    return reply.code(507).type('application/json; charset=utf-8').send(errorBody(507, 'Insufficient Storage'));
  }
  request.log.error({ err: error }, 'request failed');
  return reply.code(500).send(errorBody(500, 'Server Error'));
}

/**
 * Fastify's refusals before any route is found (its `frameworkErrors` option), in the
 * spec's body rather than Fastify's. A path parameter over the router's length limit
 * names nothing that can exist, so it is upstream's 404 for an unknown name; the
 * rest (a URL that does not decode) is a 400. No route's hooks run here, so the
 * request id headers are set by hand.
 */
export function sendFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const [status, message] = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? [404, 'Not Found'] : [400, 'Bad Request'];
  reply.header('x-service-request-id', request.id).header('x-github-request-id', request.id);
  return reply.code(status).type('application/json; charset=utf-8').send(errorBody(status, message));
}
