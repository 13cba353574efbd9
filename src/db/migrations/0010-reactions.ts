// Reactions on any subject (issue, comment, review comment, team discussion …): one
// row per user, subject and content, so a second identical reaction is a no-op.
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  await db.schema.createTable('reactions')
    .addColumn('id', id, primaryId)
    .addColumn('subject_type', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'integer', (c) => c.notNull())
    .addColumn('repository_id', 'integer', (c) => c.references('repositories.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('reactions_unique', ['subject_type', 'subject_id', 'user_id', 'content'])
    .execute();
  await db.schema.createIndex('reactions_subject').on('reactions').columns(['subject_type', 'subject_id', 'id']).execute();
}
