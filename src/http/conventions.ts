// The REST conventions, written once and applied to every route: User-Agent, API
// version, media types, authentication, rate limits, JSON bodies, validation errors,
// ETags and 304s, PATCH-as-POST, and the /api/v3 prefix.
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { anonymousActor, JWT_NOT_ACCEPTED_MESSAGE, type Authenticator } from '../domain/actor.ts';
import { epochSeconds } from '../domain/clock.ts';
import { BadCredentialsError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { anyPushUnrecorded, pushesRecordedFor } from '../git/push-recordings.ts';
import { answerKey, answerOf, type AnswerCache } from './answer-cache.ts';
import { isAcceptableBody, nulField, nulParam, registerJsonBody } from './body.ts';
import { isNotModified, updatedAtOf } from './conditional.ts';
import { appPermissionOf, checkAppPermission } from './app-permission.ts';
import { credentialsOf } from './credentials.ts';
import { HttpError, sendError } from './errors.ts';
import { mediaTypeHeader, missingPreviewMessage, parseAccept } from './media-type.ts';
import { PagedList, PagedRecord, sendPage } from './pagination.ts';
import { applyRateLimit, rateHeaders } from './rate-limit.ts';
import type { RateLimitStore } from './rate-limit-store.ts';
import { serializerCompiler } from './serializer.ts';
import { validatorCompiler } from './validation.ts';
import type { RouteEntry } from './types.ts';

export const SUPPORTED_API_VERSIONS = ['2022-11-28'];

/**
 * The router's limit on one path parameter, in URL characters (Fastify's default is
 * 100, and a longer name got its 414). Long enough for any name a parameter can hold
 * (owners, repositories, percent-encoded branch names); the routes then answer a name
 * that cannot exist as not found, and past the limit sendFrameworkError does (404).
 */
export const MAX_PARAM_LENGTH = 1024;

/**
 * Fastify's rewriteUrl: the same routes answer under /api/v3 (and GraphQL under
 * /api/graphql). Fastify keeps the URL as sent in request.originalUrl.
 */
export function rewriteUrl(req: IncomingMessage): string {
  const url = req.url ?? '/';
  if (url === '/api/v3' || url.startsWith('/api/v3/') || url.startsWith('/api/v3?')) {
    const rest = url.slice('/api/v3'.length);
    return rest.startsWith('/') ? rest : `/${rest}`;
  }
  if (url === '/api/graphql' || url.startsWith('/api/graphql?')) return url.slice('/api'.length);
  return url;
}

function checkApiVersion(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.headers['x-service-api-version'] ?? request.headers['x-github-api-version'];
  if (raw === undefined) return;
  const version = Array.isArray(raw) ? raw[0]! : raw;
  if (!SUPPORTED_API_VERSIONS.includes(version.trim())) {
    throw new HttpError(400, `API version ${version} is not supported. Supported versions: ${SUPPORTED_API_VERSIONS.join(', ')}.`);
  }
  reply.header('x-service-api-version-selected', version.trim());
}

export function registerConventions(
  app: FastifyInstance, ctx: AppContext, rates: RateLimitStore, authenticate: Authenticator, answers: AnswerCache | null,
): void {
  app.decorate('ctx', ctx);
  app.decorate('rateLimits', rates);
  app.decorate('answers', answers);
  app.decorateRequest('actor', null as never);
  app.decorateRequest('media', null as never);
  app.decorateRequest('rate', null);
  app.decorateRequest('keptAnswer', null);
  app.decorateRequest('answerSlot', null);
  app.decorateReply('lastModified', null);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler(process.env.NODE_ENV !== 'production'));
  registerJsonBody(app);
  app.setErrorHandler((error, request, reply) => sendError(request, reply, error));
  app.setNotFoundHandler((request, reply) => sendError(request, reply, new NotFoundError()));

  // POST is accepted wherever PATCH is (spec, general rule 8).
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    const method = Array.isArray(route.method) ? route.method.join(',') : route.method;
    if (method !== 'HEAD') {
      const responses = Object.keys((route.schema?.response as Record<string, unknown> | undefined) ?? {});
      const bodyFields = propertiesOf(route.schema?.body);
      routeTable.push({
        method, url: route.url, operationId: route.config?.operationId ?? null, responses, bodyFields, rawResponse: route.config?.rawResponse === true,
        appPermission: appPermissionOf(route.config),
        schema: route.schema ?? null,
      });
    }
    if (route.method === 'PATCH') route.method = ['PATCH', 'POST'];
  });

  app.addHook('onRequest', async (request, reply) => {
    request.media = parseAccept(request.headers.accept);
    // Clients written for upstream (gh, Octokit's logs) read the request id under its upstream name.
    reply.header('x-service-request-id', request.id);
    reply.header('x-github-request-id', request.id);
    if (!request.headers['user-agent']) {
      throw new HttpError(403, 'Request forbidden by administrative rules. Please make sure your request has a User-Agent header.');
    }
    checkApiVersion(request, reply);
    let authError: unknown = null;
    try {
      request.actor = await authenticate(ctx, credentialsOf(request), request.ip);
    } catch (err) {
      request.actor = anonymousActor(request.ip);
      authError = err;
    }
    await applyRateLimit(request, reply, rates, ctx.config.rateLimit, epochSeconds(ctx.clock));
    if (authError) throw authError;
    // A push is answered before it is recorded: its pusher's next request sees it recorded.
    const userId = request.actor.user?.id;
    if (userId !== undefined && anyPushUnrecorded()) await pushesRecordedFor(userId);
    // An app's JSON web token authenticates the app for its own endpoints only; elsewhere
    // it is no credential at all (the app acts through installation tokens there).
    if (request.actor.method === 'app' && request.routeOptions.config.appJwt !== true) throw new BadCredentialsError(JWT_NOT_ACCEPTED_MESSAGE);
    checkAppPermission(request, request.actor);
    const preview = request.routeOptions.config.requiredPreview;
    const missing = preview ? missingPreviewMessage(request.media, preview) : null;
    if (missing) throw new HttpError(415, missing);
    // Last, once the caller is known, counted and allowed: a kept answer skips the handler.
    if (answers && request.method === 'GET' && request.routeOptions.config.answerCache === true) {
      const key = answerKey(request);
      const kept = answers.lookup(key);
      if (kept === null) {
        request.answerSlot = answers.slot(key);
        return;
      }
      request.keptAnswer = kept;
      reply.lastModified = kept.lastModified;
      reply.headers(kept.headers);
      return reply.send(kept.body);
    }
  });

  app.addHook('preValidation', async (request) => {
    // NUL in a path names nothing that exists; in a query string it filters nothing (and
    // PostgreSQL could not compare it): refused before any query runs.
    if (nulParam(request.params) !== null) throw new NotFoundError();
    const nulQuery = nulParam(request.query);
    if (nulQuery !== null) throw ValidationError.field(request.routeOptions.config.resource ?? 'Request', nulQuery, 'invalid', `${nulQuery} must not contain NUL characters`);
    // No body (PUT with Content-Length: 0) is an empty object: required fields then fail as missing.
    if (request.body === undefined && request.method !== 'GET' && request.method !== 'HEAD') request.body = {};
    const config = request.routeOptions.config;
    if (!isAcceptableBody(request.body, config.allowJsonArray === true)) {
      throw new HttpError(400, 'Body should be a JSON object');
    }
    const nul = config.allowNul ? null : nulField(request.body);
    if (nul !== null) throw ValidationError.field(config.resource ?? 'Request', nul, 'invalid', `${nul} must not contain NUL characters`);
  });

  // A paged route's result becomes its items and a Link header; a single record read
  // gets Last-Modified from its representation's updated_at unless the route set one.
  // A callback hook, not an async one: it runs on every JSON answer, and Fastify's
  // async hooks cost a promise each.
  app.addHook('preSerialization', (request, reply, payload: unknown, done) => {
    if (payload instanceof PagedList || payload instanceof PagedRecord) return done(null, sendPage(request, reply, payload));
    if (reply.lastModified === null && (request.method === 'GET' || request.method === 'HEAD')) {
      reply.lastModified = updatedAtOf(payload);
    }
    done(null, payload);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-service-media-type', mediaTypeHeader(request.media ?? parseAccept(undefined)));
    const actor = request.actor;
    if (actor?.tokenId != null) {
      reply.header('x-oauth-scopes', actor.grantedScopes.join(', '));
      if (!reply.hasHeader('x-accepted-oauth-scopes')) {
        reply.header('x-accepted-oauth-scopes', (request.routeOptions.config?.acceptedScopes ?? []).join(', '));
      }
    }
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    // Encoded once, here: the ETag hashes these bytes and the socket writes them.
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    const notModified = isNotModified(request, reply, body, request.keptAnswer?.etag);
    if (request.answerSlot !== null) {
      const answer = answerOf(reply, body);
      if (answer) answers!.store(request.answerSlot, answer);
    }
    if (!notModified) return body;
    // A 304 does not count against the rate limit.
    const rate = request.rate;
    if (rate?.counted) {
      await rates.refund(rate.bucket, rate.resetAt);
      reply.headers(rateHeaders({ ...rate, used: rate.used - 1 }));
    }
    reply.code(304);
    reply.removeHeader('content-length');
    reply.removeHeader('content-type');
    return '';
  });
}

interface ObjectSchemaShape { properties?: Record<string, unknown>; anyOf?: unknown[]; oneOf?: unknown[] }

/** Top-level property names of a body schema, across the branches of a union. */
function propertiesOf(schema: unknown): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as ObjectSchemaShape;
  const names = new Set(Object.keys(s.properties ?? {}));
  for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) for (const n of propertiesOf(branch)) names.add(n);
  return [...names];
}
