// Request and response schemas of apps: the app record, the manifest conversion, the
// settings and manifest forms.
import { Type, type Static } from '@sinclair/typebox';
import { IsoTimestamp, Nullable } from '../../http/schema-types.ts';
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

/** The settings form of an app (new, or an app's page). */
export const AppSettingsForm = Type.Object({
  authenticity_token: Field, owner: Field, name: Field, url: Field, description: Field, callback_url: Field, setup_url: Field,
  webhook_url: Field, webhook_active: Field, public: Field, permissions: Field, events: Field, user_tokens_expire: Field,
});
export type AppSettingsForm = Static<typeof AppSettingsForm>;
/** The manifest flow and the new-app form post to the same address, as upstream's. */
export const NewAppForm = Type.Composite([ManifestForm, AppSettingsForm]);
export type ManifestForm = Static<typeof ManifestForm>;

export const OrgParams = Type.Object({ org: Type.String({ maxLength: 100 }) });
export const SlugForm = Type.Object({ authenticity_token: Field });
/** Deleting an app: the name typed again. */
export const DeleteAppForm = Type.Object({ authenticity_token: Field, verify: Field });
export const KeyParams = Type.Object({ app_slug: Type.String({ maxLength: 100 }), key_id: Type.String({ pattern: '^[0-9]{1,15}$' }) });

export const InstallationRecord = Type.Object({
  id: Type.Integer(),
  account: SimpleUser,
  repository_selection: Type.String(),
  access_tokens_url: Type.String(),
  repositories_url: Type.String(),
  html_url: Type.String(),
  app_id: Type.Integer(),
  client_id: Type.String(),
  app_slug: Type.String(),
  target_id: Type.Integer(),
  target_type: Type.String(),
  permissions: Permissions,
  events: Type.Array(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
  single_file_name: Nullable(Type.String()),
  has_multiple_single_files: Type.Boolean(),
  single_file_paths: Type.Array(Type.String()),
  suspended_by: Nullable(SimpleUser),
  suspended_at: Nullable(Type.String()),
  contact_email: Type.Null(),
});

export const InstallationIdParams = Type.Object({ installation_id: Type.String({ pattern: '^[0-9]{1,15}$' }) });
export const InstallationRepoParams = Type.Object({
  installation_id: Type.String({ pattern: '^[0-9]{1,15}$' }),
  repository_id: Type.String({ pattern: '^[0-9]{1,15}$' }),
});

/** page and per_page as text: out-of-range values fall back to the defaults (pageOf), as upstream. */
const PageProps = { per_page: Type.Optional(Type.String()), page: Type.Optional(Type.String()) };
export const PageQuery = Type.Object(PageProps);
export const ListInstallationsQuery = Type.Object({
  ...PageProps,
  since: Type.Optional(IsoTimestamp),
  outdated: Type.Optional(Type.String({ maxLength: 100 })),
});

export const AccessTokenBody = Type.Object({
  repositories: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 500 })),
  repository_ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 500 })),
  permissions: Type.Optional(Type.Record(Type.String(), Type.String())),
});
export type AccessTokenBody = Static<typeof AccessTokenBody>;

/** Each selected repository is a checkbox `repo_<id>` (a form keeps one value per name). */
export const InstallForm = Type.Object({
  authenticity_token: Field,
  target: Field,
  repository_selection: Field,
}, { additionalProperties: Type.String({ maxLength: 20 }) });
export type InstallForm = Static<typeof InstallForm>;
export const InstallQuery = Type.Object({ target: Field });

export const HookConfigRecord = Type.Object({
  url: Nullable(Type.String()),
  content_type: Type.String(),
  insecure_ssl: Type.String(),
  secret: Nullable(Type.String()),
});

/** Types are checked by the service, which reports every problem as upstream's 422. */
export const HookConfigBody = Type.Object({
  url: Type.Optional(Type.Unknown()),
  content_type: Type.Optional(Type.Unknown()),
  secret: Type.Optional(Type.Unknown()),
  insecure_ssl: Type.Optional(Type.Unknown()),
});

/** POST /applications/{client_id}/token/scoped. */
export const ScopeTokenBody = Type.Object({
  access_token: Type.String({ minLength: 1, maxLength: 255 }),
  target: Type.Optional(Type.String({ maxLength: 100 })),
  target_id: Type.Optional(Type.Integer({ minimum: 1 })),
  repositories: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 500 })),
  repository_ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 500 })),
  permissions: Type.Optional(Type.Record(Type.String(), Type.String())),
});
export const ClientIdParams = Type.Object({ client_id: Type.String({ maxLength: 255 }) });

export const ScopedTokenRecord = Type.Object({
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
  installation: Type.Object({
    permissions: Permissions,
    repository_selection: Type.String(),
    single_file_name: Nullable(Type.String()),
    repositories_url: Type.String(),
    account: SimpleUser,
    has_multiple_single_files: Type.Boolean(),
    single_file_paths: Type.Array(Type.String()),
  }),
  expires_at: Nullable(Type.String()),
});
