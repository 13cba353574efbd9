// SSH keys → upstream's key records (own key, another user's key, deploy key). Pure.
import type { Urls } from '../../urls.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { Account } from '../users/users.model.ts';
import type { SshKey } from './keys.model.ts';

export function ownKey(urls: Urls, k: SshKey) {
  return {
    key: k.key, id: k.id, url: urls.api('user', 'keys', String(k.id)), title: k.title, created_at: k.createdAt,
    // Wharf has no key verification step: a key proves itself by parsing.
    verified: true, read_only: false, last_used: k.lastUsed,
  };
}

/** Another user's key, as anyone may see it. */
export function simpleKey(k: SshKey) {
  return { id: k.id, key: k.key, created_at: k.createdAt, last_used: k.lastUsed };
}

export function deployKey(urls: Urls, repo: Repo, k: SshKey, addedBy: Map<number, Account>) {
  return {
    id: k.id, key: k.key, url: urls.api('repos', repo.owner.login, repo.name, 'keys', String(k.id)), title: k.title,
    verified: true, created_at: k.createdAt, read_only: k.readOnly,
    added_by: k.addedById === null ? null : addedBy.get(k.addedById)?.login ?? null,
    last_used: k.lastUsed, enabled: true,
  };
}

/** The plain-text `/{user}.keys`: one key a line, as `authorized_keys` takes them. */
export function authorizedKeys(keys: SshKey[]): string {
  return keys.map((k) => `${k.key}\n`).join('');
}
