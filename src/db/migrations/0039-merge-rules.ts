// Merge rules (issue #21 §1, §4): review threads marked resolved (required conversation
// resolution), and pull request auto-merge with the flag its worker is woken by.
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  // A thread is its first comment (replies point at it): a row here marks it resolved.
  await db.schema.createTable('review_thread_resolutions')
    .addColumn('comment_id', 'integer', (c) => c.primaryKey().references('pull_request_review_comments.id').onDelete('cascade'))
    .addColumn('pull_request_id', 'integer', (c) => c.notNull().references('pull_requests.id').onDelete('cascade'))
    .addColumn('resolved_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('resolved_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('review_thread_resolutions_pull').on('review_thread_resolutions').column('pull_request_id').execute();

  // At most one auto-merge request per pull request; gone once disabled.
  await db.schema.createTable('pull_request_auto_merges')
    .addColumn('pull_request_id', 'integer', (c) => c.primaryKey().references('pull_requests.id').onDelete('cascade'))
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('enabled_by_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('merge_method', 'text', (c) => c.notNull())
    .addColumn('commit_title', 'text')
    .addColumn('commit_message', 'text')
    .addColumn('author_email', 'text')
    .addColumn('enabled_at', 'text', (c) => c.notNull())
    // 1 while the worker should look at it again (a status, check, review or push touched it).
    .addColumn('pending', 'integer', (c) => c.notNull())
    // A worker holds it until then (epoch ms); another takes it after.
    .addColumn('claimed_until', 'bigint')
    .execute();
  await db.schema.createIndex('pull_request_auto_merges_pending').on('pull_request_auto_merges').column('pending').execute();
}
