// Migration archive imports (issue #19 §4): a durable job per archive loaded into this
// Wharf, with its progress, its conflicts report and what it has created so far (so a
// failed or interrupted import can take every piece of it back out).
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  await db.schema.createTable('migration_imports')
    .addColumn('id', id, primaryId)
    .addColumn('created_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    /** pending → importing → imported | failed */
    .addColumn('state', 'text', (c) => c.notNull())
    /** Absolute path of the .tar.gz; owned_archive: 1 when it was uploaded (removed once done). */
    .addColumn('archive_path', 'text', (c) => c.notNull())
    .addColumn('owned_archive', 'integer', (c) => c.notNull())
    /** --org: the organization to import into instead of the archive's. */
    .addColumn('target_org', 'text')
    /** skip | rename: what to do with a repository whose name is taken. */
    .addColumn('on_conflict', 'text', (c) => c.notNull())
    /** JSON { step, done, total } */
    .addColumn('progress', 'text')
    /** JSON report: conflicts, users created and mapped, repositories imported. */
    .addColumn('report', 'text')
    /** JSON: ids of what this import created so far, removed again when it fails. */
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('failure', 'text')
    .addColumn('claimed_until', 'bigint')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('migration_imports_state').on('migration_imports').column('state').execute();
}
