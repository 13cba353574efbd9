// The home page's activity: the events API's timeline of the repositories the user
// watches, each event as one sentence with links to what it is about.
import type { TimelineEvent } from '../events-api/events-api.service.ts';
import { encPath, repoPath } from './repo.layout.ts';
import { fragment, h, time, type ReactNode } from './web.render.ts';

function field(record: unknown, key: string): unknown {
  return record !== null && typeof record === 'object' ? (record as Record<string, unknown>)[key] : undefined;
}

function text(record: unknown, key: string): string | null {
  const v = field(record, key);
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
}

/** "opened issue #3 Title" and the like: what happened, linked to the issue or pull request. */
function numbered(e: TimelineEvent, kind: 'issue' | 'pull request', record: unknown, action: string): ReactNode {
  const n = text(record, 'number');
  const title = text(record, 'title') ?? '';
  if (!n) return `${action} a ${kind} in`;
  const isPull = kind === 'pull request' || field(record, 'pull_request') !== undefined;
  return fragment(`${action} ${kind} `, h('a', { href: repoPath(e.repo, isPull ? 'pull' : 'issues', n) }, `#${n} ${title}`), ' in');
}

function sentence(e: TimelineEvent): ReactNode {
  const p = e.payload;
  const action = text(p, 'action') ?? '';
  switch (e.type) {
    case 'PushEvent': {
      const ref = (text(p, 'ref') ?? '').replace(/^refs\/heads\//, '');
      return fragment('pushed to ', h('a', { href: repoPath(e.repo, 'tree', encPath(ref)) }, ref), ' in');
    }
    case 'CreateEvent': return `created ${text(p, 'ref_type') ?? 'something'} ${text(p, 'ref') ?? ''} in`;
    case 'DeleteEvent': return `deleted ${text(p, 'ref_type') ?? 'something'} ${text(p, 'ref') ?? ''} in`;
    case 'IssuesEvent': return numbered(e, 'issue', field(p, 'issue'), action);
    case 'IssueCommentEvent': return numbered(e, 'issue', field(p, 'issue'), 'commented on');
    case 'PullRequestEvent': return numbered(e, 'pull request', field(p, 'pull_request'), field(field(p, 'pull_request'), 'merged') === true && action === 'closed' ? 'merged' : action);
    case 'PullRequestReviewEvent': return numbered(e, 'pull request', field(p, 'pull_request'), 'reviewed');
    case 'PullRequestReviewCommentEvent': return numbered(e, 'pull request', field(p, 'pull_request'), 'commented on');
    case 'WatchEvent': return 'starred';
    case 'ForkEvent': return 'forked';
    case 'ReleaseEvent': return `published release ${text(field(p, 'release'), 'tag_name') ?? ''} of`;
    case 'MemberEvent': return `added ${text(field(p, 'member'), 'login') ?? 'a collaborator'} to`;
    case 'PublicEvent': return 'made public';
    default: return `${e.type} in`;
  }
}

export function activityFeed(events: readonly TimelineEvent[]): ReactNode {
  if (!events.length) return h('p', { className: 'box muted' }, 'Nothing has happened in the repositories you watch yet.');
  return h('ol', { className: 'list box', id: 'activity' }, ...events.map((e) => h('li', { key: e.id, className: 'row' },
    h('div', null,
      e.actor ? h('a', { href: `/${encodeURIComponent(e.actor.login)}` }, e.actor.login) : 'Someone', ' ',
      sentence(e), ' ', h('a', { href: repoPath(e.repo) }, `${e.repo.owner.login}/${e.repo.name}`)),
    h('span', { className: 'muted' }, time(e.createdAt)))));
}
