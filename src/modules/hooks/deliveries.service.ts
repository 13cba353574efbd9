// Deliveries of a repository's or organization's webhook: list (newest first, by
// cursor), one with its request and response, and redelivery. Same rights as the hook.
import { inTransaction, type AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { wakeWorkers } from '../../events/wake.ts';
import * as store from './deliveries.store.ts';
import type { Delivery, DeliveryAttempt, DeliveryDetail, DeliveryState } from './hooks.model.ts';
import { appHook, payloadWithInstallation } from './hooks.apps.ts';
import { organizationTarget, repositoryTarget, requireHook, type HookOwner } from './hooks.service.ts';
import { MAX_STORED_ID } from '../../domain/ids.ts';

export interface ListDeliveriesQuery {
  cursor?: string;
  perPage: number;
  status?: string;
}

export interface DeliveryPage {
  items: Delivery[];
  /** The cursor of the next page, when there is one. */
  next: string | null;
}

/** Upstream's cursors look like "v1_<delivery id>"; the bare id is taken too. */
function parseCursor(cursor: string | undefined): number | null {
  if (cursor === undefined || cursor === '') return null;
  const m = /^(?:v1_)?(\d{1,15})$/.exec(cursor);
  if (!m) throw new ValidationError([{ resource: 'HookDelivery', field: 'cursor', code: 'invalid', message: 'cursor is not valid' }]);
  // Deliveries up to the cursor's id: past the largest id a row can have, that is all of
  // them (and PostgreSQL would refuse to compare the integer column with it).
  return Math.min(Number(m[1]), MAX_STORED_ID);
}

async function list(ctx: AppContext, owner: HookOwner, hookId: number, q: ListDeliveriesQuery): Promise<DeliveryPage> {
  const hook = await requireHook(ctx, owner, hookId);
  if (q.status !== undefined && q.status !== 'success' && q.status !== 'failure') {
    throw new ValidationError([{ resource: 'HookDelivery', field: 'status', code: 'invalid', message: 'status must be success or failure', value: q.status }]);
  }
  const rows = await store.listForHook(ctx.db, hook.id, { startId: parseCursor(q.cursor), status: q.status, limit: q.perPage + 1 });
  const more = rows.length > q.perPage;
  return { items: rows.slice(0, q.perPage), next: more ? `v1_${rows[q.perPage]!.id}` : null };
}

async function get(ctx: AppContext, owner: HookOwner, hookId: number, id: number): Promise<DeliveryDetail> {
  const hook = await requireHook(ctx, owner, hookId);
  const delivery = await store.findForHook(ctx.db, hook.id, id);
  if (!delivery) throw new NotFoundError();
  return { ...delivery, requestPayload: payloadWithInstallation(delivery.requestPayload, delivery.installationId) };
}

/** Queues the delivery again, as a new delivery of the same event (same GUID), marked redelivery. */
async function redeliver(ctx: AppContext, owner: HookOwner, hookId: number, id: number): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const hook = await requireHook(tx, owner, hookId);
    const source = await store.findSource(tx.db, hook.id, id);
    if (!source) throw new NotFoundError();
    await store.insertMany(tx.db, [{ ...source, redelivery: true, url: hook.config.url }], nowIso(tx.clock), tx.clock.now().getTime());
    wakeWorkers(tx);
  });
}

// ---------------------------------------------------------------- repositories

export async function listRepositoryHookDeliveries(
  ctx: AppContext, actor: Actor, owner: string, name: string, hookId: number, q: ListDeliveriesQuery,
): Promise<DeliveryPage> {
  return list(ctx, await repositoryTarget(ctx, actor, owner, name, false), hookId, q);
}

export async function getRepositoryHookDelivery(
  ctx: AppContext, actor: Actor, owner: string, name: string, hookId: number, id: number,
): Promise<DeliveryDetail> {
  return get(ctx, await repositoryTarget(ctx, actor, owner, name, false), hookId, id);
}

export async function redeliverRepositoryHookDelivery(
  ctx: AppContext, actor: Actor, owner: string, name: string, hookId: number, id: number,
): Promise<void> {
  await redeliver(ctx, await repositoryTarget(ctx, actor, owner, name, true), hookId, id);
}

// ---------------------------------------------------------------- organizations

export async function listOrganizationHookDeliveries(
  ctx: AppContext, actor: Actor, org: string, hookId: number, q: ListDeliveriesQuery,
): Promise<DeliveryPage> {
  return list(ctx, await organizationTarget(ctx, actor, org), hookId, q);
}

export async function getOrganizationHookDelivery(ctx: AppContext, actor: Actor, org: string, hookId: number, id: number): Promise<DeliveryDetail> {
  return get(ctx, await organizationTarget(ctx, actor, org), hookId, id);
}

export async function redeliverOrganizationHookDelivery(ctx: AppContext, actor: Actor, org: string, hookId: number, id: number): Promise<void> {
  await redeliver(ctx, await organizationTarget(ctx, actor, org), hookId, id);
}

// ---------------------------------------------------------------- apps (their one hook; the caller checked the app's JWT)

/** The app's hook id; 404 when the app has no webhook. */
async function appHookOwner(ctx: AppContext, appId: number): Promise<{ owner: HookOwner; hookId: number }> {
  const hook = await appHook(ctx, appId);
  if (!hook) throw new NotFoundError();
  return { owner: { type: 'App', targetId: appId }, hookId: hook.id };
}

export async function listAppHookDeliveries(ctx: AppContext, appId: number, q: ListDeliveriesQuery): Promise<DeliveryPage> {
  const { owner, hookId } = await appHookOwner(ctx, appId);
  return list(ctx, owner, hookId, q);
}

export async function getAppHookDelivery(ctx: AppContext, appId: number, id: number): Promise<DeliveryDetail> {
  const { owner, hookId } = await appHookOwner(ctx, appId);
  return get(ctx, owner, hookId, id);
}

export async function redeliverAppHookDelivery(ctx: AppContext, appId: number, id: number): Promise<void> {
  const { owner, hookId } = await appHookOwner(ctx, appId);
  await redeliver(ctx, owner, hookId, id);
}

// ---------------------------------------------------------------- inspection

/** Every attempt of the delivery a listed one belongs to (the first and its retries), in order: what tests look at. */
export async function deliveryAttempts(ctx: AppContext, deliveryId: number): Promise<DeliveryAttempt[]> {
  return store.listAttempts(ctx.db, deliveryId);
}

/** Retention: removes up to `limit` finished deliveries queued before `before` (with their attempts). */
export function pruneFinishedDeliveries(ctx: AppContext, before: string, limit: number): Promise<number> {
  return store.pruneFinished(ctx.db, before, limit);
}

/** Retention: removes up to `limit` payloads stored before `before` that no delivery refers to. */
export function pruneUnreferencedPayloads(ctx: AppContext, before: string, limit: number): Promise<number> {
  return store.prunePayloads(ctx.db, before, limit);
}

/**
 * Delivery rows by state, for GET /metrics: pending and in_progress are the queue;
 * delivered and failed are outcomes, kept until retention prunes them (a failure that
 * is retried stays failed, its retry being a row of its own).
 */
export function deliveryCountsByState(ctx: AppContext): Promise<Record<DeliveryState, number>> {
  return store.countByState(ctx.db);
}
