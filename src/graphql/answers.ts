// Whole answers to GraphQL queries, kept as REST's GET answers are (src/http/answer-cache.ts):
// until the database or a ref changes. Clients send the same few queries again and again
// (gh's, an integration's poll), and a 100-issue query costs its resolvers fifty times what
// sending kept bytes does. The key is the caller's credential and the call's text —
// query, operation name and variables as sent. Cost analysis and the charge to the
// caller's graphql budget still run for every call; only execution is skipped.
//
// What else an answer can depend on is found out while it is built, not listed: the call
// runs with a clock and rate figures that note being read, and an answer that read
// either (rateLimit, a search's time budget, anything expiring) is not kept; nor is one
// with errors, nor a mutation's.
import type { AppContext } from '../context.ts';
import type { Actor } from '../domain/actor.ts';
import { callerKey } from '../http/answer-cache.ts';
import type { RateInfo } from './context.ts';

export interface GraphQLCall {
  query: string;
  variables: Record<string, unknown>;
  operationName: string | null;
}

/** Set when the call read something other than the database and refs. */
export interface Watch {
  touched: boolean;
}

export function graphqlAnswerKey(actor: Actor, call: GraphQLCall): string {
  return `graphql\n${callerKey(actor)}\n${call.operationName ?? ''}\n${JSON.stringify(call.variables)}\n${call.query}`;
}

/** The call's context, whose clock notes being read. */
export function watchedContext(ctx: AppContext, watch: Watch): AppContext {
  const clock = ctx.clock;
  return { ...ctx, clock: { now: () => { watch.touched = true; return clock.now(); } } };
}

/** The call's rate figures (Query.rateLimit), noting being read: they change with every call. */
export function watchedRate(rate: RateInfo, watch: Watch): RateInfo {
  const read = <K extends keyof RateInfo>(k: K) => () => { watch.touched = true; return rate[k]; };
  return Object.defineProperties({} as RateInfo, {
    limit: { get: read('limit'), enumerable: true },
    cost: { get: read('cost'), enumerable: true },
    nodeCount: { get: read('nodeCount'), enumerable: true },
    used: { get: read('used'), enumerable: true },
    resetAt: { get: read('resetAt'), enumerable: true },
  });
}
