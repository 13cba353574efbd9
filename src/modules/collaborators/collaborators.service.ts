// Collaborators and repository invitations: who has access to a repository through
// which affiliation, adding (an invitation for outside collaborators, direct for
// organization members), removing, and the invitee's side of invitations.
//
// Roles: a collaborator's stored `permission` is always one of the five base roles,
// so the permission model (repos.access) reads it as it is; a custom role is kept
// beside it by id, and its name shown as role_name.
import { inTransaction, type AppContext } from '../../context.ts';
import { requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { isoSeconds, nowIso } from '../../domain/clock.ts';
import { ForbiddenError, MissingScopeError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { recordEvent } from '../../events/outbox.ts';
import * as orgs from '../orgs/orgs.service.ts';
import { baseRole, type Access } from '../repos/repos.access.ts';
import { ROLES, roleAtLeast, strongest, type Repo, type Role } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import * as orgAccess from '../orgs/orgs.access.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import {
  grantedRoleName, INVITATION_LIFETIME_MS, INVITATION_LIMIT, INVITATION_WINDOW_MS, ORG_BASE_ROLE, ROLE_BY_NAME, ROLE_NAME,
  type CollaboratorEntry, type Grant, type GrantedRole, type InvitationRecord,
} from './collaborators.model.ts';
import * as store from './collaborators.store.ts';
import type { Page, Slice } from '../../domain/page.ts';

export type { Page, Slice } from '../../domain/page.ts';

/** Scopes a token needs to change a repository's collaborators. */
function writeScopes(repo: Repo): string[] {
  return repo.visibility === 'public' ? ['public_repo', 'repo'] : ['repo'];
}

const isOrgRepo = (repo: Repo) => repo.owner.type === 'Organization';

/** Reading collaborators needs push access (upstream's own message for readers). */
async function locateForReading(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<Repo> {
  requireUser(actor);
  const { repo, access } = await repos.locate(ctx, actor, owner, name, 'pull');
  if (!roleAtLeast(access.effective, 'push')) {
    if (roleAtLeast(access.role, 'push')) throw new MissingScopeError(writeScopes(repo));
    throw new ForbiddenError('Must have push access to view repository collaborators.');
  }
  return repo;
}

// ---------------------------------------------------------------- who has access

/**
 * Every user's strongest role on the repository, from every source the permission
 * model knows (owner, organization owners, the base permission, teams, explicit
 * collaborators), or only for `userIds`. Site admins and public read access are not
 * affiliations and are left out.
 */
async function grantsOn(ctx: AppContext, repo: Repo, userIds?: readonly number[]): Promise<Map<number, Grant>> {
  const [direct, org] = await Promise.all([
    store.listCollaborations(ctx.db, repo.id, userIds),
    isOrgRepo(repo) ? orgAccess.repositoryGrants(ctx, repo.ownerId, repo.id, userIds) : null,
  ]);
  interface Sources { roles: (Role | null)[]; custom: { role: Role; name: string } | null; direct: boolean; member: boolean }
  const byUser = new Map<number, Sources>();
  const of = (id: number) => {
    let s = byUser.get(id);
    if (!s) byUser.set(id, s = { roles: [], custom: null, direct: false, member: false });
    return s;
  };
  if (!isOrgRepo(repo) && (!userIds || userIds.includes(repo.ownerId))) {
    const s = of(repo.ownerId);
    s.roles.push('admin');
    s.direct = true;
  }
  if (org) {
    const base = ORG_BASE_ROLE[org.basePermission] ?? null;
    for (const m of org.members) {
      const s = of(m.userId);
      s.member = true;
      s.roles.push(m.owner ? 'admin' : base);
    }
    for (const t of org.teamGrants) of(t.userId).roles.push(baseRole(t.permission));
  }
  for (const c of direct) {
    const s = of(c.userId);
    s.direct = true;
    s.roles.push(c.role);
    if (c.customRoleName) s.custom = { role: c.role, name: c.customRoleName };
  }
  const out = new Map<number, Grant>();
  for (const [userId, s] of byUser) {
    const role = strongest(...s.roles);
    if (role === null) continue;
    const roleName = s.custom && s.custom.role === role ? s.custom.name : ROLE_NAME[role];
    out.set(userId, { userId, role, roleName, direct: s.direct, orgMember: s.member });
  }
  return out;
}

/**
 * grantsOn for other modules (no caller checks): each user's strongest role on the
 * repository by affiliation; only `userIds` when given. Issues use it for assignees
 * and author_association.
 */
export function repositoryGrants(ctx: AppContext, repo: Repo, userIds?: readonly number[]): Promise<Map<number, Grant>> {
  return grantsOn(ctx, repo, userIds);
}

export interface ListCollaboratorsQuery {
  affiliation?: 'outside' | 'direct' | 'all';
  permission?: Role;
}

export async function listCollaborators(
  ctx: AppContext, actor: Actor, owner: string, name: string, q: ListCollaboratorsQuery, slice: Slice,
): Promise<Page<CollaboratorEntry>> {
  const repo = await locateForReading(ctx, actor, owner, name);
  const affiliation = q.affiliation ?? 'all';
  const matching = [...(await grantsOn(ctx, repo)).values()]
    .filter((g) => affiliation === 'all' || (g.direct && (affiliation === 'direct' || (!g.orgMember && g.userId !== repo.ownerId))))
    .filter((g) => !q.permission || roleAtLeast(g.role, q.permission))
    .sort((a, b) => a.userId - b.userId);
  const page = matching.slice(slice.offset, slice.offset + slice.perPage);
  const accounts = await users.accountsByIds(ctx, page.map((g) => g.userId));
  const items = page.flatMap((grant) => {
    const user = accounts.get(grant.userId);
    return user ? [{ user, grant }] : [];
  });
  return { items, total: matching.length };
}

/** GET …/collaborators/{username}: resolves when the user has access by any affiliation. */
export async function checkCollaborator(ctx: AppContext, actor: Actor, owner: string, name: string, username: string): Promise<void> {
  const repo = await locateForReading(ctx, actor, owner, name);
  const user = await users.findAccount(ctx, username);
  if (!user || !(await grantsOn(ctx, repo, [user.id])).has(user.id)) throw new NotFoundError();
}

export interface PermissionLevel {
  user: Account;
  /** null: no access at all. */
  role: Role | null;
  roleName: string;
}

export async function getPermissionLevel(ctx: AppContext, actor: Actor, owner: string, name: string, username: string): Promise<PermissionLevel> {
  const repo = await locateForReading(ctx, actor, owner, name);
  const user = await users.requireAccount(ctx, username);
  const grant = (await grantsOn(ctx, repo, [user.id])).get(user.id);
  if (grant) return { user, role: grant.role, roleName: grant.roleName };
  // Everyone may read a public repository (and, signed in, an internal one).
  const role: Role | null = repo.visibility !== 'private' && user.type === 'User' ? 'pull' : null;
  return { user, role, roleName: role ? ROLE_NAME[role] : 'none' };
}

// ---------------------------------------------------------------- adding and removing

function permissionError(value: string, message: string): ValidationError {
  return new ValidationError([{ resource: 'Repository', field: 'permission', code: 'invalid', value, message }]);
}

/** The role a permission string grants on the repository: one of the five, or a custom role of its organization. */
async function resolvePermission(ctx: AppContext, repo: Repo, permission: string): Promise<GrantedRole> {
  // Upstream's role names (read, write) are accepted beside the legacy ones.
  const builtin = (ROLES as readonly string[]).includes(permission) ? permission as Role : ROLE_BY_NAME[permission] ?? null;
  if (!isOrgRepo(repo)) {
    // Upstream: the permission is only valid on organization-owned repositories; a
    // personal repository's collaborators push.
    if (builtin === 'push') return { role: 'push', custom: null };
    throw permissionError(permission, 'Permissions can only be chosen on organization-owned repositories; collaborators on a personal repository get push access.');
  }
  if (builtin) return { role: builtin, custom: null };
  const custom = await store.findRoleByName(ctx.db, repo.ownerId, permission);
  if (!custom) {
    throw permissionError(permission, `${permission} is not a repository role: use pull, triage, push, maintain, admin or a custom repository role of ${repo.owner.login}.`);
  }
  return { role: ROLE_BY_NAME[custom.baseRole]!, custom: { id: custom.id, name: custom.name } };
}

function collaboratorError(value: string, message: string): ValidationError {
  return new ValidationError([{ resource: 'Repository', field: 'collaborator', code: 'custom', value, message }]);
}

export interface InvitationDetail {
  invitation: InvitationRecord;
  repo: repos.Presentable;
  invitee: Account | null;
  inviter: Account | null;
  expired: boolean;
}

export type AddOutcome = { kind: 'invited'; invitation: InvitationDetail } | { kind: 'added' } | { kind: 'updated' };

function isExpired(ctx: AppContext, createdAt: string): boolean {
  return Date.parse(createdAt) + INVITATION_LIFETIME_MS <= ctx.clock.now().getTime();
}

async function memberEvent(
  ctx: AppContext, repo: Repo, actorId: number, member: Account, action: 'added' | 'edited' | 'removed',
  changes?: { from?: GrantedRole; to: GrantedRole },
): Promise<void> {
  const change = (pick: (g: GrantedRole) => string) => changes && {
    ...(changes.from ? { from: pick(changes.from) } : {}), to: pick(changes.to),
  };
  await recordEvent(ctx, {
    event: 'member', action, repositoryId: repo.id, actorId,
    organizationId: isOrgRepo(repo) ? repo.ownerId : null,
    payload: {
      member: { id: member.id, login: member.login },
      ...(changes ? { changes: { permission: change((g) => ROLE_NAME[g.role]), role_name: change(grantedRoleName) } } : {}),
    },
  });
}

/**
 * PUT …/collaborators/{username}. An existing collaborator gets the new permission;
 * a member of the owning organization is added at once; anyone else is invited
 * (at most INVITATION_LIMIT invitations per repository in 24 hours).
 */
export async function addCollaborator(
  ctx: AppContext, actor: Actor, owner: string, name: string, username: string, permission: string | undefined,
): Promise<AddOutcome> {
  const me = requireUser(actor);
  const { repo, access } = await repos.locate(ctx, actor, owner, name, 'admin');
  const invitee = await users.requireAccount(ctx, username);
  if (invitee.type !== 'User') throw collaboratorError(username, 'An organization cannot be a collaborator.');
  if (invitee.id === repo.ownerId) throw collaboratorError(username, 'Repository owner cannot be a collaborator.');
  if (invitee.id === me.id) throw collaboratorError(username, 'You cannot invite yourself to a repository.');
  const granted = await resolvePermission(ctx, repo, permission ?? 'push');
  return inTransaction(ctx, async (tx) => {
    const now = nowIso(tx.clock);
    const membership = isOrgRepo(repo) ? await orgs.membershipOf(tx, repo.ownerId, invitee.id) : null;
    const member = membership?.state === 'active';
    if (member) {
      // Upstream: members may not be given less than the organization's base role.
      const org = await orgs.requireOrganization(tx, repo.owner.login);
      const base = ORG_BASE_ROLE[org.settings.defaultRepositoryPermission] ?? null;
      if (base && !roleAtLeast(granted.role, base)) {
        throw permissionError(permission ?? 'push', `Cannot assign ${invitee.login} permission of ${grantedRoleName(granted)}`);
      }
    }
    const existing = await store.findCollaboration(tx.db, repo.id, invitee.id);
    if (existing) {
      if (existing.role !== granted.role || existing.customRoleId !== (granted.custom?.id ?? null)) {
        await store.updateCollaboration(tx.db, repo.id, invitee.id, granted.role, granted.custom?.id ?? null);
        const from: GrantedRole = { role: existing.role, custom: existing.customRoleId && existing.customRoleName ? { id: existing.customRoleId, name: existing.customRoleName } : null };
        await memberEvent(tx, repo, me.id, invitee, 'edited', { from, to: granted });
      }
      return { kind: 'updated' };
    }
    if (member) {
      // The Limits row: members of the organization are added without an invitation.
      await store.insertCollaboration(tx.db, repo.id, invitee.id, granted.role, granted.custom?.id ?? null, now);
      await store.deleteInvitationsInvolving(tx.db, repo.id, invitee.id);
      await memberEvent(tx, repo, me.id, invitee, 'added', { to: granted });
      return { kind: 'added' };
    }
    const pending = await store.findInvitationFor(tx.db, repo.id, invitee.id);
    let invitation: InvitationRecord;
    if (pending && !isExpired(tx, pending.createdAt)) {
      // Inviting again while an invitation is open updates it rather than sending another.
      invitation = await store.updateInvitation(tx.db, pending.id, granted.role, granted.custom?.id ?? null);
    } else {
      const windowStart = isoSeconds(new Date(tx.clock.now().getTime() - INVITATION_WINDOW_MS));
      if (!(await store.claimInvitationSlot(tx.db, repo.id, now, windowStart, INVITATION_LIMIT))) {
        throw new ValidationError([{
          resource: 'Repository', field: 'invitee', code: 'custom', value: username,
          message: `You can send at most ${INVITATION_LIMIT} invitations to a repository in 24 hours. Try again later.`,
        }]);
      }
      if (pending) await store.deleteInvitation(tx.db, pending.id);
      invitation = await store.insertInvitation(tx.db, {
        repositoryId: repo.id, inviteeId: invitee.id, inviterId: me.id, role: granted.role, customRoleId: granted.custom?.id ?? null, now,
      });
      // No webhook upstream for this: the event exists for the invitee's notification.
      await recordEvent(tx, {
        event: 'repository_invitation', action: 'created', repositoryId: repo.id, actorId: me.id,
        organizationId: isOrgRepo(repo) ? repo.ownerId : null,
        payload: { invitation: { id: invitation.id, invitee: { id: invitee.id, login: invitee.login }, inviter: { id: me.id, login: me.login } } },
      });
    }
    const [p] = await repos.presentable(tx, actor, [repo], new Map([[repo.id, access]]));
    const inviter = await users.getOwnAccount(tx, actor);
    return { kind: 'invited', invitation: { invitation, repo: p!, invitee, inviter, expired: false } };
  });
}

/** DELETE …/collaborators/{username}: admins remove anyone, a collaborator themselves. */
export async function removeCollaborator(ctx: AppContext, actor: Actor, owner: string, name: string, username: string): Promise<void> {
  const me = requireUser(actor);
  const { repo } = await repos.locate(ctx, actor, owner, name, 'pull');
  const target = await users.requireAccount(ctx, username);
  if (target.id === me.id) requireScope(actor, ...writeScopes(repo));
  else await repos.requireRole(ctx, actor, repo, 'admin');
  if (target.id === repo.ownerId) throw collaboratorError(username, 'The repository owner cannot be removed.');
  await inTransaction(ctx, async (tx) => {
    const removed = await store.deleteCollaboration(tx.db, repo.id, target.id);
    // Upstream also cancels the invitations the collaborator sent (and any to them).
    await store.deleteInvitationsInvolving(tx.db, repo.id, target.id);
    if (removed) await memberEvent(tx, repo, me.id, target, 'removed');
  });
}

// ---------------------------------------------------------------- invitations (repository side)

async function details(ctx: AppContext, actor: Actor, rows: InvitationRecord[], located?: { repo: Repo; access: Access }): Promise<InvitationDetail[]> {
  const repoIds = [...new Set(rows.map((r) => r.repositoryId))].filter((id) => id !== located?.repo.id);
  const others = await repos.reposByIds(ctx, repoIds);
  const all = located ? [located.repo, ...others] : others;
  const known = located ? new Map([[located.repo.id, located.access]]) : undefined;
  const [presented, accounts] = await Promise.all([
    all.length ? repos.presentable(ctx, actor, all, known && others.length === 0 ? known : undefined) : Promise.resolve([]),
    users.accountsByIds(ctx, rows.flatMap((r) => [r.inviteeId, r.inviterId])),
  ]);
  const byRepo = new Map(presented.map((p) => [p.repo.id, p]));
  return rows.flatMap((invitation) => {
    const repo = byRepo.get(invitation.repositoryId);
    if (!repo) return [];
    return [{
      invitation, repo, invitee: accounts.get(invitation.inviteeId) ?? null, inviter: accounts.get(invitation.inviterId) ?? null,
      expired: isExpired(ctx, invitation.createdAt),
    }];
  });
}

export async function listInvitations(ctx: AppContext, actor: Actor, owner: string, name: string, slice: Slice): Promise<Page<InvitationDetail>> {
  requireUser(actor);
  const located = await repos.locate(ctx, actor, owner, name, 'admin');
  const { rows, total } = await store.listInvitationsOfRepo(ctx.db, located.repo.id, slice.perPage, slice.offset);
  return { items: await details(ctx, actor, rows, located), total };
}

async function requireRepoInvitation(ctx: AppContext, repo: Repo, id: number): Promise<InvitationRecord> {
  const invitation = await store.findInvitation(ctx.db, id);
  if (!invitation || invitation.repositoryId !== repo.id) throw new NotFoundError();
  return invitation;
}

export type InvitationPermission = 'read' | 'write' | 'maintain' | 'triage' | 'admin';

export async function updateInvitation(
  ctx: AppContext, actor: Actor, owner: string, name: string, id: number, permissions: InvitationPermission | undefined,
): Promise<InvitationDetail> {
  requireUser(actor);
  const located = await repos.locate(ctx, actor, owner, name, 'admin');
  let invitation = await requireRepoInvitation(ctx, located.repo, id);
  if (permissions !== undefined) {
    const granted = await resolvePermission(ctx, located.repo, permissions);
    invitation = await store.updateInvitation(ctx.db, invitation.id, granted.role, null);
  }
  return (await details(ctx, actor, [invitation], located))[0]!;
}

export async function deleteInvitation(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<void> {
  requireUser(actor);
  const { repo } = await repos.locate(ctx, actor, owner, name, 'admin');
  await store.deleteInvitation(ctx.db, (await requireRepoInvitation(ctx, repo, id)).id);
}

// ---------------------------------------------------------------- invitations (invitee side)

/** Scopes that let a token answer invitations (repo grants repo:invite). */
const INVITE_SCOPES = ['repo', 'repo:invite'];

export async function listInvitationsForAuthenticatedUser(ctx: AppContext, actor: Actor, slice: Slice): Promise<Page<InvitationDetail>> {
  const me = requireUser(actor);
  requireScope(actor, ...INVITE_SCOPES);
  const since = isoSeconds(new Date(ctx.clock.now().getTime() - INVITATION_LIFETIME_MS + 1000));
  const { rows, total } = await store.listInvitationsOfInvitee(ctx.db, me.id, since, slice.perPage, slice.offset);
  return { items: await details(ctx, actor, rows), total };
}

/** The caller's own open invitation; anyone else's, or an expired one, is not found. */
async function requireOwnInvitation(ctx: AppContext, actor: Actor, id: number, allowExpired: boolean): Promise<InvitationRecord> {
  const me = requireUser(actor);
  requireScope(actor, ...INVITE_SCOPES);
  const invitation = await store.findInvitation(ctx.db, id);
  if (!invitation || invitation.inviteeId !== me.id) throw new NotFoundError();
  if (!allowExpired && isExpired(ctx, invitation.createdAt)) throw new NotFoundError();
  return invitation;
}

/** Accepting makes the invitee a collaborator with the invited role. */
export async function acceptInvitation(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const invitation = await requireOwnInvitation(tx, actor, id, false);
    const [repo] = await repos.reposByIds(tx, [invitation.repositoryId]);
    if (!repo) throw new NotFoundError();
    const invitee = await users.getOwnAccount(tx, actor);
    const granted: GrantedRole = {
      role: invitation.role,
      custom: invitation.customRoleId && invitation.customRoleName ? { id: invitation.customRoleId, name: invitation.customRoleName } : null,
    };
    const existing = await store.findCollaboration(tx.db, repo.id, invitee.id);
    if (existing) await store.updateCollaboration(tx.db, repo.id, invitee.id, granted.role, granted.custom?.id ?? null);
    else await store.insertCollaboration(tx.db, repo.id, invitee.id, granted.role, granted.custom?.id ?? null, nowIso(tx.clock));
    await store.deleteInvitation(tx.db, invitation.id);
    await memberEvent(tx, repo, invitee.id, invitee, existing ? 'edited' : 'added', { to: granted });
  });
}

export async function declineInvitation(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  const invitation = await requireOwnInvitation(ctx, actor, id, true);
  await store.deleteInvitation(ctx.db, invitation.id);
}
