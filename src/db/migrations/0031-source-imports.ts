// Source imports (issue #20): one import per repository, driven through the spec's
// status table by the ImportWorker, with the commit authors it found and the files
// over the large-file threshold.
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  await db.schema.createTable('source_imports')
    .addColumn('repository_id', 'integer', (c) => c.primaryKey().references('repositories.id').onDelete('cascade'))
    /** Who started it: the pusher of the imported history. */
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('vcs', 'text')
    .addColumn('vcs_url', 'text', (c) => c.notNull())
    .addColumn('tfvc_project', 'text')
    /** The chosen project's path below vcs_url (a Subversion root holding several). */
    .addColumn('project_path', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_text', 'text')
    .addColumn('failed_step', 'text')
    .addColumn('percent', 'integer')
    .addColumn('commit_count', 'integer')
    .addColumn('push_percent', 'integer')
    .addColumn('authors_count', 'integer')
    .addColumn('has_large_files', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('large_files_size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('large_files_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('use_lfs', 'text', (c) => c.notNull().defaultTo('undecided'))
    /** JSON array of { vcs, tfvc_project, human_name, path }. */
    .addColumn('project_choices', 'text')
    /** vcs_username and vcs_password, sealed (src/domain/secret-box.ts); null once the import ends. */
    .addColumn('credentials', 'text')
    /** The step the worker is to run next (detect, import, map, push); null: waiting for the user, or done. */
    .addColumn('next_step', 'text')
    /** Bumped by every move of the user: a worker holding an older one stops. */
    .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
    /** A worker's claim (ISO time); a process dying with it gives it up then. */
    .addColumn('lease_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('source_imports_next').on('source_imports').columns(['next_step', 'lease_until']).execute();

  await db.schema.createTable('source_import_authors')
    .addColumn('id', id, primaryId)
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    /** The identity as the source wrote it: its e-mail (or Subversion user) and name. */
    .addColumn('remote_id', 'text', (c) => c.notNull())
    .addColumn('remote_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('source_import_authors_identity').unique().on('source_import_authors')
    .columns(['repository_id', 'remote_id', 'remote_name']).execute();

  await db.schema.createTable('source_import_large_files')
    .addColumn('id', id, primaryId)
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('ref_name', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('oid', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('source_import_large_files_repository').on('source_import_large_files').column('repository_id').execute();
}
