// What the delivery worker (hooks.delivery-worker.ts) asks of the hooks module:
// which hooks an event goes to, queueing its deliveries, claiming due ones with what
// sending them needs, and recording how each attempt went (with the hook's
// last_response). The worker owns the timing and the HTTP; this owns the tables.
import { inTransaction, type AppContext } from '../../context.ts';
import { nowIso } from '../../domain/clock.ts';
import * as deliveries from './deliveries.store.ts';
import { subscribesTo, type Hook } from './hooks.model.ts';
import { openSecret } from './hooks.secrets.ts';
import * as store from './hooks.store.ts';
import { appSubscribers, withInstallation } from './hooks.apps.ts';

export type { AttemptRecord, NewDelivery, NewPayload } from './deliveries.store.ts';

/** An event as fan-out sees it. */
export interface EventRef {
  id: number;
  event: string;
  repositoryId: number | null;
  /** The organization the event belongs to, directly or through its repository. */
  organizationIds: readonly number[];
  /** Set for events meant for one hook only (ping, test, an app's installation events). */
  hookId: number | null;
  /** The installation an app's installation event is about. */
  installationId: number | null;
}

/** A hook an event goes to; app hooks get it for one installation of theirs. */
export interface Subscriber {
  hook: Hook;
  installationId: number | null;
}

/**
 * The hooks each event goes to: the named hook for ping and test events (and an app's
 * installation events); otherwise the active hooks of the event's repository and of its
 * organization that subscribe to the event (or to "*"), and the hooks of the apps
 * installed on the repository that may receive it.
 */
export async function subscribersOf(ctx: AppContext, refs: readonly EventRef[]): Promise<Map<number, Subscriber[]>> {
  const named = await store.findByIds(ctx.db, [...new Set(refs.flatMap((r) => (r.hookId === null ? [] : [r.hookId])))]);
  const broadcast = refs.filter((r) => r.hookId === null);
  const hooks = await store.findActiveFor(
    ctx.db,
    [...new Set(broadcast.flatMap((r) => (r.repositoryId === null ? [] : [r.repositoryId])))],
    [...new Set(broadcast.flatMap((r) => r.organizationIds))],
  );
  const apps = await appSubscribers(ctx, broadcast);
  const out = new Map<number, Subscriber[]>();
  for (const ref of refs) {
    const matched: Subscriber[] = ref.hookId !== null
      ? named.filter((h) => h.id === ref.hookId).map((hook) => ({ hook, installationId: ref.installationId }))
      : hooks.filter((h) => subscribesTo(h, ref.event) && (h.scope === 'repository'
        ? h.targetId === ref.repositoryId
        : ref.organizationIds.includes(h.targetId))).map((hook) => ({ hook, installationId: null }));
    matched.push(...(apps.get(ref.id) ?? []));
    if (matched.length) out.set(ref.id, matched);
  }
  return out;
}

/** Stores each event's payload once and queues its deliveries. */
export async function queueDeliveries(ctx: AppContext, payloads: readonly deliveries.NewPayload[], rows: readonly deliveries.NewDelivery[]): Promise<void> {
  const now = nowIso(ctx.clock);
  await deliveries.insertPayloads(ctx.db, payloads, now);
  await deliveries.insertMany(ctx.db, rows, now, ctx.clock.now().getTime());
}

export interface ClaimedDelivery extends deliveries.ClaimedRow {
  /** The payload as JSON text. */
  payload: string;
}

export interface ClaimOptions {
  /** Hooks this process is delivering to already: their rows wait. */
  busyHooks: readonly number[];
  /** Rows this process attempted and has yet to record: they do not hold their hook back. */
  settled: readonly number[];
  /** How many more hooks this process may deliver to at once. */
  maxHooks: number;
  /** At most this many deliveries per hook in one claim (sent one after the other). */
  perHook: number;
  /**
   * How long a claim holds without being renewed: one attempt and the recording of its
   * outcome. Every row of a batch gets the same lease, which the worker renews as it
   * goes through them; a process that dies leaves them all due again one lease later.
   */
  leaseMs: number;
}

/** What sending a delivery needs: the hook's settings and its secret, opened. */
export interface DeliveryTarget extends Omit<store.StoredTarget, 'storedSecret'> {
  secret: string | null;
  /** Set when the stored secret does not open (another key): nothing is sent unsigned. */
  secretError: string | null;
}

export interface Batch {
  hookId: number;
  /** null when the hook was deleted meanwhile (its deliveries went with it). */
  target: DeliveryTarget | null;
  deliveries: ClaimedDelivery[];
  /** The lease of every row of the batch (epoch ms): renewClaims and releaseClaims name it. */
  leaseUntil: number;
}

/**
 * Claims due deliveries, grouped per hook in queue order. A hook with a delivery out
 * (claimed here or by another process, finished or not) gets nothing until that one is
 * recorded or its lease ran out: a hook's events go out in order, across restarts.
 */
export async function claimDue(ctx: AppContext, o: ClaimOptions): Promise<Batch[]> {
  if (o.maxHooks <= 0) return [];
  return inTransaction(ctx, async (tx) => {
    const nowMs = tx.clock.now().getTime();
    const due = await deliveries.findDue(tx.db, nowMs, o.busyHooks, o.settled, o.maxHooks * o.perHook);
    const candidates = [...new Set(due.map((r) => r.hookId))];
    // Locked, then checked again: a claim another process committed before the lock is
    // seen by this later statement.
    const locked = await store.lockHooks(tx.db, tx.dialect, candidates);
    const held = await deliveries.hooksWithClaims(tx.db, [...locked], o.settled);
    const chosen = new Map<number, number[]>();
    for (const row of due) {
      if (!locked.has(row.hookId) || held.has(row.hookId)) continue;
      let ids = chosen.get(row.hookId);
      if (!ids) {
        if (chosen.size >= o.maxHooks) continue;
        ids = [];
        chosen.set(row.hookId, ids);
      }
      if (ids.length < o.perHook) ids.push(row.id);
    }
    const leaseUntil = nowMs + o.leaseMs;
    const claimed = await deliveries.claim(tx.db, [...chosen.values()].flat(), leaseUntil);
    if (claimed.length === 0) return [];
    const targets = await store.deliveryTargets(tx.db, [...chosen.keys()]);
    const payloads = await deliveries.payloadsOf(tx.db, claimed.map((d) => d.outboxId));
    const batches = new Map<number, Batch>();
    // Sent in queue order (claim returns rows by id), whatever order their retries fell due in.
    for (const row of claimed) {
      const d = { ...row, payload: withInstallation(payloads.get(row.outboxId) ?? '{}', row.installationId) };
      let batch = batches.get(d.hookId);
      if (!batch) {
        const stored = targets.get(d.hookId);
        batch = { hookId: d.hookId, target: stored ? openTarget(tx, stored) : null, deliveries: [], leaseUntil };
        batches.set(d.hookId, batch);
      }
      batch.deliveries.push(d);
    }
    return [...batches.values()];
  });
}

function openTarget(ctx: AppContext, stored: store.StoredTarget): DeliveryTarget {
  const { storedSecret, ...rest } = stored;
  if (storedSecret === null) return { ...rest, secret: null, secretError: null };
  try {
    return { ...rest, secret: openSecret(ctx, storedSecret), secretError: null };
  } catch (err) {
    ctx.log.error({ err, hookId: stored.id }, 'webhook secret does not open with this secret key: deliveries to the hook fail');
    return { ...rest, secret: null, secretError: (err as Error).message };
  }
}

/**
 * Extends the lease of a batch's rows still held under `leaseUntil` to `until`; returns
 * those still held (the others ran out and were taken again, or went with their hook).
 */
export async function renewClaims(ctx: AppContext, ids: readonly number[], leaseUntil: number, until: number): Promise<Set<number>> {
  return deliveries.renew(ctx.db, ids, leaseUntil, until);
}

/** Claims left by a process that stopped without finishing them go back to the queue. */
export async function releaseExpiredClaims(ctx: AppContext): Promise<number> {
  return deliveries.releaseExpired(ctx.db, ctx.clock.now().getTime());
}

/** Claims this process gives back without attempting them (shutdown). */
export async function releaseClaims(ctx: AppContext, ids: readonly number[], leaseUntil: number): Promise<void> {
  await deliveries.release(ctx.db, ids, leaseUntil);
}

export async function nextWakeAt(ctx: AppContext): Promise<number | null> {
  return deliveries.nextWakeAt(ctx.db);
}

export interface Outcome extends deliveries.AttemptRecord {
  hookId: number;
  /** The hook's last_response after this attempt. */
  lastResponse: Hook['lastResponse'];
}

/**
 * Records attempts (in the order made) and each hook's latest response, in one
 * transaction. A hook that took a delivery is answering again: what it has waiting for
 * a retry is due at once rather than after its back-off.
 */
export async function recordOutcomes(ctx: AppContext, outcomes: readonly Outcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  await inTransaction(ctx, async (tx) => {
    // Hooks first, then their deliveries: the order a hook's deletion (a repository
    // deleted meanwhile) locks them in, so the two cannot deadlock on PostgreSQL.
    const latest = new Map<number, Hook['lastResponse']>();
    for (const o of outcomes) if (o.sent) latest.set(o.hookId, o.lastResponse);
    await store.setLastResponses(tx.db, latest);
    await deliveries.recordAttempts(tx.db, outcomes);
    const answering = [...new Set(outcomes.filter((o) => o.outcome === 'delivered').map((o) => o.hookId))];
    await deliveries.bringForward(tx.db, answering, tx.clock.now().getTime());
  });
}
