// What every resolver receives: the services' context, the caller, the request's
// rate-limit figures and its batch loaders.
import type { AppContext } from '../context.ts';
import type { Actor, ActorUser } from '../domain/actor.ts';
import type { LoaderCache } from './loaders.ts';

/** The query's cost and the caller's graphql budget after it was charged (Query.rateLimit). */
export interface RateInfo {
  limit: number;
  cost: number;
  nodeCount: number;
  used: number;
  /** Epoch seconds. */
  resetAt: number;
}

export interface GraphQLContext {
  ctx: AppContext;
  actor: Actor;
  /** GraphQL answers authenticated users only (the endpoint refuses anyone else with a 401). */
  user: ActorUser;
  rate: RateInfo;
  /** Per-request DataLoaders (see loaders.ts); never shared between requests. */
  loaders: LoaderCache;
}

/** Every object a resolver hands on names its GraphQL type, so interfaces and unions resolve without guessing. */
export interface Typed {
  __typename: string;
}
