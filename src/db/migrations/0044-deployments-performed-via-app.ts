// Deployments and deployment statuses an app created name it in upstream's
// `performed_via_github_app` (issue #15), as issues do (0037): the app's id, recorded at
// creation. No foreign key, for the same reason: a deleted app is simply not found
// when the records are presented.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['deployments', 'deployment_statuses']) {
    await db.schema.alterTable(table).addColumn('performed_via_app_id', 'integer').execute();
  }
}
