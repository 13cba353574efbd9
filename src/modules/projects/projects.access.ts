// Who may see and change a project. A repository project follows the repository (read
// for readers, write for writers, admin for administrators); an organization project
// gives the strongest of owner (admin), the members' organization_permission, team
// grants and direct collaboration; a user project gives its owner admin and
// collaborators their permission. A public organization or user project is readable
// by everyone; a private one only by those holding a permission (404 to others).
// Projects switched off on their owner answer 404 as if absent.
import type { AppContext } from '../../context.ts';
import { anonymousActor, hasScope, isSiteAdmin, requireScope, type Actor } from '../../domain/actor.ts';
import { ALL_SCOPES, expandedScopesOf } from '../../domain/scopes.ts';
import type { Account } from '../users/users.model.ts';
import { AuthenticationRequiredError, ForbiddenError, GoneError, NotFoundError } from '../../domain/errors.ts';
import * as orgs from '../orgs/orgs.service.ts';
import type { Organization } from '../orgs/orgs.model.ts';
import * as repos from '../repos/repos.service.ts';
import { roleAtLeast, type Repo, type Role } from '../repos/repos.model.ts';
import * as users from '../users/users.service.ts';
import {
  permissionAtLeast, strongerPermission, type Project, type ProjectOwner, type ProjectPermission, type ProjectRecord,
} from './projects.model.ts';
import * as store from './projects.store.ts';

/** Scopes a token needs to change projects (X-Accepted-OAuth-Scopes of the write routes). */
export const WRITE_SCOPES = ['repo', 'write:org'];
/** Scopes a token needs to see a private organization or user project (its permission is the user's otherwise unused). */
export const PRIVATE_READ_SCOPES = ['repo', 'read:org', 'read:project'];

/** A project with the caller's permission on it (never null: invisible projects are 404). */
export interface ProjectAccess extends ProjectRecord {
  permission: ProjectPermission;
}

export async function ownerOf(ctx: AppContext, p: Project): Promise<ProjectOwner> {
  if (p.ownerType === 'Repository') {
    const [repo] = await repos.reposByIds(ctx, [p.repositoryId!]);
    if (!repo) throw new NotFoundError();
    return { type: 'Repository', repo };
  }
  if (p.ownerType === 'Organization') return { type: 'Organization', org: await orgs.requireOrganizationById(ctx, p.accountId!) };
  const [account] = (await users.accountsByIds(ctx, [p.accountId!])).values();
  if (!account) throw new NotFoundError();
  return { type: 'User', account };
}

/** Whether an organization has projects on; a repository needs its own switch and, in an organization, the organization's. */
export async function repositoryProjectsEnabled(ctx: AppContext, repo: Repo): Promise<boolean> {
  if (!repo.hasProjects) return false;
  if (repo.owner.type !== 'Organization') return true;
  return (await orgs.requireOrganizationById(ctx, repo.ownerId)).settings.hasRepositoryProjects;
}

export function organizationProjectsEnabled(org: Organization): boolean {
  return org.settings.hasOrganizationProjects;
}

async function enabled(ctx: AppContext, owner: ProjectOwner): Promise<boolean> {
  if (owner.type === 'Repository') return repositoryProjectsEnabled(ctx, owner.repo);
  if (owner.type === 'Organization') return organizationProjectsEnabled(owner.org);
  return true;
}

/** The permission members get from the organization itself: owners admin, members organization_permission. */
function organizationRole(membership: Awaited<ReturnType<typeof orgs.membershipOf>>, p: Project): ProjectPermission | null {
  if (membership?.state !== 'active') return null;
  if (orgs.isOwnerMembership(membership)) return 'admin';
  const base = p.organizationPermission ?? 'none';
  return base === 'none' ? null : base;
}

/** A repository role as a project permission: maintainers and administrators administer its projects. */
function fromRepositoryRole(effective: Role | null): ProjectPermission | null {
  if (roleAtLeast(effective, 'maintain')) return 'admin';
  if (roleAtLeast(effective, 'push')) return 'write';
  if (roleAtLeast(effective, 'pull')) return 'read';
  return null;
}

/** The caller's permission on the project, or null when they may not even see it. */
export async function permissionOn(ctx: AppContext, actor: Actor, r: ProjectRecord): Promise<ProjectPermission | null> {
  return (await permissionsOn(ctx, actor, r.owner, [r.project])).get(r.project.id) ?? null;
}

/**
 * The caller's permission on each of one owner's projects (null: may not see it): the
 * owner's facts are read once, and collaborators and team grants in one query each,
 * so that a list costs the same few queries however many boards it holds.
 */
export async function permissionsOn(
  ctx: AppContext, actor: Actor, owner: ProjectOwner, projects: readonly Project[],
): Promise<Map<number, ProjectPermission | null>> {
  const out = await userPermissionsOn(ctx, actor, owner, projects);
  // A private board is private data of its organization or user: a token without a
  // scope reaching it sees it as it would a repository it may not read, not at all.
  if (owner.type !== 'Repository' && actor.user && !hasScope(actor, ...PRIVATE_READ_SCOPES)) {
    for (const p of projects) if (p.private) out.set(p.id, null);
  }
  return out;
}

async function userPermissionsOn(
  ctx: AppContext, actor: Actor, owner: ProjectOwner, projects: readonly Project[],
): Promise<Map<number, ProjectPermission | null>> {
  const out = new Map<number, ProjectPermission | null>();
  const ids = projects.map((p) => p.id);
  const user = actor.user;
  const direct = user ? await store.collaboratorPermissions(ctx.db, ids, user.id) : new Map<number, ProjectPermission>();
  if (owner.type === 'Repository') {
    const fromRepo = fromRepositoryRole((await repos.accessTo(ctx, actor, owner.repo)).effective);
    for (const p of projects) out.set(p.id, fromRepo === null ? null : strongerPermission(fromRepo, direct.get(p.id) ?? null));
    return out;
  }
  if (!user || isSiteAdmin(actor)) {
    for (const p of projects) out.set(p.id, user ? 'admin' : p.private ? null : 'read');
    return out;
  }
  if (owner.type === 'User') {
    for (const p of projects) {
      out.set(p.id, owner.account.id === user.id ? 'admin' : strongerPermission(p.private ? null : 'read', direct.get(p.id) ?? null));
    }
    return out;
  }
  const membership = await orgs.membershipOf(ctx, owner.org.account.id, user.id);
  const grants = await store.teamGrantsOfProjects(ctx.db, ids);
  const teamMembers = new Map<number, readonly number[]>();
  for (const p of projects) {
    let best = strongerPermission(p.private ? null : 'read', direct.get(p.id) ?? null);
    best = strongerPermission(best, organizationRole(membership, p));
    for (const grant of grants.get(p.id) ?? []) {
      let members = teamMembers.get(grant.teamId);
      if (!members) {
        members = await orgs.teamMemberIds(ctx, { orgId: p.accountId!, teamId: grant.teamId });
        teamMembers.set(grant.teamId, members);
      }
      if (members.includes(user.id)) best = strongerPermission(best, grant.permission);
    }
    out.set(p.id, best);
  }
  return out;
}

/** What an account itself may do on the project, whatever token it would use (collaborator permission checks). */
export function permissionOfAccount(ctx: AppContext, account: Account, r: ProjectRecord): Promise<ProjectPermission | null> {
  const user = { id: account.id, login: account.login, siteAdmin: account.siteAdmin };
  return permissionOn(ctx, { ...anonymousActor(''), method: 'token', user, grantedScopes: ALL_SCOPES, scopes: expandedScopesOf(ALL_SCOPES) }, r);
}

/** The project by id as the caller may see it: 404 when absent, switched off or private to them. */
export async function requireProject(ctx: AppContext, actor: Actor, id: number): Promise<ProjectAccess> {
  const project = await store.findProject(ctx.db, id);
  if (!project) throw new NotFoundError();
  const owner = await ownerOf(ctx, project);
  if (!(await enabled(ctx, owner))) throw new NotFoundError();
  const permission = await permissionOn(ctx, actor, { project, owner });
  if (permission === null) throw new NotFoundError();
  return { project, owner, permission };
}

/**
 * Refuses a caller below `needed`: 401 to the anonymous, 410 to a signed-in caller
 * (the spec's answer to project operations without sufficient privileges), and a scope
 * error when the token may not write.
 */
export function requirePermission(actor: Actor, a: ProjectAccess, needed: ProjectPermission): void {
  if (!actor.user) throw new AuthenticationRequiredError();
  if (!permissionAtLeast(a.permission, needed)) {
    throw new GoneError(needed === 'admin' ? 'Must have admin access to this project.' : 'Must have write access to this project.');
  }
  requireScope(actor, ...WRITE_SCOPES);
}

/** The project for a change needing `needed`. */
export async function requireProjectFor(ctx: AppContext, actor: Actor, id: number, needed: ProjectPermission): Promise<ProjectAccess> {
  if (!actor.user) throw new AuthenticationRequiredError();
  const a = await requireProject(ctx, actor, id);
  requirePermission(actor, a, needed);
  if (a.owner.type === 'Repository' && a.owner.repo.archived) throw new ForbiddenError('Repository was archived so is read-only.');
  return a;
}
