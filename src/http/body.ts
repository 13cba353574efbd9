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

/**
 * Where a body holds a NUL character (a dotted path; keys count too), or null. Text
 * with NUL cannot be stored in PostgreSQL and means nothing in a title or a name, so
 * bodies carrying one are refused, except on routes that take raw content.
 */
export function nulField(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\0') ? path || 'body' : null;
  if (typeof value !== 'object' || value === null) return null;
  // Only what JSON.parse makes: other bodies (git's pkt-line streams) are not JSON.
  const proto: unknown = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulField(value[i], path ? `${path}[${i}]` : `[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, v] of Object.entries(value)) {
    const here = path ? `${path}.${key}` : key;
    if (key.includes('\0')) return here;
    const found = nulField(v, here);
    if (found !== null) return found;
  }
  return null;
}
