// SCIM 2.0 request and response schemas (RFC 7643 User, RFC 7644 messages), with the
// fields upstream's /scim/v2/organizations/{org}/Users takes.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../http/schema-types.ts';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

const Text = (max = 1024) => Type.String({ maxLength: max });

export const OrgParams = Type.Object({ org: Type.String() });
export const UserParams = Type.Object({ org: Type.String(), scim_user_id: Type.String({ maxLength: 64 }) });

export const ListQuery = Type.Object({
  startIndex: Type.Optional(Type.Integer()),
  count: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
  filter: Type.Optional(Text()),
});

const Email = Type.Object({ value: Type.String({ minLength: 1, maxLength: 1024 }), primary: Type.Optional(Type.Boolean()), type: Type.Optional(Text(64)) });
const Group = Type.Object({ value: Type.Optional(Text()), display: Type.Optional(Text()) });

export const UserBody = Type.Object({
  schemas: Type.Optional(Type.Array(Text(), { maxItems: 10 })),
  userName: Type.String({ minLength: 1, maxLength: 1024 }),
  displayName: Type.Optional(Text()),
  name: Type.Object({ givenName: Text(), familyName: Text(), formatted: Type.Optional(Text()) }),
  emails: Type.Array(Email, { minItems: 1, maxItems: 20 }),
  externalId: Type.Optional(Text()),
  groups: Type.Optional(Type.Array(Group, { maxItems: 100 })),
  active: Type.Optional(Type.Boolean()),
});
export type UserBody = Static<typeof UserBody>;

const Operation = Type.Object({
  op: Type.String({ maxLength: 16 }),
  path: Type.Optional(Text()),
  value: Type.Optional(Type.Unknown()),
});
/** RFC 7644 names the list `Operations`; upstream's description writes `operations`: both are taken. */
export const PatchBody = Type.Object({
  schemas: Type.Optional(Type.Array(Text(), { maxItems: 10 })),
  Operations: Type.Optional(Type.Array(Operation, { minItems: 1, maxItems: 100 })),
  operations: Type.Optional(Type.Array(Operation, { minItems: 1, maxItems: 100 })),
});
export type PatchBody = Static<typeof PatchBody>;

export const ScimUser = Type.Object({
  schemas: Type.Array(Type.String()),
  id: Type.String(),
  externalId: Nullable(Type.String()),
  userName: Type.String(),
  displayName: Nullable(Type.String()),
  name: Type.Object({ givenName: Nullable(Type.String()), familyName: Nullable(Type.String()), formatted: Nullable(Type.String()) }),
  emails: Type.Array(Type.Object({ value: Type.String(), primary: Type.Optional(Type.Boolean()), type: Type.Optional(Type.String()) })),
  groups: Type.Array(Type.Object({ value: Type.Optional(Type.String()), display: Type.Optional(Type.String()) })),
  active: Type.Boolean(),
  meta: Type.Object({ resourceType: Type.String(), created: Type.String(), lastModified: Type.String(), location: Type.String() }),
});
export type ScimUserView = Static<typeof ScimUser>;

export const ScimUserList = Type.Object({
  schemas: Type.Array(Type.String()),
  totalResults: Type.Integer(),
  itemsPerPage: Type.Integer(),
  startIndex: Type.Integer(),
  Resources: Type.Array(ScimUser),
});
export type ScimUserListView = Static<typeof ScimUserList>;
