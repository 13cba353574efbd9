// Pushes in flight: a row is committed before git receive-pack runs and deleted in the
// transaction that records the push, so a push git accepted while the process died is
// still found (and recorded) at the next start.
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  await db.schema.createTable('push_journal')
    .addColumn('id', id, primaryId)
    // A deleted repository has nothing left to record.
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    // The pusher; a deleted account leaves the push to be recorded as its repository owner's.
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    // The refs as recorded so far (JSON [{ref, sha, type}]): what the push is compared against.
    .addColumn('refs', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    // Epoch milliseconds until which the process running the push owns the row; it
    // renews the lease while git runs. Past it, any process may reconcile the row.
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_journal_repository').on('push_journal').column('repository_id').execute();
  await db.schema.createIndex('push_journal_lease').on('push_journal').column('lease_until').execute();
}
