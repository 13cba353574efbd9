// Who may do what to a repository: the one permission model for repositories.
// Site admin > owner > organization owner > the strongest of organization base role,
// team roles and collaborator role; public (and, for signed-in users, internal)
// repositories are readable by everyone. Token scopes narrow what a token may do.
import type { AppContext } from '../../context.ts';
import { hasScope, type Actor } from '../../domain/actor.ts';
import { MissingScopeError, NotFoundError, ForbiddenError, SsoRequiredError } from '../../domain/errors.ts';
import * as orgAccess from '../orgs/orgs.access.ts';
import { baseRole, roleAtLeast, strongest, type Repo, type Role } from './repos.model.ts';
import * as store from './repos.store.ts';

const BASE_ROLE: Record<string, Role | null> = { read: 'pull', write: 'push', admin: 'admin', none: null };


/** Scopes a token needs to act on a repository: private ones need repo, public writes public_repo. */
function scopeAllows(actor: Actor, repo: Repo, write: boolean): boolean {
  if (actor.method === 'anonymous' || actor.method === 'oauth_app') return !write;
  if (repo.visibility !== 'public') return hasScope(actor, 'repo');
  return !write || hasScope(actor, 'public_repo', 'repo');
}

/**
 * Refuses a write by a token whose scopes do not reach the repository (public_repo or
 * repo; repo for a private one). Reading a public repository takes no scope, so the
 * reader's writes (opening an issue, commenting) and an author's changes to their own
 * issue, comment or review would otherwise pass with any token.
 */
export function requireWriteScope(actor: Actor, repo: Repo): void {
  if (!scopeAllows(actor, repo, true)) throw new MissingScopeError(repo.visibility === 'public' ? ['public_repo', 'repo'] : ['repo']);
}

export interface Access {
  /** The caller's role before token scopes: null when they have none. */
  role: Role | null;
  /** The role as the token may use it (null: may not even read); never above pull while locked. */
  effective: Role | null;
  /**
   * The owning organization enforces SAML SSO and has not authorized the caller's token:
   * where to authorize it (the role is then what an outsider has). Null otherwise.
   */
  ssoRequired?: string | null;
  /** The repository is locked for a migration: nobody may write to it. */
  locked?: boolean;
}

/** Upstream's refusal of any write to a repository a migration locked. */
export const MIGRATION_LOCK_MESSAGE = 'Repository was locked for migration.';

/**
 * The migration lock, applied once here so that every decision built on access (REST,
 * GraphQL, git pushes) sees it: a locked repository stays readable, nothing more.
 */
function underLock(repo: Repo, access: Access): Access {
  if (!repo.lockedForMigration) return access;
  return { ...access, effective: access.effective === null ? null : 'pull', locked: true };
}

export { baseRole };

export async function accessTo(ctx: AppContext, actor: Actor, repo: Repo): Promise<Access> {
  return (await accessToMany(ctx, actor, [repo])).get(repo.id)!;
}

/**
 * Requires `needed` on the repository. A caller who may not even read it gets 404
 * (existence is not revealed); one who may read but not do this gets 403, or a
 * scope error when only the token's scopes are missing.
 */
export async function requireRole(ctx: AppContext, actor: Actor, repo: Repo, needed: Role): Promise<Access> {
  const access = await accessTo(ctx, actor, repo);
  if (roleAtLeast(access.effective, needed)) return access;
  // Refused because the token is not authorized for the organization's SSO: say so (403
  // and where to authorize it) rather than hide the repository.
  if (access.ssoRequired) throw new SsoRequiredError(access.ssoRequired);
  if (access.effective === null) throw new NotFoundError();
  // Those who could do this but for the lock are told of the lock; others as before.
  if (access.locked && roleAtLeast(access.role, needed)) throw new ForbiddenError(MIGRATION_LOCK_MESSAGE);
  if (roleAtLeast(access.role, needed)) throw new MissingScopeError(repo.visibility === 'public' ? ['public_repo', 'repo'] : ['repo']);
  if (needed === 'pull') throw new NotFoundError();
  throw new ForbiddenError(needed === 'admin' ? 'Must have admin rights to Repository.' : `Must have ${needed} access to repository.`);
}

/**
 * An installation token's access: within its repositories, the role its permissions
 * amount to (administration write → admin, contents write → push, issues or pull
 * requests write → triage, else pull); outside them public repositories are readable
 * and private ones do not exist for it. Routes check the exact permission first
 * (src/http/app-permission.ts); this keeps the repository set.
 */
function installationAccess(integration: NonNullable<Actor['integration']>, repo: Repo): Access {
  const role = integration.repositoryIds?.has(repo.id) ? roleOfPermissions(integration.permissions ?? {}) : publicOnly(repo);
  return { role, effective: role };
}

/**
 * A deploy key's access: read, or push when it may write, on its one repository, and
 * nothing elsewhere (public repositories included: the key is that repository's only).
 */
function deployKeyAccess(key: NonNullable<Actor['deployKey']>, repo: Repo): Access {
  const role: Role | null = repo.id === key.repositoryId ? (key.readOnly ? 'pull' : 'push') : null;
  return { role, effective: role };
}

function roleOfPermissions(p: Readonly<Record<string, string>>): Role {
  return p.administration === 'write' ? 'admin'
    : p.contents === 'write' ? 'push'
      : p.issues === 'write' || p.pull_requests === 'write' ? 'triage' : 'pull';
}

function publicOnly(repo: Repo): Role | null {
  return repo.visibility === 'public' ? 'pull' : null;
}

/**
 * What the app behind a user-to-server token may do on a repository: the role its
 * installation on the repository's owner amounts to when the installation reaches the
 * repository, else public reads only. The user's own role is capped by it.
 */
function appCeiling(integration: NonNullable<Actor['integration']>, repo: Repo): Role | null {
  const reach = integration.reach?.find((r) => r.accountId === repo.ownerId);
  if (!reach || (reach.repositoryIds !== null && !reach.repositoryIds.has(repo.id))) return publicOnly(repo);
  return roleOfPermissions(reach.permissions);
}

function weakest(a: Role | null, b: Role | null): Role | null {
  if (a === null || b === null) return null;
  return roleAtLeast(a, b) ? b : a;
}

/** accessTo for many repositories, with batched queries (lists). */
export async function accessToMany(ctx: AppContext, actor: Actor, repos: readonly Repo[]): Promise<Map<number, Access>> {
  const out = new Map<number, Access>();
  if (actor.method === 'deploy_key' && actor.deployKey) {
    for (const repo of repos) out.set(repo.id, underLock(repo, deployKeyAccess(actor.deployKey, repo)));
    return out;
  }
  const integration = actor.method === 'installation' ? actor.integration : null;
  if (integration) {
    for (const repo of repos) out.set(repo.id, underLock(repo, installationAccess(integration, repo)));
    return out;
  }
  const user = actor.user;
  const collab = user ? await store.collaboratorPermissions(ctx.db, user.id, repos.map((r) => r.id)) : new Map<number, string>();
  const orgRepos = repos.filter((r) => r.owner.type === 'Organization').map((r) => ({ id: r.id, orgId: r.ownerId }));
  const orgAccessById = user && orgRepos.length ? await orgAccess.repositoryAccessMany(ctx, actor, orgRepos) : new Map<number, orgAccess.RepositoryAccess>();
  for (const repo of repos) {
    const publicRole: Role | null = repo.visibility === 'public' || (repo.visibility === 'internal' && user) ? 'pull' : null;
    let role: Role | null;
    if (!user) role = publicRole;
    else if (user.siteAdmin || repo.ownerId === user.id) role = 'admin';
    else {
      const access = orgAccessById.get(repo.id);
      // A member whose token SSO refuses gets no collaborator grant either: SSO covers the member, not only the membership.
      const c = access?.ssoRequired ? undefined : collab.get(repo.id);
      role = access?.isOwner ? 'admin' : strongest(
        publicRole,
        access?.isMember ? BASE_ROLE[access.basePermission] : null,
        access?.teamPermission ? baseRole(access.teamPermission) : null,
        c ? baseRole(c) : null,
      );
    }
    const readable = role !== null && scopeAllows(actor, repo, false);
    const ssoRequired = orgAccessById.get(repo.id)?.ssoRequired ?? null;
    const effective = readable ? (scopeAllows(actor, repo, true) ? role : 'pull') : null;
    if (actor.method === 'user_to_server' && actor.integration) {
      // Both the user and the app must be able to: a shortfall is the app's, never a missing scope.
      const capped = weakest(effective, appCeiling(actor.integration, repo));
      out.set(repo.id, underLock(repo, { role: capped, effective: capped, ...(ssoRequired ? { ssoRequired } : {}) }));
    } else {
      out.set(repo.id, underLock(repo, { role, effective, ...(ssoRequired ? { ssoRequired } : {}) }));
    }
  }
  return out;
}
