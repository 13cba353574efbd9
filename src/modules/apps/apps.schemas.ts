// Request and response schemas of apps: the app record, the manifest conversion, the
// settings and manifest forms.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../http/schema-types.ts';
import { SimpleUser } from '../users/users.schemas.ts';

const Permissions = Type.Record(Type.String(), Type.String());

const AppProps = {
  id: Type.Integer(),
  slug: Type.String(),
  node_id: Type.String(),
  client_id: Type.String(),
  owner: Nullable(SimpleUser),
  name: Type.String(),
  description: Nullable(Type.String()),
  external_url: Type.String(),
  html_url: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
  permissions: Permissions,
  events: Type.Array(Type.String()),
  installations_count: Type.Integer(),
};

export const AppRecord = Type.Object(AppProps);

export const AppWithCredentials = Type.Object({
  ...AppProps,
  client_secret: Type.String(),
  webhook_secret: Nullable(Type.String()),
  pem: Type.String(),
});

export const SlugParams = Type.Object({ app_slug: Type.String({ maxLength: 100 }) });
export const CodeParams = Type.Object({ code: Type.String({ maxLength: 200 }) });

/** Form fields are optional strings: a missing one gets the page back with its message. */
const Field = Type.Optional(Type.String({ maxLength: 65536 }));

export const ManifestForm = Type.Object({ manifest: Field, state: Field, authenticity_token: Field, confirm: Field });
export type ManifestForm = Static<typeof ManifestForm>;

export const OrgParams = Type.Object({ org: Type.String({ maxLength: 100 }) });
export const SlugForm = Type.Object({ authenticity_token: Field });
export const KeyParams = Type.Object({ app_slug: Type.String({ maxLength: 100 }), key_id: Type.String({ pattern: '^[0-9]{1,15}$' }) });
