// The check value of the secret key that seals stored secrets (src/secret-key.ts): one
// row, written on the first start with a key, compared at every later start.
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema.createTable('secret_key_check')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('key_check', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}
