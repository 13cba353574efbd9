// Rate-limit counters in the database, so several processes agree and a restart
// does not reset them. A window starts with the first request after the last one ended.
import { sql } from 'kysely';
import type { Executor } from '../db/database.ts';
import { precompile } from '../db/precompiled.ts';

export interface Counter {
  used: number;
  /** Epoch seconds at which the window ends. */
  resetAt: number;
}

export interface RateLimitStore {
  /** Counts one request (or `amount` points: GraphQL spends a query's cost) and returns the counter after it. */
  hit(bucket: string, nowEpoch: number, windowSeconds: number, amount?: number): Promise<Counter>;
  /** Takes back one request (a 304 does not count), or `amount` points (a refused GraphQL call). */
  refund(bucket: string, resetAt: number, amount?: number): Promise<void>;
  peek(bucket: string, nowEpoch: number, windowSeconds: number): Promise<Counter>;
  close?(): Promise<void>;
}

// Every request runs this: compiled once (src/db/precompiled.ts).
const hitQuery = precompile(4, (db: Executor, bucket: string, now: number, resetAt: number, amount: number) =>
  db.insertInto('rate_limits')
    .values({ bucket, used: amount, reset_at: resetAt })
    .onConflict((oc) => oc.column('bucket').doUpdateSet({
      used: sql`CASE WHEN rate_limits.reset_at <= ${now} THEN ${amount} ELSE rate_limits.used + ${amount} END`,
      reset_at: sql`CASE WHEN rate_limits.reset_at <= ${now} THEN ${resetAt} ELSE rate_limits.reset_at END`,
    }))
    .returning(['used', 'reset_at']));

export class DbRateLimitStore implements RateLimitStore {
  constructor(private readonly db: Executor) {}

  async hit(bucket: string, now: number, windowSeconds: number, amount = 1): Promise<Counter> {
    const [row] = await hitQuery(this.db, bucket, now, now + windowSeconds, amount);
    return { used: Number(row!.used), resetAt: Number(row!.reset_at) };
  }

  async refund(bucket: string, resetAt: number, amount = 1): Promise<void> {
    await this.db.updateTable('rate_limits')
      .set({ used: sql`CASE WHEN used > ${amount} THEN used - ${amount} ELSE 0 END` })
      .where('bucket', '=', bucket).where('reset_at', '=', resetAt)
      .execute();
  }

  async peek(bucket: string, now: number, windowSeconds: number): Promise<Counter> {
    const row = await this.db.selectFrom('rate_limits').select(['used', 'reset_at'])
      .where('bucket', '=', bucket).executeTakeFirst();
    if (!row || Number(row.reset_at) <= now) return { used: 0, resetAt: now + windowSeconds };
    return { used: Number(row.used), resetAt: Number(row.reset_at) };
  }
}
