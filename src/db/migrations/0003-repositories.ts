// Repositories and the relations around them: redirects after renames, stars,
// watching, collaborators and invitations, team access; and the event outbox.
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  const bool = (name: string, value: 0 | 1) => [name, value] as const;
  let repos = db.schema.createTable('repositories')
    .addColumn('id', id, primaryId)
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_lower', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('homepage', 'text')
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'integer', (c) => c.references('repositories.id').onDelete('set null'))
    .addColumn('source_id', 'integer', (c) => c.references('repositories.id').onDelete('set null'))
    .addColumn('template_id', 'integer', (c) => c.references('repositories.id').onDelete('set null'))
    .addColumn('default_branch', 'text', (c) => c.notNull())
    .addColumn('topics', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('license_key', 'text')
    .addColumn('language', 'text')
    .addColumn('size_kb', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('squash_merge_commit_title', 'text', (c) => c.notNull().defaultTo('COMMIT_OR_PR_TITLE'))
    .addColumn('squash_merge_commit_message', 'text', (c) => c.notNull().defaultTo('COMMIT_MESSAGES'))
    .addColumn('merge_commit_title', 'text', (c) => c.notNull().defaultTo('MERGE_MESSAGE'))
    .addColumn('merge_commit_message', 'text', (c) => c.notNull().defaultTo('PR_TITLE'))
    .addColumn('pushed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull());
  for (const [name, value] of [
    bool('is_fork', 0), bool('is_template', 0), bool('has_issues', 1), bool('has_projects', 1), bool('has_wiki', 1),
    bool('has_downloads', 1), bool('has_discussions', 0), bool('has_pages', 0), bool('archived', 0), bool('disabled', 0),
    bool('allow_squash_merge', 1), bool('allow_merge_commit', 1), bool('allow_rebase_merge', 1), bool('allow_auto_merge', 0),
    bool('allow_update_branch', 0), bool('allow_forking', 1), bool('delete_branch_on_merge', 0),
    bool('web_commit_signoff_required', 0),
  ]) {
    repos = repos.addColumn(name, 'integer', (c) => c.notNull().defaultTo(value));
  }
  await repos.addUniqueConstraint('repositories_owner_name', ['owner_id', 'name_lower']).execute();
  await db.schema.createIndex('repositories_parent').on('repositories').column('parent_id').execute();

  await db.schema.createTable('repository_redirects')
    .addColumn('full_name_lower', 'text', (c) => c.primaryKey())
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .execute();

  await db.schema.createTable('stars')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('stars_pk', ['user_id', 'repository_id'])
    .execute();
  await db.schema.createIndex('stars_repository').on('stars').column('repository_id').execute();

  await db.schema.createTable('subscriptions')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('subscribed', 'integer', (c) => c.notNull())
    .addColumn('ignored', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('subscriptions_pk', ['user_id', 'repository_id'])
    .execute();
  await db.schema.createIndex('subscriptions_repository').on('subscriptions').column('repository_id').execute();

  await db.schema.createTable('collaborators')
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('permission', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('collaborators_pk', ['repository_id', 'user_id'])
    .execute();
  await db.schema.createIndex('collaborators_user').on('collaborators').column('user_id').execute();

  await db.schema.createTable('repository_invitations')
    .addColumn('id', id, primaryId)
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('invitee_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('inviter_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('permission', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('repository_invitations_invitee').on('repository_invitations').column('invitee_id').execute();
  await db.schema.createIndex('repository_invitations_repository').on('repository_invitations').column('repository_id').execute();

  await db.schema.createTable('team_repositories')
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('permission', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_repositories_pk', ['team_id', 'repository_id'])
    .execute();
  await db.schema.createIndex('team_repositories_repository').on('team_repositories').column('repository_id').execute();

  // Transactional outbox: written in the transaction of the change that raised the event.
  await db.schema.createTable('outbox')
    .addColumn('id', id, primaryId)
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('action', 'text')
    .addColumn('repository_id', 'integer')
    .addColumn('organization_id', 'integer')
    .addColumn('actor_id', 'integer')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('dispatched_at', 'text')
    .execute();
  await db.schema.createIndex('outbox_pending').on('outbox').columns(['dispatched_at', 'id']).execute();
}
