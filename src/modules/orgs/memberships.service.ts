// Organization memberships: invitations, roles, removal, members and their publicity.
import { inTransaction, type AppContext } from '../../context.ts';
import { requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import type {
  Membership, MembershipState, Organization, OrgRole, } from './orgs.model.ts';
import * as store from './orgs.store.ts';
import type { Page, Slice } from '../../domain/page.ts';
import { requireOrganization, requireOrganizationById, organizationsByIds } from './organizations.service.ts';
import { orgMembership } from './orgs.views.ts';
import { recordEvent } from '../../events/outbox.ts';
import { SCOPES, requireOwner, seesPrivate, viewerOf } from './orgs.permissions.ts';

// Memberships

export interface MembershipDetails {
  membership: Membership;
  org: Organization;
  user: Account;
}

export async function requireUserAccount(ctx: AppContext, login: string): Promise<Account> {
  const account = await users.requireAccount(ctx, login);
  if (account.type !== 'User') throw new NotFoundError();
  return account;
}

/** The account to add to an organization or team: a user (an organization cannot be a member). */
export async function requireMemberCandidate(ctx: AppContext, login: string, resource: string): Promise<Account> {
  const account = await users.requireAccount(ctx, login);
  if (account.type !== 'User') {
    throw new ValidationError([{ resource, field: 'username', code: 'invalid', value: login, message: 'An organization cannot be a member.' }]);
  }
  return account;
}

export async function getMembershipForUser(ctx: AppContext, actor: Actor, orgLogin: string, username: string): Promise<MembershipDetails> {
  const me = requireUser(actor);
  requireScope(actor, ...SCOPES.read);
  const org = await requireOrganization(ctx, orgLogin);
  const viewer = await viewerOf(ctx, actor, org);
  const user = await requireUserAccount(ctx, username);
  if (user.id !== me.id && !viewer.member) throw new NotFoundError();
  const membership = await store.findMembership(ctx.db, org.account.id, user.id);
  if (!membership) throw new NotFoundError();
  return { membership, org, user };
}

const LAST_OWNER = 'You cannot remove the last owner of an organization.';

async function requireAnotherOwner(ctx: AppContext, orgId: number, m: Membership): Promise<void> {
  if (m.role !== 'admin' || m.state !== 'active') return;
  if (await store.countMembers(ctx.db, orgId, { role: 'admin' }) <= 1) throw new ForbiddenError(LAST_OWNER);
}

/**
 * Adds the user or changes their role. Wharf is self-hosted, so, as on an enterprise
 * server, the membership is active at once: there is no invitation to accept.
 */
export async function setMembershipForUser(
  ctx: AppContext, actor: Actor, orgLogin: string, username: string, role: OrgRole,
): Promise<MembershipDetails> {
  requireUser(actor);
  requireScope(actor, ...SCOPES.write);
  return inTransaction(ctx, async (tx) => {
    const org = await requireOrganization(tx, orgLogin);
    requireOwner(await viewerOf(tx, actor, org));
    const user = await requireMemberCandidate(tx, username, 'OrganizationMembership');
    await store.lockOrganization(tx.db, org.account.id);
    const now = nowIso(tx.clock);
    const existing = await store.findMembership(tx.db, org.account.id, user.id);
    let membership: Membership;
    if (existing) {
      if (role !== 'admin') await requireAnotherOwner(tx, org.account.id, existing);
      membership = await store.updateMembership(tx.db, org.account.id, user.id, { role, state: 'active' }, now);
    } else {
      membership = await store.insertMembership(tx.db, org.account.id, user.id, role, 'active', now);
    }
    return { membership, org, user };
  });
}

/** Takes the user out of the organization and all of its teams; the last owner stays. */
async function removeFromOrganization(ctx: AppContext, org: Organization, m: Membership): Promise<void> {
  await store.lockOrganization(ctx.db, org.account.id);
  await requireAnotherOwner(ctx, org.account.id, m);
  await store.deleteUserFromOrgTeams(ctx.db, org.account.id, m.userId);
  await store.deleteMembership(ctx.db, org.account.id, m.userId);
}

export async function removeMembershipForUser(ctx: AppContext, actor: Actor, orgLogin: string, username: string): Promise<void> {
  await removeUser(ctx, actor, orgLogin, username, true);
}

async function removeUser(ctx: AppContext, actor: Actor, orgLogin: string, username: string, mustBeMember: boolean): Promise<void> {
  requireUser(actor);
  requireScope(actor, ...SCOPES.write);
  await inTransaction(ctx, async (tx) => {
    const org = await requireOrganization(tx, orgLogin);
    requireOwner(await viewerOf(tx, actor, org));
    const user = await requireUserAccount(tx, username);
    const m = await store.findMembership(tx.db, org.account.id, user.id);
    if (m) await removeFromOrganization(tx, org, m);
    else if (mustBeMember) throw new NotFoundError();
  });
}

/** DELETE /orgs/{org}/members/{username}: like removing the membership, and quiet when there is none. */
export async function removeMember(ctx: AppContext, actor: Actor, orgLogin: string, username: string): Promise<void> {
  await removeUser(ctx, actor, orgLogin, username, false);
}

async function withOrgsAndUser(ctx: AppContext, user: Account, memberships: Membership[]): Promise<MembershipDetails[]> {
  const orgs = await organizationsByIds(ctx, memberships.map((m) => m.orgId));
  return memberships.flatMap((membership) => {
    const org = orgs.get(membership.orgId);
    return org ? [{ membership, org, user }] : [];
  });
}

export async function listMembershipsForAuthenticatedUser(
  ctx: AppContext, actor: Actor, state: MembershipState | undefined, slice: Slice,
): Promise<Page<MembershipDetails>> {
  requireUser(actor);
  requireScope(actor, ...SCOPES.read);
  const user = await users.getOwnAccount(ctx, actor);
  const f = { state };
  const [memberships, total] = await Promise.all([
    store.listMembershipsOfUser(ctx.db, user.id, f, slice.perPage, slice.offset),
    store.countMembershipsOfUser(ctx.db, user.id, f),
  ]);
  return { items: await withOrgsAndUser(ctx, user, memberships), total };
}

export async function getMembershipForAuthenticatedUser(ctx: AppContext, actor: Actor, orgLogin: string): Promise<MembershipDetails> {
  requireUser(actor);
  requireScope(actor, ...SCOPES.read);
  const user = await users.getOwnAccount(ctx, actor);
  const org = await requireOrganization(ctx, orgLogin);
  const membership = await store.findMembership(ctx.db, org.account.id, user.id);
  if (!membership) throw new NotFoundError();
  return { membership, org, user };
}

/** Accepts a pending membership; an active one is returned as it is. */
export async function updateMembershipForAuthenticatedUser(
  ctx: AppContext, actor: Actor, orgLogin: string, state: 'active',
): Promise<MembershipDetails> {
  requireUser(actor);
  requireScope(actor, ...SCOPES.write);
  return inTransaction(ctx, async (tx) => {
    const user = await users.getOwnAccount(tx, actor);
    const org = await requireOrganization(tx, orgLogin);
    let membership = await store.findMembership(tx.db, org.account.id, user.id);
    if (!membership) throw new NotFoundError();
    if (membership.state !== state) {
      membership = await store.updateMembership(tx.db, org.account.id, user.id, { state }, nowIso(tx.clock));
    }
    return { membership, org, user };
  });
}

// Members

export interface ListMembersFilter {
  filter?: 'all' | '2fa_disabled' | '2fa_insecure';
  role?: 'all' | 'admin' | 'member';
}

async function membersPage(ctx: AppContext, orgId: number, f: store.MemberFilter, slice: Slice): Promise<Page<Account>> {
  const [memberships, total] = await Promise.all([
    store.listMembers(ctx.db, orgId, f, slice.perPage, slice.offset),
    store.countMembers(ctx.db, orgId, f),
  ]);
  const accounts = await users.accountsByIds(ctx, memberships.map((m) => m.userId));
  return { items: memberships.flatMap((m) => accounts.get(m.userId) ?? []), total };
}

/** Members see concealed and public members; everyone else the public ones. */
export async function listMembers(
  ctx: AppContext, actor: Actor, orgLogin: string, q: ListMembersFilter, slice: Slice,
): Promise<Page<Account>> {
  const org = await requireOrganization(ctx, orgLogin);
  const viewer = await viewerOf(ctx, actor, org);
  const filter = q.filter ?? 'all';
  if (filter !== 'all' && !(viewer.owner && seesPrivate(viewer, actor))) {
    throw new ValidationError([{ resource: 'Organization', field: 'filter', code: 'invalid', value: filter }], 'Only owners can use this filter.');
  }
  // Wharf has no two-factor authentication: every member lacks it, none has an insecure method.
  if (filter === '2fa_insecure') return { items: [], total: 0 };
  const role = q.role === 'all' ? undefined : q.role;
  return membersPage(ctx, org.account.id, { role, publicOnly: !seesPrivate(viewer, actor) }, slice);
}

/**
 * GET /orgs/{org}/members/{username}: a member learns whether the user is a member;
 * anyone else is sent to the public membership check, as upstream does.
 */
export async function checkMembership(ctx: AppContext, actor: Actor, orgLogin: string, username: string): Promise<'member' | 'ask_public'> {
  const org = await requireOrganization(ctx, orgLogin);
  const viewer = await viewerOf(ctx, actor, org);
  if (!seesPrivate(viewer, actor)) return 'ask_public';
  const user = await users.findAccount(ctx, username);
  const m = user ? await store.findMembership(ctx.db, org.account.id, user.id) : null;
  if (m?.state !== 'active') throw new NotFoundError();
  return 'member';
}

export async function listPublicMembers(ctx: AppContext, orgLogin: string, slice: Slice): Promise<Page<Account>> {
  const org = await requireOrganization(ctx, orgLogin);
  return membersPage(ctx, org.account.id, { publicOnly: true }, slice);
}

export async function checkPublicMembership(ctx: AppContext, orgLogin: string, username: string): Promise<void> {
  const org = await requireOrganization(ctx, orgLogin);
  const user = await users.findAccount(ctx, username);
  const m = user ? await store.findMembership(ctx.db, org.account.id, user.id) : null;
  if (!m || m.state !== 'active' || !m.public) throw new NotFoundError();
}

/** Publicizes or conceals the caller's own membership; nobody may do it for another user. */
export async function setPublicMembership(
  ctx: AppContext, actor: Actor, orgLogin: string, username: string, isPublic: boolean,
): Promise<void> {
  const me = requireUser(actor);
  requireScope(actor, ...SCOPES.publicity);
  const org = await requireOrganization(ctx, orgLogin);
  if (username.toLowerCase() !== me.login.toLowerCase()) {
    throw new ForbiddenError('You can only publicize or conceal your own membership.');
  }
  const m = await store.findMembership(ctx.db, org.account.id, me.id);
  if (!m || m.state !== 'active') {
    if (!isPublic) return;
    throw new ForbiddenError('You must be a member of the organization to publicize your membership.');
  }
  if (m.public !== isPublic) await store.updateMembership(ctx.db, org.account.id, me.id, { public: isPublic }, nowIso(ctx.clock));
}

// Memberships made by provisioning (the sso and scim modules), not by an owner's request

/** The organization webhook of a provisioning change (upstream's `organization` member_added / member_removed). */
async function recordMembershipEvent(ctx: AppContext, action: 'member_added' | 'member_removed', m: Membership, actorId: number | null): Promise<void> {
  const [org, accounts] = await Promise.all([requireOrganizationById(ctx, m.orgId), users.accountsByIds(ctx, [m.userId])]);
  const user = accounts.get(m.userId);
  if (!user) return;
  const { organization: _shownAtTop, ...membership } = orgMembership(m, org, user, ctx.urls);
  await recordEvent(ctx, { event: 'organization', action, organizationId: m.orgId, actorId, payload: { membership } });
}

/**
 * Makes the user an active member (role member) of the organization, as when a
 * provisioned person signs in through the organization's single sign-on; an existing
 * active membership is kept as it is (an owner stays an owner).
 */
export async function admitMember(ctx: AppContext, orgId: number, userId: number, actorId: number | null): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    await store.lockOrganization(tx.db, orgId);
    const existing = await store.findMembership(tx.db, orgId, userId);
    const now = nowIso(tx.clock);
    if (existing?.state === 'active') return;
    const m = existing
      ? await store.updateMembership(tx.db, orgId, userId, { state: 'active' }, now)
      : await store.insertMembership(tx.db, orgId, userId, 'member', 'active', now);
    await recordMembershipEvent(tx, 'member_added', m, actorId);
  });
}

/** Takes the user out of the organization and its teams (deprovisioning); the last owner stays (403). */
export async function expelMember(ctx: AppContext, orgId: number, userId: number, actorId: number | null): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const m = await store.findMembership(tx.db, orgId, userId);
    if (!m) return;
    await store.lockOrganization(tx.db, orgId);
    await requireAnotherOwner(tx, orgId, m);
    await store.deleteUserFromOrgTeams(tx.db, orgId, userId);
    await store.deleteMembership(tx.db, orgId, userId);
    await recordMembershipEvent(tx, 'member_removed', m, actorId);
  });
}

/** Whether the user is an active member (or owner) of the organization. */
export async function isActiveMember(ctx: AppContext, orgId: number, userId: number): Promise<boolean> {
  return (await store.findMembership(ctx.db, orgId, userId))?.state === 'active';
}
