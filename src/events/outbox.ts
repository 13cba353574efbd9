// The transactional outbox: an event is written in the same transaction as the
// change that raised it, so that no acknowledged change loses its event. The
// webhook and notification workers drain it.
import type { AppContext } from '../context.ts';
import { nowIso } from '../domain/clock.ts';

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

/**
 * Reacts to an event inside the transaction that records it (notification fan-out
 * does this), so the event and its consequences commit or roll back together.
 */
export type EventSubscriber = (ctx: AppContext, e: DomainEvent & { id: number }) => Promise<void>;

const subscribers: EventSubscriber[] = [];

/** Modules subscribe once, when they are loaded. */
export function subscribeToEvents(subscriber: EventSubscriber): void {
  subscribers.push(subscriber);
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
  for (const subscriber of subscribers) await subscriber(ctx, { ...e, id: row.id });
  return row.id;
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
  return rows.map((r) => ({
    id: r.id, event: r.event, action: r.action, repositoryId: r.repository_id, organizationId: r.organization_id,
    actorId: r.actor_id, payload: JSON.parse(r.payload) as Record<string, unknown>, createdAt: r.created_at,
  }));
}
