// Each attempt of a webhook delivery is its own delivery, as upstream lists them: a
// retry is queued as a new row of the same event and GUID. `first_id` ties a retry to
// the row that was first queued, so that every attempt of one delivery can be found.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('hook_deliveries').addColumn('first_id', 'integer').execute();
  await db.schema.createIndex('hook_deliveries_first').on('hook_deliveries').column('first_id').execute();
}
