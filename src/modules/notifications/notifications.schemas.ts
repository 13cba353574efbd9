// Request and response schemas of the notification routes.
import { Type, type Static } from '@sinclair/typebox';
import { IsoTimestamp, Nullable, PagedArray } from '../../http/schema-types.ts';
import { SimpleUser } from '../users/users.schemas.ts';

export { RepoParams } from '../repos/repos.schemas.ts';

/** Thread ids are strings in the records; anything but digits is simply not found. */
export const ThreadParams = Type.Object({ thread_id: Type.String() });

export const ListNotificationsQuery = Type.Object({
  all: Type.Optional(Type.Boolean()),
  participating: Type.Optional(Type.Boolean()),
  since: Type.Optional(IsoTimestamp),
  before: Type.Optional(IsoTimestamp),
  // As text: out-of-range values fall back to the defaults (pageOf), as upstream.
  page: Type.Optional(Type.String()),
  per_page: Type.Optional(Type.String()),
});
export type ListNotificationsQuery = Static<typeof ListNotificationsQuery>;

export const MarkReadBody = Type.Object({
  last_read_at: Type.Optional(IsoTimestamp),
  read: Type.Optional(Type.Boolean()),
});
export type MarkReadBody = Static<typeof MarkReadBody>;

export const ThreadSubscriptionBody = Type.Object({ ignored: Type.Optional(Type.Boolean()) });

const LINKS = [
  'archive_url', 'assignees_url', 'blobs_url', 'branches_url', 'collaborators_url', 'comments_url', 'commits_url',
  'compare_url', 'contents_url', 'contributors_url', 'deployments_url', 'downloads_url', 'events_url', 'forks_url',
  'git_commits_url', 'git_refs_url', 'git_tags_url', 'git_url', 'issue_comment_url', 'issue_events_url', 'issues_url',
  'keys_url', 'labels_url', 'languages_url', 'merges_url', 'milestones_url', 'notifications_url', 'pulls_url',
  'releases_url', 'ssh_url', 'stargazers_url', 'statuses_url', 'subscribers_url', 'subscription_url', 'tags_url',
  'teams_url', 'trees_url', 'hooks_url',
] as const;

const MinimalRepository = Type.Object({
  id: Type.Integer(),
  node_id: Type.String(),
  name: Type.String(),
  full_name: Type.String(),
  owner: SimpleUser,
  private: Type.Boolean(),
  html_url: Type.String(),
  description: Nullable(Type.String()),
  fork: Type.Boolean(),
  url: Type.String(),
  ...Object.fromEntries(LINKS.map((k) => [k, Type.String()])) as Record<(typeof LINKS)[number], ReturnType<typeof Type.String>>,
});

export const ThreadResponse = Type.Object({
  id: Type.String(),
  repository: MinimalRepository,
  subject: Type.Object({
    title: Type.String(),
    url: Type.String(),
    latest_comment_url: Type.String(),
    type: Type.String(),
  }),
  reason: Type.String(),
  unread: Type.Boolean(),
  updated_at: Type.String(),
  last_read_at: Nullable(Type.String()),
  url: Type.String(),
  subscription_url: Type.String(),
});

export const ThreadList = PagedArray(ThreadResponse);

export const ThreadSubscriptionResponse = Type.Object({
  subscribed: Type.Boolean(),
  ignored: Type.Boolean(),
  reason: Nullable(Type.String()),
  created_at: Nullable(Type.String()),
  url: Type.String(),
  thread_url: Type.Optional(Type.String()),
  repository_url: Type.Optional(Type.String()),
});

