// Whole answers to GET requests, kept until the database or a ref changes. Reads on SQLite are
// already answered from memory (src/db/sqlite-read-cache.ts), but a record's answer
// still has to be presented, serialized and hashed for its ETag, which for a repository
// or an issue costs twice what the rest of the request does. A route whose answer
// depends on nothing but the database, the repositories' refs, the caller, the URL and
// the Accept header says so (`answerCache: true` in its config) and its 200s are kept
// here, keyed by those, and sent again while the generation — the database's and the
// refs' (src/git/ref-writes.ts) together — stays the one they were built at. Git
// objects never change under a ref, so refs are all of git an answer can go stale on.
// Authentication, rate limiting and the app-permission check still run for every
// request; only the handler is skipped. No route that reads git or the clock may say so.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../domain/actor.ts';

export interface CachedAnswer {
  headers: Record<string, string>;
  body: Buffer;
  etag: string;
  lastModified: string | null;
}

/** What a request that missed takes along to store its answer. */
export interface AnswerSlot {
  key: string;
  /** null: the answer may not be kept (a ref write was under way when it began). */
  generation: string | null;
}

/**
 * Headers that belong to one request, set again for each (ids, rate limits, the API
 * version echoed, the token's scopes), or made from the stored answer (ETag,
 * Last-Modified, length).
 */
const PER_REQUEST = /^(?:x-service-request-id|x-github-request-id|x-ratelimit-.*|x-service-api-version-selected|x-oauth-scopes|x-service-media-type|etag|last-modified|content-length|date|connection|keep-alive)$/;

export class AnswerCache {
  private readonly entries = new Map<string, CachedAnswer>();
  private bytes = 0;
  /** The generation every entry was built at. */
  private generation: string | null = null;
  hits = 0;

  /** `currentGeneration`: changes whenever an answer may have; null while it may be changing. */
  constructor(
    private readonly currentGeneration: () => string | null,
    private readonly maxBytes = 16 * 1024 * 1024,
    /**
     * Larger answers are not kept. A page of 100 pull requests is ~2.4 MB (each carries its
     * head's and base's repositories): under the 2 MB this was, it was never kept, and built
     * again for every request — 2.4 MB of string and of Buffer each time, the most costly
     * list to build and the one that left the most memory to the allocator (issue #12).
     */
    private readonly maxEntryBytes = 4 * 1024 * 1024,
  ) {}

  /** The answer kept for this key, if the database has not changed since it was built. */
  lookup(key: string): CachedAnswer | null {
    const now = this.currentGeneration();
    if (now === null) return null;
    this.sync(now);
    const entry = this.entries.get(key);
    if (entry) this.hits++;
    return entry ?? null;
  }

  /** The slot a request that missed fills in onSend: the generation before its handler read anything. */
  slot(key: string): AnswerSlot {
    return { key, generation: this.currentGeneration() };
  }

  /** Keeps an answer, unless anything was written while it was being built. */
  store(slot: AnswerSlot, answer: CachedAnswer): void {
    if (answer.body.length > this.maxEntryBytes) return;
    const now = this.currentGeneration();
    if (now === null || now !== slot.generation) return;
    this.sync(now);
    const old = this.entries.get(slot.key);
    if (old) this.bytes -= old.body.length;
    this.entries.set(slot.key, answer);
    this.bytes += answer.body.length;
    while (this.bytes > this.maxBytes) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.bytes -= entry.body.length;
    }
  }

  private sync(generation: string): void {
    if (generation === this.generation) return;
    this.entries.clear();
    this.bytes = 0;
    this.generation = generation;
  }
}

/** Who is asking, as far as an answer can differ: the credential, not the address. */
export function callerKey(actor: Actor): string {
  const i = actor.integration;
  return `${actor.method}:${actor.user?.id ?? ''}:${actor.tokenId ?? ''}:${actor.oauthAppId ?? ''}:${i ? `${i.appId}.${i.installationId}.${i.installationTokenId}` : ''}:${actor.deployKey?.keyId ?? ''}`;
}

export function answerKey(request: FastifyRequest): string {
  return `${callerKey(request.actor)}\n${request.headers.accept ?? ''}\n${request.originalUrl}`;
}

/** The answer as onSend has it, for storing: null when it is not to be kept. */
export function answerOf(reply: FastifyReply, body: Buffer): CachedAnswer | null {
  if (reply.statusCode !== 200 || reply.hasHeader('set-cookie')) return null;
  const etag = reply.getHeader('etag');
  if (typeof etag !== 'string') return null;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value === undefined || PER_REQUEST.test(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return { headers, body, etag, lastModified: reply.lastModified };
}
