// The migration export worker: claims pending migrations from the database (so a
// migration started before a restart, or held by a process that died, is taken up
// again), writes their archives and moves them to exported or failed. Woken at once by
// work committed in this process (ctx.bus.onWork) and every pollMs otherwise. idle()
// resolves once nothing claimable is left (tests wait on it).
import { AsyncResource } from 'node:async_hooks';
import { inTransaction, type AppContext } from '../../context.ts';
import { nowIso } from '../../domain/clock.ts';
import { writeArchive } from './migrations.export.ts';
import * as store from './migrations.store.ts';

/** A claim lasts this long past the last progress; a dead exporter gives it up then. */
const LEASE_MS = 10 * 60_000;

export class MigrationExportWorker {
  private running = false;
  private pass: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private readonly root = new AsyncResource('MigrationExportWorker');

  constructor(private readonly ctx: AppContext, private readonly pollMs: number) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.ctx.bus.onWork(() => this.nudge());
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
    this.pass = this.root.runInAsyncScope(() => this.runPass()).finally(() => {
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

  /** Resolves once no migration is left that this worker could take now. */
  async idle(): Promise<void> {
    for (;;) {
      while (this.pass) await this.pass;
      if (!this.running || (await store.countClaimable(this.ctx.db, this.ctx.clock.now().getTime())) === 0) {
        if (!this.pass) return;
        continue;
      }
      this.nudge();
      await this.pass;
    }
  }

  private async runPass(): Promise<void> {
    this.again = false;
    try {
      for (;;) {
        if (!this.running) return;
        const { ctx } = this;
        const id = await inTransaction(ctx, (tx) => store.claimNext(tx.db, ctx.dialect, ctx.clock.now().getTime(), LEASE_MS, nowIso(ctx.clock)));
        if (id === null) return;
        await this.exportOne(id);
      }
    } catch (err) {
      this.ctx.log.error({ err }, 'migration export pass failed');
    }
  }

  private async exportOne(id: number): Promise<void> {
    const { ctx } = this;
    const m = await store.findById(ctx.db, id);
    if (!m) return;
    try {
      const archive = await writeArchive(ctx, m, (p) => store.setProgress(ctx.db, id, p, ctx.clock.now().getTime() + LEASE_MS, nowIso(ctx.clock)));
      await store.finish(ctx.db, id, 'exported', { archiveFile: archive.file, archiveSize: archive.size, failure: null }, nowIso(ctx.clock));
    } catch (err) {
      ctx.log.error({ err, migrationId: id }, 'a migration export failed');
      await store.finish(ctx.db, id, 'failed', { archiveFile: null, archiveSize: null, failure: err instanceof Error ? err.message : String(err) }, nowIso(ctx.clock))
        .catch(() => undefined);
    }
  }
}
