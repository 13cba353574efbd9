// An organization's settings pages' data and writes, for its owners (anyone else gets a
// 404, so the page does not tell an outsider what it guards): the profile and member
// settings that PATCH /orgs/{org} takes, and the people list with a role change, a
// removal and an invitation by username, through the orgs services the REST API uses
// (updateOrganization, setMembershipForUser, removeMembershipForUser), with the viewer
// as actor. The form is checked against PATCH's own body schema first.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { NotFoundError, ValidationError, type FieldError } from '../../domain/errors.ts';
import { compileValidator } from '../../http/validation.ts';
import { listMembers, removeMembershipForUser, setMembershipForUser } from '../orgs/memberships.service.ts';
import type { Organization, OrgRole } from '../orgs/orgs.model.ts';
import { ownsOrganization } from '../orgs/orgs.permissions.ts';
import { UpdateOrgBody } from '../orgs/orgs.schemas.ts';
import { getOrganization, membershipOf, requireOrganization, updateOrganization, type OrganizationChanges } from '../orgs/organizations.service.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import { PER_PAGE } from './web.service.ts';


/** The organization, for one of its owners; a 404 to anyone else. */
export async function ownedOrg(ctx: AppContext, actor: Actor, login: string): Promise<Organization> {
  if (!actor.user) throw new NotFoundError();
  const org = await requireOrganization(ctx, login);
  if (!(await ownsOrganization(ctx, actor, org))) throw new NotFoundError();
  return org;
}

/** Whether the viewer owns the organization (the people page's actions). */
export async function isOwner(ctx: AppContext, actor: Actor, login: string): Promise<boolean> {
  if (!actor.user) return false;
  return ownsOrganization(ctx, actor, await requireOrganization(ctx, login));
}

export async function profileOf(ctx: AppContext, actor: Actor, login: string): Promise<Organization> {
  const org = await ownedOrg(ctx, actor, login);
  return (await getOrganization(ctx, actor, org.account.login)).org;
}

/** The profile form as typed. */
export interface ProfileFields {
  name: string;
  email: string;
  description: string;
  blog: string;
  location: string;
  company: string;
  twitterUsername: string;
  billingEmail: string;
  defaultRepositoryPermission: string;
  membersCanCreateRepositories: boolean;
  membersCanCreatePublicRepositories: boolean;
  membersCanCreatePrivateRepositories: boolean;
  hasOrganizationProjects: boolean;
  hasRepositoryProjects: boolean;
  webCommitSignoffRequired: boolean;
}

export function fieldsOfOrg(org: Organization): ProfileFields {
  const a = org.account;
  const s = org.settings;
  return {
    name: a.name ?? '', email: a.email ?? '', description: s.description ?? '', blog: a.blog ?? '', location: a.location ?? '',
    company: a.company ?? '', twitterUsername: a.twitterUsername ?? '', billingEmail: s.billingEmail ?? '',
    defaultRepositoryPermission: s.defaultRepositoryPermission,
    membersCanCreateRepositories: s.membersCanCreateRepositories,
    membersCanCreatePublicRepositories: s.membersCanCreatePublicRepositories,
    membersCanCreatePrivateRepositories: s.membersCanCreatePrivateRepositories,
    hasOrganizationProjects: s.hasOrganizationProjects, hasRepositoryProjects: s.hasRepositoryProjects,
    webCommitSignoffRequired: s.webCommitSignoffRequired,
  };
}

/** The body PATCH /orgs/{org} would get: every field, as the form sends them all. */
function changesOf(f: ProfileFields): Record<string, unknown> {
  return {
    name: f.name, email: f.email, description: f.description, blog: f.blog, location: f.location, company: f.company,
    twitter_username: f.twitterUsername, billing_email: f.billingEmail,
    default_repository_permission: f.defaultRepositoryPermission,
    members_can_create_repositories: f.membersCanCreateRepositories,
    members_can_create_public_repositories: f.membersCanCreatePublicRepositories,
    members_can_create_private_repositories: f.membersCanCreatePrivateRepositories,
    has_organization_projects: f.hasOrganizationProjects, has_repository_projects: f.hasRepositoryProjects,
    web_commit_signoff_required: f.webCommitSignoffRequired,
  };
}

let validateBody: ReturnType<typeof compileValidator> | null = null;

/** PATCH's schema refusals (lengths, the Twitter handle, the permission's values), in the words of its 422. */
function schemaErrors(body: Record<string, unknown>): FieldError[] {
  validateBody ??= compileValidator(UpdateOrgBody, 'body');
  if (validateBody(body)) return [];
  return (validateBody.errors ?? []).map((e) => {
    const field = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
    return { resource: 'Organization', field, code: 'invalid', message: `${field || 'value'} ${e.message ?? 'is invalid'}` };
  });
}

/** PATCH /orgs/{org}. */
export async function updateProfile(ctx: AppContext, actor: Actor, login: string, f: ProfileFields): Promise<Organization> {
  const org = await ownedOrg(ctx, actor, login);
  const body = changesOf(f);
  const errors = schemaErrors(body);
  if (errors.length) throw new ValidationError(errors);
  return (await updateOrganization(ctx, actor, org.account.login, body as OrganizationChanges)).org;
}

// ---------------------------------------------------------------- people

export interface PeopleAdmin {
  org: Organization;
  /** One page of the members, as the other web lists page (PER_PAGE a page). */
  members: Account[];
  total: number;
  page: number;
  /** Ids of the members who own the organization. */
  owners: Set<number>;
}

/** One page of the members with their roles, as GET /orgs/{org}/members lists them to an owner. */
export async function peopleAdminOf(ctx: AppContext, actor: Actor, login: string, page = 1): Promise<PeopleAdmin> {
  const org = await ownedOrg(ctx, actor, login);
  const all = await listMembers(ctx, actor, org.account.login, {}, { perPage: PER_PAGE, offset: (page - 1) * PER_PAGE });
  // Each shown member's own role: a list of the owners would have pages of its own.
  const roles = await Promise.all(all.items.map((m) => membershipOf(ctx, org.account.id, m.id)));
  const owners = new Set(all.items.filter((_, i) => roles[i]?.role === 'admin').map((m) => m.id));
  return { org, members: all.items, total: all.total, page, owners };
}

function roleOf(raw: string): OrgRole {
  if (raw === 'admin' || raw === 'member') return raw;
  throw new ValidationError([{ resource: 'OrganizationMembership', field: 'role', code: 'invalid', value: raw, message: `${raw || 'An empty role'} is not one of admin, member.` }]);
}

/** A login typed into a form that names nobody: a field error, not a missing page. */
async function requireLogin(ctx: AppContext, login: string): Promise<void> {
  if (!login || !(await users.findAccount(ctx, login))) {
    throw new ValidationError([{ resource: 'OrganizationMembership', field: 'username', code: 'invalid', value: login, message: login ? `No user is called ${login}.` : 'Type the login of the user to invite.' }]);
  }
}

/** Invite by username: PUT /orgs/{org}/memberships/{username}, refused for someone already in. */
export async function invite(ctx: AppContext, actor: Actor, login: string, username: string, role: string): Promise<void> {
  const org = await ownedOrg(ctx, actor, login);
  const wanted = roleOf(role);
  await requireLogin(ctx, username);
  const account = await users.findAccount(ctx, username);
  if (account && (await membershipOf(ctx, org.account.id, account.id))) {
    throw new ValidationError([{ resource: 'OrganizationMembership', field: 'username', code: 'already_exists', value: username, message: `${account.login} is already a member of ${org.account.login}.` }]);
  }
  await setMembershipForUser(ctx, actor, org.account.login, username, wanted);
}

/** A member's role: PUT /orgs/{org}/memberships/{username} with role (the last owner stays one). */
export async function changeRole(ctx: AppContext, actor: Actor, login: string, username: string, role: string): Promise<void> {
  const org = await ownedOrg(ctx, actor, login);
  const wanted = roleOf(role);
  await requireLogin(ctx, username);
  const account = await users.findAccount(ctx, username);
  if (!account || !(await membershipOf(ctx, org.account.id, account.id))) {
    throw new ValidationError([{ resource: 'OrganizationMembership', field: 'username', code: 'invalid', value: username, message: `${username} is not a member of ${org.account.login}.` }]);
  }
  await setMembershipForUser(ctx, actor, org.account.login, username, wanted);
}

/** DELETE /orgs/{org}/memberships/{username}. */
export async function removeMember(ctx: AppContext, actor: Actor, login: string, username: string): Promise<void> {
  const org = await ownedOrg(ctx, actor, login);
  await requireLogin(ctx, username);
  try {
    await removeMembershipForUser(ctx, actor, org.account.login, username);
  } catch (err) {
    // The organization was found and owned above: a 404 here is a login that is not a member.
    if (err instanceof NotFoundError) throw new ValidationError([{ resource: 'OrganizationMembership', field: 'username', code: 'invalid', value: username, message: `${username} is not a member of ${org.account.login}.` }]);
    throw err;
  }
}
