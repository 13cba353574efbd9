// Stars and subscriptions → API representation. Pure; every URL from the URL builder.
import type { Urls } from '../../urls.ts';
import type { Account } from '../users/users.model.ts';
import { simpleUser } from '../users/users.views.ts';
import type { Repo } from './repos.model.ts';
import type { RepositoryView } from './repos.views.ts';

export interface SubscriptionModel {
  subscribed: boolean;
  ignored: boolean;
  reason: string | null;
  createdAt: string;
}

export function repositorySubscription(s: SubscriptionModel, repo: Repo, urls: Urls) {
  const repositoryUrl = urls.api('repos', repo.owner.login, repo.name);
  return {
    subscribed: s.subscribed,
    ignored: s.ignored,
    reason: s.reason,
    created_at: s.createdAt,
    url: `${repositoryUrl}/subscription`,
    repository_url: repositoryUrl,
  };
}

/** A stargazer as the star media type shows it. */
export function stargazer(user: Account, starredAt: string, urls: Urls) {
  return { starred_at: starredAt, user: simpleUser(user, urls) };
}

/** A starred repository as the star media type shows it. */
export function starredRepository(repo: RepositoryView, starredAt: string) {
  return { starred_at: starredAt, repo };
}
