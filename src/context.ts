// What every service receives: configuration, the database (or the transaction
// in progress), time and the URL builder.
import type pino from 'pino';
import type { Config } from './config.ts';
import type { Dialect, Executor } from './db/database.ts';
import type { Clock } from './domain/clock.ts';
import type { Urls } from './urls.ts';

export interface AppContext {
  config: Config;
  db: Executor;
  dialect: Dialect;
  clock: Clock;
  urls: Urls;
  log: pino.Logger;
}

/** Runs fn in one transaction; nested calls reuse the outer one. */
export async function inTransaction<T>(ctx: AppContext, fn: (tx: AppContext) => Promise<T>): Promise<T> {
  if (ctx.db.isTransaction) return fn(ctx);
  return ctx.db.transaction().execute((trx) => fn({ ...ctx, db: trx }));
}
