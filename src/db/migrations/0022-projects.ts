// Classic projects (boards): a project belongs to an organization, a repository or a
// user; it holds ordered columns, which hold ordered cards (a note, or an issue or pull
// request). Collaborators and team grants give access beyond the owner's own rule.
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  await db.schema.createTable('projects')
    .addColumn('id', id, primaryId)
    // 'Organization' | 'User' (account_id set) or 'Repository' (repository_id set).
    .addColumn('owner_type', 'text', (c) => c.notNull())
    .addColumn('account_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('repository_id', 'integer', (c) => c.references('repositories.id').onDelete('cascade'))
    // "<owner_type>:<id>": one key for the per-owner number sequence, whichever column holds the owner.
    .addColumn('owner_key', 'text', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('body', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    // Organization projects only: the base permission of members ('read' | 'write' | 'admin' | 'none').
    .addColumn('organization_permission', 'text')
    .addColumn('private', 'integer', (c) => c.notNull())
    .addColumn('creator_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('projects_owner_number').unique().on('projects').columns(['owner_key', 'number']).execute();
  // The last number given per owner: numbers of deleted projects are never given again.
  await db.schema.createTable('project_counters')
    .addColumn('owner_key', 'text', (c) => c.primaryKey())
    .addColumn('last_number', 'integer', (c) => c.notNull())
    .execute();

  await db.schema.createTable('project_columns')
    .addColumn('id', id, primaryId)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // 0-based order within the project, renumbered densely on every move.
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('project_columns_project').on('project_columns').columns(['project_id', 'position']).execute();

  await db.schema.createTable('project_cards')
    .addColumn('id', id, primaryId)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('column_id', 'integer', (c) => c.notNull().references('project_columns.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('note', 'text')
    // The issue or pull request shown (deleting it, or its repository, removes the card).
    .addColumn('issue_id', 'integer', (c) => c.references('issues.id').onDelete('cascade'))
    .addColumn('archived', 'integer', (c) => c.notNull())
    .addColumn('creator_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('project_cards_column').on('project_cards').columns(['column_id', 'position']).execute();
  // An issue shows at most once on a project (upstream's 422 for the second card).
  await db.schema.createIndex('project_cards_issue').unique().on('project_cards').columns(['project_id', 'issue_id']).execute();
  await db.schema.createIndex('project_cards_of_issue').on('project_cards').columns(['issue_id']).execute();

  await db.schema.createTable('project_collaborators')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('permission', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_collaborators_pk', ['project_id', 'user_id'])
    .execute();

  await db.schema.createTable('project_team_grants')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('permission', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_team_grants_pk', ['project_id', 'team_id'])
    .execute();
}
