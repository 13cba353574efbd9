// The import worker: claims imports that have a step to run (source_imports.next_step,
// no live lease), runs each through imports.job.ts, and renews its lease while it runs.
// A process dying mid-import leaves the lease to expire and the next worker resumes the
// step; a stopping server stops the tools and gives the lease back at once, so the next
// start resumes without waiting. Woken by work committed in this process (ctx.bus) and
// every pollMs for imports moved by other processes. idle() resolves once nothing is
// running or claimable (tests wait on it).
import fs from 'node:fs';
import { inTransaction, type AppContext } from '../../context.ts';
import { nowIso } from '../../domain/clock.ts';
import { JobWorker } from '../../events/job-worker.ts';
import { runImport, Superseded, workDir } from './imports.job.ts';
import { runningIds, track } from './imports.running.ts';
import * as store from './imports.store.ts';

const LEASE_MS = 2 * 60_000;

export class ImportWorker extends JobWorker {
  private readonly jobs = new Map<number, { controller: AbortController; done: Promise<void> }>();

  constructor(ctx: AppContext, private readonly concurrency = 2) {
    super(ctx, ctx.config.imports.pollMs);
  }

  protected countClaimable(): Promise<number> {
    return store.countRunnable(this.ctx.db, nowIso(this.ctx.clock));
  }

  /** Claims stop first; then the jobs running here stop their tools and give their leases back. */
  override async stop(): Promise<void> {
    await super.stop();
    for (const job of this.jobs.values()) job.controller.abort(new Error('stopping'));
    await Promise.all([...this.jobs.values()].map((j) => j.done));
  }

  /** Resolves once no import is running here or waiting to be claimed. */
  override async idle(): Promise<void> {
    for (;;) {
      await super.idle();
      if (!this.jobs.size) return;
      await Promise.all([...this.jobs.values()].map((j) => j.done));
    }
  }

  private leaseUntil(): string {
    return new Date(this.ctx.clock.now().getTime() + LEASE_MS).toISOString();
  }

  /** A pass claims as many imports as there is room for and launches them; they run on after it. */
  protected async runPass(): Promise<void> {
    try {
      const room = this.concurrency - this.jobs.size;
      if (room <= 0) return;
      const claimed = await inTransaction(this.ctx, (tx) => store.claim(
        tx.db, tx.dialect, nowIso(this.ctx.clock), this.leaseUntil(), room, [...new Set([...runningIds(), ...this.jobs.keys()])],
      ));
      for (const imp of claimed) this.launch(imp.repositoryId, imp.generation, imp);
    } catch (err) {
      this.ctx.log.error({ err }, 'claiming source imports failed');
    }
  }

  private launch(repositoryId: number, generation: number, imp: Parameters<typeof runImport>[1]): void {
    const controller = new AbortController();
    const untrack = track(repositoryId, controller);
    const renewal = setInterval(() => {
      void this.checkStill(repositoryId, generation, controller);
    }, Math.min(LEASE_MS / 3, this.ctx.config.imports.pollMs));
    renewal.unref();
    const done = runImport(this.ctx, imp, controller.signal).catch(async (err: unknown) => {
      if (!(err instanceof Superseded) && !controller.signal.aborted) {
        this.ctx.log.error({ err, repositoryId }, 'a source import job failed; it is tried again when its lease ends');
      }
    }).finally(async () => {
      clearInterval(renewal);
      untrack();
      this.jobs.delete(repositoryId);
      const now = await store.find(this.ctx.db, repositoryId).catch(() => undefined);
      // Cancelled: its files go. Stopped by the server: the lease is given back for the next start.
      if (now === null) fs.rmSync(workDir(this.ctx, repositoryId), { recursive: true, force: true });
      else if (now && now.generation === generation) await store.renewLease(this.ctx.db, repositoryId, generation, null).catch(() => undefined);
      if (this.running) this.nudge();
    });
    this.jobs.set(repositoryId, { controller, done });
  }

  /** Renews the lease; stops the job when the import was moved or cancelled (by any process). */
  private async checkStill(repositoryId: number, generation: number, controller: AbortController): Promise<void> {
    try {
      const now = await store.find(this.ctx.db, repositoryId);
      if (!now || now.generation !== generation) {
        controller.abort(new Error('superseded'));
        return;
      }
      await store.renewLease(this.ctx.db, repositoryId, generation, this.leaseUntil());
    } catch (err) {
      this.ctx.log.warn({ err, repositoryId }, 'renewing a source import lease failed');
    }
  }
}
