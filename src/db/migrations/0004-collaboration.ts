// Collaboration: organization custom repository roles, the custom role a collaborator
// or invitation holds, and the per-repository invitation quota.
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  await db.schema.createTable('custom_repository_roles')
    .addColumn('id', id, primaryId)
    .addColumn('org_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_lower', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('base_role', 'text', (c) => c.notNull())
    .addColumn('permissions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('custom_repository_roles_org_name', ['org_id', 'name_lower'])
    .execute();

  // `permission` keeps the effective base role (what the permission model reads);
  // custom_role_id names the custom role it came from. Deleting the role leaves the
  // base role in place, as upstream reassigns holders to the inherited role.
  for (const table of ['collaborators', 'repository_invitations']) {
    await db.schema.alterTable(table)
      .addColumn('custom_role_id', 'integer', (c) => c.references('custom_repository_roles.id').onDelete('set null'))
      .execute();
  }

  // Invitations sent per repository in the last 24 hours (a JSON array of timestamps):
  // accepted, declined or deleted invitations still count, as upstream's limit does.
  await db.schema.createTable('repository_invitation_quotas')
    .addColumn('repository_id', 'integer', (c) => c.primaryKey().references('repositories.id').onDelete('cascade'))
    .addColumn('sent_at', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}
