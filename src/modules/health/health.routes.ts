// GET /healthz, /readyz and /metrics; the request observer behind /metrics; and, with
// WHARF_METRICS_PORT, /metrics on a port of its own.
import { Type } from '@sinclair/typebox';
import type { Router } from '../../http/router.ts';
import { Liveness, Readiness } from './health.schemas.ts';
import * as health from './health.service.ts';
import { readinessView } from './health.views.ts';
import { METRICS_CONTENT_TYPE, WharfMetrics } from './metrics.ts';
import { startMetricsServer, type MetricsServer } from './metrics.server.ts';

// Probes spend no rate limit and touch no counter ('exempt'): they must answer while the
// database does not. Any installation may ask them; /metrics is for site admins.
const PROBE = { rateLimit: 'exempt' as const, appPermission: {} };

export function healthRoutes(app: Router): void {
  const { ctx } = app;
  const metrics = new WharfMetrics();

  // On the hot path of every request: map lookups and one histogram observation. A
  // callback hook, not an async one (an async hook costs a promise per request).
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request.routeOptions.url, request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  app.get('/healthz', {
    schema: { response: { 200: Liveness } },
    config: { operationId: 'wharf/health', ...PROBE },
  }, async () => health.liveness());

  app.get('/readyz', {
    schema: { response: { 200: Readiness, 503: Readiness } },
    config: { operationId: 'wharf/readiness', ...PROBE },
  }, async (_request, reply) => {
    const report = await health.readiness(ctx);
    return reply.code(report.ready ? 200 : 503).send(readinessView(report));
  });

  // Scrapes spend no budget ('none' peeks): an admin's API calls keep theirs.
  app.get('/metrics', {
    schema: { response: { 200: Type.String() } },
    config: { operationId: 'wharf/metrics', rateLimit: 'none', acceptedScopes: ['site_admin'], appPermission: 'none' },
  }, async (request, reply) => reply.type(METRICS_CONTENT_TYPE).send(await health.metricsForActor(ctx, request.actor, metrics)));

  const port = ctx.config.metricsPort;
  if (port !== null) {
    let server: MetricsServer | null = null;
    // onReady, not onListen: a port already taken fails the start instead of a log line.
    app.addHook('onReady', async () => {
      server = await startMetricsServer(port, ctx.config.host, () => health.metricsText(ctx, metrics), (err) => ctx.log.error({ err }, 'metrics port'));
      ctx.log.info({ port: server.port }, 'metrics listening');
    });
    app.addHook('onClose', async () => { await server?.close(); });
  }
}
