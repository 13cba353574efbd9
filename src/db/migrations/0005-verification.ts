// E-mail addresses of users and their GPG keys: what commit signature verification
// checks a signature against.
import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

interface LegacyUser {
  id: number;
  email: string | null;
  email_private: number;
  created_at: string;
}

export async function up(untyped: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  const db = untyped as Kysely<any>;
  // email_lower carries the case-insensitive uniqueness (as users.login_lower does): the
  // dialects' lower() disagree beyond ASCII, JavaScript's toLowerCase is the one rule.
  await db.schema.createTable('user_emails')
    .addColumn('id', id, primaryId)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_lower', 'text', (c) => c.notNull().unique())
    .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('primary', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('visibility', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_emails_user').on('user_emails').column('user_id').execute();
  // At most one primary address per user.
  await db.schema.createIndex('user_emails_one_primary').on('user_emails').column('user_id').unique()
    .where(sql.ref('primary'), '=', 1).execute();

  // One row per key packet: a primary key (primary_key_id null) and each of its subkeys
  // (primary_key_id = the primary's row), as upstream numbers them, so that a signature's
  // issuer key id, which usually names a signing subkey, is found by one indexed lookup.
  await db.schema.createTable('gpg_keys')
    .addColumn('id', id, primaryId)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('primary_key_id', 'integer', (c) => c.references('gpg_keys.id').onDelete('cascade'))
    .addColumn('name', 'text')
    .addColumn('key_id', 'text', (c) => c.notNull().unique())
    .addColumn('raw_key', 'text')
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('emails', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('can_sign', 'integer', (c) => c.notNull())
    .addColumn('can_encrypt_comms', 'integer', (c) => c.notNull())
    .addColumn('can_encrypt_storage', 'integer', (c) => c.notNull())
    .addColumn('can_certify', 'integer', (c) => c.notNull())
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .execute();
  await db.schema.createIndex('gpg_keys_user').on('gpg_keys').column('user_id').execute();
  await db.schema.createIndex('gpg_keys_primary').on('gpg_keys').column('primary_key_id').execute();

  // Existing users' address becomes their primary, verified address (a site admin or the
  // user set it before addresses could be verified). Should two users share an address
  // (nothing prevented it before), the older account keeps it.
  const users: LegacyUser[] = await db.selectFrom('users')
    .select(['id', 'email', 'email_private', 'created_at'])
    .where('type', '=', 'User').where('email', 'is not', null).orderBy('id').execute();
  const seen = new Set<string>();
  const rows = [];
  for (const u of users) {
    const email = u.email;
    if (!email) continue;
    const lower = email.toLowerCase();
    if (seen.has(lower)) continue;
    seen.add(lower);
    rows.push({
      user_id: u.id, email, email_lower: lower, verified: 1, primary: 1,
      visibility: u.email_private ? 'private' : 'public', created_at: u.created_at,
    });
  }
  for (let i = 0; i < rows.length; i += 500) {
    await db.insertInto('user_emails').values(rows.slice(i, i + 500)).execute();
  }
}
