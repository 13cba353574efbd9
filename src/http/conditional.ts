// ETag on every response; If-None-Match and If-Modified-Since answer 304 to GET and HEAD.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export function etagOf(payload: string | Buffer): string {
  return `W/"${createHash('sha1').update(payload).digest('hex')}"`;
}

function matchesIfNoneMatch(header: string, etag: string): boolean {
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}

function notModifiedSince(header: string, lastModified: string): boolean {
  const since = Date.parse(header);
  return !Number.isNaN(since) && Date.parse(lastModified) <= since;
}

/** The updated_at of a single record's representation (Last-Modified), or null. */
export function updatedAtOf(payload: unknown): string | null {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return null;
  const updatedAt = (payload as { updated_at?: unknown }).updated_at;
  return typeof updatedAt === 'string' ? updatedAt : null;
}

/** Sets ETag (and Last-Modified); returns true when the client's copy is current. */
export function isNotModified(request: FastifyRequest, reply: FastifyReply, payload: string | Buffer): boolean {
  const etag = etagOf(payload);
  reply.header('etag', etag);
  if (reply.lastModified) reply.header('last-modified', new Date(reply.lastModified).toUTCString());
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (reply.statusCode !== 200) return false;
  const inm = request.headers['if-none-match'];
  if (inm) return matchesIfNoneMatch(inm, etag);
  const ims = request.headers['if-modified-since'];
  return Boolean(ims && reply.lastModified && notModifiedSince(ims, reply.lastModified));
}
