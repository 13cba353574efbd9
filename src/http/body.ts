// Request bodies are JSON whatever their Content-Type says (as upstream treats them);
// bad JSON is a 400 "Problems parsing JSON", an empty body is no body.
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.ts';

/**
 * A request body's size unless its route says otherwise (Fastify's route option
 * `bodyLimit`): routes that take file content (blobs, trees, contents, GraphQL's
 * createCommitOnBranch) allow up to MAX_BODY_BYTES.
 */
export const DEFAULT_BODY_BYTES = 1024 * 1024;
export const MAX_BODY_BYTES = 100 * 1024 * 1024;
/**
 * Deepest nesting of arrays and objects a body may have. Every walk over a body (the
 * NUL check, schema validation, payload storage) is then bounded, whatever it is.
 */
export const MAX_JSON_DEPTH = 64;

/** The deepest nesting of `[` and `{` outside strings, counted until past `limit`. */
export function jsonNesting(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return deepest;
}

function parseJson(_req: unknown, body: string, done: (err: Error | null, value?: unknown) => void): void {
  if (body.trim() === '') return done(null, undefined);
  if (jsonNesting(body) > MAX_JSON_DEPTH) return done(new HttpError(400, `Problems parsing JSON: nested more than ${MAX_JSON_DEPTH} levels deep`));
  try {
    done(null, JSON.parse(body));
  } catch {
    done(new HttpError(400, 'Problems parsing JSON'));
  }
}

export function registerJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  // No parser limit: the route's bodyLimit (DEFAULT_BODY_BYTES unless it sets one) applies.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJson);
  app.addContentTypeParser('*', { parseAs: 'string' }, parseJson);
}

/** Upstream refuses a body that is JSON but not an object: "Body should be a JSON object". */
export function isAcceptableBody(body: unknown, allowArray: boolean): boolean {
  if (body === undefined) return true;
  if (Array.isArray(body)) return allowArray;
  return typeof body === 'object' && body !== null;
}

/** The first value of a path or query string holding a NUL character (its name), or null. */
export function nulParam(values: unknown): string | null {
  if (typeof values !== 'object' || values === null) return null;
  for (const [key, v] of Object.entries(values)) {
    if (key.includes('\0')) return key;
    if (typeof v === 'string' ? v.includes('\0') : Array.isArray(v) && v.some((x) => typeof x === 'string' && x.includes('\0'))) return key;
  }
  return null;
}

/**
 * Where a body holds a NUL character (a dotted path; keys count too), or null. Text
 * with NUL cannot be stored in PostgreSQL and means nothing in a title or a name, so
 * bodies carrying one are refused, except on routes that take raw content.
 */
export function nulField(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\0') ? path || 'body' : null;
  if (typeof value !== 'object' || value === null) return null;
  // Parsed bodies are at most MAX_JSON_DEPTH deep; GraphQL variables and the like may
  // come another way, so the walk stops there too rather than overflow the stack.
  if (depth > MAX_JSON_DEPTH) return path || 'body';
  // Only what JSON.parse makes: other bodies (git's pkt-line streams) are not JSON.
  const proto: unknown = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulField(value[i], path ? `${path}[${i}]` : `[${i}]`, depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, v] of Object.entries(value)) {
    const here = path ? `${path}.${key}` : key;
    if (key.includes('\0')) return here;
    const found = nulField(v, here, depth + 1);
    if (found !== null) return found;
  }
  return null;
}
