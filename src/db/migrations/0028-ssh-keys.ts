// SSH public keys (issue #21): a user's keys (user_id set) and repositories' deploy
// keys (repository_id set). A key is registered once on the whole site, by its
// fingerprint, so that the key of an SSH connection names one account or repository.
// Also an index for the events API (issue #21): the outbox by actor.
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  await db.schema.createTable('ssh_keys')
    .addColumn('id', id, primaryId)
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('repository_id', 'integer', (c) => c.references('repositories.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    /** "<type> <base64 blob>", without the comment. */
    .addColumn('key', 'text', (c) => c.notNull())
    /** "SHA256:<unpadded base64>", as ssh-keygen -lf prints it. */
    .addColumn('fingerprint', 'text', (c) => c.notNull().unique())
    .addColumn('read_only', 'integer', (c) => c.notNull())
    /** Who added a deploy key (null for a user's own key). */
    .addColumn('added_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used', 'text')
    .execute();
  await db.schema.createIndex('ssh_keys_user').on('ssh_keys').column('user_id').execute();
  await db.schema.createIndex('ssh_keys_repository').on('ssh_keys').column('repository_id').execute();
  // The events API reads a user's timeline from the outbox by actor, newest first.
  await db.schema.createIndex('outbox_actor').on('outbox').columns(['actor_id', 'id']).execute();
}
