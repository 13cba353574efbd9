// Webhooks → API representation. Pure. The secret is never shown: a hook that has one
// shows "********" in its place, as upstream does.
import type { Static } from '@sinclair/typebox';
import type { Urls } from '../../urls.ts';
import type { HookResponse } from './hooks.schemas.ts';
import type { HookDetail, HookOwner } from './hooks.service.ts';

export const MASKED_SECRET = '********';

// The schema's type, so that a field the view adds and the schema lacks (which
// serialization would drop) does not compile.
export type HookView = Static<typeof HookResponse>;

function hookUrl(owner: HookOwner, id: number, urls: Urls): string {
  if (owner.type === 'App') return urls.api('app', 'hook', 'config');
  return owner.type === 'Repository'
    ? urls.api('repos', owner.owner, owner.name, 'hooks', id)
    : urls.api('orgs', owner.login, 'hooks', id);
}

export function hook({ hook: h, owner }: HookDetail, urls: Urls): HookView {
  const url = hookUrl(owner, h.id, urls);
  return {
    type: owner.type,
    id: h.id,
    name: h.name,
    active: h.active,
    events: h.events,
    config: {
      content_type: h.config.contentType,
      insecure_ssl: h.config.insecureSsl,
      url: h.config.url,
      ...(h.config.hasSecret ? { secret: MASKED_SECRET } : {}),
    },
    updated_at: h.updatedAt,
    created_at: h.createdAt,
    url,
    // Organization hooks have no test endpoint upstream.
    ...(owner.type === 'Repository' ? { test_url: `${url}/test` } : {}),
    ping_url: `${url}/pings`,
    deliveries_url: `${url}/deliveries`,
    last_response: { ...h.lastResponse },
  };
}
