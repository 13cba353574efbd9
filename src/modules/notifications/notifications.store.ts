// SQL for notification threads and thread subscriptions. Only the notifications module
// calls this.
import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { NotificationThreadsTable, ThreadSubscriptionsTable } from '../../db/schema.ts';
import type { Slice } from '../../domain/page.ts';
import type {
  CommentKind, LatestComment, Reason, SubjectRef, SubjectType, Thread, ThreadSubscription,
} from './notifications.model.ts';

type ThreadRow = Selectable<NotificationThreadsTable>;
type SubscriptionRow = Selectable<ThreadSubscriptionsTable>;

function toThread(r: ThreadRow): Thread {
  return {
    id: r.id,
    userId: r.user_id,
    subject: { repositoryId: r.repository_id, type: r.subject_type as SubjectType, key: r.subject_key },
    title: r.subject_title,
    reason: r.reason as Reason,
    unread: Number(r.unread) === 1,
    done: Number(r.done) === 1,
    latestComment: r.latest_comment_kind && r.latest_comment_id !== null
      ? { kind: r.latest_comment_kind as CommentKind, id: r.latest_comment_id } : null,
    lastReadAt: r.last_read_at,
    updatedAt: r.updated_at,
  };
}

function toSubscription(r: SubscriptionRow): ThreadSubscription {
  return {
    userId: r.user_id,
    subject: { repositoryId: r.repository_id, type: r.subject_type as SubjectType, key: r.subject_key },
    subscribed: Number(r.subscribed) === 1,
    ignored: Number(r.ignored) === 1,
    reason: r.reason as Reason | null,
    createdAt: r.created_at,
  };
}

// ---------------------------------------------------------------- threads

export async function findThread(db: Executor, id: number): Promise<Thread | null> {
  const row = await db.selectFrom('notification_threads').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toThread(row) : null;
}

export interface ThreadFilter {
  userId: number;
  /** Only this repository's threads. */
  repositoryId?: number;
  /** Repositories whose threads the user may see now; invitation threads are always shown. */
  visibleRepositoryIds: readonly number[];
  /** Read threads too (all=true). */
  includeRead: boolean;
  /** Only these reasons (participating=true). */
  reasons?: readonly Reason[];
  since?: string;
  before?: string;
}

function filtered(db: Executor, f: ThreadFilter) {
  let q = db.selectFrom('notification_threads').where('user_id', '=', f.userId).where('done', '=', 0);
  if (f.repositoryId !== undefined) q = q.where('repository_id', '=', f.repositoryId);
  const visible = [...f.visibleRepositoryIds];
  q = q.where((eb) => eb.or([
    eb('subject_type', '=', 'RepositoryInvitation'),
    ...(visible.length ? [eb('repository_id', 'in', visible)] : []),
  ]));
  if (!f.includeRead) q = q.where('unread', '=', 1);
  if (f.reasons) q = q.where('reason', 'in', [...f.reasons]);
  if (f.since) q = q.where('updated_at', '>=', f.since);
  if (f.before) q = q.where('updated_at', '<', f.before);
  return q;
}

/** Most recently updated first. */
export async function listThreads(db: Executor, f: ThreadFilter, slice: Slice): Promise<Thread[]> {
  const rows = await filtered(db, f).selectAll().orderBy('updated_at', 'desc').orderBy('id', 'desc')
    .limit(slice.perPage).offset(slice.offset).execute();
  return rows.map(toThread);
}

export async function countThreads(db: Executor, f: ThreadFilter): Promise<number> {
  const row = await filtered(db, f).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Repositories the user has threads in (to work out which of them they may still read). */
export async function threadRepositoryIds(db: Executor, userId: number, repositoryId?: number): Promise<number[]> {
  let q = db.selectFrom('notification_threads').select('repository_id').distinct().where('user_id', '=', userId);
  if (repositoryId !== undefined) q = q.where('repository_id', '=', repositoryId);
  return (await q.execute()).map((r) => r.repository_id);
}

/** The newest updated_at among the user's threads (optionally of one repository). */
export async function newestUpdate(db: Executor, userId: number, repositoryId?: number): Promise<string | null> {
  let q = db.selectFrom('notification_threads').select((eb) => eb.fn.max('updated_at').as('newest')).where('user_id', '=', userId);
  if (repositoryId !== undefined) q = q.where('repository_id', '=', repositoryId);
  const row = await q.executeTakeFirst();
  return (row?.newest as string | null | undefined) ?? null;
}

export interface Notify {
  userId: number;
  subject: SubjectRef;
  title: string;
  reason: Reason;
  /** undefined keeps the thread's latest comment. */
  latestComment?: LatestComment | null;
  now: string;
}

/**
 * Creates the user's thread for the subject or brings it back to the top: unread, not
 * done, updated now. The reason is replaced, except that mention stays mention.
 */
export async function notify(db: Executor, n: Notify): Promise<void> {
  const comment = n.latestComment === undefined ? {} : {
    latest_comment_kind: n.latestComment?.kind ?? null,
    latest_comment_id: n.latestComment?.id ?? null,
  };
  await db.insertInto('notification_threads').values({
    user_id: n.userId,
    repository_id: n.subject.repositoryId,
    subject_type: n.subject.type,
    subject_key: n.subject.key,
    subject_title: n.title,
    reason: n.reason,
    unread: 1,
    done: 0,
    latest_comment_kind: n.latestComment?.kind ?? null,
    latest_comment_id: n.latestComment?.id ?? null,
    last_read_at: null,
    updated_at: n.now,
  }).onConflict((oc) => oc.columns(['user_id', 'repository_id', 'subject_type', 'subject_key']).doUpdateSet({
    subject_title: n.title,
    reason: sql<string>`CASE WHEN notification_threads.reason = 'mention' THEN 'mention' ELSE ${n.reason} END`,
    unread: 1,
    done: 0,
    ...comment,
    updated_at: n.now,
  })).execute();
}

/** A subject's current title on every thread about it, without notifying anyone. */
export async function refreshSubject(db: Executor, subject: SubjectRef, title: string): Promise<void> {
  await db.updateTable('notification_threads').set({ subject_title: title })
    .where('repository_id', '=', subject.repositoryId).where('subject_type', '=', subject.type)
    .where('subject_key', '=', subject.key).where('subject_title', '!=', title).execute();
}

export interface MarkRead {
  userId: number;
  repositoryId?: number;
  /** Threads updated after this time are left as they are. */
  lastReadAt: string;
  /** false marks them unread again. */
  read: boolean;
}

export async function markRead(db: Executor, m: MarkRead): Promise<void> {
  let q = db.updateTable('notification_threads')
    .set(m.read ? { unread: 0, last_read_at: m.lastReadAt } : { unread: 1 })
    .where('user_id', '=', m.userId).where('updated_at', '<=', m.lastReadAt).where('done', '=', 0);
  if (m.repositoryId !== undefined) q = q.where('repository_id', '=', m.repositoryId);
  await q.execute();
}

export async function markThreadRead(db: Executor, id: number, now: string): Promise<void> {
  await db.updateTable('notification_threads').set({ unread: 0, last_read_at: now }).where('id', '=', id).execute();
}

export async function markThreadDone(db: Executor, id: number, now: string): Promise<void> {
  await db.updateTable('notification_threads').set({ unread: 0, done: 1, last_read_at: now }).where('id', '=', id).execute();
}

// ---------------------------------------------------------------- thread subscriptions

function bySubject(s: SubjectRef) {
  return { repository_id: s.repositoryId, subject_type: s.type, subject_key: s.key };
}

export async function findSubscription(db: Executor, userId: number, s: SubjectRef): Promise<ThreadSubscription | null> {
  const row = await db.selectFrom('thread_subscriptions').selectAll()
    .where('repository_id', '=', s.repositoryId).where('subject_type', '=', s.type).where('subject_key', '=', s.key)
    .where('user_id', '=', userId).executeTakeFirst();
  return row ? toSubscription(row) : null;
}

/** Every user's subscription row for the subject. */
export async function subscriptionsOf(db: Executor, s: SubjectRef): Promise<ThreadSubscription[]> {
  const rows = await db.selectFrom('thread_subscriptions').selectAll()
    .where('repository_id', '=', s.repositoryId).where('subject_type', '=', s.type).where('subject_key', '=', s.key)
    .execute();
  return rows.map(toSubscription);
}

export interface SubscriptionValues {
  userId: number;
  subject: SubjectRef;
  subscribed: boolean;
  ignored: boolean;
  reason: Reason | null;
  now: string;
}

/** Creates or replaces the user's subscription to the subject; created_at moves with it. */
export async function putSubscription(db: Executor, v: SubscriptionValues): Promise<ThreadSubscription> {
  const values = { subscribed: v.subscribed ? 1 : 0, ignored: v.ignored ? 1 : 0, reason: v.reason, created_at: v.now };
  const row = await db.insertInto('thread_subscriptions').values({ user_id: v.userId, ...bySubject(v.subject), ...values })
    .onConflict((oc) => oc.columns(['repository_id', 'subject_type', 'subject_key', 'user_id']).doUpdateSet(values))
    .returningAll().executeTakeFirstOrThrow();
  return toSubscription(row);
}
