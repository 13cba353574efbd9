// Request bodies are JSON whatever their Content-Type says (as upstream treats them);
// bad JSON is a 400 "Problems parsing JSON", an empty body is no body.
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.ts';

export const MAX_BODY_BYTES = 100 * 1024 * 1024;

function parseJson(_req: unknown, body: string, done: (err: Error | null, value?: unknown) => void): void {
  if (body.trim() === '') return done(null, undefined);
  try {
    done(null, JSON.parse(body));
  } catch {
    done(new HttpError(400, 'Problems parsing JSON'));
  }
}

export function registerJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, parseJson);
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, parseJson);
}

/** Upstream refuses a body that is JSON but not an object: "Body should be a JSON object". */
export function isAcceptableBody(body: unknown, allowArray: boolean): boolean {
  if (body === undefined) return true;
  if (Array.isArray(body)) return allowArray;
  return typeof body === 'object' && body !== null;
}
