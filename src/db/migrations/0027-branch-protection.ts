// Branch protection rules of a repository (classic protection). One row per branch
// name or wildcard pattern; the settings are one JSON document (protection.model
// BranchRules) since they are always read and written whole.
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  await db.schema.createTable('branch_protections')
    .addColumn('id', id, primaryId)
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('pattern', 'text', (c) => c.notNull())
    .addColumn('rules', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('branch_protections_repository_pattern').unique().on('branch_protections').columns(['repository_id', 'pattern']).execute();
}
