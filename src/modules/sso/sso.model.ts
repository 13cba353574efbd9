// SAML single sign-on of an organization as the domain sees it.
import type { Organization } from '../orgs/orgs.model.ts';

export interface SsoSettings {
  idpEntityId: string;
  idpSsoUrl: string;
  /** PEM of the identity provider's signing certificate. */
  idpCertificate: string;
  /** SHA-256 fingerprint of that certificate, as colon-separated hex. */
  certificateFingerprint: string;
  createdAt: string;
  updatedAt: string;
}

export interface OrgSso {
  org: Organization;
  /** Null when the organization does not use SAML single sign-on. */
  settings: SsoSettings | null;
}

/** A token's authorization for an organization's SSO (GET /orgs/{org}/credential-authorizations). */
export interface CredentialAuthorization {
  id: number;
  login: string;
  tokenId: number;
  tokenLastEight: string;
  scopes: string[];
  note: string | null;
  kind: string;
  authorizedAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
}

/** What the sso module asks of SCIM provisioning at sign-in (provided by the scim module). */
export type ProvisionedLink = 'linked' | 'none' | 'taken';
