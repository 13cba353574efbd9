// Organization and user migrations (issue #19): export jobs with their repositories,
// and the migration lock on repositories (a locked repository refuses every write
// until its migration unlocks it; a column so that every access decision sees it).
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  await db.schema.createTable('org_migrations')
    .addColumn('id', id, primaryId)
    .addColumn('guid', 'text', (c) => c.notNull().unique())
    /** The organization or user whose repositories are exported. */
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    /** pending → exporting → exported | failed */
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('lock_repositories', 'integer', (c) => c.notNull())
    .addColumn('exclude_metadata', 'integer', (c) => c.notNull())
    .addColumn('exclude_git_data', 'integer', (c) => c.notNull())
    .addColumn('exclude_attachments', 'integer', (c) => c.notNull())
    .addColumn('exclude_releases', 'integer', (c) => c.notNull())
    .addColumn('exclude_owner_projects', 'integer', (c) => c.notNull())
    .addColumn('org_metadata_only', 'integer', (c) => c.notNull())
    /** JSON array of the `exclude` values given at start. */
    .addColumn('exclude', 'text', (c) => c.notNull())
    /** Progress while exporting: JSON { step, done, total }. */
    .addColumn('progress', 'text')
    .addColumn('failure', 'text')
    /** The archive's file name under the data dir's migrations folder (null: none, or deleted). */
    .addColumn('archive_file', 'text')
    .addColumn('archive_size', 'integer')
    /** sha256 of the current short-lived download token, and when it stops working (ms). */
    .addColumn('download_token_hash', 'text')
    .addColumn('download_expires_at', 'bigint')
    /** A worker holding the export job until then (ms); a dead worker's claim runs out. */
    .addColumn('claimed_until', 'bigint')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('org_migrations_owner').on('org_migrations').columns(['owner_id', 'id']).execute();
  await db.schema.createIndex('org_migrations_state').on('org_migrations').column('state').execute();
  await db.schema.createTable('org_migration_repositories')
    .addColumn('migration_id', 'integer', (c) => c.notNull().references('org_migrations.id').onDelete('cascade'))
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('org_migration_repositories_pk', ['migration_id', 'repository_id'])
    .execute();
  await db.schema.alterTable('repositories').addColumn('migration_locked', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
