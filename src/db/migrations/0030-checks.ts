// Checks (issue #21): check suites (one per app and head commit of a repository), their
// check runs, the runs' annotations, and a repository's suite preferences (whether
// pushes create suites for an app). Runs made with users' tokens, where the site admin
// allows that, belong to suites of no app (app_key 0).
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  await db.schema.createTable('check_suites')
    .addColumn('id', id, primaryId)
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('app_id', 'integer', (c) => c.references('apps.id').onDelete('cascade'))
    /** app_id, or 0 for users' runs: unique with repository and head (NULLs would not be). */
    .addColumn('app_key', 'integer', (c) => c.notNull())
    .addColumn('head_sha', 'text', (c) => c.notNull())
    .addColumn('head_branch', 'text')
    .addColumn('before_sha', 'text')
    .addColumn('after_sha', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('conclusion', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('check_suites_head').on('check_suites').columns(['repository_id', 'head_sha', 'app_key']).unique().execute();

  await db.schema.createTable('check_runs')
    .addColumn('id', id, primaryId)
    .addColumn('suite_id', 'integer', (c) => c.notNull().references('check_suites.id').onDelete('cascade'))
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('head_sha', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('conclusion', 'text')
    .addColumn('external_id', 'text')
    .addColumn('details_url', 'text')
    .addColumn('started_at', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('output_title', 'text')
    .addColumn('output_summary', 'text')
    .addColumn('output_text', 'text')
    .addColumn('annotations_count', 'integer', (c) => c.notNull())
    /** JSON: the requested actions [{label, description, identifier}]. */
    .addColumn('actions', 'text', (c) => c.notNull())
    /** The user whose token made a run without an app; null for apps' runs. */
    .addColumn('creator_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('check_runs_head').on('check_runs').columns(['repository_id', 'head_sha', 'name']).execute();
  await db.schema.createIndex('check_runs_suite').on('check_runs').columns(['suite_id', 'name']).execute();

  await db.schema.createTable('check_annotations')
    .addColumn('id', id, primaryId)
    .addColumn('check_run_id', 'integer', (c) => c.notNull().references('check_runs.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('start_line', 'integer', (c) => c.notNull())
    .addColumn('end_line', 'integer', (c) => c.notNull())
    .addColumn('start_column', 'integer')
    .addColumn('end_column', 'integer')
    .addColumn('annotation_level', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('raw_details', 'text')
    .execute();
  await db.schema.createIndex('check_annotations_run').on('check_annotations').columns(['check_run_id', 'id']).execute();

  await db.schema.createTable('check_suite_preferences')
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('auto_trigger', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('check_suite_preferences_pk', ['repository_id', 'app_id'])
    .execute();
}
