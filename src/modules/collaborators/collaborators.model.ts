// Collaborators, repository invitations and custom repository roles as the domain sees them.
import type { Role } from '../repos/repos.model.ts';
import type { Account } from '../users/users.model.ts';

/** Upstream's names of the five repository roles (role_name, invitation `permissions`). */
export const ROLE_NAME: Record<Role, string> = { pull: 'read', triage: 'triage', push: 'write', maintain: 'maintain', admin: 'admin' };

/** Role names as upstream writes them → the role. */
export const ROLE_BY_NAME: Record<string, Role> = { read: 'pull', triage: 'triage', write: 'push', maintain: 'maintain', admin: 'admin' };

/** The organization's base permission for members → the role it gives (none: no role). */
export const ORG_BASE_ROLE: Record<string, Role | null> = { read: 'pull', write: 'push', admin: 'admin', none: null };

/** The legacy permission of get-collaborator-permission-level: maintain reads as write, triage as read. */
export type LegacyPermission = 'admin' | 'write' | 'read' | 'none';

export function legacyPermission(role: Role | null): LegacyPermission {
  if (role === null) return 'none';
  if (role === 'admin') return 'admin';
  return role === 'push' || role === 'maintain' ? 'write' : 'read';
}

/** Base roles a custom role may inherit from (upstream: not admin). */
export const CUSTOM_BASE_ROLES = ['read', 'triage', 'write', 'maintain'] as const;
export type CustomBaseRole = (typeof CUSTOM_BASE_ROLES)[number];

export interface CustomRole {
  id: number;
  orgId: number;
  name: string;
  description: string | null;
  baseRole: CustomBaseRole;
  permissions: string[];
  createdAt: string;
  updatedAt: string;
}

/** A role to grant: one of the five, or a custom role (with the base role it inherits). */
export interface GrantedRole {
  role: Role;
  custom: { id: number; name: string } | null;
}

export function grantedRoleName(g: GrantedRole): string {
  return g.custom?.name ?? ROLE_NAME[g.role];
}

/** An explicit collaborator row. */
export interface Collaboration {
  repositoryId: number;
  userId: number;
  role: Role;
  customRoleId: number | null;
  customRoleName: string | null;
  createdAt: string;
}

/** What one user has on a repository, all sources of access considered. */
export interface Grant {
  userId: number;
  role: Role;
  /** The strongest role's name; a custom role's name when that is what grants it. */
  roleName: string;
  /** The repository's owner or an explicit collaborator. */
  direct: boolean;
  /** An active member of the owning organization. */
  orgMember: boolean;
}

export interface InvitationRecord {
  id: number;
  repositoryId: number;
  inviteeId: number;
  inviterId: number;
  role: Role;
  customRoleId: number | null;
  customRoleName: string | null;
  createdAt: string;
}

/** Invitations expire after seven days, as upstream's do. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** At most this many invitations per repository per window (the spec's Limits row). */
export const INVITATION_LIMIT = 50;
export const INVITATION_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface CollaboratorEntry {
  user: Account;
  grant: Grant;
}
