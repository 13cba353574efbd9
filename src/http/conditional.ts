// ETag on every response; If-None-Match and If-Modified-Since answer 304 to GET and HEAD.
import type { FastifyReply, FastifyRequest } from 'fastify';
import xxhash from 'xxhash-wasm';

// Every answer is hashed: xxHash64 (WebAssembly) hashes a 400 KB list in ~60 µs where
// SHA-1 takes ~500. A weak validator needs no cryptographic hash: 64 bits tell versions
// of one resource apart. It hashes bytes: encoding a string into the hash's memory
// cost as much again as the encoding for the socket, so the caller encodes once.
const { h64Raw } = await xxhash();

export function etagOf(payload: Buffer): string {
  return `W/"${h64Raw(payload).toString(16).padStart(16, '0')}"`;
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

/**
 * Sets ETag (and Last-Modified); returns true when the client's copy is current. `etag`:
 * the payload's, when known already (an answer kept with it).
 */
export function isNotModified(request: FastifyRequest, reply: FastifyReply, payload: Buffer, etag = etagOf(payload)): boolean {
  reply.header('etag', etag);
  if (reply.lastModified) reply.header('last-modified', new Date(reply.lastModified).toUTCString());
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (reply.statusCode !== 200) return false;
  const inm = request.headers['if-none-match'];
  if (inm) return matchesIfNoneMatch(inm, etag);
  const ims = request.headers['if-modified-since'];
  return Boolean(ims && reply.lastModified && notModifiedSince(ims, reply.lastModified));
}
