// Collaborators, invitations and custom roles → API representations. Pure: the
// service loads accounts, repositories and roles first.
import { encodeNodeId } from '../../domain/node-id.ts';
import type { Urls } from '../../urls.ts';
import { roleAtLeast, type Role } from '../repos/repos.model.ts';
import type { RepositoryView } from '../repos/repos.views.ts';
import type { Account } from '../users/users.model.ts';
import { simpleUser, type SimpleUser } from '../users/users.views.ts';
import { legacyPermission, ROLE_NAME, type CustomRole, type LegacyPermission } from './collaborators.model.ts';
import type { RepositoryInvitation } from './collaborators.schemas.ts';
import type { InvitationDetail } from './collaborators.service.ts';

export interface CollaboratorView extends SimpleUser {
  permissions: { pull: boolean; triage: boolean; push: boolean; maintain: boolean; admin: boolean };
  role_name: string;
}

export function collaborator(user: Account, role: Role | null, roleName: string, urls: Urls): CollaboratorView {
  return {
    ...simpleUser(user, urls),
    permissions: {
      pull: roleAtLeast(role, 'pull'),
      triage: roleAtLeast(role, 'triage'),
      push: roleAtLeast(role, 'push'),
      maintain: roleAtLeast(role, 'maintain'),
      admin: roleAtLeast(role, 'admin'),
    },
    role_name: roleName,
  };
}

export interface PermissionLevelView {
  permission: LegacyPermission;
  role_name: string;
  user: CollaboratorView;
}

export function permissionLevel(user: Account, role: Role | null, roleName: string, urls: Urls): PermissionLevelView {
  return { permission: legacyPermission(role), role_name: roleName, user: collaborator(user, role, roleName, urls) };
}

/** A repository invitation; `repository` is the repository's record as presented to the caller. */
export function invitation(d: InvitationDetail, repository: RepositoryView, urls: Urls): RepositoryInvitation {
  const i = d.invitation;
  const { owner } = d.repo.repo;
  return {
    id: i.id,
    node_id: encodeNodeId('RepositoryInvitation', i.id),
    repository,
    invitee: d.invitee ? simpleUser(d.invitee, urls) : null,
    inviter: d.inviter ? simpleUser(d.inviter, urls) : null,
    // Upstream's enum has only the five role names: a custom role shows its base role.
    permissions: ROLE_NAME[i.role],
    created_at: i.createdAt,
    expired: d.expired,
    url: urls.api('user', 'repository_invitations', i.id),
    html_url: `${urls.html(owner.login, d.repo.repo.name)}/invitations`,
  };
}

export function customRole(r: CustomRole, org: Account, urls: Urls) {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    base_role: r.baseRole,
    permissions: r.permissions,
    organization: simpleUser(org, urls),
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}

export function customRoleList(roles: CustomRole[], org: Account, urls: Urls) {
  return { total_count: roles.length, custom_roles: roles.map((r) => customRole(r, org, urls)) };
}
