// What the REST conventions add to Fastify's request, reply and route config.
import type { FastifySchema } from 'fastify';
import type { Actor } from '../domain/actor.ts';
import type { AppContext } from '../context.ts';
import type { AnswerCache, AnswerSlot, CachedAnswer } from './answer-cache.ts';
import type { MediaType } from './media-type.ts';
import type { RateState } from './rate-limit.ts';
import type { RateLimitStore } from './rate-limit-store.ts';

export type RateResource = 'core' | 'search' | 'graphql' | 'code_search';

/**
 * What an installation access token needs to call a route: permission name → least
 * level; {} any installation; 'none' the route is not for apps.
 */
export type AppPermissionLevels = Readonly<Record<string, 'read' | 'write' | 'admin'>>;
/** What an installation token needs: all of one set of levels, any one of several sets (a classic project's id may name an organization's or a repository's board), or nothing it can have. */
export type AppPermissionNeed = AppPermissionLevels | readonly AppPermissionLevels[] | 'none';

export interface WharfRouteConfig {
  /** Upstream operation id, e.g. "users/get-authenticated". */
  operationId?: string;
  /** Resource name used in 422 `errors[].resource`. */
  resource?: string;
  /**
   * Which rate-limit bucket the route counts against; 'none' peeks without counting;
   * 'exempt' touches no counter at all (health probes, which must answer while the
   * database does not).
   */
  rateLimit?: RateResource | 'none' | 'exempt';
  /** Scopes listed in X-Accepted-OAuth-Scopes. */
  acceptedScopes?: string[];
  /** The route accepts a JSON array as its body (upstream allows it on a few routes). */
  allowJsonArray?: boolean;
  /** The route does its own authentication answer (git asks for credentials on 401). */
  authChallenge?: boolean;
  /** A preview the Accept header must name (e.g. 'squirrel-girl'); without it the route answers 415. */
  requiredPreview?: string;
  /**
   * The route answers bytes that are not JSON (git's protocol, an HTML page) and so
   * declares no response schema; every other route declares one.
   */
  rawResponse?: boolean;
  /**
   * An app may call the route with its JSON web token (GET /app, its installations,
   * GET /apps/{slug}); with a JWT every other route answers 401, as upstream.
   */
  appJwt?: boolean;
  /** What an installation token needs here; defaults to the operation's row of app-permission-table.ts. */
  appPermission?: AppPermissionNeed;
  /** A SCIM 2.0 route (RFC 7644): failures answer SCIM's error body as application/scim+json. */
  scim?: boolean;
  /** The body may carry NUL characters (raw content such as a blob's); elsewhere they are a 422. */
  allowNul?: boolean;
  /**
   * The route's answer depends on nothing but the database, git (objects and refs), the
   * caller, the URL and the Accept header — no clock, no other memory of the process —,
   * so on SQLite its 200s are kept and sent again until anything is written or a ref
   * moves (src/http/answer-cache.ts).
   */
  answerCache?: boolean;
}

export interface RouteEntry {
  method: string;
  url: string;
  operationId: string | null;
  /** Status codes the route's response schema declares (empty: none). */
  responses: string[];
  /** Top-level properties of the route's body schema (empty: none or not an object). */
  bodyFields: string[];
  rawResponse: boolean;
  /** What an installation token needs on the route (null: undeclared). */
  appPermission: AppPermissionNeed | null;
  /** The route's schemas as declared (tests compile them all: outside production they compile on first use). */
  schema: FastifySchema | null;
}

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface FastifyContextConfig extends WharfRouteConfig {}
  interface FastifyInstance {
    ctx: AppContext;
    /** Every route as registered: method, path and whether it declares its responses. */
    routeTable: RouteEntry[];
    /** The rate-limit counters (GET /rate_limit reads them). */
    rateLimits: RateLimitStore;
    /** Answers kept until the database changes (null on PostgreSQL). */
    answers: AnswerCache | null;
  }
  interface FastifyRequest {
    actor: Actor;
    media: MediaType;
    rate: RateState | null;
    /** The kept answer this request is sent (answer-cache.ts). */
    keptAnswer: CachedAnswer | null;
    /** Where a request that found no kept answer stores its own. */
    answerSlot: AnswerSlot | null;
  }
  interface FastifyReply {
    /** updated_at of the resource sent; drives Last-Modified and If-Modified-Since. */
    lastModified: string | null;
  }
}
