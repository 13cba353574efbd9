// Request and response schemas of the SSH key and deploy key routes.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, PagedArray } from '../../http/schema-types.ts';

export const KeyIdParams = Type.Object({ key_id: Type.Integer() });
export const RepoKeyParams = Type.Object({ owner: Type.String(), repo: Type.String(), key_id: Type.Integer() });
export const RepoParams = Type.Object({ owner: Type.String(), repo: Type.String() });
export const UsernameParams = Type.Object({ username: Type.String() });
export const UserKeysFileParams = Type.Object({ user: Type.String() });

export const ListKeysQuery = Type.Object({
  per_page: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
});

export const CreateKeyBody = Type.Object({
  title: Type.Optional(Type.String({ maxLength: 1024 })),
  key: Type.String({ minLength: 1, maxLength: 16384 }),
});
export type CreateKeyBody = Static<typeof CreateKeyBody>;

export const CreateDeployKeyBody = Type.Object({
  title: Type.Optional(Type.String({ maxLength: 1024 })),
  key: Type.String({ minLength: 1, maxLength: 16384 }),
  read_only: Type.Optional(Type.Boolean()),
});
export type CreateDeployKeyBody = Static<typeof CreateDeployKeyBody>;

export const OwnKey = Type.Object({
  key: Type.String(),
  id: Type.Integer(),
  url: Type.String(),
  title: Type.String(),
  created_at: Type.String(),
  verified: Type.Boolean(),
  read_only: Type.Boolean(),
  last_used: Nullable(Type.String()),
});
export const OwnKeyList = PagedArray(OwnKey);

export const SimpleKey = Type.Object({ id: Type.Integer(), key: Type.String(), created_at: Type.String(), last_used: Nullable(Type.String()) });
export const SimpleKeyList = PagedArray(SimpleKey);

export const DeployKey = Type.Object({
  id: Type.Integer(),
  key: Type.String(),
  url: Type.String(),
  title: Type.String(),
  verified: Type.Boolean(),
  created_at: Type.String(),
  read_only: Type.Boolean(),
  added_by: Nullable(Type.String()),
  last_used: Nullable(Type.String()),
  enabled: Type.Boolean(),
});
export const DeployKeyList = PagedArray(DeployKey);

// ---------------------------------------------------------------- settings page forms
// Fields are optional strings: a missing one gets the form back with its message.

/** An SSH or GPG key pasted as text, with its title (SSH) or name (GPG). */
export const KeyPageForm = Type.Object({
  authenticity_token: Type.Optional(Type.String({ maxLength: 4096 })),
  title: Type.Optional(Type.String({ maxLength: 4096 })),
  key: Type.Optional(Type.String({ maxLength: 64 * 1024 })),
});

export const PageCsrfForm = Type.Object({ authenticity_token: Type.Optional(Type.String({ maxLength: 4096 })) });

export const PageKeyIdParams = Type.Object({ id: Type.String({ pattern: '^[0-9]{1,15}$' }) });
