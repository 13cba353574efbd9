// One structured line per request: request id (pino's reqId), method, route, status, duration.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    request.log.info({
      method: request.method,
      route: request.routeOptions.url ?? null,
      url: request.originalUrl,
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 100) / 100,
      user: request.actor?.user?.login ?? null,
      ...(error ? { err: error } : {}),
    }, 'request');
  }
}
