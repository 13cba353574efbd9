// Who is @mentioned in an issue (its body or its comments), for the `mentioned` filter
// of the issue lists. A mention stays once made, as upstream's does.
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema.createTable('issue_mentions')
    .addColumn('issue_id', 'integer', (c) => c.notNull().references('issues.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('issue_mentions_pk', ['issue_id', 'user_id'])
    .execute();
  await db.schema.createIndex('issue_mentions_user').on('issue_mentions').columns(['user_id', 'issue_id']).execute();
}
