// Provisioned users → SCIM representations (RFC 7643 § 4.1, RFC 7644 § 3.4.2 ListResponse).
import type { Urls } from '../../urls.ts';
import type { ScimUser, ScimUserData } from './scim.model.ts';
import { LIST_SCHEMA, USER_SCHEMA, type ScimUserListView, type ScimUserView, type UserBody } from './scim.schemas.ts';

export function scimUser(urls: Urls, orgLogin: string, u: ScimUser): ScimUserView {
  return {
    schemas: [USER_SCHEMA],
    id: u.id,
    externalId: u.externalId,
    userName: u.userName,
    displayName: u.displayName,
    name: { givenName: u.givenName, familyName: u.familyName, formatted: u.formatted },
    emails: u.emails,
    groups: u.groups,
    active: u.active,
    meta: {
      resourceType: 'User', created: u.createdAt, lastModified: u.updatedAt,
      location: urls.api('scim', 'v2', 'organizations', orgLogin, 'Users', u.id),
    },
  };
}

export function scimUserList(urls: Urls, orgLogin: string, users: readonly ScimUser[], total: number, startIndex: number): ScimUserListView {
  return { schemas: [LIST_SCHEMA], totalResults: total, itemsPerPage: users.length, startIndex, Resources: users.map((u) => scimUser(urls, orgLogin, u)) };
}

/** A POST or PUT body as the data it sets: what is omitted is empty (PUT replaces everything). */
export function userDataOf(body: UserBody): ScimUserData {
  return {
    userName: body.userName, externalId: body.externalId ?? null, displayName: body.displayName ?? null,
    givenName: body.name.givenName, familyName: body.name.familyName, formatted: body.name.formatted ?? null,
    emails: body.emails, groups: body.groups ?? [], active: body.active ?? true,
  };
}
