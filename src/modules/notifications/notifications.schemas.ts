// Request and response schemas of the notification routes.
import { Type, type Static } from '@sinclair/typebox';
import { IsoTimestamp, Nullable, PagedArray } from '../../http/schema-types.ts';

import { Repository } from '../repos/repos.schemas.ts';

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

export const ThreadResponse = Type.Object({
  id: Type.String(),
  /** Upstream's minimal-repository, filled: the record repository lists carry. */
  repository: Repository,
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

