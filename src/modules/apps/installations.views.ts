// Installation and installation-token records → API representations (upstream's
// "installation" and "installation-token" schemas).
import type { Urls } from '../../urls.ts';
import { simpleUser } from '../users/users.views.ts';
import type { IssuedInstallationToken } from './installation-tokens.service.ts';
import type { PresentedInstallation } from './installations.service.ts';
import type { ScopedToken } from './scoped-tokens.service.ts';

export function installationRecord({ installation: i, app, account, suspendedBy }: PresentedInstallation, urls: Urls) {
  return {
    id: i.id,
    account: simpleUser(account, urls),
    repository_selection: i.repositorySelection,
    access_tokens_url: urls.api('app', 'installations', i.id, 'access_tokens'),
    repositories_url: urls.api('installation', 'repositories'),
    html_url: account.type === 'Organization'
      ? urls.html('organizations', account.login, 'settings', 'installations', i.id)
      : urls.html('settings', 'installations', i.id),
    app_id: i.appId,
    client_id: app.clientId,
    app_slug: app.slug,
    target_id: account.id,
    target_type: account.type,
    permissions: i.permissions,
    events: i.events,
    created_at: i.createdAt,
    updated_at: i.updatedAt,
    single_file_name: null,
    has_multiple_single_files: false,
    single_file_paths: [] as string[],
    suspended_by: suspendedBy ? simpleUser(suspendedBy, urls) : null,
    suspended_at: i.suspendedAt,
    // Upstream's address for reaching the installation's owner; Wharf keeps none.
    contact_email: null,
  };
}

/** The token's answer; `repositories` only when the request narrowed them, as upstream. */
export function installationToken<R>(t: IssuedInstallationToken, repositories: R[] | null) {
  return {
    token: t.token,
    expires_at: t.expiresAt,
    permissions: t.permissions,
    repository_selection: t.repositorySelection,
    ...(repositories ? { repositories } : {}),
  };
}

/** The Scoped token record (upstream's authorization schema with its installation part). */
export function scopedTokenRecord(s: ScopedToken, urls: Urls) {
  return {
    id: s.record.id,
    url: urls.api('authorizations', s.record.id),
    scopes: [] as string[],
    token: s.token,
    token_last_eight: s.record.tokenLastEight,
    hashed_token: s.record.tokenHash,
    app: { client_id: s.app.clientId, name: s.app.name, url: s.app.externalUrl },
    note: null,
    note_url: null,
    updated_at: s.record.updatedAt,
    created_at: s.record.createdAt,
    fingerprint: null,
    user: simpleUser(s.user, urls),
    installation: {
      permissions: s.permissions,
      repository_selection: s.repositorySelection,
      single_file_name: null,
      repositories_url: urls.api('user', 'installations', s.installation.id, 'repositories'),
      account: simpleUser(s.account, urls),
      has_multiple_single_files: false,
      single_file_paths: [] as string[],
    },
    expires_at: s.record.expiresAt,
  };
}
