// Comments hidden by a maintainer (GraphQL minimizeComment): the reason they gave, in
// upstream's wording (spam, abuse, off-topic, outdated, duplicate, resolved); null
// while shown.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('issue_comments').addColumn('minimized_reason', 'text').execute();
}
