// Apps acting for users (issue #15): the user's authorization of an app, the web flow's
// one-time codes, and user-to-server tokens (with their refresh tokens, and the scoped
// tokens narrowed from them), stored as hashes only. Apps gain the setting that makes
// their user tokens expire.
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  /** Upstream's default for new apps: user tokens expire after 8 hours and are refreshed. */
  await db.schema.alterTable('apps').addColumn('user_tokens_expire', 'integer', (c) => c.notNull().defaultTo(1)).execute();

  await db.schema.createTable('app_authorizations')
    .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('app_authorizations_pk', ['app_id', 'user_id'])
    .execute();

  await db.schema.createTable('app_user_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema.createTable('app_user_tokens')
    .addColumn('id', id, primaryId)
    .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token_last_eight', 'text', (c) => c.notNull())
    /** Null when the app's user tokens do not expire, and for scoped tokens. */
    .addColumn('refresh_token_hash', 'text', (c) => c.unique())
    .addColumn('expires_at', 'text')
    .addColumn('refresh_token_expires_at', 'text')
    /** Scoped tokens: the one account they act in, null for a token of every installation. */
    .addColumn('target_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    /** JSON array of repository ids a scoped token is narrowed to; null: the installation's. */
    .addColumn('repository_ids', 'text')
    /** JSON permissions a scoped token is narrowed to; null: the installation's. */
    .addColumn('permissions', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('app_user_tokens_app_user').on('app_user_tokens').columns(['app_id', 'user_id']).execute();
}
