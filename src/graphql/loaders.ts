// Per-request batch loaders. A module defines a loader once, at module level, with
// defineLoader; resolvers call load(g, loader, key). Every key asked for in one tick
// of the same request is fetched by one batch call, so a list of 100 issues asks for
// its 100 authors in one query, not 100. Loaders live for one request only: nothing
// is cached across requests or callers (what one caller may see is not another's).
import DataLoader from 'dataloader';
import type { GraphQLContext } from './context.ts';

export interface LoaderDef<K, V, C = K> {
  readonly name: string;
  readonly batch: (g: GraphQLContext, keys: readonly K[]) => Promise<readonly (V | Error)[]>;
  readonly cacheKey?: (key: K) => C;
}

export type LoaderCache = Map<LoaderDef<never, unknown, unknown>, DataLoader<unknown, unknown, unknown>>;

export function newLoaderCache(): LoaderCache {
  return new Map();
}

/** A loader whose batch function answers one value (or Error) per key, in key order. */
export function defineLoader<K, V, C = K>(
  name: string,
  batch: (g: GraphQLContext, keys: readonly K[]) => Promise<readonly (V | Error)[]>,
  cacheKey?: (key: K) => C,
): LoaderDef<K, V, C> {
  return { name, batch, cacheKey };
}

/**
 * A loader over a service call that answers a map (accountsByIds and the like);
 * keys the map lacks load as null.
 */
export function defineMapLoader<K, V, C = K>(
  name: string,
  fetch: (g: GraphQLContext, keys: readonly K[]) => Promise<ReadonlyMap<C, V>>,
  cacheKey?: (key: K) => C,
): LoaderDef<K, V | null, C> {
  const keyOf = cacheKey ?? ((k: K) => k as unknown as C);
  return defineLoader(name, async (g, keys) => {
    const found = await fetch(g, keys);
    return keys.map((k) => found.get(keyOf(k)) ?? null);
  }, cacheKey);
}

export function loaderOf<K, V, C>(g: GraphQLContext, def: LoaderDef<K, V, C>): DataLoader<K, V, C> {
  const cache = g.loaders as unknown as Map<LoaderDef<K, V, C>, DataLoader<K, V, C>>;
  let loader = cache.get(def);
  if (!loader) {
    loader = new DataLoader<K, V, C>((keys) => def.batch(g, keys), { cacheKeyFn: def.cacheKey, maxBatchSize: 1000 });
    cache.set(def, loader);
  }
  return loader;
}

export function load<K, V, C>(g: GraphQLContext, def: LoaderDef<K, V, C>, key: K): Promise<V> {
  return loaderOf(g, def).load(key);
}

/** Seeds a loader with what a list query already returned (its items need no second fetch). */
export function prime<K, V, C>(g: GraphQLContext, def: LoaderDef<K, V, C>, key: K, value: V): void {
  loaderOf(g, def).prime(key, value);
}
