// Assembles the HTTP layer, then each module's routes.
import fs from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from './context.ts';
import { DEFAULT_BODY_BYTES } from './http/body.ts';
import { refsGeneration } from './git/ref-writes.ts';
import { AnswerCache } from './http/answer-cache.ts';
import { MAX_PARAM_LENGTH, registerConventions, rewriteUrl } from './http/conventions.ts';
import { sendFrameworkError } from './http/errors.ts';
import { DbRateLimitStore, type RateLimitStore } from './http/rate-limit-store.ts';
import { RequestLog } from './http/request-log.ts';
import { RedisRateLimitStore } from './http/rate-limit-redis.ts';
import type { Router } from './http/router.ts';
import { authenticate } from './modules/auth/auth.service.ts';
import { ROUTE_MODULES } from './modules/index.ts';

export interface AppOptions {
  /** Pino logger options; false silences request logs (tests). */
  logger?: boolean | object;
  rateLimitStore?: RateLimitStore;
  /**
   * The database's generation (SQLite: database.ts), when it has one: the answers of
   * routes marked `answerCache` are then kept while it and the refs' stay the same.
   */
  databaseGeneration?: () => number;
}

let requestSeq = 0;

export async function buildApp(ctx: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const { tls } = ctx.config;
  const app = Fastify({
    logger: options.logger ?? { level: ctx.config.logLevel },
    logController: new RequestLog(),
    bodyLimit: DEFAULT_BODY_BYTES,
    rewriteUrl,
    genReqId: () => `${process.pid.toString(36)}-${(++requestSeq).toString(36)}`,
    routerOptions: { ignoreTrailingSlash: true, caseSensitive: true, maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: sendFrameworkError,
    return503OnClosing: true,
    requestTimeout: ctx.config.requestTimeoutSeconds * 1000,
    forceCloseConnections: 'idle',
    ...(ctx.config.trustProxy.length ? { trustProxy: ctx.config.trustProxy } : {}),
    ...(tls ? { https: { cert: fs.readFileSync(tls.cert), key: fs.readFileSync(tls.key) } } : {}),
  }) as unknown as FastifyInstance;
  // Node requires headersTimeout ≤ requestTimeout (when the latter is set).
  const request = ctx.config.requestTimeoutSeconds;
  const headers = ctx.config.headersTimeoutSeconds;
  app.server.headersTimeout = (request > 0 && headers > 0 ? Math.min(headers, request) : headers || request) * 1000;
  const rates: RateLimitStore = options.rateLimitStore
    ?? (ctx.config.redisUrl ? new RedisRateLimitStore(ctx.config.redisUrl, ctx.config.redisPrefix) : new DbRateLimitStore(ctx.db));
  app.addHook('onClose', async () => { await rates.close?.(); });
  const dbGeneration = options.databaseGeneration;
  const answers = dbGeneration ? new AnswerCache(() => {
    const refs = refsGeneration();
    return refs === null ? null : `${dbGeneration()}.${refs}`;
  }) : null;
  registerConventions(app, ctx, rates, authenticate, answers);
  const router = app.withTypeProvider<TypeBoxTypeProvider>() as unknown as Router;
  for (const register of ROUTE_MODULES) await register(router);
  return app;
}
