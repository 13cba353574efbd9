// Team discussions (posts on a team's page) and their comments. Numbers are per team
// and per discussion, allocated from counters that never go back, so a deleted post's
// number is not given again (as upstream). Reactions on both live in `reactions`.
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  // One row per team that has had a discussion: the last number handed out.
  await db.schema.createTable('team_discussion_counters')
    .addColumn('team_id', 'integer', (c) => c.primaryKey().references('teams.id').onDelete('cascade'))
    .addColumn('last_number', 'integer', (c) => c.notNull())
    .execute();

  await db.schema.createTable('team_discussions')
    .addColumn('id', id, primaryId)
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('body_html', 'text', (c) => c.notNull())
    .addColumn('body_version', 'text', (c) => c.notNull())
    .addColumn('private', 'integer', (c) => c.notNull())
    .addColumn('pinned', 'integer', (c) => c.notNull())
    .addColumn('comments_count', 'integer', (c) => c.notNull())
    .addColumn('last_comment_number', 'integer', (c) => c.notNull())
    .addColumn('last_edited_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('team_discussions_team_number', ['team_id', 'number'])
    .execute();

  await db.schema.createTable('team_discussion_comments')
    .addColumn('id', id, primaryId)
    .addColumn('discussion_id', 'integer', (c) => c.notNull().references('team_discussions.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('body_html', 'text', (c) => c.notNull())
    .addColumn('body_version', 'text', (c) => c.notNull())
    .addColumn('last_edited_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('team_discussion_comments_number', ['discussion_id', 'number'])
    .execute();
}
