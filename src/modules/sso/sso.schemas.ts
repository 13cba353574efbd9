// Request and response schemas of organization SAML single sign-on.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, PagedArray } from '../../http/schema-types.ts';

export const OrgParams = Type.Object({ org: Type.String() });
export const CredentialParams = Type.Object({ org: Type.String(), credential_id: Type.Integer({ minimum: 1 }) });

export const SetSsoBody = Type.Object({
  /** The identity provider's entity id (the Issuer of its responses). */
  idp_entity_id: Type.String({ minLength: 1, maxLength: 1024 }),
  /** Where AuthnRequests go (HTTP-Redirect binding). */
  sso_url: Type.String({ minLength: 1, maxLength: 2048 }),
  /** The identity provider's signing certificate: PEM, or the base64 body of its metadata's X509Certificate. */
  certificate: Type.String({ minLength: 1, maxLength: 16384 }),
});
export type SetSsoBody = Static<typeof SetSsoBody>;

export const SsoConfiguration = Type.Object({
  enabled: Type.Boolean(),
  idp_entity_id: Nullable(Type.String()),
  sso_url: Nullable(Type.String()),
  certificate_fingerprint: Nullable(Type.String()),
  /** Wharf's side, for the identity provider's configuration. */
  sp_entity_id: Type.String(),
  acs_url: Type.String(),
  metadata_url: Type.String(),
  login_url: Type.String(),
  created_at: Nullable(Type.String()),
  updated_at: Nullable(Type.String()),
});
export type SsoConfiguration = Static<typeof SsoConfiguration>;

export const CredentialsQuery = Type.Object({
  per_page: Type.Optional(Type.Integer({ minimum: 1 })),
  page: Type.Optional(Type.Integer({ minimum: 1 })),
  login: Type.Optional(Type.String({ maxLength: 255 })),
});

export const CredentialAuthorization = Type.Object({
  login: Type.String(),
  credential_id: Type.Integer(),
  credential_type: Type.String(),
  token_last_eight: Type.String(),
  credential_authorized_at: Type.String(),
  scopes: Type.Array(Type.String()),
  credential_accessed_at: Nullable(Type.String()),
  authorized_credential_id: Nullable(Type.Integer()),
  authorized_credential_note: Nullable(Type.String()),
  authorized_credential_expires_at: Nullable(Type.String()),
});
export type CredentialAuthorization = Static<typeof CredentialAuthorization>;
export const CredentialAuthorizationList = PagedArray(CredentialAuthorization);

// Browser pages: optional string fields, answered with a page when missing.
const Field = Type.Optional(Type.String({ maxLength: 4096 }));
export const SsoPageQuery = Type.Object({ authorization_request: Field, return_to: Field });
export const AcsBody = Type.Object({ SAMLResponse: Type.Optional(Type.String({ maxLength: 512 * 1024 })), RelayState: Field });
export const AuthorizeBody = Type.Object({ authenticity_token: Field, token_id: Field });
export const SettingsBody = Type.Object({ authenticity_token: Field, idp_entity_id: Field, sso_url: Field, certificate: Type.Optional(Type.String({ maxLength: 16384 })) });
