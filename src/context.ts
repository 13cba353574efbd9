// What every service receives: configuration, the database (or the transaction
// in progress), time, the URL builder and the module bus.
import type pino from 'pino';
import type { Config } from './config.ts';
import type { Dialect, Executor } from './db/database.ts';
import type { EventBus } from './events/bus.ts';
import type { Clock } from './domain/clock.ts';
import type { SecretBox } from './domain/secret-box.ts';
import type { Urls } from './urls.ts';

export interface AppContext {
  config: Config;
  db: Executor;
  dialect: Dialect;
  clock: Clock;
  urls: Urls;
  log: pino.Logger;
  /** Seals and opens stored secrets with the server's key (loaded once at start). */
  secrets: SecretBox;
  /** Event subscribers and cross-module providers, wired once by src/modules/wiring.ts. */
  bus: EventBus;
}

/** Runs fn in one transaction; nested calls reuse the outer one. */
export async function inTransaction<T>(ctx: AppContext, fn: (tx: AppContext) => Promise<T>): Promise<T> {
  if (ctx.db.isTransaction) return fn(ctx);
  let trx: Executor | null = null;
  const result = await ctx.db.transaction().execute((t) => { trx = t; return fn({ ...ctx, db: t }); });
  const callbacks = trx ? afterCommitCallbacks.get(trx) : undefined;
  if (callbacks) for (const callback of callbacks) callback();
  return result;
}

const afterCommitCallbacks = new WeakMap<Executor, (() => void)[]>();

/**
 * Runs `callback` once the transaction in progress has committed (at once outside a
 * transaction), never when it rolls back: a worker woken earlier would not see the
 * rows yet on PostgreSQL. The callback must not throw.
 */
export function afterCommit(ctx: AppContext, callback: () => void): void {
  if (!ctx.db.isTransaction) {
    callback();
    return;
  }
  const callbacks = afterCommitCallbacks.get(ctx.db);
  if (callbacks) callbacks.push(callback);
  else afterCommitCallbacks.set(ctx.db, [callback]);
}
