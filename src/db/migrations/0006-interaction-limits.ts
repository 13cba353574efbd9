// Interaction limits: temporary restrictions on who may comment, open issues or pull
// requests in an organization's, a user's or one repository's public repositories.
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  // target_id is an organization's or user's account id, or a repository id, as `scope`
  // says; no foreign key for that reason. Rows of deleted targets are never read.
  await db.schema.createTable('interaction_limits')
    .addColumn('id', id, primaryId)
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('limit', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('interaction_limits_scope_target', ['scope', 'target_id'])
    .execute();
  // Expired rows are pruned by expires_at.
  await db.schema.createIndex('interaction_limits_expires_at').on('interaction_limits').column('expires_at').execute();
}
