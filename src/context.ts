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

/**
 * Runs fn in one transaction; nested calls reuse the outer one. On PostgreSQL a
 * transaction that lost a serialization conflict or was picked as a deadlock's victim
 * (SQLSTATE 40001, 40P01) did nothing, and the whole of fn runs again, up to
 * TRANSACTION_ATTEMPTS times with a growing, jittered pause; only the outermost call
 * retries, so every transaction is covered here and nowhere else. fn must therefore
 * leave nothing behind outside the database that a second run would trip over (its
 * after-commit callbacks are dropped with the rolled-back attempt).
 */
export async function inTransaction<T>(ctx: AppContext, fn: (tx: AppContext) => Promise<T>): Promise<T> {
  if (ctx.db.isTransaction) return fn(ctx);
  for (let attempt = 1; ; attempt++) {
    let trx: Executor | null = null;
    try {
      const result = await ctx.db.transaction().execute((t) => { trx = t; return fn({ ...ctx, db: t }); });
      const callbacks = trx ? afterCommitCallbacks.get(trx) : undefined;
      if (callbacks) for (const callback of callbacks) callback();
      return result;
    } catch (err) {
      if (attempt >= TRANSACTION_ATTEMPTS || !isRetryableConflict(err)) throw err;
      const pause = retryPauseMs(attempt);
      ctx.log.warn({ code: (err as { code?: string }).code, attempt, pause }, 'transaction conflict; running it again');
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/** Attempts of one transaction before its conflict reaches the caller (as a 500). */
export const TRANSACTION_ATTEMPTS = 5;

/** PostgreSQL's serialization_failure and deadlock_detected. */
const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);

export function isRetryableConflict(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRYABLE_SQLSTATES.has(code);
}

/** 10, 20, 40, 80 ms, each with up to as much again at random, so that the two sides of a conflict do not meet again. */
function retryPauseMs(attempt: number): number {
  const base = 10 * 2 ** (attempt - 1);
  return base + Math.floor(Math.random() * base);
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
