// Notification threads and thread subscriptions → API representation. Pure.
import type { Static } from '@sinclair/typebox';
import type { Urls } from '../../urls.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { RepositoryView } from '../repos/repos.views.ts';
import type { Thread } from './notifications.model.ts';
import type { ThreadResponse, ThreadSubscriptionResponse } from './notifications.schemas.ts';
import type { SubscriptionDetail, ThreadDetail } from './notifications.service.ts';

function subjectUrls(t: Thread, r: Repo, urls: Urls): { url: string; latest_comment_url: string } {
  const repo = ['repos', r.owner.login, r.name] as const;
  const { type, key } = t.subject;
  const url = type === 'RepositoryInvitation' ? urls.api('user', 'repository_invitations', key)
    : urls.api(...repo, type === 'PullRequest' ? 'pulls' : 'issues', key);
  const c = t.latestComment;
  // Without a comment, upstream points latest_comment_url at the subject itself.
  const latest = !c ? url
    : c.kind === 'issue_comment' ? urls.api(...repo, 'issues', 'comments', c.id)
      : c.kind === 'review_comment' ? urls.api(...repo, 'pulls', 'comments', c.id)
        : urls.api(...repo, 'pulls', key, 'reviews', c.id);
  return { url, latest_comment_url: latest };
}

// The views' types are their schemas', so that a field a view adds and its schema lacks
// (which serialization would drop) does not compile.
export type ThreadView = Static<typeof ThreadResponse>;
export type ThreadSubscriptionView = Static<typeof ThreadSubscriptionResponse>;

/** `repository` is the record of the thread's repository (repos.present's presentReposById). */
export function thread({ thread: t, repo }: ThreadDetail, repository: RepositoryView, urls: Urls): ThreadView {
  const url = urls.api('notifications', 'threads', t.id);
  return {
    id: String(t.id),
    repository,
    subject: { title: t.title, ...subjectUrls(t, repo, urls), type: t.subject.type },
    reason: t.reason,
    unread: t.unread,
    updated_at: t.updatedAt,
    last_read_at: t.lastReadAt,
    url,
    subscription_url: `${url}/subscription`,
  };
}

export function threadSubscription(d: SubscriptionDetail, urls: Urls): ThreadSubscriptionView {
  const threadUrl = urls.api('notifications', 'threads', d.thread.id);
  if (d.kind === 'thread') {
    const s = d.subscription;
    return {
      subscribed: s.subscribed, ignored: s.ignored, reason: s.reason, created_at: s.createdAt,
      url: `${threadUrl}/subscription`, thread_url: threadUrl,
    };
  }
  return {
    subscribed: d.subscribed, ignored: d.ignored, reason: null, created_at: d.createdAt,
    url: `${threadUrl}/subscription`, repository_url: urls.api('repos', d.repo.owner.login, d.repo.name),
  };
}
