// Apps (issue #15): app records with their public keys, the manifest flow's one-time
// codes, installations on accounts with their selected repositories, and the
// installation access tokens (stored as hashes).
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  await db.schema.createTable('apps')
    .addColumn('id', id, primaryId)
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_lower', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text')
    .addColumn('external_url', 'text', (c) => c.notNull())
    .addColumn('callback_url', 'text')
    .addColumn('setup_url', 'text')
    .addColumn('client_id', 'text', (c) => c.notNull().unique())
    .addColumn('client_secret_hash', 'text', (c) => c.notNull())
    /**
     * The app's bot account ({slug}[bot]): what its installations do is attributed to it.
     * The bot is no user account the admin API deletes; were it deleted, the app goes too.
     */
    .addColumn('bot_user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('webhook_url', 'text')
    /** Sealed with the server's key (ctx.secrets): Wharf signs deliveries with it. */
    .addColumn('webhook_secret', 'text')
    .addColumn('webhook_content_type', 'text', (c) => c.notNull())
    .addColumn('webhook_insecure_ssl', 'text', (c) => c.notNull())
    .addColumn('webhook_active', 'integer', (c) => c.notNull())
    .addColumn('public', 'integer', (c) => c.notNull())
    /** JSON object: permission name → read | write | admin. */
    .addColumn('permissions', 'text', (c) => c.notNull())
    /** JSON array of event names. */
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('apps_owner').on('apps').column('owner_id').execute();

  // Only the public half of each key: the private key is shown once, at creation.
  await db.schema.createTable('app_keys')
    .addColumn('id', id, primaryId)
    .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('app_keys_app').on('app_keys').column('app_id').execute();

  await db.schema.createTable('app_manifest_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema.createTable('app_installations')
    .addColumn('id', id, primaryId)
    .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('repository_selection', 'text', (c) => c.notNull())
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('suspended_at', 'text')
    .addColumn('suspended_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('app_installations_app_account', ['app_id', 'account_id'])
    .execute();
  await db.schema.createIndex('app_installations_account').on('app_installations').column('account_id').execute();

  await db.schema.createTable('app_installation_repositories')
    .addColumn('installation_id', 'integer', (c) => c.notNull().references('app_installations.id').onDelete('cascade'))
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('app_installation_repositories_pk', ['installation_id', 'repository_id'])
    .execute();
  await db.schema.createIndex('app_installation_repositories_repo').on('app_installation_repositories').column('repository_id').execute();

  await db.schema.createTable('app_installation_tokens')
    .addColumn('id', id, primaryId)
    .addColumn('installation_id', 'integer', (c) => c.notNull().references('app_installations.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('permissions', 'text', (c) => c.notNull())
    /** JSON array of repository ids the token is narrowed to; null: the installation's. */
    .addColumn('repository_ids', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('app_installation_tokens_installation').on('app_installation_tokens').column('installation_id').execute();
}
