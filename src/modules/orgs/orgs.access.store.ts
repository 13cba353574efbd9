// SQL answering "what does this user get in these organizations' repositories":
// memberships, base permissions, team grants. Part of the orgs module's store.
import type { Executor } from '../../db/database.ts';

export interface OrgAccessRow {
  org_id: number;
  role: 'admin' | 'member';
  default_repository_permission: string;
}

export async function membershipsIn(db: Executor, userId: number, orgIds: readonly number[]): Promise<OrgAccessRow[]> {
  if (!orgIds.length) return [];
  return db.selectFrom('org_memberships')
    .innerJoin('organizations', 'organizations.id', 'org_memberships.org_id')
    .select(['org_memberships.org_id', 'org_memberships.role', 'organizations.default_repository_permission'])
    .where('org_memberships.user_id', '=', userId)
    .where('org_memberships.state', '=', 'active')
    .where('org_memberships.org_id', 'in', [...new Set(orgIds)])
    .execute();
}

export interface TeamGrantRow {
  repository_id: number;
  permission: string;
}

export async function teamGrants(db: Executor, userId: number, repoIds: readonly number[]): Promise<TeamGrantRow[]> {
  if (!repoIds.length) return [];
  return db.selectFrom('team_repositories')
    .innerJoin('team_members', 'team_members.team_id', 'team_repositories.team_id')
    .select(['team_repositories.repository_id', 'team_repositories.permission'])
    .where('team_members.user_id', '=', userId)
    .where('team_repositories.repository_id', 'in', [...new Set(repoIds)])
    .execute();
}

/** Repositories a user reaches through teams (for repository lists). */
export async function teamRepositoryIds(db: Executor, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('team_repositories')
    .innerJoin('team_members', 'team_members.team_id', 'team_repositories.team_id')
    .select('team_repositories.repository_id')
    .where('team_members.user_id', '=', userId)
    .execute();
  return [...new Set(rows.map((r) => r.repository_id))];
}

export async function grantTeam(db: Executor, teamId: number, repoId: number, permission: string): Promise<void> {
  await db.insertInto('team_repositories').values({ team_id: teamId, repository_id: repoId, permission })
    .onConflict((oc) => oc.columns(['team_id', 'repository_id']).doUpdateSet({ permission })).execute();
}

export interface OrgGrantRows {
  /** Active members of the organization; owner = role admin. */
  members: { userId: number; owner: boolean }[];
  /** The organization's base permission for members (read, write, admin, none). */
  basePermission: string;
  /** Team grants on the repository, one row per team member and team. */
  teamGrants: { userId: number; permission: string }[];
}

/**
 * Who reaches an organization repository through the organization: its active members
 * (base permission, owners) and the members of teams granted the repository — the rows
 * membershipsIn/teamGrants read per user, read per repository (collaborator lists).
 */
export async function orgGrantRows(db: Executor, orgId: number, repoId: number, userIds?: readonly number[]): Promise<OrgGrantRows> {
  if (userIds && !userIds.length) return { members: [], basePermission: 'none', teamGrants: [] };
  let members = db.selectFrom('org_memberships').select(['user_id', 'role'])
    .where('org_id', '=', orgId).where('state', '=', 'active');
  let teams = db.selectFrom('team_repositories')
    .innerJoin('team_members', 'team_members.team_id', 'team_repositories.team_id')
    .select(['team_members.user_id', 'team_repositories.permission'])
    .where('team_repositories.repository_id', '=', repoId);
  if (userIds) {
    const ids = [...new Set(userIds)];
    members = members.where('user_id', 'in', ids);
    teams = teams.where('team_members.user_id', 'in', ids);
  }
  const [memberRows, org, teamRows] = await Promise.all([
    members.execute(),
    db.selectFrom('organizations').select('default_repository_permission').where('id', '=', orgId).executeTakeFirst(),
    teams.execute(),
  ]);
  return {
    members: memberRows.map((m) => ({ userId: m.user_id, owner: m.role === 'admin' })),
    basePermission: org?.default_repository_permission ?? 'none',
    teamGrants: teamRows.map((t) => ({ userId: t.user_id, permission: t.permission })),
  };
}

/** The permission each of `teamIds` holds on the repository (teams without one are absent). */
export async function teamPermissionsOn(db: Executor, repoId: number, teamIds: readonly number[]): Promise<Map<number, string>> {
  if (!teamIds.length) return new Map();
  const rows = await db.selectFrom('team_repositories').select(['team_id', 'permission'])
    .where('repository_id', '=', repoId).where('team_id', 'in', [...new Set(teamIds)]).execute();
  return new Map(rows.map((r) => [r.team_id, r.permission]));
}

/** Every grant of one team: repository ids and permissions, by repository id. */
export async function grantsOfTeam(db: Executor, teamId: number): Promise<TeamGrantRow[]> {
  return db.selectFrom('team_repositories').select(['repository_id', 'permission'])
    .where('team_id', '=', teamId).orderBy('repository_id').execute();
}

/** Every team granted the repository, with its permission, by team id. */
export async function grantsOnRepository(db: Executor, repoId: number): Promise<{ team_id: number; permission: string }[]> {
  return db.selectFrom('team_repositories').select(['team_id', 'permission'])
    .where('repository_id', '=', repoId).orderBy('team_id').execute();
}

export async function revokeTeam(db: Executor, teamId: number, repoId: number): Promise<void> {
  await db.deleteFrom('team_repositories').where('team_id', '=', teamId).where('repository_id', '=', repoId).execute();
}

/** How many repositories each team is granted (team records' repos_count). */
export async function countGrantsOfTeams(db: Executor, teamIds: readonly number[]): Promise<Map<number, number>> {
  if (!teamIds.length) return new Map();
  const rows = await db.selectFrom('team_repositories').select(['team_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('team_id', 'in', [...new Set(teamIds)]).groupBy('team_id').execute();
  return new Map(rows.map((r) => [r.team_id, Number(r.n)]));
}
