// Organization SAML single sign-on and SCIM provisioning (issue #19). An organization
// with a row in org_sso_configs enforces SSO: its members' tokens reach its resources
// only once authorized (org_sso_token_authorizations), after the member signed in at
// the identity provider (org_sso_sessions, bound to the browser session that did it).
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  await db.schema.createTable('org_sso_configs')
    .addColumn('org_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('idp_entity_id', 'text', (c) => c.notNull())
    .addColumn('idp_sso_url', 'text', (c) => c.notNull())
    /** PEM of the identity provider's signing certificate. */
    .addColumn('idp_certificate', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // A member's identity at the organization's identity provider (the SAML NameID).
  await db.schema.createTable('org_external_identities')
    .addColumn('id', id, primaryId)
    .addColumn('org_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name_id', 'text', (c) => c.notNull())
    .addColumn('name_id_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('org_external_identities_user', ['org_id', 'user_id'])
    .addUniqueConstraint('org_external_identities_name', ['org_id', 'name_id_key'])
    .execute();

  // AuthnRequests sent, so that a response answers one of ours (InResponseTo) and only once.
  await db.schema.createTable('org_saml_requests')
    .addColumn('request_id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** SHA-256 of the browser session that started the login (the response arrives cross-site, without cookies). */
    .addColumn('session_hash', 'text', (c) => c.notNull())
    /** node-saml's issue instant of the request. */
    .addColumn('issued', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('consumed_at', 'text')
    .execute();

  await db.schema.createTable('org_sso_sessions')
    .addColumn('session_hash', 'text', (c) => c.notNull())
    .addColumn('org_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('org_sso_sessions_pk', ['session_hash', 'org_id'])
    .execute();

  await db.schema.createTable('org_sso_token_authorizations')
    .addColumn('id', id, primaryId)
    .addColumn('org_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_id', 'integer', (c) => c.notNull().references('tokens.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('authorized_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('org_sso_token_authorizations_token', ['org_id', 'token_id'])
    .execute();

  await db.schema.createTable('org_scim_users')
    .addColumn('id', id, primaryId)
    .addColumn('org_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** The SCIM id the service assigns (a UUID). */
    .addColumn('scim_id', 'text', (c) => c.notNull().unique())
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('user_name_key', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('external_id_key', 'text')
    .addColumn('display_name', 'text')
    .addColumn('given_name', 'text')
    .addColumn('family_name', 'text')
    .addColumn('formatted_name', 'text')
    /** JSON array of {value, primary, type}. */
    .addColumn('emails', 'text', (c) => c.notNull())
    /** JSON array of {value, display}. */
    .addColumn('groups', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    /** The Wharf account, once the invitee signed in through SSO. */
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('org_scim_users_user_name', ['org_id', 'user_name_key'])
    .addUniqueConstraint('org_scim_users_external_id', ['org_id', 'external_id_key'])
    .execute();
  await db.schema.createIndex('org_scim_users_org').on('org_scim_users').columns(['org_id', 'id']).execute();

  // Every email of a provisioned user, lower-cased, for `filter=emails eq "…"`.
  await db.schema.createTable('org_scim_emails')
    .addColumn('scim_user_id', 'integer', (c) => c.notNull().references('org_scim_users.id').onDelete('cascade'))
    .addColumn('value_key', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('org_scim_emails_pk', ['scim_user_id', 'value_key'])
    .execute();
  await db.schema.createIndex('org_scim_emails_value').on('org_scim_emails').column('value_key').execute();
}
