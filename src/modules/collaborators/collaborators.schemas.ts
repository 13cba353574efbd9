// Request and response schemas of the collaborator, invitation and custom role routes.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../http/schema-types.ts';
import { ROLES } from '../repos/repos.model.ts';
import { Repository } from '../repos/repos.schemas.ts';
import { SimpleUser } from '../users/users.schemas.ts';
import { CUSTOM_BASE_ROLES } from './collaborators.model.ts';

// Parameters

/** A stored id: larger numbers cannot name a row (and would overflow an integer column). */
const Id = () => Type.Integer({ minimum: 0, maximum: 2_147_483_647 });

export const RepoUserParams = Type.Object({ owner: Type.String(), repo: Type.String(), username: Type.String() });
export const RepoInvitationParams = Type.Object({ owner: Type.String(), repo: Type.String(), invitation_id: Id() });
export const InvitationParams = Type.Object({ invitation_id: Id() });
export const OrgParams = Type.Object({ org: Type.String() });
export const OrgRoleParams = Type.Object({ org: Type.String(), role_id: Id() });

/** page and per_page as text: out-of-range values fall back to the defaults (pageOf), as upstream. */
const PageProps = {
  per_page: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
};

export const PageQuery = Type.Object(PageProps);

export const ListCollaboratorsQuery = Type.Object({
  affiliation: Type.Optional(StringEnum(['outside', 'direct', 'all'] as const)),
  permission: Type.Optional(StringEnum(ROLES)),
  ...PageProps,
});
export type ListCollaboratorsQuery = Static<typeof ListCollaboratorsQuery>;

// Bodies

export const AddCollaboratorBody = Type.Object({
  permission: Type.Optional(Type.String({ minLength: 1 })),
  /** The older name of `permission`, still listed by the spec. */
  permissions: Type.Optional(Type.String({ minLength: 1 })),
});
export type AddCollaboratorBody = Static<typeof AddCollaboratorBody>;

export const UpdateInvitationBody = Type.Object({
  permissions: Type.Optional(StringEnum(['read', 'write', 'maintain', 'triage', 'admin'] as const)),
});

const RoleFields = {
  name: Type.String(),
  description: Type.Optional(Nullable(Type.String())),
  base_role: StringEnum(CUSTOM_BASE_ROLES),
  permissions: Type.Array(Type.String(), { maxItems: 100 }),
};

export const CreateCustomRoleBody = Type.Object(RoleFields);
export type CreateCustomRoleBody = Static<typeof CreateCustomRoleBody>;

export const UpdateCustomRoleBody = Type.Object({
  name: Type.Optional(RoleFields.name),
  description: RoleFields.description,
  base_role: Type.Optional(RoleFields.base_role),
  permissions: Type.Optional(RoleFields.permissions),
});
export type UpdateCustomRoleBody = Static<typeof UpdateCustomRoleBody>;

// Responses

export const Collaborator = Type.Object({
  ...SimpleUser.properties,
  permissions: Type.Object({
    pull: Type.Boolean(), triage: Type.Boolean(), push: Type.Boolean(), maintain: Type.Boolean(), admin: Type.Boolean(),
  }),
  role_name: Type.String(),
});

export const PermissionLevel = Type.Object({
  permission: Type.String(),
  role_name: Type.String(),
  user: Collaborator,
});

export const CustomRole = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Nullable(Type.String()),
  base_role: Type.String(),
  permissions: Type.Array(Type.String()),
  organization: SimpleUser,
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const CustomRoleList = Type.Object({
  total_count: Type.Integer(),
  custom_roles: Type.Array(CustomRole),
});

/** A repository invitation; `repository` is the repository's record as presented to the caller. */
export const RepositoryInvitation = Type.Object({
  id: Type.Integer(),
  node_id: Type.String(),
  repository: Repository,
  invitee: Nullable(SimpleUser),
  inviter: Nullable(SimpleUser),
  permissions: Type.String(),
  created_at: Type.String(),
  expired: Type.Boolean(),
  url: Type.String(),
  html_url: Type.String(),
});
export type RepositoryInvitation = Static<typeof RepositoryInvitation>;
