// Request and response schemas of the OAuth area: settings forms, the site-admin
// listing, the flows' token endpoint and device codes, /applications/{client_id}/….
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../http/schema-types.ts';
import { SimpleUser } from '../users/users.schemas.ts';

/** Form fields are optional strings: a missing one gets the form back with its message. */
const Field = Type.Optional(Type.String({ maxLength: 8192 }));

export const AppForm = Type.Object({
  authenticity_token: Field, owner: Field, name: Field, url: Field, callback_url: Field, description: Field,
});
export type AppForm = Static<typeof AppForm>;

export const CsrfForm = Type.Object({ authenticity_token: Field });

export const AppIdParams = Type.Object({ id: Type.String({ pattern: '^[0-9]{1,15}$' }) });

export const OauthAppRecord = Type.Object({
  id: Type.Integer(),
  client_id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  url: Nullable(Type.String()),
  callback_url: Nullable(Type.String()),
  owner: Nullable(SimpleUser),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const AdminListQuery = Type.Object({
  since: Type.Optional(Type.Integer({ minimum: 0 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});

const Param = Type.Optional(Type.String({ maxLength: 4096 }));

export const AuthorizeQuery = Type.Object({
  client_id: Param, redirect_uri: Param, scope: Param, state: Param, login: Param, allow_signup: Param,
  code_challenge: Param, code_challenge_method: Param,
});

export const AuthorizeForm = Type.Object({
  authenticity_token: Param, authorize: Param, client_id: Param, redirect_uri: Param, scope: Param, state: Param,
  code_challenge: Param, code_challenge_method: Param,
});

/** Both grants' fields: the web flow's code exchange and the device flow's polling. */
export const AccessTokenBody = Type.Object({
  client_id: Param, client_secret: Param, code: Param, redirect_uri: Param, code_verifier: Param, grant_type: Param,
  device_code: Param, state: Param, refresh_token: Param,
});
export type AccessTokenBody = Static<typeof AccessTokenBody>;

export const ClientIdParams = Type.Object({ client_id: Type.String({ maxLength: 255 }) });
export const AccessTokenInput = Type.Object({ access_token: Type.String({ minLength: 1, maxLength: 255 }) });

export const DeviceCodeBody = Type.Object({ client_id: Param, scope: Param });
export const DeviceQuery = Type.Object({ user_code: Param });
export const DeviceForm = Type.Object({ authenticity_token: Param, user_code: Param, authorize: Param });
