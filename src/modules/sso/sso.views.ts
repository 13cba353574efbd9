// Organization SSO records → API representations.
import type { Urls } from '../../urls.ts';
import type { CredentialAuthorization as Authorization, OrgSso } from './sso.model.ts';
import type { CredentialAuthorization, SsoConfiguration } from './sso.schemas.ts';

export function ssoConfiguration(urls: Urls, sso: OrgSso): SsoConfiguration {
  const login = sso.org.account.login;
  const s = sso.settings;
  return {
    enabled: s !== null,
    idp_entity_id: s?.idpEntityId ?? null,
    sso_url: s?.idpSsoUrl ?? null,
    certificate_fingerprint: s?.certificateFingerprint ?? null,
    sp_entity_id: urls.api('orgs', login),
    acs_url: urls.api('orgs', login, 'saml', 'consume'),
    metadata_url: urls.api('orgs', login, 'sso', 'metadata'),
    login_url: urls.api('orgs', login, 'sso'),
    created_at: s?.createdAt ?? null,
    updated_at: s?.updatedAt ?? null,
  };
}

/** Upstream's credential types for Wharf's token kinds. */
function credentialType(kind: string): string {
  return kind === 'oauth' ? 'OAuth app token' : 'personal access token';
}

export function credentialAuthorization(a: Authorization): CredentialAuthorization {
  return {
    login: a.login,
    credential_id: a.id,
    credential_type: credentialType(a.kind),
    token_last_eight: a.tokenLastEight,
    credential_authorized_at: a.authorizedAt,
    scopes: a.scopes,
    credential_accessed_at: a.lastUsedAt,
    authorized_credential_id: a.tokenId,
    authorized_credential_note: a.note,
    authorized_credential_expires_at: a.expiresAt,
  };
}
