// Row claims for background workers: the one place their SQL differs by dialect.
//
// On PostgreSQL several Wharf processes drain the same queues, so a worker locks the
// rows it selects with FOR UPDATE SKIP LOCKED: a row another worker holds is passed
// over instead of waited for. SQLite has no row locks and needs none: it runs one
// writer at a time, so a select-then-update inside one transaction is already atomic.
import type { SelectQueryBuilder } from 'kysely';
import type { Dialect } from './database.ts';

export function skipLocked<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>, dialect: Dialect,
): SelectQueryBuilder<DB, TB, O> {
  return dialect === 'postgres' ? query.forUpdate().skipLocked() : query;
}
