// OAuth app → API representation (site-admin listing).
import type { Urls } from '../../urls.ts';
import { simpleUser } from '../users/users.views.ts';
import type { AppAuthorization } from './app-tokens.service.ts';
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

/** The authorization record of /applications/{client_id}/token, as upstream shows it (token included). */
export function appAuthorization(a: AppAuthorization, urls: Urls) {
  const r = a.record;
  return {
    id: r.id,
    url: urls.api('authorizations', r.id),
    scopes: r.scopes,
    token: a.token,
    token_last_eight: r.tokenLastEight,
    hashed_token: r.tokenHash,
    app: authorizationApp(a.app, urls),
    note: r.note,
    note_url: r.noteUrl,
    updated_at: r.updatedAt,
    created_at: r.createdAt,
    fingerprint: null,
    user: simpleUser(a.user, urls),
    installation: null,
    expires_at: r.expiresAt,
  };
}
