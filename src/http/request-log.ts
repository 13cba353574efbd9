// One structured line per request: request id (pino's reqId), method, route, status, duration.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Query parameters that carry credentials: refused by the conventions, and never logged. */
const SECRET_PARAMS = /([?&](?:access_token|client_secret|token|client_id_secret|password)=)[^&#]*/gi;

/**
 * Path segments that carry credentials: an app manifest's code, which converts to the
 * app's client secret, webhook secret and private key.
 */
const SECRET_SEGMENTS = /^(\/app-manifests\/)[^/?#]+/i;

/** The URL as the client sent it, with credential values replaced. */
export function redactedUrl(url: string): string {
  const path = url.replace(SECRET_SEGMENTS, '$1[redacted]');
  return path.includes('=') ? path.replace(SECRET_PARAMS, '$1[redacted]') : path;
}

export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    request.log.info({
      method: request.method,
      route: request.routeOptions.url ?? null,
      url: redactedUrl(request.originalUrl),
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 100) / 100,
      user: request.actor?.user?.login ?? null,
      ...(error ? { err: error } : {}),
    }, 'request');
  }
}
