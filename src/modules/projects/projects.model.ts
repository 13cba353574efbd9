// Classic projects (boards), their columns and cards, as the domain sees them.
import type { Organization } from '../orgs/orgs.model.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { Account } from '../users/users.model.ts';

export const PROJECT_STATES = ['open', 'closed'] as const;
export type ProjectState = (typeof PROJECT_STATES)[number];

/** What a person may do on a project, weakest first. */
export const PROJECT_PERMISSIONS = ['read', 'write', 'admin'] as const;
export type ProjectPermission = (typeof PROJECT_PERMISSIONS)[number];
/** An organization project's base permission for members: one of the above, or none. */
export const ORGANIZATION_PERMISSIONS = ['read', 'write', 'admin', 'none'] as const;
export type OrganizationPermission = (typeof ORGANIZATION_PERMISSIONS)[number];

export type ProjectOwnerType = 'Organization' | 'Repository' | 'User';

export interface Project {
  id: number;
  ownerType: ProjectOwnerType;
  accountId: number | null;
  repositoryId: number | null;
  number: number;
  name: string;
  body: string | null;
  state: ProjectState;
  organizationPermission: OrganizationPermission | null;
  private: boolean;
  creatorId: number | null;
  createdAt: string;
  updatedAt: string;
}

/** The owner a project belongs to, loaded: the views build owner_url and html_url from it. */
export type ProjectOwner =
  | { type: 'Organization'; org: Organization }
  | { type: 'Repository'; repo: Repo }
  | { type: 'User'; account: Account };

export interface ProjectRecord {
  project: Project;
  owner: ProjectOwner;
}

export interface ProjectColumn {
  id: number;
  projectId: number;
  name: string;
  position: number;
  createdAt: string;
  updatedAt: string;
}

export interface ProjectCard {
  id: number;
  projectId: number;
  columnId: number;
  position: number;
  note: string | null;
  issueId: number | null;
  archived: boolean;
  creatorId: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface ProjectCollaborator {
  projectId: number;
  userId: number;
  permission: ProjectPermission;
}

/** The stronger of two permissions (null: none). */
export function strongerPermission(a: ProjectPermission | null, b: ProjectPermission | null): ProjectPermission | null {
  if (a === null) return b;
  if (b === null) return a;
  return PROJECT_PERMISSIONS.indexOf(a) >= PROJECT_PERMISSIONS.indexOf(b) ? a : b;
}

export function permissionAtLeast(have: ProjectPermission | null, needed: ProjectPermission): boolean {
  return have !== null && PROJECT_PERMISSIONS.indexOf(have) >= PROJECT_PERMISSIONS.indexOf(needed);
}
