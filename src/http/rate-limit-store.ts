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

interface Waiter {
  amount: number;
  resolve: (c: Counter) => void;
  reject: (err: unknown) => void;
}

interface PendingHits {
  now: number;
  windowSeconds: number;
  amount: number;
  waiters: Waiter[];
}

/**
 * Group commit: the hits of one turn of the event loop are added to each bucket's row
 * in one statement, after the turn (setImmediate). Under load the requests parsed in
 * one turn share one write instead of a write each — on SQLite a committed write per
 * request was the largest cost of a small read. The row stays the only truth, so
 * several processes still agree and a burst past the limit is refused: each request
 * learns the counter as it stood after its own hit.
 */
export class DbRateLimitStore implements RateLimitStore {
  private pending = new Map<string, PendingHits>();
  private scheduled = false;

  constructor(private readonly db: Executor) {}

  hit(bucket: string, now: number, windowSeconds: number, amount = 1): Promise<Counter> {
    return new Promise((resolve, reject) => {
      let hits = this.pending.get(bucket);
      if (!hits) {
        hits = { now, windowSeconds, amount: 0, waiters: [] };
        this.pending.set(bucket, hits);
      }
      hits.amount += amount;
      hits.waiters.push({ amount, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = new Map();
    await Promise.all([...batch].map(async ([bucket, hits]) => {
      try {
        const [row] = await hitQuery(this.db, bucket, hits.now, hits.now + hits.windowSeconds, hits.amount);
        const resetAt = Number(row!.reset_at);
        // The row now counts the whole batch; each waiter sees it as after its own hit, in order.
        let used = Number(row!.used) - hits.amount;
        for (const w of hits.waiters) {
          used += w.amount;
          w.resolve({ used, resetAt });
        }
      } catch (err) {
        for (const w of hits.waiters) w.reject(err);
      }
    }));
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
