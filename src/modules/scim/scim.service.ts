// SCIM 2.0 provisioning of an organization's members (RFC 7644, upstream's
// /scim/v2/organizations/{org}/Users). Only for organizations using SAML SSO; only for
// their owners, through a token authorized for that SSO (orgs.requireOrgOwner applies
// the gate). A provisioned identity is an invitation: the person joins when they sign in
// through SSO with a NameID equal to its userName. Deprovisioning (active false, or
// DELETE) removes the membership, the external identity and the SCIM id.
import { randomUUID } from 'node:crypto';
import { inTransaction, type AppContext } from '../../context.ts';
import { requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { ConflictError, NotFoundError } from '../../domain/errors.ts';
import * as orgs from '../orgs/orgs.service.ts';
import type { Organization } from '../orgs/orgs.model.ts';
import * as sso from '../sso/sso.service.ts';
import type { ProvisionedLink } from '../sso/sso.model.ts';
import { parseFilter } from './scim.filter.ts';
import type { ScimUser, ScimUserData } from './scim.model.ts';
import { applyOperations, type PatchOperation } from './scim.patch.ts';
import * as store from './scim.store.ts';

export interface ScimList { users: ScimUser[]; total: number; startIndex: number }

/** The organization, when it uses SAML SSO (404 otherwise) and the caller owns it (403). */
async function requireScimOrg(ctx: AppContext, actor: Actor, orgLogin: string): Promise<Organization> {
  requireUser(actor);
  requireScope(actor, 'admin:org');
  const org = await orgs.requireOrganization(ctx, orgLogin);
  if (!(await sso.ssoEnabled(ctx, org.account.id))) throw new NotFoundError();
  await orgs.requireOrgOwner(ctx, actor, org);
  return org;
}

async function requireUserOf(ctx: AppContext, org: Organization, scimId: string): Promise<ScimUser> {
  const user = await store.findByScimId(ctx.db, org.account.id, scimId);
  if (!user) throw new NotFoundError();
  return user;
}

export interface ListQuery { startIndex?: number; count?: number; filter?: string }

/** RFC 7644 § 3.4.2.4: startIndex is 1-based (below 1 means 1); count 0 asks only for the total. */
export async function listUsers(ctx: AppContext, actor: Actor, orgLogin: string, q: ListQuery): Promise<ScimList> {
  const org = await requireScimOrg(ctx, actor, orgLogin);
  const filter = parseFilter(q.filter);
  const startIndex = Math.max(1, q.startIndex ?? 1);
  const [users, total] = await Promise.all([
    store.list(ctx.db, org.account.id, filter, q.count ?? 100, startIndex - 1),
    store.count(ctx.db, org.account.id, filter),
  ]);
  return { users, total, startIndex };
}

export async function getUser(ctx: AppContext, actor: Actor, orgLogin: string, scimId: string): Promise<ScimUser> {
  return requireUserOf(ctx, await requireScimOrg(ctx, actor, orgLogin), scimId);
}

async function refuseClash(ctx: AppContext, orgId: number, d: ScimUserData, exceptRowId: number | null): Promise<void> {
  const clash = await store.findClash(ctx.db, orgId, d, exceptRowId);
  if (clash) throw new ConflictError(`A provisioned user with this ${clash} already exists in the organization.`);
}

/** Provisions (invites) a person; an already linked external identity with this userName joins at once. */
/** A concurrent request took the userName or externalId between our check and our write: the same 409. */
async function conflictOnRace<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE') throw new ConflictError('A provisioned user with this userName or externalId already exists in the organization.');
    throw err;
  }
}

export async function createUser(ctx: AppContext, actor: Actor, orgLogin: string, d: ScimUserData): Promise<ScimUser> {
  const org = await requireScimOrg(ctx, actor, orgLogin);
  return conflictOnRace(() => inTransaction(ctx, async (tx) => {
    await refuseClash(tx, org.account.id, d, null);
    const linked = await sso.userOfIdentity(tx, org.account.id, d.userName);
    const user = await store.insert(tx.db, org.account.id, randomUUID(), d, linked, nowIso(tx.clock));
    if (linked !== null && d.active) await orgs.admitMember(tx, org.account.id, linked, actor.user!.id);
    if (!d.active) await deprovision(tx, user, actor);
    return user;
  }));
}

/**
 * Removes what provisioning gave (the state table's "removed"): the membership, the
 * external identity (with its SSO sessions and token authorizations) and the SCIM id.
 * The Wharf account stays, so the person can be provisioned again and rejoin.
 */
async function deprovision(ctx: AppContext, user: ScimUser, actor: Actor): Promise<void> {
  if (user.userId !== null) {
    await orgs.expelMember(ctx, user.orgId, user.userId, actor.user?.id ?? null);
    await sso.unlinkIdentity(ctx, user.orgId, user.userId);
  }
  await store.remove(ctx.db, user.rowId);
}

async function changeUser(ctx: AppContext, actor: Actor, org: Organization, current: ScimUser, d: ScimUserData): Promise<ScimUser> {
  await refuseClash(ctx, org.account.id, d, current.rowId);
  const updated = await store.update(ctx.db, current.rowId, d, nowIso(ctx.clock));
  if (!d.active) await deprovision(ctx, updated, actor);
  return updated;
}

/** PUT: replaces all data (omitted data is removed); active false deprovisions. */
export async function replaceUser(ctx: AppContext, actor: Actor, orgLogin: string, scimId: string, d: ScimUserData): Promise<ScimUser> {
  const org = await requireScimOrg(ctx, actor, orgLogin);
  return conflictOnRace(() => inTransaction(ctx, async (tx) => changeUser(tx, actor, org, await requireUserOf(tx, org, scimId), d)));
}

/** PATCH: RFC 7644 operations; `active` false deprovisions. */
export async function patchUser(ctx: AppContext, actor: Actor, orgLogin: string, scimId: string, operations: readonly PatchOperation[]): Promise<ScimUser> {
  const org = await requireScimOrg(ctx, actor, orgLogin);
  return conflictOnRace(() => inTransaction(ctx, async (tx) => {
    const current = await requireUserOf(tx, org, scimId);
    return changeUser(tx, actor, org, current, applyOperations(current, operations));
  }));
}

export async function deleteUser(ctx: AppContext, actor: Actor, orgLogin: string, scimId: string): Promise<void> {
  const org = await requireScimOrg(ctx, actor, orgLogin);
  await inTransaction(ctx, async (tx) => deprovision(tx, await requireUserOf(tx, org, scimId), actor));
}

/** For the sso module at sign-in: links the provisioned identity whose userName is the NameID to the account signing in. */
export async function linkProvisioned(ctx: AppContext, orgId: number, nameId: string, userId: number): Promise<ProvisionedLink> {
  const user = await store.findByUserName(ctx.db, orgId, nameId);
  if (!user || !user.active) return 'none';
  if (user.userId !== null) return user.userId === userId ? 'linked' : 'taken';
  await store.linkUser(ctx.db, user.rowId, userId, nowIso(ctx.clock));
  return 'linked';
}
