// SQL for organizations, memberships, teams. Only the orgs module calls this.
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { OrganizationsTable, OrgMembershipsTable } from '../../db/schema.ts';
import type { Membership, OrgRole, OrgSettings } from './orgs.model.ts';

function toSettings(r: Selectable<OrganizationsTable>): OrgSettings {
  return {
    description: r.description,
    billingEmail: r.billing_email,
    defaultRepositoryPermission: r.default_repository_permission,
    membersCanCreateRepositories: r.members_can_create_repositories === 1,
    membersCanCreatePublicRepositories: r.members_can_create_public_repositories === 1,
    membersCanCreatePrivateRepositories: r.members_can_create_private_repositories === 1,
    membersCanCreateInternalRepositories: r.members_can_create_internal_repositories === 1,
    hasOrganizationProjects: r.has_organization_projects === 1,
    hasRepositoryProjects: r.has_repository_projects === 1,
    webCommitSignoffRequired: r.web_commit_signoff_required === 1,
  };
}

function toMembership(r: Selectable<OrgMembershipsTable>): Membership {
  return {
    orgId: r.org_id, userId: r.user_id, role: r.role, state: r.state, public: r.public === 1,
    createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

export async function findSettings(db: Executor, orgId: number): Promise<OrgSettings | null> {
  const row = await db.selectFrom('organizations').selectAll().where('id', '=', orgId).executeTakeFirst();
  return row ? toSettings(row) : null;
}

export async function insertSettings(db: Executor, orgId: number, description: string | null, billingEmail: string | null): Promise<OrgSettings> {
  const row = await db.insertInto('organizations').values({
    id: orgId, description, billing_email: billingEmail, default_repository_permission: 'read',
    members_can_create_repositories: 1, members_can_create_public_repositories: 1,
    members_can_create_private_repositories: 1, members_can_create_internal_repositories: 1,
    has_organization_projects: 1, has_repository_projects: 1, web_commit_signoff_required: 0,
  }).returningAll().executeTakeFirstOrThrow();
  return toSettings(row);
}

export async function updateSettings(db: Executor, orgId: number, s: Partial<OrgSettings>): Promise<void> {
  const set: Partial<OrganizationsTable> = {};
  const b = (v: boolean) => (v ? 1 : 0);
  if (s.description !== undefined) set.description = s.description;
  if (s.billingEmail !== undefined) set.billing_email = s.billingEmail;
  if (s.defaultRepositoryPermission !== undefined) set.default_repository_permission = s.defaultRepositoryPermission;
  if (s.membersCanCreateRepositories !== undefined) set.members_can_create_repositories = b(s.membersCanCreateRepositories);
  if (s.membersCanCreatePublicRepositories !== undefined) set.members_can_create_public_repositories = b(s.membersCanCreatePublicRepositories);
  if (s.membersCanCreatePrivateRepositories !== undefined) set.members_can_create_private_repositories = b(s.membersCanCreatePrivateRepositories);
  if (s.membersCanCreateInternalRepositories !== undefined) set.members_can_create_internal_repositories = b(s.membersCanCreateInternalRepositories);
  if (s.hasOrganizationProjects !== undefined) set.has_organization_projects = b(s.hasOrganizationProjects);
  if (s.hasRepositoryProjects !== undefined) set.has_repository_projects = b(s.hasRepositoryProjects);
  if (s.webCommitSignoffRequired !== undefined) set.web_commit_signoff_required = b(s.webCommitSignoffRequired);
  if (Object.keys(set).length) await db.updateTable('organizations').set(set).where('id', '=', orgId).execute();
}

export async function findMembership(db: Executor, orgId: number, userId: number): Promise<Membership | null> {
  const row = await db.selectFrom('org_memberships').selectAll()
    .where('org_id', '=', orgId).where('user_id', '=', userId).executeTakeFirst();
  return row ? toMembership(row) : null;
}

export async function upsertMembership(db: Executor, orgId: number, userId: number, role: OrgRole, now: string): Promise<Membership> {
  const row = await db.insertInto('org_memberships').values({
    org_id: orgId, user_id: userId, role, state: 'active', public: 0, created_at: now, updated_at: now,
  }).onConflict((oc) => oc.columns(['org_id', 'user_id']).doUpdateSet({ role, updated_at: now }))
    .returningAll().executeTakeFirstOrThrow();
  return toMembership(row);
}
