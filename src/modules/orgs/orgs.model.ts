// Organization settings and memberships as the domain sees them.
import type { Account } from '../users/users.model.ts';

export type OrgRole = 'admin' | 'member';
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
  state: 'active' | 'pending';
  public: boolean;
  createdAt: string;
  updatedAt: string;
}
