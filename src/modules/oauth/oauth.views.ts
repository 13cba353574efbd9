// OAuth app → API representation (site-admin listing).
import type { Urls } from '../../urls.ts';
import { simpleUser } from '../users/users.views.ts';
import type { OwnedOauthApp } from './oauth.model.ts';

export function oauthAppRecord({ app, owner }: OwnedOauthApp, urls: Urls) {
  return {
    id: app.id,
    client_id: app.clientId,
    name: app.name,
    description: app.description,
    url: app.url,
    callback_url: app.callbackUrl,
    owner: owner ? simpleUser(owner, urls) : null,
    created_at: app.createdAt,
    updated_at: app.updatedAt,
  };
}

/** The `app` object of an authorization record, as upstream shows it. */
export function authorizationApp(app: { clientId: string; name: string; url: string | null }, urls: Urls) {
  return { client_id: app.clientId, name: app.name, url: app.url ?? urls.base };
}
