// A provisioned identity (SCIM 2.0 User, RFC 7643 § 4.1) of an organization.

export interface ScimEmail { value: string; primary?: boolean; type?: string }
export interface ScimGroup { value?: string; display?: string }

/** The data a SCIM client sets (POST, PUT, and what PATCH edits). */
export interface ScimUserData {
  userName: string;
  externalId: string | null;
  displayName: string | null;
  givenName: string | null;
  familyName: string | null;
  formatted: string | null;
  emails: ScimEmail[];
  groups: ScimGroup[];
  active: boolean;
}

export interface ScimUser extends ScimUserData {
  rowId: number;
  orgId: number;
  /** The SCIM id Wharf assigned. */
  id: string;
  /** The Wharf account linked by an SSO sign-in; null while the invitation is pending. */
  userId: number | null;
  createdAt: string;
  updatedAt: string;
}

/** `filter=<attribute> eq "<value>"`: the one filter upstream supports. */
export interface ScimFilter {
  attribute: 'id' | 'userName' | 'externalId' | 'emails';
  value: string;
}
