// Bodies of the site-admin routes (enterprise server admin API).
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../http/schema-types.ts';
import { SimpleUser } from '../users/users.schemas.ts';

export const CreateUserBody = Type.Object({
  login: Type.String(),
  email: Type.Optional(Type.String()),
  suspended: Type.Optional(Type.Boolean()),
});
export type CreateUserBody = Static<typeof CreateUserBody>;

export const RenameBody = Type.Object({ login: Type.String() });
export type RenameBody = Static<typeof RenameBody>;

export const CreateOrganizationBody = Type.Object({
  login: Type.String(),
  admin: Type.String(),
  profile_name: Type.Optional(Type.String()),
});
export type CreateOrganizationBody = Static<typeof CreateOrganizationBody>;

export const CreateAuthorizationBody = Type.Object({
  scopes: Type.Optional(Type.Array(Type.String())),
});

export const SuspendBody = Type.Object({ reason: Type.Optional(Type.String()) });

export const Authorization = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  scopes: Type.Array(Type.String()),
  token: Type.String(),
  token_last_eight: Nullable(Type.String()),
  hashed_token: Nullable(Type.String()),
  app: Type.Object({ client_id: Type.String(), name: Type.String(), url: Type.String() }),
  note: Nullable(Type.String()),
  note_url: Nullable(Type.String()),
  updated_at: Type.String(),
  created_at: Type.String(),
  fingerprint: Nullable(Type.String()),
  user: Nullable(SimpleUser),
  installation: Type.Null(),
  expires_at: Nullable(Type.String()),
});

export const Accepted = Type.Object({ message: Type.String(), url: Type.String() });
