// Impersonation token → the "authorization" record; the token itself is shown only here, once.
import type { Urls } from '../../urls.ts';
import { parseScopes } from '../../domain/scopes.ts';
import { simpleUser } from '../users/users.views.ts';
import type { ImpersonationToken } from './admin.service.ts';

export function authorization(t: ImpersonationToken, urls: Urls) {
  const r = t.issued.record;
  return {
    id: r.id,
    url: urls.api('authorizations', r.id),
    scopes: parseScopes(r.scopes),
    token: t.issued.token,
    token_last_eight: r.token_last_eight,
    hashed_token: r.token_hash,
    // Impersonation tokens belong to the built-in site-admin application, as upstream shows them.
    app: { client_id: '00000000000000000000', name: 'Site admin impersonation', url: urls.raw('/admin') },
    note: r.note,
    note_url: r.note_url,
    updated_at: r.updated_at,
    created_at: r.created_at,
    fingerprint: null,
    user: simpleUser(t.user, urls),
    installation: null,
    expires_at: r.expires_at,
  };
}
