// Table types. Booleans are stored as integers 0/1 in both dialects and
// timestamps as 'YYYY-MM-DDTHH:MM:SSZ' text, so one set of queries serves both.
import type { Generated } from 'kysely';

export type Bool = number;

export interface UsersTable {
  id: Generated<number>;
  login: string;
  login_lower: string;
  type: 'User' | 'Organization';
  name: string | null;
  company: string | null;
  blog: string | null;
  location: string | null;
  email: string | null;
  email_private: Bool;
  bio: string | null;
  twitter_username: string | null;
  hireable: Bool | null;
  site_admin: Bool;
  suspended_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface OrganizationsTable {
  id: number;
  description: string | null;
  billing_email: string | null;
  default_repository_permission: 'read' | 'write' | 'admin' | 'none';
  members_can_create_repositories: Bool;
  members_can_create_public_repositories: Bool;
  members_can_create_private_repositories: Bool;
  members_can_create_internal_repositories: Bool;
  has_organization_projects: Bool;
  has_repository_projects: Bool;
  web_commit_signoff_required: Bool;
}

export interface TokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  token_last_eight: string;
  scopes: string;
  note: string | null;
  note_url: string | null;
  kind: 'personal' | 'impersonation' | 'oauth';
  oauth_app_id: number | null;
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface OauthAppsTable {
  id: Generated<number>;
  owner_id: number;
  name: string;
  url: string | null;
  callback_url: string | null;
  client_id: string;
  client_secret_hash: string;
  created_at: string;
  updated_at: string;
}

export interface RateLimitsTable {
  bucket: string;
  reset_at: number;
  used: number;
}

export interface LoginFailuresTable {
  login_lower: string;
  window_ends_at: number;
  failures: number;
}

export interface OrgMembershipsTable {
  org_id: number;
  user_id: number;
  role: 'admin' | 'member';
  state: 'active' | 'pending';
  public: Bool;
  created_at: string;
  updated_at: string;
}

export interface TeamsTable {
  id: Generated<number>;
  org_id: number;
  name: string;
  slug: string;
  description: string | null;
  privacy: 'secret' | 'closed';
  permission: string;
  notification_setting: 'notifications_enabled' | 'notifications_disabled';
  parent_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface TeamMembersTable {
  team_id: number;
  user_id: number;
  role: 'member' | 'maintainer';
  created_at: string;
}

export interface Database {
  users: UsersTable;
  organizations: OrganizationsTable;
  tokens: TokensTable;
  oauth_apps: OauthAppsTable;
  rate_limits: RateLimitsTable;
  login_failures: LoginFailuresTable;
  org_memberships: OrgMembershipsTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
}
