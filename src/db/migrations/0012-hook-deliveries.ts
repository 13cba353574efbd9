// Webhook deliveries: one row per (event, hook), and every attempt made to deliver it.
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  // An event's payload as delivered, rendered once for all its hooks (and redeliveries).
  await db.schema.createTable('hook_payloads')
    .addColumn('outbox_id', 'integer', (c) => c.primaryKey())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema.createTable('hook_deliveries')
    .addColumn('id', id, primaryId)
    // A hook's deliveries go with it.
    .addColumn('hook_id', 'integer', (c) => c.notNull().references('hooks.id').onDelete('cascade'))
    .addColumn('guid', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('action', 'text')
    .addColumn('repository_id', 'integer')
    .addColumn('installation_id', 'integer')
    .addColumn('outbox_id', 'integer', (c) => c.notNull())
    .addColumn('redelivery', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    // Scheduling in epoch milliseconds: retries are timed below the second that the
    // ISO text timestamps of the API carry.
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    // The outcome so far, for lists and their status filter; the request and response
    // of each attempt are in hook_delivery_attempts (the latest: attempt = attempts).
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .execute();
  // Listing a hook's deliveries, and finding the head of its queue.
  await db.schema.createIndex('hook_deliveries_hook').on('hook_deliveries').columns(['hook_id', 'id']).execute();
  // A hook's deliveries waiting for a retry (brought forward once it answers again).
  await db.schema.createIndex('hook_deliveries_hook_state').on('hook_deliveries').columns(['hook_id', 'state', 'next_attempt_at']).execute();
  // The worker's claim: due deliveries in order.
  await db.schema.createIndex('hook_deliveries_due').on('hook_deliveries').columns(['state', 'next_attempt_at', 'id']).execute();

  await db.schema.createTable('hook_delivery_attempts')
    .addColumn('id', id, primaryId)
    .addColumn('delivery_id', 'integer', (c) => c.notNull().references('hook_deliveries.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text', (c) => c.notNull())
    .addColumn('duration', 'double precision', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('request_headers', 'text', (c) => c.notNull())
    .addColumn('response_headers', 'text')
    .addColumn('response_body', 'text')
    .execute();
  // The hooks test endpoint looks up a repository's latest push.
  await db.schema.createIndex('outbox_repository_event').on('outbox').columns(['repository_id', 'event', 'id']).execute();

  await db.schema.createIndex('hook_delivery_attempts_delivery').on('hook_delivery_attempts').columns(['delivery_id', 'attempt']).execute();
}
