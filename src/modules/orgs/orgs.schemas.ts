// Request and response schemas of the organization, membership and team routes.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../http/schema-types.ts';
import { RepoPermissions, Repository } from '../repos/repos.schemas.ts';
import { SimpleUser } from '../users/users.schemas.ts';

// Parameters

export const OrgParams = Type.Object({ org: Type.String() });
export const OrgUserParams = Type.Object({ org: Type.String(), username: Type.String() });
export const TeamParams = Type.Object({ org: Type.String(), team_slug: Type.String() });
export const TeamUserParams = Type.Object({ org: Type.String(), team_slug: Type.String(), username: Type.String() });
export const TeamIdParams = Type.Object({ org_id: Type.Integer(), team_id: Type.Integer() });
export const TeamIdUserParams = Type.Object({ org_id: Type.Integer(), team_id: Type.Integer(), username: Type.String() });

/** page and per_page as text: out-of-range values fall back to the defaults (pageOf), as upstream. */
const PageProps = {
  per_page: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
};

export const PageQuery = Type.Object(PageProps);

export const ListMembersQuery = Type.Object({
  filter: Type.Optional(StringEnum(['2fa_disabled', '2fa_insecure', 'all'] as const)),
  role: Type.Optional(StringEnum(['all', 'admin', 'member'] as const)),
  ...PageProps,
});
export type ListMembersQuery = Static<typeof ListMembersQuery>;

export const ListMembershipsQuery = Type.Object({
  state: Type.Optional(StringEnum(['active', 'pending'] as const)),
  ...PageProps,
});

export const ListTeamMembersQuery = Type.Object({
  role: Type.Optional(StringEnum(['member', 'maintainer', 'all'] as const)),
  ...PageProps,
});

// Bodies

const text = (maxLength = 255) => Type.Optional(Nullable(Type.String({ maxLength })));

export const UpdateOrgBody = Type.Object({
  billing_email: text(),
  company: text(),
  email: text(),
  twitter_username: Type.Optional(Nullable(Type.String({ maxLength: 15, pattern: '^[A-Za-z0-9_]*$' }))),
  location: text(),
  name: text(),
  description: text(160),
  blog: text(),
  has_organization_projects: Type.Optional(Type.Boolean()),
  has_repository_projects: Type.Optional(Type.Boolean()),
  default_repository_permission: Type.Optional(StringEnum(['read', 'write', 'admin', 'none'] as const)),
  members_can_create_repositories: Type.Optional(Type.Boolean()),
  members_can_create_internal_repositories: Type.Optional(Type.Boolean()),
  members_can_create_private_repositories: Type.Optional(Type.Boolean()),
  members_can_create_public_repositories: Type.Optional(Type.Boolean()),
  members_allowed_repository_creation_type: Type.Optional(StringEnum(['all', 'private', 'none'] as const)),
  web_commit_signoff_required: Type.Optional(Type.Boolean()),
  advanced_security_enabled_for_new_repositories: Type.Optional(Type.Boolean()),
});
export type UpdateOrgBody = Static<typeof UpdateOrgBody>;

export const SetMembershipBody = Type.Object({
  role: Type.Optional(StringEnum(['admin', 'member'] as const, { default: 'member' })),
});

export const UpdateOwnMembershipBody = Type.Object({
  state: StringEnum(['active'] as const),
});

const TeamPrivacy = StringEnum(['secret', 'closed'] as const);
const NotificationSetting = StringEnum(['notifications_enabled', 'notifications_disabled'] as const);

export const CreateTeamBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  description: Type.Optional(Nullable(Type.String())),
  maintainers: Type.Optional(Type.Array(Type.String())),
  repo_names: Type.Optional(Type.Array(Type.String())),
  privacy: Type.Optional(TeamPrivacy),
  notification_setting: Type.Optional(NotificationSetting),
  permission: Type.Optional(StringEnum(['pull', 'push'] as const)),
  parent_team_id: Type.Optional(Nullable(Type.Integer())),
  parent_team_slug: Type.Optional(Nullable(Type.String())),
});
export type CreateTeamBody = Static<typeof CreateTeamBody>;

export const UpdateTeamBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  description: Type.Optional(Nullable(Type.String())),
  privacy: Type.Optional(TeamPrivacy),
  notification_setting: Type.Optional(NotificationSetting),
  permission: Type.Optional(StringEnum(['pull', 'push', 'admin'] as const)),
  parent_team_id: Type.Optional(Nullable(Type.Integer())),
  parent_team_slug: Type.Optional(Nullable(Type.String())),
});
export type UpdateTeamBody = Static<typeof UpdateTeamBody>;

export const SetTeamMembershipBody = Type.Object({
  role: Type.Optional(StringEnum(['member', 'maintainer'] as const, { default: 'member' })),
});

// Responses

const OrganizationSimpleProps = {
  login: Type.String(),
  id: Type.Integer(),
  node_id: Type.String(),
  url: Type.String(),
  repos_url: Type.String(),
  events_url: Type.String(),
  hooks_url: Type.String(),
  issues_url: Type.String(),
  members_url: Type.String(),
  public_members_url: Type.String(),
  avatar_url: Type.String(),
  description: Nullable(Type.String()),
};

export const OrganizationSimple = Type.Object(OrganizationSimpleProps);

const OrganizationPublicProps = {
  ...OrganizationSimpleProps,
  name: Nullable(Type.String()),
  company: Nullable(Type.String()),
  blog: Nullable(Type.String()),
  location: Nullable(Type.String()),
  email: Nullable(Type.String()),
  twitter_username: Nullable(Type.String()),
  is_verified: Type.Boolean(),
  has_organization_projects: Type.Boolean(),
  has_repository_projects: Type.Boolean(),
  public_repos: Type.Integer(),
  public_gists: Type.Integer(),
  followers: Type.Integer(),
  following: Type.Integer(),
  html_url: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
  archived_at: Nullable(Type.String()),
  type: Type.String(),
  members_can_delete_issues: Type.Boolean(),
  members_can_fork_private_repositories: Type.Boolean(),
};

/** The organization-full record; the owner-only fields are present for owners only. */
export const OrganizationFull = Type.Object({
  ...OrganizationPublicProps,
  total_private_repos: Type.Optional(Type.Integer()),
  owned_private_repos: Type.Optional(Type.Integer()),
  private_gists: Type.Optional(Type.Integer()),
  disk_usage: Type.Optional(Type.Integer()),
  collaborators: Type.Optional(Type.Integer()),
  billing_email: Type.Optional(Nullable(Type.String())),
  plan: Type.Optional(Type.Object({
    name: Type.String(),
    space: Type.Integer(),
    private_repos: Type.Integer(),
    filled_seats: Type.Integer(),
    seats: Type.Integer(),
  })),
  default_repository_permission: Type.Optional(Type.String()),
  members_can_create_repositories: Type.Optional(Type.Boolean()),
  two_factor_requirement_enabled: Type.Optional(Type.Boolean()),
  members_allowed_repository_creation_type: Type.Optional(Type.String()),
  members_can_create_public_repositories: Type.Optional(Type.Boolean()),
  members_can_create_private_repositories: Type.Optional(Type.Boolean()),
  members_can_create_internal_repositories: Type.Optional(Type.Boolean()),
  members_can_create_pages: Type.Optional(Type.Boolean()),
  members_can_create_public_pages: Type.Optional(Type.Boolean()),
  members_can_create_private_pages: Type.Optional(Type.Boolean()),
  default_repository_branch: Type.Optional(Nullable(Type.String())),
  members_can_delete_repositories: Type.Optional(Type.Boolean()),
  members_can_change_repo_visibility: Type.Optional(Type.Boolean()),
  members_can_invite_outside_collaborators: Type.Optional(Type.Boolean()),
  deploy_keys_enabled_for_repositories: Type.Optional(Type.Boolean()),
  web_commit_signoff_required: Type.Optional(Type.Boolean()),
  advanced_security_enabled_for_new_repositories: Type.Optional(Type.Boolean()),
});

export const OrgMembership = Type.Object({
  url: Type.String(),
  state: Type.String(),
  role: Type.String(),
  organization_url: Type.String(),
  organization: OrganizationSimple,
  user: SimpleUser,
  direct_membership: Type.Boolean(),
});

const TeamSimpleProps = {
  id: Type.Integer(),
  node_id: Type.String(),
  url: Type.String(),
  members_url: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  permission: Type.String(),
  privacy: Type.String(),
  notification_setting: Type.String(),
  html_url: Type.String(),
  repositories_url: Type.String(),
  slug: Type.String(),
  type: Type.String(),
  organization_id: Type.Integer(),
};

export const TeamSimple = Type.Object(TeamSimpleProps);

const TeamProps = {
  ...TeamSimpleProps,
  permissions: Type.Object({
    pull: Type.Boolean(),
    triage: Type.Boolean(),
    push: Type.Boolean(),
    maintain: Type.Boolean(),
    admin: Type.Boolean(),
  }),
  parent: Nullable(TeamSimple),
};

export const Team = Type.Object(TeamProps);

export const TeamFull = Type.Object({
  ...TeamProps,
  members_count: Type.Integer(),
  repos_count: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
  organization: Type.Object(OrganizationPublicProps),
});

export const TeamMembership = Type.Object({
  url: Type.String(),
  role: Type.String(),
  state: Type.String(),
});

export const TeamMember = Type.Object({
  ...SimpleUser.properties,
  role: Type.String(),
  inherited: Type.Boolean(),
});

/** A route's `acceptedScopes` from one of the orgs SCOPES lists. */
export const scopes = (s: readonly string[]) => [...s];

// Team repositories

export const TeamRepoParams = Type.Object({ org: Type.String(), team_slug: Type.String(), owner: Type.String(), repo: Type.String() });
export const TeamIdRepoParams = Type.Object({ org_id: Type.Integer(), team_id: Type.Integer(), owner: Type.String(), repo: Type.String() });

/** Upstream's five base roles a team may be granted (custom repository roles are not taken here). */
export const SetTeamRepoBody = Type.Object({
  permission: Type.Optional(StringEnum(['pull', 'triage', 'push', 'maintain', 'admin'] as const)),
});

/** Upstream's team-repository: a repository with the team's permissions on it and their role name. */
export const TeamRepository = Type.Object({
  ...Repository.properties,
  permissions: RepoPermissions,
  role_name: Type.String(),
});
