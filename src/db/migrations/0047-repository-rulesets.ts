// Repository rulesets (POST …/rulesets): named sets of rules for the refs their
// conditions match, beside classic branch protection. Bypass actors, conditions and
// rules are JSON documents (rulesets.model) since they are always read and written
// whole; a name is unique within its repository, as upstream.
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  await db.schema.createTable('repository_rulesets')
    .addColumn('id', id, primaryId)
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('enforcement', 'text', (c) => c.notNull())
    .addColumn('bypass_actors', 'text', (c) => c.notNull())
    .addColumn('conditions', 'text')
    .addColumn('rules', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('repository_rulesets_repository_name').unique().on('repository_rulesets').columns(['repository_id', 'name']).execute();
}
