// POST /graphql (and /api/graphql, through rewriteUrl): one operation per call.
// GET /graphql: the introspection result, or with Accept application/vnd.service.v4.idl
// (or vnd.github) the schema in SDL, as upstream answers them. The REST conventions
// (User-Agent, authentication into request.actor, X-RateLimit-* headers) apply; the
// route peeks at the budget (rateLimit 'none') because a GraphQL call is charged by
// its cost, in the graphql bucket, once the query is known.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { getIntrospectionQuery } from 'graphql';
import { HttpError } from '../http/errors.ts';
import { rateHeaders } from '../http/rate-limit.ts';
import type { Router } from '../http/router.ts';
import { BLOB_BODY_LIMIT } from '../modules/git-data/git-data.limits.ts';
import { registerExplorer } from './explorer/explorer.routes.ts';
import { runGraphQL, type GraphQLRequest, type GraphQLResponse } from './execute.ts';
import { wharfSchema } from './schema.ts';

const AUTH_DOCS = 'https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql';

/**
 * A GraphQL answer: `data` (null when execution failed) and `errors`, both open-ended;
 * the GET with the IDL media type answers `{ data: "<schema>" }`. Further keys pass
 * through as they are (serialization must not drop what execution returned).
 */
const GraphQLAnswer = Type.Object({
  data: Type.Optional(Type.Unknown()),
  errors: Type.Optional(Type.Array(Type.Unknown())),
}, { additionalProperties: true });

function badRequest(message: string): HttpError {
  return new HttpError(400, message);
}

/** The JSON body's query, variables and operationName, checked. */
function requestOf(body: unknown): GraphQLRequest {
  const b = (body ?? {}) as Record<string, unknown>;
  if (typeof b.query !== 'string' || b.query.trim() === '') throw badRequest('A query attribute must be specified and must be a string.');
  let variables: unknown = b.variables ?? {};
  if (typeof variables === 'string') {
    try {
      variables = variables.trim() === '' ? {} : JSON.parse(variables);
    } catch {
      throw badRequest('Variables are invalid JSON.');
    }
  }
  if (variables === null) variables = {};
  if (typeof variables !== 'object' || Array.isArray(variables)) throw badRequest('Variables must be a JSON object.');
  const operationName = b.operationName ?? null;
  if (operationName !== null && typeof operationName !== 'string') throw badRequest('operationName must be a string.');
  return { query: b.query, variables: variables as Record<string, unknown>, operationName: operationName === '' ? null : operationName };
}

/** GraphQL answers users only; anyone else gets upstream's 401. */
function requireUserOrReply(request: FastifyRequest, reply: FastifyReply): boolean {
  if (request.actor.user && request.actor.method !== 'oauth_app') return true;
  reply.code(401).type('application/json; charset=utf-8').send({ message: 'This endpoint requires you to be authenticated.', documentation_url: AUTH_DOCS });
  return false;
}

/** Runs the call and answers it; `keep`: its answer may be kept and sent again (src/graphql/answers.ts). */
async function answer(request: FastifyRequest, reply: FastifyReply, req: GraphQLRequest, keep = true): Promise<GraphQLResponse['body'] | FastifyReply> {
  const { ctx } = request.server;
  const response = await runGraphQL(wharfSchema(), {
    ctx, actor: request.actor, user: request.actor.user!, rates: request.server.rateLimits, answers: keep ? request.server.answers : null,
    errorContext: {
      grantedScopes: request.actor.grantedScopes, baseUrl: ctx.config.baseUrl, requestId: request.id,
      logError: (err) => request.log.error({ err }, 'graphql resolver failed'),
    },
  }, req);
  const state = { ...response.counter, bucket: response.bucket, limit: response.limit, resource: 'graphql' as const, counted: false };
  request.rate = state;
  reply.headers(rateHeaders(state));
  reply.type('application/json; charset=utf-8');
  // Kept bytes go out as they are; Fastify serializes only objects.
  return response.serialized ? reply.send(response.serialized) : response.body;
}

export function graphqlRoutes(app: Router): void {
  // v4 in X-Service-Media-Type, whatever the Accept header named.
  const v4 = (request: FastifyRequest) => { request.media = { ...request.media, version: 'v4' }; };

  app.post('/graphql', {
    schema: { response: { 200: GraphQLAnswer } },
    // createCommitOnBranch carries file contents, as PUT …/contents does.
    bodyLimit: BLOB_BODY_LIMIT,
    // NUL in variables or the query is refused by runGraphQL, in GraphQL's error shape.
    config: { operationId: 'graphql', rateLimit: 'none', allowNul: true },
  }, async (request, reply) => {
    v4(request);
    if (!requireUserOrReply(request, reply)) return reply;
    return answer(request, reply, requestOf(request.body));
  });

  app.get('/graphql', {
    schema: { response: { 200: GraphQLAnswer } },
    config: { operationId: 'graphql/introspect', rateLimit: 'none' },
  }, async (request, reply) => {
    v4(request);
    if (!requireUserOrReply(request, reply)) return reply;
    if (request.media.param === 'idl') {
      // Counted as the smallest query would be (one point), with the same headers.
      await answer(request, reply, { query: '{ __typename }', variables: {}, operationName: null }, false);
      // Upstream wraps the SDL in a JSON object: {"data": "<schema>"}.
      return { data: wharfSchema().sdl() };
    }
    return answer(request, reply, { query: getIntrospectionQuery({ descriptions: true }), variables: {}, operationName: null });
  });

  registerExplorer(app);
}
