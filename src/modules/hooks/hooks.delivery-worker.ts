// The webhook delivery worker: drains the outbox into per-hook delivery queues, then
// sends due deliveries, retrying what failed for a reason that may pass.
//
// - Fan-out (hooks.fan-out.ts): undispatched events in id order; for each, the hooks
//   it goes to get a delivery row, and the event is marked dispatched, in one
//   transaction.
// - Delivery: due rows are claimed (leased) in batches per hook; a hook's batch is sent
//   one request after the other, in queue order, so a receiver sees its events in the
//   order they happened. A hook with a delivery out (claimed by this or another process
//   and not yet recorded) gets nothing more until it is recorded or its lease ran out.
//   A delivery waiting for a retry does not hold back the later ones. Outcomes of all
//   hooks are recorded together every few milliseconds (attempt rows, the deliveries,
//   the hooks' last_response).
// - Retries: timeouts, connection failures and 5xx answers, after retryBaseMs, then
//   doubling, up to maxAttempts attempts and maxAgeMs after the delivery was queued.
//   A refused address and any other answer are final.
// - Leases: every row of a batch is leased for one attempt and its recording
//   (timeout + LEASE_MARGIN_MS), and the lease is renewed as the batch goes on, so a
//   long batch keeps its claims while its process lives.
// - Crashes: claims whose lease ran out (the process holding them died mid-batch) go
//   back to the queue one lease after the last renewal, whatever their place in the
//   batch, and are attempted again, before the hook's later deliveries: at least once,
//   in order.
// - Wake-up: at once after a commit that queued work in this process (ctx.bus.onWork,
//   src/events/wake.ts), at the next due retry, and at least every pollMs (work queued
//   by other processes).
import type { AppContext } from '../../context.ts';
import { isoSeconds } from '../../domain/clock.ts';
import * as hooks from './hooks.dispatch.ts';
import { AddressGuard } from './hooks.address-guard.ts';
import { fanOut } from './hooks.fan-out.ts';
import { WebhookSender, type SendResult } from './hooks.sender.ts';
import { buildRequest } from './hooks.request.ts';
import { sealUnsealedSecrets } from './hooks.secrets.ts';

export interface DeliveryWorkerOptions {
  allowedHosts: readonly string[];
  retryBaseMs: number;
  maxAttempts: number;
  maxAgeMs: number;
  timeoutMs: number;
  /** Hooks delivered to at the same time. */
  concurrency: number;
  pollMs: number;
}

/** Events fanned out per transaction. */
const FAN_OUT_BATCH = 100;
/** Deliveries of one hook claimed at once (sent one after the other). */
const PER_HOOK_BATCH = 20;
/** Outcomes wait at most this long to be written, together. */
const FLUSH_MS = 20;
/** Response bodies are kept up to this size. */
const MAX_RESPONSE_BYTES = 16 * 1024;
/** Passes are at least this far apart (see nudge). */
const MIN_PASS_INTERVAL_MS = 25;
/** Beyond the request time-out, what a lease allows for recording the outcome. */
const LEASE_MARGIN_MS = 2000;
/** A batch renews its lease before an attempt that the lease left would not cover with this much to spare. */
const RENEW_MARGIN_MS = 1000;

export class DeliveryWorker {
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private pass: Promise<void> | null = null;
  private again = false;
  private lastPassAt = -Infinity;
  private lastRecovery = 0;
  private secretsSealed = false;
  private unsubscribe: (() => void) | null = null;
  private readonly inFlight = new Map<number, Promise<void>>();
  private readonly unrecorded: hooks.Outcome[] = [];
  /** Deliveries attempted whose outcome is not written yet (they no longer hold their hook back). */
  private readonly settled = new Set<number>();
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private readonly stopping = new AbortController();
  private readonly sender: WebhookSender;

  constructor(private readonly ctx: AppContext, private readonly options: DeliveryWorkerOptions) {
    this.sender = new WebhookSender(new AddressGuard(options.allowedHosts, ctx.config.webhookDnsServers), {
      timeoutMs: options.timeoutMs, maxResponseBytes: MAX_RESPONSE_BYTES,
    });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.ctx.bus.onWork(() => this.nudge(), 'outbox');
    this.nudge();
  }

  /**
   * Runs a pass soon: at once after a quiet spell, otherwise at most one pass per
   * MIN_PASS_INTERVAL_MS, so that under a stream of writes the worker takes events and
   * outcomes in batches instead of competing with every request for the database.
   */
  nudge(): void {
    if (!this.running) return;
    if (this.pass) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const wait = Math.max(0, this.lastPassAt + MIN_PASS_INTERVAL_MS - performance.now());
    this.pass = new Promise<void>((resolve) => (wait > 0 ? setTimeout(resolve, wait) : setImmediate(resolve)))
      .then(() => this.runPass())
      .finally(() => {
        this.pass = null;
        // Nudged while the pass ran: another one (throttled).
        if (this.again && this.running) {
          this.again = false;
          this.nudge();
        }
      });
  }

  /**
   * Stops taking work, lets requests in flight finish (up to the request time-out),
   * then gives back the claims not attempted, so another process or the next start
   * delivers them.
   */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    await this.pass;
    const drained = Promise.allSettled([...this.inFlight.values()]);
    let deadline: NodeJS.Timeout | undefined;
    await Promise.race([drained, new Promise((resolve) => { deadline = setTimeout(resolve, this.options.timeoutMs); })]);
    clearTimeout(deadline);
    this.stopping.abort();
    await drained;
    await this.flushNow();
    await this.sender.close();
  }

  /** Fans out what the outbox holds, then claims and starts what is due. */
  private async runPass(): Promise<void> {
    this.lastPassAt = performance.now();
    this.again = false;
    let delay = this.options.pollMs;
    try {
      while (this.running && await fanOut(this.ctx, FAN_OUT_BATCH) === FAN_OUT_BATCH);
      if (!this.running) return;
      await this.sealUnsealedSecrets();
      await this.recoverExpiredClaims();
      await this.claimAndSend();
      delay = await this.nextDelay();
    } catch (err) {
      this.ctx.log.error({ err }, 'webhook delivery pass failed');
    }
    if (this.running && !this.again) {
      this.timer = setTimeout(() => this.nudge(), delay);
      this.timer.unref();
    }
  }

  // ---------------------------------------------------------------- delivery

  /** Once per start: hook secrets stored before sealing are sealed. */
  private async sealUnsealedSecrets(): Promise<void> {
    if (this.secretsSealed) return;
    const sealed = await sealUnsealedSecrets(this.ctx);
    this.secretsSealed = true;
    if (sealed) this.ctx.log.info({ sealed }, 'webhook secrets stored in plaintext are now sealed');
  }

  private async recoverExpiredClaims(): Promise<void> {
    const now = Date.now();
    if (now - this.lastRecovery < this.options.pollMs) return;
    this.lastRecovery = now;
    const released = await hooks.releaseExpiredClaims(this.ctx);
    if (released) this.ctx.log.warn({ released }, 'webhook deliveries left unfinished by a stopped process are queued again');
  }

  private async claimAndSend(): Promise<void> {
    const free = this.options.concurrency - this.inFlight.size;
    if (free <= 0) return;
    const batches = await hooks.claimDue(this.ctx, {
      busyHooks: [...this.inFlight.keys()], settled: [...this.settled], maxHooks: free, perHook: PER_HOOK_BATCH,
      leaseMs: this.leaseMs,
    });
    for (const batch of batches) {
      const run = this.sendBatch(batch).catch((err: unknown) => {
        this.ctx.log.error({ err, hookId: batch.hookId }, 'webhook delivery batch failed; its claims will expire and be retried');
      }).finally(() => {
        this.inFlight.delete(batch.hookId);
        this.nudge();
      });
      this.inFlight.set(batch.hookId, run);
    }
  }

  private async nextDelay(): Promise<number> {
    const next = await hooks.nextWakeAt(this.ctx);
    if (next === null) return this.options.pollMs;
    const wait = next - this.ctx.clock.now().getTime();
    // Due already but not claimed: held by a busy hook or another process; a finishing
    // batch nudges, the poll covers the rest.
    return wait > 0 ? Math.min(wait, this.options.pollMs) : this.options.pollMs;
  }

  private get leaseMs(): number {
    return this.options.timeoutMs + LEASE_MARGIN_MS;
  }

  private async sendBatch(batch: hooks.Batch): Promise<void> {
    const { target } = batch;
    if (!target) return;
    let leaseUntil = batch.leaseUntil;
    let rest = batch.deliveries;
    while (rest.length) {
      const nowMs = this.ctx.clock.now().getTime();
      if (this.running && leaseUntil - nowMs < this.options.timeoutMs + RENEW_MARGIN_MS) {
        const until = nowMs + this.leaseMs;
        const kept = await hooks.renewClaims(this.ctx, rest.map((x) => x.id), leaseUntil, until);
        leaseUntil = until;
        if (kept.size < rest.length) {
          // Ran out and taken again (this process stalled), or gone with the hook: the
          // holder now sends them.
          this.ctx.log.warn({ hookId: batch.hookId, lost: rest.length - kept.size }, 'webhook delivery claims lost before they were attempted');
          rest = rest.filter((x) => kept.has(x.id));
          continue;
        }
      }
      const [d, ...later] = rest as [hooks.ClaimedDelivery, ...hooks.ClaimedDelivery[]];
      const outcome = this.running ? await this.attempt(target, d) : null;
      if (!outcome) {
        // Stopping: what was not attempted goes back to the queue.
        await hooks.releaseClaims(this.ctx, rest.map((x) => x.id), leaseUntil);
        return;
      }
      this.record(outcome);
      rest = later;
    }
  }

  // ---------------------------------------------------------------- outcomes

  /**
   * Outcomes of every hook are written together, FLUSH_MS after the first one waiting:
   * a few statements per flush rather than per delivery. (One lost to a crash before
   * its flush is sent again when its lease runs out: at least once.)
   */
  private record(outcome: hooks.Outcome): void {
    this.unrecorded.push(outcome);
    this.settled.add(outcome.deliveryId);
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.flushTimer || this.flushing || this.unrecorded.length === 0) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.flushing = this.flush().finally(() => {
        this.flushing = null;
        this.scheduleFlush();
      });
    }, FLUSH_MS);
  }

  private async flush(): Promise<void> {
    const outcomes = this.unrecorded.splice(0);
    if (outcomes.length === 0) return;
    try {
      await hooks.recordOutcomes(this.ctx, outcomes);
    } catch (err) {
      this.ctx.log.error({ err, outcomes: outcomes.length }, 'recording webhook outcomes failed; the deliveries will be retried when their claims expire');
      return;
    } finally {
      // Written, or left to their leases (which hold their hooks until they run out).
      for (const o of outcomes) this.settled.delete(o.deliveryId);
    }
    // A retry was scheduled, or a hook is free again: the next pass may have work sooner
    // than planned.
    this.nudge();
  }

  /** Writes what is waiting (shutdown). */
  private async flushNow(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    await this.flushing;
    await this.flush();
  }

  /** One attempt; null when shutdown stopped it (not an attempt). */
  private async attempt(target: hooks.DeliveryTarget, d: hooks.ClaimedDelivery): Promise<hooks.Outcome | null> {
    const attempt = d.attempts + 1;
    const started = this.ctx.clock.now();
    const base = { deliveryId: d.id, hookId: target.id, attempt, deliveredAt: isoSeconds(started), url: target.url };
    // Switching a hook off stops what it had queued; a ping or a redelivery asked for
    // by hand still goes.
    if (!target.active && d.event !== 'ping' && !d.redelivery) {
      return {
        ...base, outcome: 'failed', state: 'failed', nextAttemptAt: started.getTime(), duration: 0,
        status: 'Hook is not active', statusCode: 0, requestHeaders: {}, responseHeaders: null, responseBody: null,
        sent: false, lastResponse: { code: null, status: 'unused', message: null },
      };
    }
    // A secret that does not open (sealed under another key) is never replaced by no
    // signature: the delivery fails, and says why.
    if (target.secretError) {
      return {
        ...base, outcome: 'failed', state: 'failed', nextAttemptAt: started.getTime(), duration: 0,
        status: 'Secret cannot be decrypted with this server\'s secret key', statusCode: 0, requestHeaders: {},
        responseHeaders: null, responseBody: null, sent: false,
        lastResponse: { code: null, status: 'failed', message: 'Secret cannot be decrypted with this server\'s secret key' },
      };
    }
    const req = buildRequest({
      guid: d.guid, event: d.event, hookId: target.id, targetType: target.scope === 'app' ? 'integration' : target.scope, targetId: target.targetId,
      contentType: target.contentType, secret: target.secret, payload: d.payload,
    });
    const res = await this.sender.send(target.url, req, target.insecureSsl, this.stopping.signal);
    if (res.kind === 'aborted') return null;
    const judged = judge(res);
    const nowMs = this.ctx.clock.now().getTime();
    const wait = this.options.retryBaseMs * 2 ** (attempt - 1);
    const retry = judged.retryable && attempt < this.options.maxAttempts
      && nowMs + wait - Date.parse(d.createdAt) <= this.options.maxAgeMs;
    return {
      ...base,
      outcome: judged.delivered ? 'delivered' : res.kind === 'refused' ? 'refused' : retry ? 'retry' : 'failed',
      state: judged.delivered ? 'delivered' : retry ? 'pending' : 'failed',
      nextAttemptAt: retry ? nowMs + wait : nowMs,
      duration: Math.round(res.durationMs) / 1000,
      status: judged.status,
      statusCode: judged.statusCode,
      requestHeaders: req.headers,
      responseHeaders: res.kind === 'response' ? res.headers : null,
      responseBody: res.kind === 'response' ? res.body : null,
      sent: true,
      lastResponse: {
        code: res.kind === 'response' ? res.statusCode : null,
        status: judged.delivered ? 'active' : 'failed',
        message: judged.status,
      },
    };
  }
}

/** How an attempt reads: upstream's status text, and whether trying again may help. */
function judge(res: Exclude<SendResult, { kind: 'aborted' }>): { delivered: boolean; retryable: boolean; status: string; statusCode: number } {
  if (res.kind !== 'response') return { delivered: false, retryable: res.kind !== 'refused', status: res.message, statusCode: 0 };
  const ok = res.statusCode >= 200 && res.statusCode < 300;
  return {
    delivered: ok,
    retryable: res.statusCode >= 500,
    status: ok ? 'OK' : `Invalid HTTP Response: ${res.statusCode}`,
    statusCode: res.statusCode,
  };
}
