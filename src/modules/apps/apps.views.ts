// App record → API representation (upstream's "integration" schema).
import { encodeNodeId } from '../../domain/node-id.ts';
import type { Urls } from '../../urls.ts';
import { simpleUser } from '../users/users.views.ts';
import type { AppCredentials } from './apps.model.ts';
import type { PresentedApp } from './apps.service.ts';
import type { HookConfig } from './app-hook-config.service.ts';

export function appRecord({ app, owner, installationsCount }: PresentedApp, urls: Urls) {
  return {
    id: app.id,
    slug: app.slug,
    node_id: encodeNodeId('Integration', app.id),
    client_id: app.clientId,
    owner: owner ? simpleUser(owner, urls) : null,
    name: app.name,
    description: app.description,
    external_url: app.externalUrl,
    html_url: urls.html('apps', app.slug),
    created_at: app.createdAt,
    updated_at: app.updatedAt,
    permissions: app.permissions,
    events: app.events,
    installations_count: installationsCount,
  };
}

/** The manifest conversion's answer: the app with the secrets shown this once. */
export function appWithCredentials(presented: PresentedApp, creds: AppCredentials, urls: Urls) {
  return { ...appRecord(presented, urls), client_secret: creds.clientSecret, webhook_secret: creds.webhookSecret, pem: creds.pem };
}

/** The app's webhook configuration; the secret never leaves, as upstream masks it. */
export function hookConfigRecord(c: HookConfig) {
  return { url: c.url, content_type: c.contentType, insecure_ssl: c.insecureSsl, secret: c.hasSecret ? '********' : null };
}
