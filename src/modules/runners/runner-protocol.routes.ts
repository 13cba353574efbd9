// Wharf's runner protocol (documented in the README): what a runner program calls.
// Registration and removal authenticate with the one-hour tokens; the rest with the
// runner's credential in X-Runner-Token. Heartbeats and reports do not count against
// the anonymous rate limit: a runner is not a browsing client.
import type { FastifyRequest } from 'fastify';
import type { Router } from '../../http/router.ts';
import { NoContent } from '../../http/schema-types.ts';
import { presentRunner } from './runners.present.ts';
import * as protocol from './runner-protocol.service.ts';
import { HeartbeatBody, Job, RegisterBody, RegisteredRunner, RemoveBody, ReportJobBody, Runner } from './runners.schemas.ts';
import { job, registeredRunner } from './runners.views.ts';

function credential(request: FastifyRequest): string | undefined {
  const v = request.headers['x-runner-token'];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export function runnerProtocolRoutes(app: Router): void {
  app.post('/actions/runner/register', {
    schema: { body: RegisterBody, response: { 201: RegisteredRunner } },
    config: { operationId: 'wharf/register-runner', resource: 'Runner', rateLimit: 'none' },
  }, async (request, reply) => {
    const r = await protocol.register(request.server.ctx, request.body);
    return reply.code(201).send(registeredRunner(presentRunner(request.server.ctx, r), r.credential));
  });

  app.post('/actions/runner/heartbeat', {
    schema: { body: HeartbeatBody, response: { 200: Runner } },
    config: { operationId: 'wharf/runner-heartbeat', resource: 'Runner', rateLimit: 'none' },
  }, async (request) => presentRunner(request.server.ctx, await protocol.heartbeat(request.server.ctx, credential(request), request.body?.busy)));

  app.post('/actions/runner/jobs', {
    schema: { body: ReportJobBody, response: { 201: Job } },
    config: { operationId: 'wharf/report-runner-job', resource: 'Job', rateLimit: 'none' },
  }, async (request, reply) => {
    const j = await protocol.reportJob(request.server.ctx, credential(request), request.body);
    return reply.code(201).send(job(j));
  });

  app.post('/actions/runner/remove', {
    schema: { body: RemoveBody, response: { 204: NoContent } },
    config: { operationId: 'wharf/remove-runner', resource: 'Runner', rateLimit: 'none' },
  }, async (request, reply) => {
    await protocol.unregister(request.server.ctx, credential(request), request.body.token);
    return reply.code(204).send();
  });
}
