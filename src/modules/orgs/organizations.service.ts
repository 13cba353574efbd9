// Organizations: creation, settings, listings, and who owns them.
//
// Permission model: site admins may do everything; organization owners are members
// with role 'admin'; members see what the organization keeps private (concealed
// members, closed teams, memberships) when their token may read it (read:org).
// The organization itself and its public members are public.
import { inTransaction, type AppContext } from '../../context.ts';
import { hasScope, requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { NotFoundError, ValidationError, type FieldError } from '../../domain/errors.ts';
import type { AccountCounts } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import type {
  Membership, Organization, OrgSettings, RepositoryPermission, } from './orgs.model.ts';
import * as store from './orgs.store.ts';
import { SCOPES, requireOwner, viewerOf } from './orgs.permissions.ts';
import type { Page, Slice } from '../../domain/page.ts';

export type { Page, Slice } from '../../domain/page.ts';

// Organizations

export interface NewOrganization {
  login: string;
  /** Login of the user who becomes the organization's first owner. */
  admin: string;
  profileName?: string | null;
  billingEmail?: string | null;
  description?: string | null;
}

export async function createOrganization(ctx: AppContext, input: NewOrganization): Promise<Organization> {
  return inTransaction(ctx, async (tx) => {
    const owner = await users.findAccount(tx, input.admin);
    if (!owner || owner.type !== 'User') {
      throw new ValidationError([{ resource: 'Organization', field: 'admin', code: 'invalid', value: input.admin, message: `admin '${input.admin}' is not a user` }]);
    }
    const account = await users.createAccount(tx, {
      login: input.login, type: 'Organization', name: input.profileName ?? null,
    });
    const settings = await store.insertSettings(tx.db, account.id, input.description ?? null, input.billingEmail ?? null);
    await store.upsertMembership(tx.db, account.id, owner.id, 'admin', nowIso(tx.clock));
    return { account, settings };
  });
}

/** The organization named `login`, or NotFoundError (also when `login` is a user). */
export async function requireOrganization(ctx: AppContext, login: string): Promise<Organization> {
  const account = await users.findAccount(ctx, login);
  if (!account || account.type !== 'Organization') throw new NotFoundError();
  const settings = await store.findSettings(ctx.db, account.id);
  if (!settings) throw new NotFoundError();
  return { account, settings };
}

export async function requireOrganizationById(ctx: AppContext, id: number): Promise<Organization> {
  const account = (await users.accountsByIds(ctx, [id])).get(id);
  if (!account || account.type !== 'Organization') throw new NotFoundError();
  const settings = await store.findSettings(ctx.db, account.id);
  if (!settings) throw new NotFoundError();
  return { account, settings };
}

/** Organizations by id, in bulk (lists of memberships and teams). */
export async function organizationsByIds(ctx: AppContext, ids: readonly number[]): Promise<Map<number, Organization>> {
  const [accounts, settings] = await Promise.all([users.accountsByIds(ctx, ids), store.findSettingsByIds(ctx.db, ids)]);
  const out = new Map<number, Organization>();
  for (const [id, account] of accounts) {
    const s = settings.get(id);
    if (s) out.set(id, { account, settings: s });
  }
  return out;
}

export function membershipOf(ctx: AppContext, orgId: number, userId: number): Promise<Membership | null> {
  return store.findMembership(ctx.db, orgId, userId);
}

export interface OrganizationDetails {
  org: Organization;
  counts: AccountCounts;
  /** Owner-only fields (plan, billing email, member privileges …) are shown. */
  includePrivate: boolean;
  /** advanced_security_enabled_for_new_repositories (owner-only), from the billing module. */
  advancedSecurityForNew?: boolean;
  /** plan.filled_seats (owner-only): the organization's active members. */
  filledSeats: number;
}

declare module '../../events/bus.ts' {
  interface Providers {
    /** The billing module's advanced security default of an organization's new repositories. */
    organizationAdvancedSecurity: {
      enabledForNew(ctx: AppContext, organizationId: number): Promise<boolean>;
      setEnabledForNew(ctx: AppContext, organizationId: number, enabled: boolean): Promise<void>;
    };
  }
}

async function details(ctx: AppContext, org: Organization, includePrivate: boolean): Promise<OrganizationDetails> {
  const counts = (await users.accountCountsOf(ctx, [org.account])).get(org.account.id)!;
  const security = includePrivate ? ctx.bus.provider('organizationAdvancedSecurity') : null;
  const advancedSecurityForNew = security ? await security.enabledForNew(ctx, org.account.id) : undefined;
  const filledSeats = includePrivate ? await store.countMembers(ctx.db, org.account.id, {}) : 0;
  return { org, counts, includePrivate, filledSeats, ...(advancedSecurityForNew === undefined ? {} : { advancedSecurityForNew }) };
}

export async function getOrganization(ctx: AppContext, actor: Actor, login: string): Promise<OrganizationDetails> {
  const org = await requireOrganization(ctx, login);
  const viewer = await viewerOf(ctx, actor, org);
  // Upstream shows the full record to owners whose token holds admin:org.
  return details(ctx, org, viewer.owner && hasScope(actor, 'admin:org'));
}

export interface OrganizationChanges {
  billing_email?: string | null;
  company?: string | null;
  email?: string | null;
  twitter_username?: string | null;
  location?: string | null;
  name?: string | null;
  description?: string | null;
  blog?: string | null;
  has_organization_projects?: boolean;
  has_repository_projects?: boolean;
  default_repository_permission?: RepositoryPermission;
  members_can_create_repositories?: boolean;
  members_can_create_public_repositories?: boolean;
  members_can_create_private_repositories?: boolean;
  members_can_create_internal_repositories?: boolean;
  members_allowed_repository_creation_type?: 'all' | 'private' | 'none';
  web_commit_signoff_required?: boolean;
  advanced_security_enabled_for_new_repositories?: boolean;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * The settings the changes set. The closing-down creation type overrides the switches,
 * as upstream documents; the general switch sets every kind not given explicitly.
 */
function settingsChanges(c: OrganizationChanges): Partial<OrgSettings> {
  const out: Partial<OrgSettings> = {};
  if (c.description !== undefined) out.description = c.description === '' ? null : c.description;
  if (c.billing_email !== undefined) out.billingEmail = c.billing_email === '' ? null : c.billing_email;
  if (c.has_organization_projects !== undefined) out.hasOrganizationProjects = c.has_organization_projects;
  if (c.has_repository_projects !== undefined) out.hasRepositoryProjects = c.has_repository_projects;
  if (c.default_repository_permission !== undefined) out.defaultRepositoryPermission = c.default_repository_permission;
  if (c.web_commit_signoff_required !== undefined) out.webCommitSignoffRequired = c.web_commit_signoff_required;
  const type = c.members_allowed_repository_creation_type;
  if (type !== undefined) {
    out.membersCanCreateRepositories = type !== 'none';
    out.membersCanCreatePublicRepositories = type === 'all';
    out.membersCanCreatePrivateRepositories = type !== 'none';
  } else {
    const all = c.members_can_create_repositories;
    if (all !== undefined) {
      out.membersCanCreateRepositories = all;
      out.membersCanCreateInternalRepositories = all;
    }
    const pub = c.members_can_create_public_repositories ?? all;
    const priv = c.members_can_create_private_repositories ?? all;
    if (pub !== undefined) out.membersCanCreatePublicRepositories = pub;
    if (priv !== undefined) out.membersCanCreatePrivateRepositories = priv;
  }
  if (c.members_can_create_internal_repositories !== undefined) out.membersCanCreateInternalRepositories = c.members_can_create_internal_repositories;
  return out;
}

export async function updateOrganization(
  ctx: AppContext, actor: Actor, login: string, changes: OrganizationChanges,
): Promise<OrganizationDetails> {
  requireUser(actor);
  requireScope(actor, ...SCOPES.admin);
  return inTransaction(ctx, async (tx) => {
    const org = await requireOrganization(tx, login);
    requireOwner(await viewerOf(tx, actor, org));
    const errors: FieldError[] = [];
    for (const field of ['billing_email', 'email'] as const) {
      const v = changes[field];
      if (v !== undefined && v !== null && v !== '' && !EMAIL.test(v)) {
        errors.push({ resource: 'Organization', field, code: 'invalid', value: v });
      }
    }
    if (errors.length) throw new ValidationError(errors);
    const settings = settingsChanges(changes);
    await store.updateSettings(tx.db, org.account.id, settings);
    const security = changes.advanced_security_enabled_for_new_repositories;
    if (security !== undefined) await tx.bus.provider('organizationAdvancedSecurity')?.setEnabledForNew(tx, org.account.id, security);
    const account = await users.updateAccountProfile(tx, org.account, {
      name: changes.name, company: changes.company, email: changes.email, twitter_username: changes.twitter_username,
      location: changes.location, blog: changes.blog,
    });
    return details(tx, { account, settings: { ...org.settings, ...settings } }, true);
  });
}

export async function listOrganizationsForAuthenticatedUser(ctx: AppContext, actor: Actor, slice: Slice): Promise<Page<Organization>> {
  const user = requireUser(actor);
  requireScope(actor, ...SCOPES.ownOrgs);
  return organizationsOf(ctx, user.id, { state: 'active' }, slice);
}

/** Public memberships only, whoever asks (as upstream). */
export async function listOrganizationsForUser(ctx: AppContext, login: string, slice: Slice): Promise<Page<Organization>> {
  const account = await users.requireAccount(ctx, login);
  return organizationsOf(ctx, account.id, { publicOnly: true }, slice);
}

async function organizationsOf(ctx: AppContext, userId: number, f: store.UserMembershipFilter, slice: Slice): Promise<Page<Organization>> {
  const [memberships, total] = await Promise.all([
    store.listMembershipsOfUser(ctx.db, userId, f, slice.perPage, slice.offset),
    store.countMembershipsOfUser(ctx.db, userId, f),
  ]);
  const orgs = await organizationsByIds(ctx, memberships.map((m) => m.orgId));
  return { items: memberships.flatMap((m) => orgs.get(m.orgId) ?? []), total };
}
