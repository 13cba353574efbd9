// Work an app did (through an installation token or a user-to-server token) names the app
// in upstream's `performed_via_github_app` (issue #15): issues, their comments and their
// timeline events record the app's id at creation. No foreign key: a deleted app simply
// stops being found when the records are presented (null, as for work no app did), and
// deleting an app need not touch these large tables.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['issues', 'issue_comments', 'issue_events']) {
    await db.schema.alterTable(table).addColumn('performed_via_app_id', 'integer').execute();
  }
}
