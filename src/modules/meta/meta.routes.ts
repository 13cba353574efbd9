// GET /, /meta, /zen, /mascot, /rate_limit.
import { Type } from '@sinclair/typebox';
import type { Router } from '../../http/router.ts';
import { drawMascot } from './mascot.ts';
import { MascotQuery, RateLimitOverview, RootLinks, ServiceMeta } from './meta.schemas.ts';
import * as meta from './meta.service.ts';
import { rateLimitOverview, rootLinks, serviceMeta } from './meta.views.ts';

const TEXT = 'text/plain; charset=utf-8';

export function metaRoutes(app: Router): void {
  const { urls, config } = app.ctx;

  app.get('/', {
    schema: { response: { 200: RootLinks } },
    config: { operationId: 'meta/root' },
  }, async () => rootLinks(urls));

  app.get('/meta', {
    schema: { response: { 200: ServiceMeta } },
    config: { operationId: 'meta/get' },
  }, async () => serviceMeta(meta.hostKeys(app.ctx), config.metaRanges, urls));

  app.get('/zen', {
    schema: { response: { 200: Type.String() } },
    config: { operationId: 'meta/get-zen' },
  }, async (_request, reply) => reply.type(TEXT).send(meta.randomPrinciple()));

  // The spec's path is /mascot; /octocat is upstream's, which Octokit's meta.getOctocat calls.
  // Upstream answers application/octocat-stream; plain text is what every client can show.
  for (const path of ['/mascot', '/octocat']) {
    app.get(path, {
      schema: { querystring: MascotQuery, response: { 200: Type.String() } },
      config: { operationId: 'meta/get-octocat' },
    }, async (request, reply) => reply.type(TEXT).send(drawMascot(meta.mascotMessage(request.query.s))));
  }

  // Looking at the budgets does not spend one: rateLimit 'none' only peeks.
  app.get('/rate_limit', {
    schema: { response: { 200: RateLimitOverview } },
    config: { operationId: 'rate-limit/get', rateLimit: 'none' },
  }, async (request) => {
    const statuses = await meta.rateLimitStatus(request.server.ctx, request.server.rateLimits, request.actor);
    return rateLimitOverview(statuses);
  });
}
