// Organization rulesets (POST /orgs/{org}/rulesets) live beside repository rulesets in
// repository_rulesets, as upstream keeps both as one kind of record with one sequence of
// ids: a row belongs to a repository or to an organization (exactly one of the two), and
// an organization's row says which of its repositories it covers
// (repository_conditions: by name patterns or by ids). Names are unique per owner.
// SQLite cannot drop a NOT NULL, so there the table is rebuilt with its rows, ids and
// id sequence.
import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

const COLUMNS = sql.raw('id, repository_id, name, target, enforcement, bypass_actors, conditions, rules, created_at, updated_at');

export async function up(db: Kysely<unknown>, { dialect, id, primaryId }: MigrationContext): Promise<void> {
  if (dialect === 'sqlite') {
    await db.schema.createTable('repository_rulesets_new')
      .addColumn('id', id, primaryId)
      .addColumn('repository_id', 'integer', (c) => c.references('repositories.id').onDelete('cascade'))
      .addColumn('organization_id', 'integer', (c) => c.references('organizations.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('enforcement', 'text', (c) => c.notNull())
      .addColumn('bypass_actors', 'text', (c) => c.notNull())
      .addColumn('conditions', 'text')
      .addColumn('repository_conditions', 'text')
      .addColumn('rules', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addCheckConstraint('repository_rulesets_one_owner', sql`(repository_id IS NULL) <> (organization_id IS NULL)`)
      .execute();
    await sql`INSERT INTO repository_rulesets_new (${COLUMNS}) SELECT ${COLUMNS} FROM repository_rulesets`.execute(db);
    // Ids are never reused: the new table goes on from the old one's sequence, not from its highest row.
    await sql`DELETE FROM sqlite_sequence WHERE name = 'repository_rulesets_new'`.execute(db);
    await sql`INSERT INTO sqlite_sequence (name, seq) SELECT 'repository_rulesets_new', seq FROM sqlite_sequence WHERE name = 'repository_rulesets'`.execute(db);
    await sql`DROP TABLE repository_rulesets`.execute(db);
    await sql`ALTER TABLE repository_rulesets_new RENAME TO repository_rulesets`.execute(db);
    await db.schema.createIndex('repository_rulesets_repository_name').unique().on('repository_rulesets').columns(['repository_id', 'name']).execute();
  } else {
    await sql`ALTER TABLE repository_rulesets ALTER COLUMN repository_id DROP NOT NULL`.execute(db);
    await db.schema.alterTable('repository_rulesets')
      .addColumn('organization_id', 'integer', (c) => c.references('organizations.id').onDelete('cascade')).execute();
    await db.schema.alterTable('repository_rulesets').addColumn('repository_conditions', 'text').execute();
    await sql`ALTER TABLE repository_rulesets ADD CONSTRAINT repository_rulesets_one_owner CHECK ((repository_id IS NULL) <> (organization_id IS NULL))`.execute(db);
  }
  await db.schema.createIndex('repository_rulesets_organization_name').unique().on('repository_rulesets').columns(['organization_id', 'name']).execute();
}
