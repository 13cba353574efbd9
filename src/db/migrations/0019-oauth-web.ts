// Browser sign-in (passwords, server-side sessions) and the OAuth web and device flows
// (grants, authorization codes, device codes); OAuth apps gain a description.
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  await db.schema.createTable('user_passwords')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema.createTable('web_sessions')
    .addColumn('id', id, primaryId)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('web_sessions_user').on('web_sessions').column('user_id').execute();

  await db.schema.alterTable('oauth_apps').addColumn('description', 'text').execute();

  // One row per user and app: the scopes the user approved, so a request for no more
  // than these is answered without asking again.
  await db.schema.createTable('oauth_grants')
    .addColumn('id', id, primaryId)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('oauth_app_id', 'integer', (c) => c.notNull().references('oauth_apps.id').onDelete('cascade'))
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('oauth_grants_user_app', ['user_id', 'oauth_app_id'])
    .execute();

  await db.schema.createTable('oauth_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('oauth_app_id', 'integer', (c) => c.notNull().references('oauth_apps.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema.createTable('oauth_device_codes')
    .addColumn('id', id, primaryId)
    .addColumn('device_code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_code', 'text', (c) => c.notNull().unique())
    .addColumn('oauth_app_id', 'integer', (c) => c.notNull().references('oauth_apps.id').onDelete('cascade'))
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('interval_seconds', 'integer', (c) => c.notNull())
    .addColumn('last_polled_at', 'bigint')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}
