// Who pushed a pull request's head last (branch protection's require_last_push_approval:
// the latest push must be approved by someone else). Null until a push moves the head
// after the pull request was opened.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('pull_requests').addColumn('last_pusher_id', 'integer').execute();
}
