// The transactional outbox: an event is written in the same transaction as the
// change that raised it, so that no acknowledged change loses its event. The
// webhook and notification workers drain it.
import type { AppContext } from '../context.ts';
import { skipLocked } from '../db/claims.ts';
import type { Executor } from '../db/database.ts';
import type { OutboxTable } from '../db/schema.ts';
import { nowIso } from '../domain/clock.ts';
import { wakeWorkers } from './wake.ts';

export interface DomainEvent {
  /** Webhook event name: push, repository, create, delete, star, fork … */
  event: string;
  action?: string | null;
  repositoryId?: number | null;
  organizationId?: number | null;
  actorId?: number | null;
  /** What happened, in domain terms; the delivery side renders the webhook payload. */
  payload: Record<string, unknown>;
}

export async function recordEvent(ctx: AppContext, e: DomainEvent): Promise<number> {
  const row = await ctx.db.insertInto('outbox').values({
    event: e.event,
    action: e.action ?? null,
    repository_id: e.repositoryId ?? null,
    organization_id: e.organizationId ?? null,
    actor_id: e.actorId ?? null,
    payload: JSON.stringify(e.payload),
    created_at: nowIso(ctx.clock),
    dispatched_at: null,
  }).returning('id').executeTakeFirstOrThrow();
  await ctx.bus.publish(ctx, { ...e, id: row.id });
  wakeWorkers(ctx, 'outbox');
  return row.id;
}

// ---------------------------------------------------------------- workers

function toStored(r: Pick<OutboxTable, 'event' | 'action' | 'repository_id' | 'organization_id' | 'actor_id' | 'payload' | 'created_at'> & { id: number }): StoredEvent {
  return {
    id: r.id, event: r.event, action: r.action, repositoryId: r.repository_id, organizationId: r.organization_id,
    actorId: r.actor_id, payload: JSON.parse(r.payload) as Record<string, unknown>, createdAt: r.created_at,
  };
}

/**
 * The oldest events not yet dispatched, locked for the transaction in `ctx`. Empty when
 * another process is dispatching older ones: dispatching goes in event order, one
 * process at a time, so that a hook's deliveries queue up in the order of its events.
 */
export async function claimUndispatched(ctx: AppContext, limit: number): Promise<StoredEvent[]> {
  const pending = ctx.db.selectFrom('outbox').selectAll().where('dispatched_at', 'is', null).orderBy('id').limit(limit);
  const rows = await skipLocked(pending, ctx.dialect).execute();
  if (rows.length === 0 || ctx.dialect !== 'postgres') return rows.map(toStored);
  const oldest = await ctx.db.selectFrom('outbox').select('id').where('dispatched_at', 'is', null).orderBy('id').limit(1).executeTakeFirst();
  return oldest && oldest.id < rows[0]!.id ? [] : rows.map(toStored);
}

export async function markDispatched(ctx: AppContext, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await ctx.db.updateTable('outbox').set({ dispatched_at: nowIso(ctx.clock) }).where('id', 'in', ids).execute();
}

/** An event's payload with what a subscriber adds to it, in the recording transaction. */
export async function amendPayload(ctx: AppContext, id: number, payload: Record<string, unknown>): Promise<void> {
  await ctx.db.updateTable('outbox').set({ payload: JSON.stringify(payload) }).where('id', '=', id).execute();
}

/** Retention's batch of dispatched events recorded before `before`, picked through the created_at index (migration 0051). */
export function prunableEvents(db: Executor, before: string, limit: number) {
  return db.selectFrom('outbox').select('id').where('created_at', '<', before).where('dispatched_at', 'is not', null).limit(limit);
}

/**
 * Removes up to `limit` events recorded before `before` that were dispatched (retention);
 * returns how many went. Undispatched ones stay whatever their age. Webhook deliveries
 * do not need them: their payload is kept with them (hook_payloads).
 */
export async function pruneDispatched(ctx: AppContext, before: string, limit: number): Promise<number> {
  const res = await ctx.db.deleteFrom('outbox').where('id', 'in', prunableEvents(ctx.db, before, limit)).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** How many events wait to be dispatched to hooks: the outbox's queue depth (GET /metrics). */
export async function countUndispatched(ctx: AppContext): Promise<number> {
  const r = await ctx.db.selectFrom('outbox').select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('dispatched_at', 'is', null).executeTakeFirstOrThrow();
  return Number(r.n);
}

export interface StoredEvent extends DomainEvent {
  id: number;
  createdAt: string;
}

/** Events in order (tests and the workers read them). */
export async function listEvents(ctx: AppContext, filter: { event?: string; repositoryId?: number } = {}): Promise<StoredEvent[]> {
  let q = ctx.db.selectFrom('outbox').selectAll().orderBy('id');
  if (filter.event) q = q.where('event', '=', filter.event);
  if (filter.repositoryId !== undefined) q = q.where('repository_id', '=', filter.repositoryId);
  const rows = await q.execute();
  return rows.map(toStored);
}

/** The latest event of a kind in a repository (the hooks test endpoint re-sends the latest push). */
export async function latestEvent(ctx: AppContext, filter: { event: string; repositoryId: number }): Promise<StoredEvent | null> {
  const row = await ctx.db.selectFrom('outbox').selectAll()
    .where('event', '=', filter.event).where('repository_id', '=', filter.repositoryId)
    .orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row ? toStored(row) : null;
}

/**
 * The newest events of these kinds on repositories, newest first, at most `limit`: the
 * public timelines (events API) read the outbox, which keeps every event.
 */
export async function recentRepositoryEvents(
  ctx: AppContext, filter: { events: readonly string[]; repositoryIds?: readonly number[]; actorId?: number }, limit: number,
): Promise<StoredEvent[]> {
  if (filter.repositoryIds?.length === 0) return [];
  let q = ctx.db.selectFrom('outbox').selectAll().where('event', 'in', [...filter.events]).where('repository_id', 'is not', null);
  if (filter.repositoryIds) q = q.where('repository_id', 'in', [...filter.repositoryIds]);
  if (filter.actorId !== undefined) q = q.where('actor_id', '=', filter.actorId);
  const rows = await q.orderBy('id', 'desc').limit(limit).execute();
  return rows.map(toStored);
}
