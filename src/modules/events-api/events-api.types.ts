// Which outbox events the public timelines show, under upstream's event type names.
import type { StoredEvent } from '../../events/outbox.ts';

/** Outbox (webhook) event name → events API type; only these are timeline events. */
const TYPES: Record<string, string> = {
  push: 'PushEvent',
  create: 'CreateEvent',
  delete: 'DeleteEvent',
  issues: 'IssuesEvent',
  issue_comment: 'IssueCommentEvent',
  pull_request: 'PullRequestEvent',
  pull_request_review: 'PullRequestReviewEvent',
  pull_request_review_comment: 'PullRequestReviewCommentEvent',
  // Upstream's WatchEvent is a star, as the watch webhook is.
  watch: 'WatchEvent',
  fork: 'ForkEvent',
  release: 'ReleaseEvent',
  member: 'MemberEvent',
  repository: 'PublicEvent',
};

export const TIMELINE_EVENTS = Object.keys(TYPES);

/** The API type of an event, or null for one the timelines leave out. */
export function eventType(e: StoredEvent): string | null {
  // Of the repository events only making a repository public is on the timelines.
  if (e.event === 'repository') return e.action === 'publicized' ? 'PublicEvent' : null;
  if (e.event === 'release') return e.action === 'published' ? 'ReleaseEvent' : null;
  if (e.event === 'member') return e.action === 'added' ? 'MemberEvent' : null;
  return TYPES[e.event] ?? null;
}
