// Retention (WHARF_RETENTION_DAYS, src/modules/retention/) deletes dispatched events,
// finished webhook deliveries and payloads no delivery refers to, older than a cut-off
// judged by created_at. Without an index on it each batch read its table from the
// start; with these a batch goes straight to the rows before the cut-off. A payload's
// "no delivery refers to it" looks deliveries up by outbox_id, which had no index
// either: a scan of every delivery per payload.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('outbox_created').on('outbox').column('created_at').execute();
  // Finished ones only are pruned: state first, so a batch reads no delivery still due.
  await db.schema.createIndex('hook_deliveries_state_created').on('hook_deliveries').columns(['state', 'created_at']).execute();
  await db.schema.createIndex('hook_deliveries_outbox').on('hook_deliveries').column('outbox_id').execute();
  await db.schema.createIndex('hook_payloads_created').on('hook_payloads').column('created_at').execute();
}
