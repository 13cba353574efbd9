// Notifications as their recipient sees them: the inbox (all or one repository),
// marking read and done, and thread subscriptions. Threads are made by the fan-out
// (notifications.fanout.ts) from the events other modules record.
//
// Only a user's own token with the notifications or repo scope gets here (spec,
// Authentication 13). A thread shows only while its recipient may read the repository
// (an invitation's thread shows regardless: the invitee cannot read it yet).
import { inTransaction, type AppContext } from '../../context.ts';
import { requireScope, requireUser, type Actor, type ActorUser } from '../../domain/actor.ts';
import { nowIso, storedTimestamp } from '../../domain/clock.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { Slice } from '../../domain/page.ts';
import { accessToMany } from '../repos/repos.access.ts';
import * as repos from '../repos/repos.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as watching from '../repos/repos.watching.ts';
import { PARTICIPATING_REASONS, type Thread, type ThreadSubscription } from './notifications.model.ts';
import * as store from './notifications.store.ts';
import { isStoredId } from '../../domain/ids.ts';

export const SCOPES = ['notifications', 'repo'];

/** A thread with the repository its view needs. */
export interface ThreadDetail {
  thread: Thread;
  repo: Repo;
}

export interface ThreadPage {
  items: ThreadDetail[];
  total: number;
  /** The newest updated_at of the threads listed (Last-Modified); null when the user has none. */
  lastModified: string | null;
}

export interface ListQuery {
  all?: boolean;
  participating?: boolean;
  since?: string;
  before?: string;
}

function recipient(actor: Actor): ActorUser {
  const user = requireUser(actor);
  requireScope(actor, ...SCOPES);
  return user;
}

/** The times were checked by the route's schema (IsoTimestamp). */
function filterOf(userId: number, q: ListQuery, visibleRepositoryIds: number[], repositoryId?: number): store.ThreadFilter {
  const since = storedTimestamp(q.since);
  const before = storedTimestamp(q.before);
  return {
    userId,
    repositoryId,
    visibleRepositoryIds,
    includeRead: q.all === true,
    ...(q.participating ? { reasons: PARTICIPATING_REASONS } : {}),
    ...(since !== undefined ? { since } : {}),
    ...(before !== undefined ? { before } : {}),
  };
}

/** The repositories among `ids` the caller may read now. */
async function readable(ctx: AppContext, actor: Actor, ids: readonly number[]): Promise<Repo[]> {
  if (ids.length === 0) return [];
  const found = await repos.reposByIds(ctx, ids);
  const access = await accessToMany(ctx, actor, found);
  return found.filter((r) => access.get(r.id)?.effective);
}

async function page(ctx: AppContext, filter: store.ThreadFilter, slice: Slice, known: readonly Repo[]): Promise<ThreadPage> {
  const [threads, total] = await Promise.all([store.listThreads(ctx.db, filter, slice), store.countThreads(ctx.db, filter)]);
  const byId = new Map(known.map((r) => [r.id, r]));
  const missing = [...new Set(threads.map((t) => t.subject.repositoryId))].filter((id) => !byId.has(id));
  for (const r of await repos.reposByIds(ctx, missing)) byId.set(r.id, r);
  const items = threads.flatMap((thread) => {
    const repo = byId.get(thread.subject.repositoryId);
    return repo ? [{ thread, repo }] : [];
  });
  // Sorted newest first, so the first listed is the newest. An empty page still says
  // when anything last arrived, so that a poller's If-Modified-Since can answer 304.
  const lastModified = items[0]?.thread.updatedAt ?? await store.newestUpdate(ctx.db, filter.userId, filter.repositoryId);
  return { items, total, lastModified };
}

export async function listForAuthenticatedUser(ctx: AppContext, actor: Actor, q: ListQuery, slice: Slice): Promise<ThreadPage> {
  const user = recipient(actor);
  const visible = await readable(ctx, actor, await store.threadRepositoryIds(ctx.db, user.id));
  return page(ctx, filterOf(user.id, q, visible.map((r) => r.id)), slice, visible);
}

export async function listForRepository(
  ctx: AppContext, actor: Actor, owner: string, name: string, q: ListQuery, slice: Slice,
): Promise<ThreadPage> {
  const user = recipient(actor);
  const { repo } = await repos.locate(ctx, actor, owner, name);
  return page(ctx, filterOf(user.id, q, [repo.id], repo.id), slice, [repo]);
}

export interface MarkReadInput {
  last_read_at?: string;
  read?: boolean;
}

/** PUT /notifications: threads updated up to last_read_at (default now) become read. */
export async function markAllRead(ctx: AppContext, actor: Actor, input: MarkReadInput): Promise<void> {
  const user = recipient(actor);
  const lastReadAt = storedTimestamp(input.last_read_at) ?? nowIso(ctx.clock);
  await store.markRead(ctx.db, { userId: user.id, lastReadAt, read: input.read ?? true });
}

export async function markRepositoryRead(ctx: AppContext, actor: Actor, owner: string, name: string, input: MarkReadInput): Promise<void> {
  const user = recipient(actor);
  const { repo } = await repos.locate(ctx, actor, owner, name);
  const lastReadAt = storedTimestamp(input.last_read_at) ?? nowIso(ctx.clock);
  await store.markRead(ctx.db, { userId: user.id, repositoryId: repo.id, lastReadAt, read: input.read ?? true });
}

/** The caller's thread `rawId`, while they may see it; anyone else's is not found. */
async function ownThread(ctx: AppContext, actor: Actor, rawId: string): Promise<ThreadDetail> {
  const user = recipient(actor);
  const id = /^\d{1,15}$/.test(rawId) && isStoredId(Number(rawId)) ? Number(rawId) : null;
  const thread = id === null ? null : await store.findThread(ctx.db, id);
  if (!thread || thread.userId !== user.id) throw new NotFoundError();
  const [repo] = thread.subject.type === 'RepositoryInvitation'
    ? await repos.reposByIds(ctx, [thread.subject.repositoryId])
    : await readable(ctx, actor, [thread.subject.repositoryId]);
  if (!repo) throw new NotFoundError();
  return { thread, repo };
}

export function getThread(ctx: AppContext, actor: Actor, id: string): Promise<ThreadDetail> {
  return ownThread(ctx, actor, id);
}

export async function markThreadRead(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  const { thread } = await ownThread(ctx, actor, id);
  await store.markThreadRead(ctx.db, thread.id, nowIso(ctx.clock));
}

export async function markThreadDone(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  const { thread } = await ownThread(ctx, actor, id);
  await store.markThreadDone(ctx.db, thread.id, nowIso(ctx.clock));
}

/**
 * A thread subscription as shown: the user's own for the thread, or (upstream) the
 * repository subscription it inherits, which carries repository_url instead of thread_url.
 */
export type SubscriptionDetail =
  | { kind: 'thread'; thread: Thread; subscription: ThreadSubscription }
  | { kind: 'repository'; thread: Thread; repo: Repo; subscribed: boolean; ignored: boolean; createdAt: string };

export async function getThreadSubscription(ctx: AppContext, actor: Actor, id: string): Promise<SubscriptionDetail> {
  const { thread, repo } = await ownThread(ctx, actor, id);
  const own = await store.findSubscription(ctx.db, thread.userId, thread.subject);
  if (own && (own.subscribed || own.ignored)) return { kind: 'thread', thread, subscription: own };
  const watch = (await watching.subscriptionsOfRepository(ctx, repo.id)).find((s) => s.userId === thread.userId);
  if (!watch) throw new NotFoundError();
  return { kind: 'repository', thread, repo, subscribed: watch.subscribed, ignored: watch.ignored, createdAt: watch.createdAt };
}

/**
 * PUT …/subscription: ignored true mutes the thread; otherwise the user is subscribed
 * (manual), keeping the reason they already took part for.
 */
export async function setThreadSubscription(ctx: AppContext, actor: Actor, id: string, input: { ignored?: boolean }): Promise<SubscriptionDetail> {
  return inTransaction(ctx, async (tx) => {
    const { thread } = await ownThread(tx, actor, id);
    const own = await store.findSubscription(tx.db, thread.userId, thread.subject);
    const ignored = input.ignored ?? false;
    const subscription = ignored
      ? await store.putSubscription(tx.db, { userId: thread.userId, subject: thread.subject, subscribed: false, ignored: true, reason: own?.reason ?? null, now: nowIso(tx.clock) })
      : own?.subscribed
        ? own
        : await store.putSubscription(tx.db, { userId: thread.userId, subject: thread.subject, subscribed: true, ignored: false, reason: 'manual', now: nowIso(tx.clock) });
    return { kind: 'thread', thread, subscription };
  });
}

/**
 * DELETE …/subscription: the user stops taking part (until they comment or are
 * mentioned again); as a watcher of the repository they still hear of it.
 */
export async function deleteThreadSubscription(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const { thread } = await ownThread(tx, actor, id);
    await store.putSubscription(tx.db, { userId: thread.userId, subject: thread.subject, subscribed: false, ignored: false, reason: null, now: nowIso(tx.clock) });
  });
}
