// Self-hosted runners and their organization groups, the one-hour tokens that register
// and remove them, the jobs they (and an operator's hosted CI, through the metering
// endpoint) report, metered bandwidth and storage, billing plans, and the advanced
// security settings and push record its committer count is computed from.
import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId, dialect }: MigrationContext): Promise<void> {
  // SQLite's real is already an 8-byte float; PostgreSQL's real is 4 bytes.
  const float = dialect === 'postgres' ? sql.raw('double precision') : sql.raw('real');

  await db.schema.createTable('runner_groups')
    .addColumn('id', id, primaryId)
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // Lower-cased name: names are unique in an organization regardless of case.
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull())
    .addColumn('allows_public_repositories', 'integer', (c) => c.notNull())
    .addColumn('restricted_to_workflows', 'integer', (c) => c.notNull())
    // JSON array of workflow references.
    .addColumn('selected_workflows', 'text', (c) => c.notNull())
    .addColumn('network_configuration_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('runner_groups_org_name').unique().on('runner_groups').columns(['organization_id', 'name_key']).execute();

  await db.schema.createTable('runner_group_repositories')
    .addColumn('group_id', 'integer', (c) => c.notNull().references('runner_groups.id').onDelete('cascade'))
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('runner_group_repositories_pk', ['group_id', 'repository_id'])
    .execute();

  await db.schema.createTable('runners')
    .addColumn('id', id, primaryId)
    // Exactly one of the two: an organization's runner or a repository's.
    .addColumn('organization_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('repository_id', 'integer', (c) => c.references('repositories.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.references('runner_groups.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('os', 'text', (c) => c.notNull())
    .addColumn('version', 'text')
    .addColumn('ephemeral', 'integer', (c) => c.notNull())
    .addColumn('busy', 'integer', (c) => c.notNull())
    .addColumn('credential_hash', 'text', (c) => c.notNull().unique())
    .addColumn('last_seen_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('runners_org').on('runners').columns(['organization_id', 'id']).execute();
  await db.schema.createIndex('runners_repo').on('runners').columns(['repository_id', 'id']).execute();
  // Names are unique where the runner belongs (NULLs never collide: each index covers one kind).
  await db.schema.createIndex('runners_org_name').unique().on('runners').columns(['organization_id', 'name']).execute();
  await db.schema.createIndex('runners_repo_name').unique().on('runners').columns(['repository_id', 'name']).execute();

  await db.schema.createTable('runner_labels')
    .addColumn('id', id, primaryId)
    .addColumn('runner_id', 'integer', (c) => c.notNull().references('runners.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    // 'read-only' (given at registration: self-hosted, the OS, the architecture) or 'custom'.
    .addColumn('type', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('runner_labels_runner_name').unique().on('runner_labels').columns(['runner_id', 'name_key']).execute();

  await db.schema.createTable('runner_tokens')
    .addColumn('id', id, primaryId)
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    // 'registration' or 'remove'.
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('repository_id', 'integer', (c) => c.references('repositories.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  // Jobs as run: reported by self-hosted runners, or by an operator's hosted CI through
  // the metering endpoint. The repository's visibility is kept as it was when the job ran.
  await db.schema.createTable('actions_jobs')
    .addColumn('id', id, primaryId)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('repository_id', 'integer', (c) => c.references('repositories.id').onDelete('set null'))
    .addColumn('repository_private', 'integer', (c) => c.notNull())
    .addColumn('runner_id', 'integer', (c) => c.references('runners.id').onDelete('set null'))
    .addColumn('hosted', 'integer', (c) => c.notNull())
    .addColumn('runner_os', 'text', (c) => c.notNull())
    .addColumn('workflow_path', 'text', (c) => c.notNull())
    .addColumn('rerun', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('actions_jobs_account').on('actions_jobs').columns(['account_id', 'completed_at']).execute();

  // Metered package bandwidth (gigabytes transferred) and storage (gigabytes stored from
  // recorded_at on, until the next storage reading).
  await db.schema.createTable('metered_usage')
    .addColumn('id', id, primaryId)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('gigabytes', float, (c) => c.notNull())
    .addColumn('recorded_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('metered_usage_account').on('metered_usage').columns(['account_id', 'kind', 'recorded_at']).execute();

  await db.schema.createTable('billing_plans')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('included_minutes', 'integer', (c) => c.notNull())
    .addColumn('included_gigabytes_bandwidth', float, (c) => c.notNull())
    .addColumn('included_gigabytes_storage', float, (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema.createTable('billing_accounts')
    .addColumn('account_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('plan_name', 'text', (c) => c.notNull().references('billing_plans.name'))
    .execute();

  // Advanced security switches: a repository's, and an organization's for its new repositories.
  await db.schema.createTable('repository_advanced_security')
    .addColumn('repository_id', 'integer', (c) => c.primaryKey().references('repositories.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createTable('organization_advanced_security')
    .addColumn('organization_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('enabled_for_new_repositories', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // The latest push of each committer (matched to a user) to each repository.
  await db.schema.createTable('repository_committers')
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('last_pushed_at', 'text', (c) => c.notNull())
    // The committer address of that push that matched the user.
    .addColumn('last_pushed_email', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('repository_committers_pk', ['repository_id', 'user_id'])
    .execute();
  await db.schema.createIndex('repository_committers_recent').on('repository_committers').columns(['repository_id', 'last_pushed_at']).execute();
}
