// Retention (WHARF_RETENTION_DAYS): what only records the past is pruned once it is older
// than the configured age — dispatched events (the outbox, which the events API reads),
// finished webhook deliveries with their attempts, and payloads no delivery refers to
// any more. A pass runs soon after start and then every hour; it deletes in small
// batches, each its own statement, so that no request waits long behind it. Several
// processes may prune at once: deleting what is already gone is harmless.
import type { AppContext } from '../../context.ts';
import { isoSeconds } from '../../domain/clock.ts';
import { pruneDispatched } from '../../events/outbox.ts';
import * as deliveries from '../hooks/deliveries.service.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const INTERVAL_MS = 60 * 60 * 1000;
/** The first pass waits this long after start: starting up comes first. */
const FIRST_PASS_MS = 60 * 1000;
const BATCH = 500;

export interface Pruned {
  events: number;
  deliveries: number;
  payloads: number;
}

export class RetentionWorker {
  private timer: NodeJS.Timeout | null = null;
  private pass: Promise<Pruned> | null = null;
  private running = false;

  constructor(private readonly ctx: AppContext) {}

  start(): void {
    if (this.running || this.ctx.config.retentionDays === 0) return;
    this.running = true;
    this.schedule(FIRST_PASS_MS);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.pass?.catch(() => undefined);
  }

  /** One pass now (tests, and the timer): what it removed. Nothing when retention is off. */
  runOnce(): Promise<Pruned> {
    this.pass ??= this.prune().finally(() => { this.pass = null; });
    return this.pass;
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.runOnce()
        .catch((err: unknown) => this.ctx.log.error({ err }, 'retention pass failed'))
        .finally(() => { if (this.running) this.schedule(INTERVAL_MS); });
    }, ms);
    this.timer.unref();
  }

  private async prune(): Promise<Pruned> {
    const pruned: Pruned = { events: 0, deliveries: 0, payloads: 0 };
    const days = this.ctx.config.retentionDays;
    if (days === 0) return pruned;
    const before = isoSeconds(new Date(this.ctx.clock.now().getTime() - days * DAY_MS));
    // Deliveries before payloads: a payload goes once no delivery refers to it.
    pruned.deliveries = await this.inBatches((n) => deliveries.pruneFinishedDeliveries(this.ctx, before, n));
    pruned.payloads = await this.inBatches((n) => deliveries.pruneUnreferencedPayloads(this.ctx, before, n));
    pruned.events = await this.inBatches((n) => pruneDispatched(this.ctx, before, n));
    if (pruned.events || pruned.deliveries || pruned.payloads) this.ctx.log.info({ ...pruned, before }, 'retention: pruned');
    return pruned;
  }

  private async inBatches(batch: (limit: number) => Promise<number>): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await batch(BATCH);
      total += n;
      if (n < BATCH) return total;
      // Requests first between batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
