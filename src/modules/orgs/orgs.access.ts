// What organization membership and teams give a user on the organization's repositories.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { baseRole, strongest, type Role } from '../repos/repos.model.ts';
import * as store from './orgs.access.store.ts';
import { ssoRefusals } from './orgs.sso-gate.ts';

export interface RepositoryAccess {
  isOwner: boolean;
  isMember: boolean;
  /** The organization's base permission for members: read, write, admin or none. */
  basePermission: string;
  /** The strongest permission a team of the user holds on the repository, if any. */
  teamPermission: string | null;
  /**
   * Set when the organization enforces SAML SSO and the caller's token is not authorized
   * for it: where to authorize it. The membership then gives nothing (isOwner, isMember
   * false, no team permission), and the repository is seen as by an outsider.
   */
  ssoRequired: string | null;
}


/** Access of the acting user to several organization repositories, in two queries (three where SSO applies). */
export async function repositoryAccessMany(
  ctx: AppContext, actor: Actor, repos: readonly { id: number; orgId: number }[],
): Promise<Map<number, RepositoryAccess>> {
  const userId = actor.user?.id;
  if (userId === undefined) return new Map();
  const [memberships, grants] = await Promise.all([
    store.membershipsIn(ctx.db, userId, repos.map((r) => r.orgId)),
    store.teamGrants(ctx.db, userId, repos.map((r) => r.id)),
  ]);
  const byOrg = new Map(memberships.map((m) => [m.org_id, m]));
  const refused = await ssoRefusals(ctx, actor, [...byOrg.keys()]);
  const teamByRepo = new Map<number, Role>();
  for (const g of grants) teamByRepo.set(g.repository_id, strongest(teamByRepo.get(g.repository_id), baseRole(g.permission))!);
  const out = new Map<number, RepositoryAccess>();
  for (const r of repos) {
    const ssoRequired = refused.get(r.orgId) ?? null;
    const m = ssoRequired === null ? byOrg.get(r.orgId) : undefined;
    out.set(r.id, {
      isOwner: m?.role === 'admin',
      isMember: m !== undefined,
      basePermission: m?.default_repository_permission ?? 'none',
      teamPermission: ssoRequired === null ? teamByRepo.get(r.id) ?? null : null,
      ssoRequired,
    });
  }
  return out;
}

export async function repositoryAccess(ctx: AppContext, actor: Actor, orgId: number, repoId: number): Promise<RepositoryAccess> {
  return (await repositoryAccessMany(ctx, actor, [{ id: repoId, orgId }])).get(repoId)!;
}

export function teamRepositoryIds(ctx: AppContext, userId: number): Promise<number[]> {
  return store.teamRepositoryIds(ctx.db, userId);
}

export function grantTeamAccess(ctx: AppContext, teamId: number, repoId: number, permission: string): Promise<void> {
  return store.grantTeam(ctx.db, teamId, repoId, permission);
}

/** Everyone the organization gives access to one of its repositories (optionally only `userIds`). */
export function repositoryGrants(ctx: AppContext, orgId: number, repoId: number, userIds?: readonly number[]): Promise<store.OrgGrantRows> {
  return store.orgGrantRows(ctx.db, orgId, repoId, userIds);
}

/** The permission each team holds on the repository (review requests need the team to have access). */
export function teamPermissionsOn(ctx: AppContext, repoId: number, teamIds: readonly number[]): Promise<Map<number, string>> {
  return store.teamPermissionsOn(ctx.db, repoId, teamIds);
}

/** The repositories granted to a team, with the permission of each. */
export function grantsOfTeam(ctx: AppContext, teamId: number): Promise<store.TeamGrantRow[]> {
  return store.grantsOfTeam(ctx.db, teamId);
}

/** The teams granted a repository, with the permission of each. */
export function grantsOnRepository(ctx: AppContext, repoId: number): Promise<{ team_id: number; permission: string }[]> {
  return store.grantsOnRepository(ctx.db, repoId);
}

export function revokeTeamAccess(ctx: AppContext, teamId: number, repoId: number): Promise<void> {
  return store.revokeTeam(ctx.db, teamId, repoId);
}
