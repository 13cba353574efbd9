// Teams' access to repositories: /orgs/{org}/teams/{team_slug}/repos… (and the id-addressed
// twins) and /repos/{owner}/{repo}/teams. The grants are the team_repositories rows that
// repository access (repos.access, through orgs.access) already honours.
import { inTransaction, type AppContext } from '../../context.ts';
import { requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import { baseRole, type Role } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import * as orgAccess from './orgs.access.ts';
import type { Organization } from './orgs.model.ts';
import { requireOrganizationById } from './organizations.service.ts';
import { visibleTeam, visibleTeamsAmong, type TeamEntry, type TeamRef } from './teams.service.ts';

/** Permissions a team may be granted on a repository (upstream's five base roles). */
export const TEAM_REPO_PERMISSIONS = ['pull', 'triage', 'push', 'maintain', 'admin'] as const;
export type TeamRepoPermission = (typeof TEAM_REPO_PERMISSIONS)[number];

/** Tokens reading team repositories: upstream accepts read:org or repo. */
const READ_SCOPES = ['read:org', 'write:org', 'admin:org', 'repo'];
/** Tokens changing them. */
const WRITE_SCOPES = ['write:org', 'admin:org', 'repo'];

/** A repository as a team holds it: `role` is the team's permission on it. */
export interface TeamRepository extends repos.Presentable {
  role: Role;
}

function withTeamRole(items: repos.Presentable[], grants: Map<number, string>): TeamRepository[] {
  return items.flatMap((p) => {
    const permission = grants.get(p.repo.id);
    return permission === undefined ? [] : [{ ...p, role: baseRole(permission) }];
  });
}

/** The team's repositories the caller may see, by repository id, paged. */
export async function listTeamRepos(ctx: AppContext, actor: Actor, ref: TeamRef, slice: Slice): Promise<Page<TeamRepository>> {
  requireUser(actor);
  requireScope(actor, ...READ_SCOPES);
  const { team } = await visibleTeam(ctx, actor, ref);
  const grants = await orgAccess.grantsOfTeam(ctx, team.id);
  const all = await repos.reposByIds(ctx, grants.map((g) => g.repository_id));
  // Only those the caller may read (`role` is the caller's here, before the team's replaces it).
  const seen = (await repos.presentable(ctx, actor, all)).filter((p) => p.role !== null).sort((a, b) => a.repo.id - b.repo.id);
  const page = seen.slice(slice.offset, slice.offset + slice.perPage);
  return { items: withTeamRole(page, new Map(grants.map((g) => [g.repository_id, g.permission]))), total: seen.length };
}

/** The team's grant on owner/name, if any (NotFoundError without one, as upstream). */
export async function checkTeamRepo(ctx: AppContext, actor: Actor, ref: TeamRef, owner: string, name: string): Promise<TeamRepository> {
  requireUser(actor);
  requireScope(actor, ...READ_SCOPES);
  const { team } = await visibleTeam(ctx, actor, ref);
  const { repo, access } = await repos.locate(ctx, actor, owner, name);
  const grants = await orgAccess.teamPermissionsOn(ctx, repo.id, [team.id]);
  const [found] = withTeamRole(await repos.presentable(ctx, actor, [repo], new Map([[repo.id, access]])), grants);
  if (!found) throw new NotFoundError();
  return found;
}

function notOrgRepository(org: Organization, owner: string, name: string): ValidationError {
  return new ValidationError([{
    resource: 'TeamRepository', field: 'repository', code: 'invalid', value: `${owner}/${name}`,
    message: `The repository must be owned by the organization ${org.account.login}.`,
  }], 'Validation Failed');
}

/**
 * Grants the team `permission` on owner/name (the team's own permission when none is
 * given, as upstream's description says), or changes the grant. The caller must see the
 * team and administer the repository (organization owners do); the repository must
 * belong to the team's organization (422 otherwise).
 */
export async function setTeamRepo(
  ctx: AppContext, actor: Actor, ref: TeamRef, owner: string, name: string, permission: TeamRepoPermission | undefined,
): Promise<void> {
  requireUser(actor);
  requireScope(actor, ...WRITE_SCOPES);
  await inTransaction(ctx, async (tx) => {
    const { org, team } = await visibleTeam(tx, actor, ref);
    const { repo } = await repos.locate(tx, actor, owner, name);
    if (repo.ownerId !== org.account.id) throw notOrgRepository(org, owner, name);
    await repos.requireRole(tx, actor, repo, 'admin');
    await orgAccess.grantTeamAccess(tx, team.id, repo.id, permission ?? team.permission);
  });
}

/**
 * Removes the team's grant on owner/name (nothing to remove is no error). Organization
 * owners and the team's maintainers may remove any; other members need admin on it.
 */
export async function removeTeamRepo(ctx: AppContext, actor: Actor, ref: TeamRef, owner: string, name: string): Promise<void> {
  requireUser(actor);
  requireScope(actor, ...WRITE_SCOPES);
  await inTransaction(ctx, async (tx) => {
    const { team, viewer, own } = await visibleTeam(tx, actor, ref);
    const { repo } = await repos.locate(tx, actor, owner, name);
    if (!viewer.owner && own?.role !== 'maintainer') await repos.requireRole(tx, actor, repo, 'admin');
    await orgAccess.revokeTeamAccess(tx, team.id, repo.id);
  });
}

export interface RepoTeam extends TeamEntry {
  orgLogin: string;
  /** The team's permission on the repository. */
  permission: string;
}

/**
 * The teams granted owner/name that the caller may see (none for a user's repository),
 * by team id, paged. The caller must be able to read the repository.
 */
export async function listRepoTeams(ctx: AppContext, actor: Actor, owner: string, name: string, slice: Slice): Promise<Page<RepoTeam>> {
  requireUser(actor);
  const { repo } = await repos.locate(ctx, actor, owner, name);
  if (repo.owner.type !== 'Organization') return { items: [], total: 0 };
  const org = await requireOrganizationById(ctx, repo.ownerId);
  const grants = new Map((await orgAccess.grantsOnRepository(ctx, repo.id)).map((g) => [g.team_id, g.permission]));
  const shown = await visibleTeamsAmong(ctx, actor, org, [...grants.keys()]);
  const items = shown.slice(slice.offset, slice.offset + slice.perPage)
    .map((e) => ({ ...e, orgLogin: org.account.login, permission: grants.get(e.team.id)! }));
  return { items, total: shown.length };
}
