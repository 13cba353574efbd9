// Accounts, organizations, teams, credentials and request counters.
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  await db.schema.createTable('users')
    .addColumn('id', id, primaryId)
    .addColumn('login', 'text', (c) => c.notNull())
    .addColumn('login_lower', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('company', 'text')
    .addColumn('blog', 'text')
    .addColumn('location', 'text')
    .addColumn('email', 'text')
    .addColumn('email_private', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bio', 'text')
    .addColumn('twitter_username', 'text')
    .addColumn('hireable', 'integer')
    .addColumn('site_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('suspended_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema.createTable('organizations')
    .addColumn('id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('description', 'text')
    .addColumn('billing_email', 'text')
    .addColumn('default_repository_permission', 'text', (c) => c.notNull().defaultTo('read'))
    .addColumn('members_can_create_repositories', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('members_can_create_public_repositories', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('members_can_create_private_repositories', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('members_can_create_internal_repositories', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('has_organization_projects', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('has_repository_projects', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('web_commit_signoff_required', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema.createTable('oauth_apps')
    .addColumn('id', id, primaryId)
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('callback_url', 'text')
    .addColumn('client_id', 'text', (c) => c.notNull().unique())
    .addColumn('client_secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema.createTable('tokens')
    .addColumn('id', id, primaryId)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token_last_eight', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('note_url', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('oauth_app_id', 'integer', (c) => c.references('oauth_apps.id').onDelete('cascade'))
    .addColumn('expires_at', 'text')
    .addColumn('last_used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tokens_user_id').on('tokens').column('user_id').execute();

  await db.schema.createTable('rate_limits')
    .addColumn('bucket', 'text', (c) => c.primaryKey())
    .addColumn('reset_at', 'bigint', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull())
    .execute();

  await db.schema.createTable('login_failures')
    .addColumn('login_lower', 'text', (c) => c.primaryKey())
    .addColumn('window_ends_at', 'bigint', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .execute();

  await db.schema.createTable('org_memberships')
    .addColumn('org_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('public', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('org_memberships_pk', ['org_id', 'user_id'])
    .execute();
  await db.schema.createIndex('org_memberships_user').on('org_memberships').column('user_id').execute();

  await db.schema.createTable('teams')
    .addColumn('id', id, primaryId)
    .addColumn('org_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('privacy', 'text', (c) => c.notNull())
    .addColumn('permission', 'text', (c) => c.notNull())
    .addColumn('notification_setting', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'integer', (c) => c.references('teams.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('teams_org_slug', ['org_id', 'slug'])
    .execute();

  await db.schema.createTable('team_members')
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('team_members_user').on('team_members').column('user_id').execute();

}
