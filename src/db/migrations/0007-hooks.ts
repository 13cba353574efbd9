// Webhooks of repositories and organizations (configuration only; deliveries come later).
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  // target_id is a repository id or an organization's account id, as `scope` says; no
  // foreign key for that reason.
  await db.schema.createTable('hooks')
    .addColumn('id', id, primaryId)
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('config_url', 'text', (c) => c.notNull())
    .addColumn('config_content_type', 'text', (c) => c.notNull())
    .addColumn('config_secret', 'text')
    .addColumn('config_insecure_ssl', 'text', (c) => c.notNull())
    .addColumn('last_response_code', 'integer')
    .addColumn('last_response_status', 'text', (c) => c.notNull())
    .addColumn('last_response_message', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('hooks_scope_target').on('hooks').columns(['scope', 'target_id', 'id']).execute();
}
