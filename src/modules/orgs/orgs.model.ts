// Organization settings, memberships and teams as the domain sees them.
import type { Account } from '../users/users.model.ts';

export type OrgRole = 'admin' | 'member';
export type MembershipState = 'active' | 'pending';
export type RepositoryPermission = 'read' | 'write' | 'admin' | 'none';

export interface OrgSettings {
  description: string | null;
  billingEmail: string | null;
  defaultRepositoryPermission: RepositoryPermission;
  membersCanCreateRepositories: boolean;
  membersCanCreatePublicRepositories: boolean;
  membersCanCreatePrivateRepositories: boolean;
  membersCanCreateInternalRepositories: boolean;
  hasOrganizationProjects: boolean;
  hasRepositoryProjects: boolean;
  webCommitSignoffRequired: boolean;
}

export interface Organization {
  account: Account;
  settings: OrgSettings;
}

export interface Membership {
  orgId: number;
  userId: number;
  role: OrgRole;
  state: MembershipState;
  public: boolean;
  createdAt: string;
  updatedAt: string;
}

export type TeamPrivacy = 'secret' | 'closed';
export type TeamRole = 'member' | 'maintainer';
export type TeamNotificationSetting = 'notifications_enabled' | 'notifications_disabled';
/** The permission new repositories get when added to the team (closing down upstream, still reported). */
export type TeamPermission = 'pull' | 'push' | 'admin';

export interface Team {
  id: number;
  orgId: number;
  name: string;
  slug: string;
  description: string | null;
  privacy: TeamPrivacy;
  permission: TeamPermission;
  notificationSetting: TeamNotificationSetting;
  parentId: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface TeamMember {
  teamId: number;
  userId: number;
  role: TeamRole;
  createdAt: string;
}
