// Who may do what in an organization: the scopes each kind of operation accepts and
// the one ownership rule (site admins, and active members with role admin) that the
// orgs services, their GraphQL fields and other modules' owner checks all use.
import type { AppContext } from '../../context.ts';
import { hasScope, isSiteAdmin, type Actor } from '../../domain/actor.ts';
import { ForbiddenError, SsoRequiredError } from '../../domain/errors.ts';
import type { Membership, Organization, OrgSettings } from './orgs.model.ts';
import * as store from './orgs.store.ts';
import { ssoRefusals } from './orgs.sso-gate.ts';

/** Scopes each kind of operation accepts (a parent scope grants its children). */
export const SCOPES = {
  /** Reading what an organization keeps from outsiders. */
  read: ['read:org', 'write:org', 'admin:org'],
  /** Changing memberships and teams. */
  write: ['write:org', 'admin:org'],
  /** Changing the organization's profile and settings (upstream also accepts repo). */
  admin: ['admin:org', 'repo'],
  /** Listing the caller's own organizations. */
  ownOrgs: ['user', 'read:org', 'write:org', 'admin:org'],
  /** Listing the caller's own teams. */
  ownTeams: ['user', 'repo', 'read:org', 'write:org', 'admin:org'],
  /** Publicizing or concealing one's own membership. */
  publicity: ['user', 'write:org', 'admin:org'],
} as const satisfies Record<string, readonly string[]>;

/** An active membership with role admin: the member owns the organization. */
export function isOwnerMembership(m: Membership | null | undefined): boolean {
  return m?.state === 'active' && m.role === 'admin';
}

/** Site admins, and active members with role admin, own an organization. */
export function isOrgOwner(actor: Actor, m: Membership | null | undefined): boolean {
  return isSiteAdmin(actor) || isOwnerMembership(m);
}

/**
 * The caller's membership as it counts here: none when the organization's SAML SSO
 * refuses the caller's token (then `ssoRequired` says where to authorize it).
 */
async function membershipSeenBy(ctx: AppContext, actor: Actor, orgId: number): Promise<{ membership: Membership | null; ssoRequired: string | null }> {
  const membership = actor.user ? await store.findMembership(ctx.db, orgId, actor.user.id) : null;
  const ssoRequired = membership ? (await ssoRefusals(ctx, actor, [orgId])).get(orgId) ?? null : null;
  return ssoRequired ? { membership: null, ssoRequired } : { membership, ssoRequired: null };
}

/** Whether the caller owns `org` (one membership read, none for site admins). */
export async function ownsOrganization(ctx: AppContext, actor: Actor, org: Organization): Promise<boolean> {
  if (isSiteAdmin(actor)) return true;
  if (!actor.user) return false;
  return isOwnerMembership((await membershipSeenBy(ctx, actor, org.account.id)).membership);
}

/**
 * Whether an owner or member may create repositories in the organization: owners always;
 * members as the settings allow, for `visibility` (or of some kind when it is omitted).
 * Repository creation (REST and GraphQL) and GraphQL's viewerCanCreateRepositories use it.
 */
export function canCreateRepositories(s: OrgSettings, owner: boolean, visibility?: 'public' | 'private' | 'internal'): boolean {
  if (owner) return true;
  if (!s.membersCanCreateRepositories) return false;
  if (visibility === undefined) return true;
  return visibility === 'public' ? s.membersCanCreatePublicRepositories
    : visibility === 'private' ? s.membersCanCreatePrivateRepositories : s.membersCanCreateInternalRepositories;
}

export const NOT_OWNER = 'You must be an organization owner to do this.';

/** ForbiddenError unless the caller owns `org`. */
export async function requireOrgOwner(ctx: AppContext, actor: Actor, org: Organization, message = NOT_OWNER): Promise<void> {
  if (isSiteAdmin(actor)) return;
  const seen = await membershipSeenBy(ctx, actor, org.account.id);
  if (seen.ssoRequired) throw new SsoRequiredError(seen.ssoRequired);
  if (!isOwnerMembership(seen.membership)) throw new ForbiddenError(message);
}

/** What the caller is to an organization (module-internal). */
export interface Viewer {
  userId: number | null;
  membership: Membership | null;
  /** Site admin, or an active member with role admin. */
  owner: boolean;
  /** An owner, or an active member. */
  member: boolean;
  /** The organization's SAML SSO refuses the caller's token (the membership then counts for nothing): where to authorize it. */
  ssoRequired: string | null;
}

export async function viewerOf(ctx: AppContext, actor: Actor, org: Organization): Promise<Viewer> {
  const userId = actor.user?.id ?? null;
  const { membership, ssoRequired } = await membershipSeenBy(ctx, actor, org.account.id);
  const owner = isOrgOwner(actor, membership);
  return { userId, membership, owner, member: owner || membership?.state === 'active', ssoRequired };
}

/** Members see what outsiders do not, through a token that may read organization data. */
export function seesPrivate(viewer: Viewer, actor: Actor): boolean {
  return viewer.member && hasScope(actor, ...SCOPES.read);
}

export function requireOwner(viewer: Viewer): void {
  if (viewer.owner) return;
  if (viewer.ssoRequired) throw new SsoRequiredError(viewer.ssoRequired);
  throw new ForbiddenError(NOT_OWNER);
}
