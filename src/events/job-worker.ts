// The loop every background job worker shares (search indexing, migration exports,
// source imports …): woken at once by work committed in this process
// (ctx.bus.onWork) and every pollMs for work queued by other processes; one pass at a
// time, a wake-up during a pass runs another right after; stop() waits for the pass
// under way; idle() resolves once nothing is left that could be taken now (tests and
// CLI commands wait on it). A subclass says how to run a pass and how to count what
// is waiting.
import type { AppContext } from '../context.ts';
import type { WorkKind } from './bus.ts';

export abstract class JobWorker {
  protected running = false;
  private pass: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  /** The work that wakes this worker at once (bus.ts); a worker with a queue of its own names it. */
  protected readonly wakesOn: WorkKind = 'jobs';

  constructor(protected readonly ctx: AppContext, private readonly pollMs: number) {}

  /** Takes and does the work waiting now; returns when none is left (or the worker stops). Logs its own failures. */
  protected abstract runPass(): Promise<void>;

  /** How many jobs could be taken now. */
  protected abstract countClaimable(): Promise<number>;

  /**
   * A pass for workers that take one job at a time: claim one, run it, until none is
   * left or the worker stops; a failure ends the pass, logged as `what`.
   */
  protected async claimEach(claim: () => Promise<number | null>, run: (id: number) => Promise<void>, what: string): Promise<void> {
    try {
      for (;;) {
        if (!this.running) return;
        const id = await claim();
        if (id === null) return;
        await run(id);
      }
    } catch (err) {
      this.ctx.log.error({ err }, `${what} pass failed`);
    }
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.ctx.bus.onWork(() => this.nudge(), this.wakesOn);
    this.nudge();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    await this.pass;
  }

  nudge(): void {
    if (!this.running) return;
    if (this.pass) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.again = false;
    this.pass = this.runPass().finally(() => {
      this.pass = null;
      if (this.again && this.running) {
        this.again = false;
        this.nudge();
      } else if (this.running) {
        this.timer = setTimeout(() => this.nudge(), this.pollMs);
        this.timer.unref();
      }
    });
  }

  /** Resolves once nothing is left that this worker could take now. */
  async idle(): Promise<void> {
    for (;;) {
      while (this.pass) await this.pass;
      if (!this.running || (await this.countClaimable()) === 0) {
        if (!this.pass) return;
        continue;
      }
      this.nudge();
      await this.pass;
    }
  }
}
