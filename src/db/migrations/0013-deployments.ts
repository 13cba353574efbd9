// Deployments with their statuses, and commit statuses (what CI systems report on commits).
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  await db.schema.createTable('deployments')
    .addColumn('id', id, primaryId)
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('sha', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('task', 'text', (c) => c.notNull())
    // JSON text: an object, or a string kept as given.
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('original_environment', 'text', (c) => c.notNull())
    // Follows the environment of the latest status.
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('creator_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('transient_environment', 'integer', (c) => c.notNull())
    .addColumn('production_environment', 'integer', (c) => c.notNull())
    // State of the latest status (null before any): for auto_inactive and deletion rules.
    .addColumn('latest_state', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('deployments_repository').on('deployments').columns(['repository_id', 'id']).execute();
  await db.schema.createIndex('deployments_repository_environment').on('deployments').columns(['repository_id', 'environment', 'id']).execute();

  await db.schema.createTable('deployment_statuses')
    .addColumn('id', id, primaryId)
    .addColumn('deployment_id', 'integer', (c) => c.notNull().references('deployments.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('target_url', 'text', (c) => c.notNull())
    .addColumn('log_url', 'text', (c) => c.notNull())
    .addColumn('environment_url', 'text', (c) => c.notNull())
    .addColumn('creator_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('deployment_statuses_deployment').on('deployment_statuses').columns(['deployment_id', 'id']).execute();

  await db.schema.createTable('commit_statuses')
    .addColumn('id', id, primaryId)
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('sha', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('target_url', 'text')
    .addColumn('description', 'text')
    .addColumn('context', 'text', (c) => c.notNull())
    // Contexts compare case-insensitively upstream: this is the lower-cased form.
    .addColumn('context_key', 'text', (c) => c.notNull())
    .addColumn('creator_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('commit_statuses_sha').on('commit_statuses').columns(['repository_id', 'sha', 'id']).execute();
  await db.schema.createIndex('commit_statuses_context').on('commit_statuses').columns(['repository_id', 'sha', 'context_key', 'id']).execute();
}
