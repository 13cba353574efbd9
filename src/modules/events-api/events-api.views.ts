// A timeline event → upstream's event record. Pure.
import type { Urls } from '../../urls.ts';
import type { Account } from '../users/users.model.ts';
import type { TimelineEvent } from './events-api.service.ts';

function actorView(a: Account, urls: Urls, path: 'users' | 'orgs') {
  return {
    id: a.id, login: a.login, ...(path === 'users' ? { display_login: a.login } : {}), gravatar_id: '',
    url: urls.api(path, a.login), avatar_url: urls.avatar(a.id),
  };
}

export function eventView(urls: Urls, e: TimelineEvent) {
  return {
    id: String(e.id),
    type: e.type,
    actor: e.actor ? actorView(e.actor, urls, 'users') : null,
    repo: { id: e.repo.id, name: `${e.repo.owner.login}/${e.repo.name}`, url: urls.api('repos', e.repo.owner.login, e.repo.name) },
    payload: e.payload,
    public: e.repo.visibility === 'public',
    created_at: e.createdAt,
    ...(e.org ? { org: actorView(e.org, urls, 'orgs') } : {}),
  };
}
