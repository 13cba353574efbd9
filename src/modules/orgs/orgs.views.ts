// Organizations, memberships and teams → API representation. Pure; every URL from the URL builder.
import { encodeNodeId } from '../../domain/node-id.ts';
import type { Urls } from '../../urls.ts';
import { baseRole, NEW_REPOSITORY_BRANCH, type Role } from '../repos/repos.model.ts';
import { permissionsOf as repoPermissionsOf } from '../repos/repos.views.ts';
import type { Account, AccountCounts } from '../users/users.model.ts';
import { simpleUser, type SimpleUser } from '../users/users.views.ts';
import type { Membership, Organization, OrgSettings, Team, TeamRole } from './orgs.model.ts';

export interface OrganizationSimple {
  login: string;
  id: number;
  node_id: string;
  url: string;
  repos_url: string;
  events_url: string;
  hooks_url: string;
  issues_url: string;
  members_url: string;
  public_members_url: string;
  avatar_url: string;
  description: string | null;
}

export function organizationSimple(a: Account, description: string | null, urls: Urls): OrganizationSimple {
  const u = urls.api('orgs', a.login);
  return {
    login: a.login,
    id: a.id,
    node_id: encodeNodeId('Organization', a.id),
    url: u,
    repos_url: `${u}/repos`,
    events_url: `${u}/events`,
    hooks_url: `${u}/hooks`,
    issues_url: `${u}/issues`,
    members_url: `${u}/members{/member}`,
    public_members_url: `${u}/public_members{/member}`,
    avatar_url: urls.avatar(a.id),
    description,
  };
}

export interface OrganizationFull extends OrganizationSimple {
  name: string | null;
  company: string | null;
  blog: string | null;
  location: string | null;
  email: string | null;
  twitter_username: string | null;
  is_verified: boolean;
  has_organization_projects: boolean;
  has_repository_projects: boolean;
  public_repos: number;
  public_gists: number;
  followers: number;
  following: number;
  html_url: string;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
  type: 'Organization';
  members_can_delete_issues: boolean;
  members_can_fork_private_repositories: boolean;
}

/** The fields upstream shows to organization owners only. */
export interface OrganizationPrivate {
  total_private_repos: number;
  owned_private_repos: number;
  private_gists: number;
  disk_usage: number;
  collaborators: number;
  billing_email: string | null;
  plan: { name: string; space: number; private_repos: number; filled_seats: number; seats: number };
  default_repository_permission: string;
  members_can_create_repositories: boolean;
  two_factor_requirement_enabled: boolean;
  members_allowed_repository_creation_type: 'all' | 'private' | 'none';
  members_can_create_public_repositories: boolean;
  members_can_create_private_repositories: boolean;
  members_can_create_internal_repositories: boolean;
  members_can_create_pages: boolean;
  members_can_create_public_pages: boolean;
  members_can_create_private_pages: boolean;
  default_repository_branch: string;
  members_can_delete_repositories: boolean;
  members_can_change_repo_visibility: boolean;
  members_can_invite_outside_collaborators: boolean;
  deploy_keys_enabled_for_repositories: boolean;
  web_commit_signoff_required: boolean;
  advanced_security_enabled_for_new_repositories?: boolean;
}

/** A self-hosted server has no billing plan; this one states the real limits: none. */
const UNLIMITED_PLAN = { name: 'enterprise', space: 976562499, private_repos: 9999 };

/**
 * The closing-down summary of the three per-visibility switches; like upstream it
 * ignores internal repositories.
 */
export function allowedCreationType(s: OrgSettings): 'all' | 'private' | 'none' {
  if (!s.membersCanCreateRepositories) return 'none';
  if (s.membersCanCreatePublicRepositories) return 'all';
  return s.membersCanCreatePrivateRepositories ? 'private' : 'none';
}

export function organizationFull(
  org: Organization, counts: AccountCounts, urls: Urls, includePrivate: boolean, advancedSecurityForNew?: boolean, filledSeats = 0,
): OrganizationFull | (OrganizationFull & OrganizationPrivate) {
  const { account: a, settings: s } = org;
  const full: OrganizationFull = {
    ...organizationSimple(a, s.description, urls),
    name: a.name,
    company: a.company,
    blog: a.blog,
    location: a.location,
    email: a.email,
    twitter_username: a.twitterUsername,
    is_verified: false,
    has_organization_projects: s.hasOrganizationProjects,
    has_repository_projects: s.hasRepositoryProjects,
    public_repos: counts.publicRepos,
    public_gists: counts.publicGists,
    followers: counts.followers,
    following: counts.following,
    html_url: urls.html(a.login),
    created_at: a.createdAt,
    updated_at: a.updatedAt,
    archived_at: null,
    type: 'Organization',
    // Policies Wharf applies to every organization alike, with no switch (so nothing only
    // an owner should learn): no one deletes an issue — Wharf has no issue deletion, REST
    // or GraphQL (viewerCanDelete is false, issues.resolvers.ts) — and a member who can
    // read a private repository may fork it, bounded only by the repository's own
    // allow_forking (createFork, repos.forks.ts).
    members_can_delete_issues: false,
    members_can_fork_private_repositories: true,
  };
  if (!includePrivate) return full;
  return {
    ...full,
    total_private_repos: counts.totalPrivateRepos,
    owned_private_repos: counts.ownedPrivateRepos,
    private_gists: counts.privateGists,
    disk_usage: counts.diskUsage,
    collaborators: counts.collaborators,
    billing_email: s.billingEmail,
    // Seats in use are the active members. Wharf sells and caps no seats, so the
    // organization has just the seats its members fill: seats equals filled_seats.
    plan: { ...UNLIMITED_PLAN, filled_seats: filledSeats, seats: filledSeats },
    default_repository_permission: s.defaultRepositoryPermission,
    members_can_create_repositories: s.membersCanCreateRepositories,
    two_factor_requirement_enabled: false,
    members_allowed_repository_creation_type: allowedCreationType(s),
    members_can_create_public_repositories: s.membersCanCreatePublicRepositories,
    members_can_create_private_repositories: s.membersCanCreatePrivateRepositories,
    members_can_create_internal_repositories: s.membersCanCreateInternalRepositories,
    // Wharf serves no Pages sites, so no member can create one.
    members_can_create_pages: false,
    members_can_create_public_pages: false,
    members_can_create_private_pages: false,
    // Wharf has no switches for these; the values say what it always does. New repositories
    // start on main; a member with admin on a repository may delete it, change its
    // visibility and add outside collaborators to it; any repository may have deploy keys.
    default_repository_branch: NEW_REPOSITORY_BRANCH,
    members_can_delete_repositories: true,
    members_can_change_repo_visibility: true,
    members_can_invite_outside_collaborators: true,
    deploy_keys_enabled_for_repositories: true,
    web_commit_signoff_required: s.webCommitSignoffRequired,
    ...(advancedSecurityForNew === undefined ? {} : { advanced_security_enabled_for_new_repositories: advancedSecurityForNew }),
  };
}

export interface OrgMembershipRecord {
  url: string;
  state: string;
  role: string;
  organization_url: string;
  organization: OrganizationSimple;
  user: SimpleUser;
  direct_membership: boolean;
}

export function orgMembership(m: Membership, org: Organization, user: Account, urls: Urls): OrgMembershipRecord {
  return {
    url: urls.api('orgs', org.account.login, 'memberships', user.login),
    state: m.state,
    role: m.role,
    organization_url: urls.api('orgs', org.account.login),
    organization: organizationSimple(org.account, org.settings.description, urls),
    user: simpleUser(user, urls),
    // Wharf has no enterprise teams to make anyone a member indirectly.
    direct_membership: true,
  };
}

export interface TeamSimple {
  id: number;
  node_id: string;
  url: string;
  members_url: string;
  name: string;
  description: string | null;
  permission: string;
  privacy: string;
  notification_setting: string;
  html_url: string;
  repositories_url: string;
  slug: string;
  type: 'organization';
  organization_id: number;
}

export interface TeamPermissions {
  pull: boolean;
  triage: boolean;
  push: boolean;
  maintain: boolean;
  admin: boolean;
}

export interface TeamRecord extends TeamSimple {
  permissions: TeamPermissions;
  parent: TeamSimple | null;
}

export interface TeamFull extends TeamRecord {
  members_count: number;
  repos_count: number;
  created_at: string;
  updated_at: string;
  organization: OrganizationFull;
}

export function teamUrl(t: Team, urls: Urls): string {
  return urls.api('organizations', t.orgId, 'team', t.id);
}

export function teamSimple(t: Team, orgLogin: string, urls: Urls): TeamSimple {
  const u = teamUrl(t, urls);
  return {
    id: t.id,
    node_id: encodeNodeId('Team', t.id),
    url: u,
    members_url: `${u}/members{/member}`,
    name: t.name,
    description: t.description,
    permission: t.permission,
    privacy: t.privacy,
    notification_setting: t.notificationSetting,
    html_url: urls.html('orgs', orgLogin, 'teams', t.slug),
    repositories_url: `${u}/repos`,
    slug: t.slug,
    type: 'organization',
    organization_id: t.orgId,
  };
}

function permissionsOf(t: Team): TeamPermissions {
  const push = t.permission === 'push' || t.permission === 'admin';
  const admin = t.permission === 'admin';
  return { pull: true, triage: push, push, maintain: admin, admin };
}

/** A team with its parent, as lists show it; `parent` is the team's parent when it has one. */
export function team(t: Team, parent: Team | null, orgLogin: string, urls: Urls): TeamRecord {
  return {
    ...teamSimple(t, orgLogin, urls),
    permissions: permissionsOf(t),
    parent: parent ? teamSimple(parent, orgLogin, urls) : null,
  };
}

export interface TeamFullInput {
  team: Team;
  parent: Team | null;
  org: Organization;
  orgCounts: AccountCounts;
  membersCount: number;
  reposCount: number;
}

export function teamFull(x: TeamFullInput, urls: Urls): TeamFull {
  return {
    ...team(x.team, x.parent, x.org.account.login, urls),
    members_count: x.membersCount,
    repos_count: x.reposCount,
    created_at: x.team.createdAt,
    updated_at: x.team.updatedAt,
    organization: organizationFull(x.org, x.orgCounts, urls, false),
  };
}

export interface TeamMembershipRecord {
  url: string;
  role: TeamRole;
  state: string;
}

export function teamMembership(t: Team, user: Account, role: TeamRole, urls: Urls): TeamMembershipRecord {
  return { url: `${teamUrl(t, urls)}/memberships/${encodeURIComponent(user.login)}`, role, state: 'active' };
}

export interface TeamMemberRecord extends SimpleUser {
  role: TeamRole;
  /** True when the membership comes from a child team. */
  inherited: boolean;
}

export function teamMember(user: Account, role: TeamRole, inherited: boolean, urls: Urls): TeamMemberRecord {
  return { ...simpleUser(user, urls), role, inherited };
}

/** Upstream's role name of a base repository role (pull is read, push is write). */
export function roleName(role: Role): string {
  return role === 'pull' ? 'read' : role === 'push' ? 'write' : role;
}

/** A team as a repository's team list shows it: `permission(s)` are the team's on that repository. */
export function repositoryTeam(t: Team, parent: Team | null, orgLogin: string, permission: string, urls: Urls): TeamRecord {
  const role = baseRole(permission);
  return { ...team(t, parent, orgLogin, urls), permission: role, permissions: repoPermissionsOf(role) };
}
