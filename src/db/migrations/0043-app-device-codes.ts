// The device flow serves GitHub Apps' client ids too (issue #15): a device code belongs
// to an OAuth app or to an app, exactly one. SQLite cannot drop NOT NULL from
// oauth_app_id, so the table is rebuilt (same name, pending codes copied; their ids
// are referenced nowhere, so new ones are fine and keep PostgreSQL's identity in step).
import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

const COLUMNS = 'device_code_hash, user_code, oauth_app_id, scopes, state, user_id, interval_seconds, last_polled_at, expires_at';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  await db.schema.createTable('oauth_device_codes_next')
    .addColumn('id', id, primaryId)
    .addColumn('device_code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_code', 'text', (c) => c.notNull().unique())
    .addColumn('oauth_app_id', 'integer', (c) => c.references('oauth_apps.id').onDelete('cascade'))
    .addColumn('app_id', 'integer', (c) => c.references('apps.id').onDelete('cascade'))
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('interval_seconds', 'integer', (c) => c.notNull())
    .addColumn('last_polled_at', 'bigint')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addCheckConstraint('oauth_device_codes_one_client', sql`(oauth_app_id IS NULL) <> (app_id IS NULL)`)
    .execute();
  await sql`INSERT INTO oauth_device_codes_next (${sql.raw(COLUMNS)}) SELECT ${sql.raw(COLUMNS)} FROM oauth_device_codes`.execute(db);
  await db.schema.dropTable('oauth_device_codes').execute();
  await db.schema.alterTable('oauth_device_codes_next').renameTo('oauth_device_codes').execute();
}
