// SQL for organizations, memberships, teams. Only the orgs module calls this.
import type { Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { OrganizationsTable, OrgMembershipsTable, TeamMembersTable, TeamsTable } from '../../db/schema.ts';
import type {
  Membership, MembershipState, OrgRole, OrgSettings, Team, TeamMember, TeamNotificationSetting, TeamPermission, TeamPrivacy,
  TeamRole,
} from './orgs.model.ts';

type FlagName = { [K in keyof OrgSettings]: OrgSettings[K] extends boolean ? K : never }[keyof OrgSettings];

/** Boolean settings (stored as 0/1): domain name → column, every one listed once. */
const FLAGS = {
  membersCanCreateRepositories: 'members_can_create_repositories',
  membersCanCreatePublicRepositories: 'members_can_create_public_repositories',
  membersCanCreatePrivateRepositories: 'members_can_create_private_repositories',
  membersCanCreateInternalRepositories: 'members_can_create_internal_repositories',
  hasOrganizationProjects: 'has_organization_projects',
  hasRepositoryProjects: 'has_repository_projects',
  webCommitSignoffRequired: 'web_commit_signoff_required',
} as const satisfies Record<FlagName, keyof OrganizationsTable>;

const FLAG_ENTRIES = Object.entries(FLAGS) as [FlagName, (typeof FLAGS)[FlagName]][];

function toSettings(r: Selectable<OrganizationsTable>): OrgSettings {
  const settings = {
    description: r.description,
    billingEmail: r.billing_email,
    defaultRepositoryPermission: r.default_repository_permission,
  } as OrgSettings;
  for (const [name, column] of FLAG_ENTRIES) settings[name] = r[column] === 1;
  return settings;
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
  if (s.description !== undefined) set.description = s.description;
  if (s.billingEmail !== undefined) set.billing_email = s.billingEmail;
  if (s.defaultRepositoryPermission !== undefined) set.default_repository_permission = s.defaultRepositoryPermission;
  for (const [name, column] of FLAG_ENTRIES) {
    const v = s[name];
    if (v !== undefined) set[column] = v ? 1 : 0;
  }
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

export async function findSettingsByIds(db: Executor, orgIds: readonly number[]): Promise<Map<number, OrgSettings>> {
  if (orgIds.length === 0) return new Map();
  const rows = await db.selectFrom('organizations').selectAll().where('id', 'in', [...new Set(orgIds)]).execute();
  return new Map(rows.map((r) => [r.id, toSettings(r)]));
}

/**
 * Takes the organization's row lock for the rest of the transaction, so that checks
 * such as "at least one owner remains" cannot race (a no-op update locks in both dialects).
 */
export async function lockOrganization(db: Executor, orgId: number): Promise<void> {
  await db.updateTable('organizations').set((eb) => ({ id: eb.ref('id') })).where('id', '=', orgId).execute();
}

export async function insertMembership(
  db: Executor, orgId: number, userId: number, role: OrgRole, state: MembershipState, now: string,
): Promise<Membership> {
  const row = await db.insertInto('org_memberships').values({
    org_id: orgId, user_id: userId, role, state, public: 0, created_at: now, updated_at: now,
  }).returningAll().executeTakeFirstOrThrow();
  return toMembership(row);
}

export interface MembershipChanges {
  role?: OrgRole;
  state?: MembershipState;
  public?: boolean;
}

export async function updateMembership(db: Executor, orgId: number, userId: number, c: MembershipChanges, now: string): Promise<Membership> {
  const set: Updateable<OrgMembershipsTable> = { updated_at: now };
  if (c.role !== undefined) set.role = c.role;
  if (c.state !== undefined) set.state = c.state;
  if (c.public !== undefined) set.public = c.public ? 1 : 0;
  const row = await db.updateTable('org_memberships').set(set)
    .where('org_id', '=', orgId).where('user_id', '=', userId).returningAll().executeTakeFirstOrThrow();
  return toMembership(row);
}

export async function deleteMembership(db: Executor, orgId: number, userId: number): Promise<void> {
  await db.deleteFrom('org_memberships').where('org_id', '=', orgId).where('user_id', '=', userId).execute();
}

export interface MemberFilter {
  role?: OrgRole;
  publicOnly?: boolean;
}

function membersQuery(db: Executor, orgId: number, f: MemberFilter) {
  let q = db.selectFrom('org_memberships').where('org_id', '=', orgId).where('state', '=', 'active');
  if (f.role) q = q.where('role', '=', f.role);
  if (f.publicOnly) q = q.where('public', '=', 1);
  return q;
}

/** Active members in the order they were added (user id breaks ties). */
export async function listMembers(db: Executor, orgId: number, f: MemberFilter, limit: number, offset: number): Promise<Membership[]> {
  const rows = await membersQuery(db, orgId, f).selectAll()
    .orderBy('user_id').limit(limit).offset(offset).execute();
  return rows.map(toMembership);
}

export async function countMembers(db: Executor, orgId: number, f: MemberFilter): Promise<number> {
  const row = await membersQuery(db, orgId, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface UserMembershipFilter {
  state?: MembershipState;
  publicOnly?: boolean;
}

function membershipsOfUserQuery(db: Executor, userId: number, f: UserMembershipFilter) {
  let q = db.selectFrom('org_memberships').where('user_id', '=', userId);
  if (f.state) q = q.where('state', '=', f.state);
  if (f.publicOnly) q = q.where('public', '=', 1).where('state', '=', 'active');
  return q;
}

export async function listMembershipsOfUser(
  db: Executor, userId: number, f: UserMembershipFilter, limit: number, offset: number,
): Promise<Membership[]> {
  const rows = await membershipsOfUserQuery(db, userId, f).selectAll()
    .orderBy('org_id').limit(limit).offset(offset).execute();
  return rows.map(toMembership);
}

export async function countMembershipsOfUser(db: Executor, userId: number, f: UserMembershipFilter): Promise<number> {
  const row = await membershipsOfUserQuery(db, userId, f)
    .select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

// Teams

const TEAM_PERMISSIONS: readonly TeamPermission[] = ['pull', 'push', 'admin'];

function toTeam(r: Selectable<TeamsTable>): Team {
  return {
    id: r.id,
    orgId: r.org_id,
    name: r.name,
    slug: r.slug,
    description: r.description,
    privacy: r.privacy,
    permission: TEAM_PERMISSIONS.find((p) => p === r.permission) ?? 'pull',
    notificationSetting: r.notification_setting,
    parentId: r.parent_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toTeamMember(r: Selectable<TeamMembersTable>): TeamMember {
  return { teamId: r.team_id, userId: r.user_id, role: r.role, createdAt: r.created_at };
}

export interface NewTeam {
  orgId: number;
  name: string;
  slug: string;
  description: string | null;
  privacy: TeamPrivacy;
  permission: TeamPermission;
  notificationSetting: TeamNotificationSetting;
  parentId: number | null;
  now: string;
}

export async function insertTeam(db: Executor, t: NewTeam): Promise<Team> {
  const row = await db.insertInto('teams').values({
    org_id: t.orgId, name: t.name, slug: t.slug, description: t.description, privacy: t.privacy,
    permission: t.permission, notification_setting: t.notificationSetting, parent_id: t.parentId,
    created_at: t.now, updated_at: t.now,
  }).returningAll().executeTakeFirstOrThrow();
  return toTeam(row);
}

export interface TeamChanges {
  name?: string;
  slug?: string;
  description?: string | null;
  privacy?: TeamPrivacy;
  permission?: TeamPermission;
  notificationSetting?: TeamNotificationSetting;
  parentId?: number | null;
}

export async function updateTeam(db: Executor, teamId: number, c: TeamChanges, now: string): Promise<Team> {
  const set: Updateable<TeamsTable> = { updated_at: now };
  if (c.name !== undefined) set.name = c.name;
  if (c.slug !== undefined) set.slug = c.slug;
  if (c.description !== undefined) set.description = c.description;
  if (c.privacy !== undefined) set.privacy = c.privacy;
  if (c.permission !== undefined) set.permission = c.permission;
  if (c.notificationSetting !== undefined) set.notification_setting = c.notificationSetting;
  if (c.parentId !== undefined) set.parent_id = c.parentId;
  const row = await db.updateTable('teams').set(set).where('id', '=', teamId).returningAll().executeTakeFirstOrThrow();
  return toTeam(row);
}

export async function deleteTeams(db: Executor, teamIds: readonly number[]): Promise<void> {
  if (teamIds.length === 0) return;
  await db.deleteFrom('teams').where('id', 'in', [...teamIds]).execute();
}

export async function findTeamBySlug(db: Executor, orgId: number, slug: string): Promise<Team | null> {
  const row = await db.selectFrom('teams').selectAll()
    .where('org_id', '=', orgId).where('slug', '=', slug.toLowerCase()).executeTakeFirst();
  return row ? toTeam(row) : null;
}

export async function findTeamById(db: Executor, teamId: number): Promise<Team | null> {
  const row = await db.selectFrom('teams').selectAll().where('id', '=', teamId).executeTakeFirst();
  return row ? toTeam(row) : null;
}

export async function findTeamsByIds(db: Executor, teamIds: readonly number[]): Promise<Team[]> {
  if (teamIds.length === 0) return [];
  const rows = await db.selectFrom('teams').selectAll().where('id', 'in', [...new Set(teamIds)]).execute();
  return rows.map(toTeam);
}

/** A team of the organization whose slug or (case-insensitive) name collides with the given ones. */
export async function findConflictingTeam(db: Executor, orgId: number, name: string, slug: string, exceptId: number | null): Promise<Team | null> {
  let q = db.selectFrom('teams').selectAll().where('org_id', '=', orgId)
    .where((eb) => eb.or([eb('slug', '=', slug), eb(eb.fn('lower', ['name']), '=', name.toLowerCase())]));
  if (exceptId !== null) q = q.where('id', '<>', exceptId);
  const row = await q.executeTakeFirst();
  return row ? toTeam(row) : null;
}

/** Every team of the organization: few enough to walk parent links in memory. */
export async function listAllTeams(db: Executor, orgId: number): Promise<Team[]> {
  const rows = await db.selectFrom('teams').selectAll().where('org_id', '=', orgId).orderBy('id').execute();
  return rows.map(toTeam);
}

/** Teams of the organization that `viewerId` may see: closed ones and secret ones they belong to (all when null). */
function visibleTeamsQuery(db: Executor, orgId: number, viewerId: number | null) {
  let q = db.selectFrom('teams').where('org_id', '=', orgId);
  if (viewerId !== null) {
    q = q.where((eb) => eb.or([
      eb('privacy', '=', 'closed'),
      eb('id', 'in', eb.selectFrom('team_members').select('team_id').where('user_id', '=', viewerId)),
    ]));
  }
  return q;
}

export async function listVisibleTeams(db: Executor, orgId: number, viewerId: number | null, limit: number, offset: number): Promise<Team[]> {
  const rows = await visibleTeamsQuery(db, orgId, viewerId).selectAll()
    .orderBy('slug').limit(limit).offset(offset).execute();
  return rows.map(toTeam);
}

export async function countVisibleTeams(db: Executor, orgId: number, viewerId: number | null): Promise<number> {
  const row = await visibleTeamsQuery(db, orgId, viewerId)
    .select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listChildTeams(db: Executor, parentId: number, limit: number, offset: number): Promise<Team[]> {
  const rows = await db.selectFrom('teams').selectAll().where('parent_id', '=', parentId)
    .orderBy('slug').limit(limit).offset(offset).execute();
  return rows.map(toTeam);
}

export async function countChildTeams(db: Executor, parentId: number): Promise<number> {
  const row = await db.selectFrom('teams').where('parent_id', '=', parentId)
    .select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listTeamsOfUser(db: Executor, userId: number, limit: number, offset: number): Promise<Team[]> {
  const rows = await db.selectFrom('teams').innerJoin('team_members', 'team_members.team_id', 'teams.id')
    .selectAll('teams').where('team_members.user_id', '=', userId)
    .orderBy('teams.org_id').orderBy('teams.slug').limit(limit).offset(offset).execute();
  return rows.map(toTeam);
}

export async function countTeamsOfUser(db: Executor, userId: number): Promise<number> {
  const row = await db.selectFrom('team_members').where('user_id', '=', userId)
    .select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findTeamMember(db: Executor, teamId: number, userId: number): Promise<TeamMember | null> {
  const row = await db.selectFrom('team_members').selectAll()
    .where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst();
  return row ? toTeamMember(row) : null;
}

/** Direct memberships of any of the teams, oldest first. */
export async function listTeamMembers(db: Executor, teamIds: readonly number[]): Promise<TeamMember[]> {
  if (teamIds.length === 0) return [];
  const rows = await db.selectFrom('team_members').selectAll().where('team_id', 'in', [...new Set(teamIds)])
    .orderBy('user_id').orderBy('team_id').execute();
  return rows.map(toTeamMember);
}

export async function countTeamMembers(db: Executor, teamIds: readonly number[]): Promise<Map<number, number>> {
  if (teamIds.length === 0) return new Map();
  const rows = await db.selectFrom('team_members').where('team_id', 'in', [...new Set(teamIds)])
    .select((eb) => ['team_id', eb.fn.countAll<number>().as('n')]).groupBy('team_id').execute();
  return new Map(rows.map((r) => [r.team_id, Number(r.n)]));
}

export async function upsertTeamMember(db: Executor, teamId: number, userId: number, role: TeamRole, now: string): Promise<TeamMember> {
  const row = await db.insertInto('team_members').values({ team_id: teamId, user_id: userId, role, created_at: now })
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doUpdateSet({ role }))
    .returningAll().executeTakeFirstOrThrow();
  return toTeamMember(row);
}

export async function deleteTeamMember(db: Executor, teamId: number, userId: number): Promise<void> {
  await db.deleteFrom('team_members').where('team_id', '=', teamId).where('user_id', '=', userId).execute();
}

/** Removes the user from every team of the organization (they are leaving it). */
export async function deleteUserFromOrgTeams(db: Executor, orgId: number, userId: number): Promise<void> {
  await db.deleteFrom('team_members').where('user_id', '=', userId)
    .where('team_id', 'in', (eb) => eb.selectFrom('teams').select('id').where('org_id', '=', orgId)).execute();
}
