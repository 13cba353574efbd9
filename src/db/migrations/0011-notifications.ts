// Notifications: one thread per subject (issue, pull request, repository invitation)
// per user, and the users' thread subscriptions (participation, manual subscriptions,
// ignored threads). A subject is addressed by repository and number (issues and pull
// requests share one sequence) or, for an invitation, by the invitation id: both stay
// put while the subject changes, and the pulls module's own ids never enter here.
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  await db.schema.createTable('notification_threads')
    .addColumn('id', id, primaryId)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('subject_type', 'text', (c) => c.notNull())
    .addColumn('subject_key', 'integer', (c) => c.notNull())
    .addColumn('subject_title', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('unread', 'integer', (c) => c.notNull())
    // Marked done: out of every list until the next notification on the thread.
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('latest_comment_kind', 'text')
    .addColumn('latest_comment_id', 'integer')
    .addColumn('last_read_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('notification_threads_subject', ['user_id', 'repository_id', 'subject_type', 'subject_key'])
    .execute();
  await db.schema.createIndex('notification_threads_user_updated').on('notification_threads')
    .columns(['user_id', 'updated_at', 'id']).execute();
  await db.schema.createIndex('notification_threads_by_subject').on('notification_threads')
    .columns(['repository_id', 'subject_type', 'subject_key']).execute();

  // A row with subscribed = 0 and ignored = 0 records that the user unsubscribed
  // (DELETE …/subscription): they are no longer a participant until they take part again.
  await db.schema.createTable('thread_subscriptions')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('subject_type', 'text', (c) => c.notNull())
    .addColumn('subject_key', 'integer', (c) => c.notNull())
    .addColumn('subscribed', 'integer', (c) => c.notNull())
    .addColumn('ignored', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('thread_subscriptions_pk', ['repository_id', 'subject_type', 'subject_key', 'user_id'])
    .execute();
  await db.schema.createIndex('thread_subscriptions_user').on('thread_subscriptions').columns(['user_id']).execute();
}
