// SQL for webhook deliveries and their attempts. Only the hooks module calls this.
//
// A delivery row holds the queue state and its outcome; what its attempt sent and got
// back is an attempt row, written once. As upstream lists every attempt as a delivery of
// its own, a retry is queued as a new row (same GUID, `first_id` pointing at the row
// first queued), so each row carries one attempt: reads join it (attempt = the row's
// attempts count). The payload is stored once per event (hook_payloads), whatever the
// number of hooks, retries and redeliveries.
import type { Executor } from '../../db/database.ts';
import type { HookDeliveryAttemptsTable } from '../../db/schema.ts';
import type { AttemptOutcome, Delivery, DeliveryAttempt, DeliveryDetail, DeliveryState } from './hooks.model.ts';

function parseObject<T>(text: string | null): T | null {
  return text === null ? null : JSON.parse(text) as T;
}

/**
 * Deliveries with their attempt (none before it is made). A retry not yet made is not
 * shown (upstream shows attempts, not a queue); a first delivery is, as "pending".
 */
function withLatestAttempt(db: Executor) {
  return db.selectFrom('hook_deliveries as d')
    .leftJoin('hook_delivery_attempts as a', (j) => j.onRef('a.delivery_id', '=', 'd.id').onRef('a.attempt', '=', 'd.attempts'))
    .where((eb) => eb.or([eb('d.first_id', 'is', null), eb('a.id', 'is not', null)]))
    .select([
      'd.id', 'd.hook_id', 'd.guid', 'd.event', 'd.action', 'd.repository_id', 'd.installation_id', 'd.redelivery', 'd.state',
      'd.attempts', 'd.created_at', 'd.url', 'd.status', 'd.status_code', 'a.delivered_at', 'a.duration', 'a.url as attempt_url',
    ]);
}

type ItemRow = Awaited<ReturnType<ReturnType<typeof withLatestAttempt>['executeTakeFirstOrThrow']>>;

function toDelivery(r: ItemRow): Delivery {
  return {
    id: r.id,
    hookId: r.hook_id,
    guid: r.guid,
    event: r.event,
    action: r.action,
    repositoryId: r.repository_id,
    installationId: r.installation_id,
    redelivery: Number(r.redelivery) === 1,
    state: r.state,
    attempts: r.attempts,
    createdAt: r.created_at,
    deliveredAt: r.delivered_at ?? r.created_at,
    duration: r.duration === null ? 0 : Number(r.duration),
    url: r.attempt_url ?? r.url,
    status: r.status,
    statusCode: r.status_code,
  };
}

// ---------------------------------------------------------------- queueing

export interface NewDelivery {
  hookId: number;
  guid: string;
  event: string;
  action: string | null;
  repositoryId: number | null;
  /** The app installation the delivery is for (app hooks): its payload gains `installation`. */
  installationId: number | null;
  /** The event (its payload must be stored with insertPayloads). */
  outboxId: number;
  redelivery: boolean;
  /** Where the hook points now. */
  url: string;
}

export interface NewPayload {
  outboxId: number;
  /** JSON text. */
  payload: string;
}

export async function insertPayloads(db: Executor, rows: readonly NewPayload[], now: string): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    await db.insertInto('hook_payloads')
      .values(rows.slice(i, i + 500).map((r) => ({ outbox_id: r.outboxId, payload: r.payload, created_at: now })))
      .execute();
  }
}

/** Payloads by event. */
export async function payloadsOf(db: Executor, outboxIds: readonly number[]): Promise<Map<number, string>> {
  if (outboxIds.length === 0) return new Map();
  const rows = await db.selectFrom('hook_payloads').select(['outbox_id', 'payload']).where('outbox_id', 'in', [...new Set(outboxIds)]).execute();
  return new Map(rows.map((r) => [r.outbox_id, r.payload]));
}

export async function insertMany(db: Executor, rows: readonly NewDelivery[], now: string, nowMs: number): Promise<void> {
  // Bounded statement size: SQLite takes at most 32,766 parameters.
  for (let i = 0; i < rows.length; i += 500) {
    await db.insertInto('hook_deliveries').values(rows.slice(i, i + 500).map((r) => ({
      hook_id: r.hookId,
      guid: r.guid,
      event: r.event,
      action: r.action,
      repository_id: r.repositoryId,
      installation_id: r.installationId,
      outbox_id: r.outboxId,
      redelivery: r.redelivery ? 1 : 0,
      state: 'pending' as const,
      attempts: 0,
      next_attempt_at: nowMs,
      lease_until: null,
      created_at: now,
      url: r.url,
      status: 'pending',
      status_code: 0,
    }))).execute();
  }
}

// ---------------------------------------------------------------- claims

export interface DueRow {
  id: number;
  hookId: number;
}

/**
 * Due deliveries in the order they are due, of hooks that have none out (claimed, by
 * any process): a hook's queue is sent in order, so nothing of it is claimed while an
 * earlier delivery is out. A claim left by a process that died holds its hook until
 * the lease runs out and the delivery is queued again, to be sent first.
 * `settled`: rows this process has attempted and is about to record; they no longer
 * hold their hook back. Those of `busyHooks` (being delivered by this process) are left
 * for later. Nothing is locked: the caller locks the hooks, then checks again
 * (hooksWithClaims).
 */
export async function findDue(
  db: Executor, nowMs: number, busyHooks: readonly number[], settled: readonly number[], limit: number,
): Promise<DueRow[]> {
  let q = db.selectFrom('hook_deliveries as d').select(['d.id', 'd.hook_id'])
    .where('d.state', '=', 'pending').where('d.next_attempt_at', '<=', nowMs)
    .where(({ not, exists, selectFrom }) => {
      let out = selectFrom('hook_deliveries as x').select('x.id')
        .whereRef('x.hook_id', '=', 'd.hook_id').where('x.state', '=', 'in_progress');
      if (settled.length) out = out.where('x.id', 'not in', settled);
      return not(exists(out));
    });
  if (busyHooks.length) q = q.where('d.hook_id', 'not in', busyHooks);
  const rows = await q.orderBy('d.next_attempt_at').orderBy('d.id').limit(limit).execute();
  return rows.map((r) => ({ id: r.id, hookId: r.hook_id }));
}

/** Which of these hooks have deliveries out (claimed), leaving out `settled` rows. */
export async function hooksWithClaims(db: Executor, hookIds: readonly number[], settled: readonly number[]): Promise<Set<number>> {
  if (hookIds.length === 0) return new Set();
  let q = db.selectFrom('hook_deliveries').select('hook_id').distinct()
    .where('hook_id', 'in', hookIds).where('state', '=', 'in_progress');
  if (settled.length) q = q.where('id', 'not in', settled);
  return new Set((await q.execute()).map((r) => r.hook_id));
}

export interface ClaimedRow {
  id: number;
  hookId: number;
  guid: string;
  event: string;
  action: string | null;
  outboxId: number;
  installationId: number | null;
  redelivery: boolean;
  attempts: number;
  createdAt: string;
}

/**
 * Marks the rows as being delivered, all leased until `leaseUntil` (the holder renews
 * the lease while it works through them: renew). Rows another worker took meanwhile
 * are not returned.
 */
export async function claim(db: Executor, ids: readonly number[], leaseUntil: number): Promise<ClaimedRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.updateTable('hook_deliveries')
    .set({ state: 'in_progress' as const, lease_until: leaseUntil })
    .where('id', 'in', ids).where('state', '=', 'pending')
    .returning(['id', 'hook_id', 'guid', 'event', 'action', 'outbox_id', 'installation_id', 'redelivery', 'attempts', 'created_at'])
    .execute();
  return rows.sort((a, b) => a.id - b.id).map((row) => ({
    id: row.id, hookId: row.hook_id, guid: row.guid, event: row.event, action: row.action, outboxId: row.outbox_id, installationId: row.installation_id,
    redelivery: Number(row.redelivery) === 1, attempts: row.attempts, createdAt: row.created_at,
  }));
}

/**
 * Extends the lease of claims still held under `leaseUntil` (the lease a claim's holder
 * knows; a claim that ran out and was taken again carries a later one); returns the ids
 * still held.
 */
export async function renew(db: Executor, ids: readonly number[], leaseUntil: number, until: number): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.updateTable('hook_deliveries').set({ lease_until: until })
    .where('id', 'in', ids).where('state', '=', 'in_progress').where('lease_until', '=', leaseUntil)
    .returning('id').execute();
  return new Set(rows.map((r) => r.id));
}

/** Claims whose lease ran out (the process holding them died) go back to the queue. */
export async function releaseExpired(db: Executor, nowMs: number): Promise<number> {
  const res = await db.updateTable('hook_deliveries').set({ state: 'pending', lease_until: null })
    .where('state', '=', 'in_progress').where('lease_until', '<=', nowMs).executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Claims given back unattempted (shutdown), if still held under `leaseUntil`: due again at once. */
export async function release(db: Executor, ids: readonly number[], leaseUntil: number): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('hook_deliveries').set({ state: 'pending', lease_until: null })
    .where('id', 'in', ids).where('state', '=', 'in_progress').where('lease_until', '=', leaseUntil).execute();
}

/** When the worker next has something to do: the earliest due time or lease end. */
export async function nextWakeAt(db: Executor): Promise<number | null> {
  // Two index-ordered lookups rather than one aggregate over the whole queue.
  const [due, lease] = await Promise.all([
    db.selectFrom('hook_deliveries').select('next_attempt_at as at').where('state', '=', 'pending')
      .orderBy('next_attempt_at').limit(1).executeTakeFirst(),
    db.selectFrom('hook_deliveries').select('lease_until as at').where('state', '=', 'in_progress')
      .where('lease_until', 'is not', null).orderBy('lease_until').limit(1).executeTakeFirst(),
  ]);
  const times = [due?.at, lease?.at].filter((t): t is number => t !== null && t !== undefined).map(Number);
  return times.length ? Math.min(...times) : null;
}

// ---------------------------------------------------------------- outcomes

export interface AttemptRecord {
  deliveryId: number;
  attempt: number;
  outcome: AttemptOutcome;
  state: DeliveryState;
  nextAttemptAt: number;
  deliveredAt: string;
  duration: number;
  url: string;
  status: string;
  statusCode: number;
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string> | null;
  responseBody: string | null;
  /** false when nothing was sent (the hook was switched off): no attempt row. */
  sent: boolean;
}

/**
 * Writes attempts and the deliveries' new state in a few statements whatever their
 * number: deliveries are updated together per outcome; only those to be retried need
 * statements each (their retry is a new row, due at its own time).
 */
export async function recordAttempts(db: Executor, all: readonly AttemptRecord[]): Promise<void> {
  if (all.length === 0) return;
  // A hook deleted while its deliveries were out took their rows with it.
  const existing = new Set((await db.selectFrom('hook_deliveries').select('id').where('id', 'in', all.map((r) => r.deliveryId)).execute()).map((r) => r.id));
  const records = all.filter((r) => existing.has(r.deliveryId));
  const sent = records.filter((r) => r.sent);
  if (sent.length) {
    await db.insertInto('hook_delivery_attempts').values(sent.map((r): Omit<HookDeliveryAttemptsTable, 'id'> => ({
      delivery_id: r.deliveryId,
      attempt: r.attempt,
      outcome: r.outcome,
      delivered_at: r.deliveredAt,
      duration: r.duration,
      url: r.url,
      status: r.status,
      status_code: r.statusCode,
      request_headers: JSON.stringify(r.requestHeaders),
      response_headers: r.responseHeaders === null ? null : JSON.stringify(r.responseHeaders),
      response_body: r.responseBody,
    }))).execute();
  }
  const finished = new Map<string, { r: AttemptRecord; state: DeliveryState; ids: number[] }>();
  for (const r of records) {
    if (r.state === 'pending') await queueRetry(db, r);
    // The attempt itself is over either way: a retry goes on as its own delivery.
    const state = r.state === 'pending' ? 'failed' : r.state;
    const key = JSON.stringify([state, r.status, r.statusCode, r.sent]);
    const group = finished.get(key);
    if (group) group.ids.push(r.deliveryId);
    else finished.set(key, { r, state, ids: [r.deliveryId] });
  }
  for (const { r, state, ids } of finished.values()) {
    await db.updateTable('hook_deliveries').set((eb) => ({
      state, lease_until: null, status: r.status, status_code: r.statusCode,
      ...(r.sent ? { attempts: eb('attempts', '+', 1) } : {}),
    })).where('id', 'in', ids).execute();
  }
}

/**
 * Queues the next attempt of a delivery as a new row of the same event and GUID. It
 * keeps the first row's creation time (the age limit on retries counts from it) and
 * carries the attempt count, so the worker numbers and spaces the attempts as before.
 */
async function queueRetry(db: Executor, r: AttemptRecord): Promise<void> {
  const d = await db.selectFrom('hook_deliveries').selectAll().where('id', '=', r.deliveryId).executeTakeFirstOrThrow();
  await db.insertInto('hook_deliveries').values({
    hook_id: d.hook_id, guid: d.guid, event: d.event, action: d.action, repository_id: d.repository_id,
    installation_id: d.installation_id, outbox_id: d.outbox_id, redelivery: d.redelivery, state: 'pending', attempts: r.attempt,
    next_attempt_at: r.nextAttemptAt, lease_until: null, created_at: d.created_at, url: d.url, status: 'pending', status_code: 0,
    first_id: d.first_id ?? d.id,
  }).execute();
}

/** A hook that answers again: its deliveries waiting for a retry are due now. */
export async function bringForward(db: Executor, hookIds: readonly number[], nowMs: number): Promise<void> {
  if (hookIds.length === 0) return;
  await db.updateTable('hook_deliveries').set({ next_attempt_at: nowMs })
    .where('hook_id', 'in', hookIds).where('state', '=', 'pending').where('next_attempt_at', '>', nowMs).execute();
}

// ---------------------------------------------------------------- reads

export interface ListFilter {
  /** Deliveries with this id or older (the cursor). */
  startId: number | null;
  /** success: status codes 200–399; failure: 400–599. */
  status?: 'success' | 'failure';
  limit: number;
}

/** A hook's deliveries, newest first. */
export async function listForHook(db: Executor, hookId: number, f: ListFilter): Promise<Delivery[]> {
  let q = withLatestAttempt(db).where('d.hook_id', '=', hookId);
  if (f.startId !== null) q = q.where('d.id', '<=', f.startId);
  if (f.status === 'success') q = q.where('d.status_code', '>=', 200).where('d.status_code', '<=', 399);
  if (f.status === 'failure') q = q.where('d.status_code', '>=', 400).where('d.status_code', '<=', 599);
  const rows = await q.orderBy('d.id', 'desc').limit(f.limit).execute();
  return rows.map(toDelivery);
}

export async function findForHook(db: Executor, hookId: number, id: number): Promise<DeliveryDetail | null> {
  const row = await withLatestAttempt(db)
    .innerJoin('hook_payloads as p', 'p.outbox_id', 'd.outbox_id')
    .select(['p.payload as request_payload', 'a.request_headers', 'a.response_headers', 'a.response_body'])
    .where('d.hook_id', '=', hookId).where('d.id', '=', id).executeTakeFirst();
  if (!row) return null;
  return {
    ...toDelivery(row),
    requestHeaders: parseObject<Record<string, string>>(row.request_headers),
    requestPayload: JSON.parse(row.request_payload) as Record<string, unknown>,
    responseHeaders: parseObject<Record<string, string>>(row.response_headers),
    responseBody: row.response_body,
  };
}

/** What redelivering a delivery queues again: the same event (payload) and GUID. */
export async function findSource(db: Executor, hookId: number, id: number): Promise<Omit<NewDelivery, 'url' | 'redelivery'> | null> {
  const r = await db.selectFrom('hook_deliveries')
    .select(['hook_id', 'guid', 'event', 'action', 'repository_id', 'installation_id', 'outbox_id'])
    .where('hook_id', '=', hookId).where('id', '=', id).executeTakeFirst();
  return r ? {
    hookId: r.hook_id, guid: r.guid, event: r.event, action: r.action, repositoryId: r.repository_id,
    installationId: r.installation_id, outboxId: r.outbox_id,
  } : null;
}

/** Every attempt of the delivery that the row `deliveryId` is an attempt of (retries included), in order. */
export async function listAttempts(db: Executor, deliveryId: number): Promise<DeliveryAttempt[]> {
  const row = await db.selectFrom('hook_deliveries').select(['id', 'first_id']).where('id', '=', deliveryId).executeTakeFirst();
  if (!row) return [];
  const first = row.first_id ?? row.id;
  const rows = await db.selectFrom('hook_delivery_attempts as a').innerJoin('hook_deliveries as d', 'd.id', 'a.delivery_id')
    .selectAll('a').where((eb) => eb.or([eb('d.id', '=', first), eb('d.first_id', '=', first)]))
    .orderBy('a.attempt').execute();
  return rows.map((r) => ({
    attempt: r.attempt,
    outcome: r.outcome,
    deliveredAt: r.delivered_at,
    duration: Number(r.duration),
    url: r.url,
    status: r.status,
    statusCode: r.status_code,
    requestHeaders: JSON.parse(r.request_headers) as Record<string, string>,
    responseHeaders: parseObject<Record<string, string>>(r.response_headers),
    responseBody: r.response_body,
  }));
}

// ---------------------------------------------------------------- retention

/**
 * Retention's batches: finished deliveries, and payloads no delivery refers to, queued
 * before `before`. Picked through the created_at indexes (migration 0051), not by
 * reading the table from its first row.
 */
export function prunableDeliveries(db: Executor, before: string, limit: number) {
  return db.selectFrom('hook_deliveries').select('id')
    .where('created_at', '<', before).where('state', 'in', ['delivered', 'failed']).limit(limit);
}

export function prunablePayloads(db: Executor, before: string, limit: number) {
  return db.selectFrom('hook_payloads as p').select('p.outbox_id')
    .where('p.created_at', '<', before)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('hook_deliveries as d').select('d.id').whereRef('d.outbox_id', '=', 'p.outbox_id'))))
    .limit(limit);
}

/**
 * Removes up to `limit` finished deliveries (delivered or failed) queued before
 * `before`, with their attempts (by cascade); returns how many went. Pending and
 * in-progress ones stay whatever their age: their retries are bounded on their own.
 */
export async function pruneFinished(db: Executor, before: string, limit: number): Promise<number> {
  const res = await db.deleteFrom('hook_deliveries').where('id', 'in', prunableDeliveries(db, before, limit)).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** How many delivery rows are in each state (GET /metrics; the claim's index covers it). */
export async function countByState(db: Executor): Promise<Record<DeliveryState, number>> {
  const rows = await db.selectFrom('hook_deliveries').select(['state', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('state').execute();
  const counts: Record<DeliveryState, number> = { pending: 0, in_progress: 0, delivered: 0, failed: 0 };
  for (const r of rows) counts[r.state] = Number(r.n);
  return counts;
}

/** Removes up to `limit` payloads stored before `before` that no delivery left refers to. */
export async function prunePayloads(db: Executor, before: string, limit: number): Promise<number> {
  const res = await db.deleteFrom('hook_payloads').where('outbox_id', 'in', prunablePayloads(db, before, limit)).executeTakeFirst();
  return Number(res.numDeletedRows);
}
