// Marks the asynchronous work of one GraphQL call (resolvers and the loaders' batches
// they schedule), so that what runs on its behalf can be told apart from the rest of
// the process: background workers share the same database handle.
import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<{ requestId: string }>();

export function inGraphQLCall<T>(requestId: string, fn: () => Promise<T>): Promise<T> {
  return scope.run({ requestId }, fn);
}

/** The id of the request whose GraphQL call is running here, or null outside one. */
export function currentGraphQLCall(): string | null {
  return scope.getStore()?.requestId ?? null;
}
