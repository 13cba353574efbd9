// The time budget every search runs under (WHARF_SEARCH_TIMEOUT_MS). The spec's Limits:
// a search that runs out of time answers what it found with incomplete_results; one that
// found nothing in time answers 503. On SQLite a statement cannot be interrupted, so the
// long work (code search's scan) is done in chunks with the deadline checked between
// them; on PostgreSQL statement_timeout also cancels a statement already running.
import { sql } from 'kysely';
import { inTransaction, type AppContext } from '../../context.ts';
import type { Clock } from '../../domain/clock.ts';

/** Nothing could be computed within the budget (REST: 503). */
export class SearchTimedOut extends Error {
  constructor() { super('Service unavailable'); }
}

export class SearchDeadline {
  private readonly at: number;
  // The context's clock, not performance.now: tests step it to force a time-out without sleeping.
  constructor(private readonly clock: Clock, budgetMs: number) { this.at = clock.now().getTime() + budgetMs; }

  /** Milliseconds left; 0 once spent (a budget of 0 is spent before any work). */
  remainingMs(): number {
    return Math.max(0, this.at - this.clock.now().getTime());
  }
}

/** PostgreSQL's query_canceled: statement_timeout fired. */
export function isStatementTimeout(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '57014';
}

/** Bounds each statement of the rest of the transaction to `ms` (PostgreSQL; ≥ 1, as 0 would mean no bound). */
export async function limitStatements(ctx: AppContext, ms: number): Promise<void> {
  if (ctx.dialect !== 'postgres' || !ctx.db.isTransaction) return;
  await sql`SELECT set_config('statement_timeout', ${String(Math.max(1, Math.ceil(ms)))}, true)`.execute(ctx.db);
}

/**
 * Runs one part of a search that may be cut off (a chunk of code search's scan): null
 * when the budget ran out before or during it. On PostgreSQL it runs in a savepoint, so
 * a cancelled statement leaves the search's transaction usable for what was found.
 */
export async function attempt<T>(ctx: AppContext, deadline: SearchDeadline, run: () => Promise<T>): Promise<T | null> {
  const left = deadline.remainingMs();
  if (left <= 0) return null;
  if (ctx.dialect !== 'postgres' || !ctx.db.isTransaction) return run();
  await sql`SAVEPOINT search_part`.execute(ctx.db);
  try {
    await limitStatements(ctx, left);
    const result = await run();
    await sql`RELEASE SAVEPOINT search_part`.execute(ctx.db);
    return result;
  } catch (err) {
    await sql`ROLLBACK TO SAVEPOINT search_part`.execute(ctx.db);
    if (isStatementTimeout(err)) return null;
    throw err;
  }
}

/**
 * Runs a search under the budget: SearchTimedOut when it is spent before the search
 * starts or (PostgreSQL) a statement outlives it. On PostgreSQL the search runs in a
 * read transaction whose statements share the budget; an outer transaction is left alone
 * (its own statements must not inherit the bound).
 */
export async function withinBudget<T>(ctx: AppContext, run: (ctx: AppContext, deadline: SearchDeadline) => Promise<T>): Promise<T> {
  const deadline = new SearchDeadline(ctx.clock, ctx.config.searchTimeoutMs);
  const left = deadline.remainingMs();
  if (left <= 0) throw new SearchTimedOut();
  if (ctx.dialect !== 'postgres' || ctx.db.isTransaction) return run(ctx, deadline);
  try {
    return await inTransaction(ctx, async (tx) => {
      await limitStatements(tx, left);
      return run(tx, deadline);
    });
  } catch (err) {
    if (isStatementTimeout(err)) throw new SearchTimedOut();
    throw err;
  }
}
