// The migration export worker: claims pending migrations from the database (so a
// migration started before a restart, or held by a process that died, is taken up
// again), writes their archives and moves them to exported or failed. Woken at once by
// work committed in this process (ctx.bus.onWork) and every pollMs otherwise. idle()
// resolves once nothing claimable is left (tests wait on it).
import { inTransaction } from '../../context.ts';
import { JobWorker } from '../../events/job-worker.ts';
import { nowIso } from '../../domain/clock.ts';
import { writeArchive } from './migrations.export.ts';
import type { MigrationProgress } from './migrations.model.ts';
import * as store from './migrations.store.ts';

/** A claim lasts this long past the last progress; a dead exporter gives it up then. */
const LEASE_MS = 10 * 60_000;

export class MigrationExportWorker extends JobWorker {
  /**
   * Called once each progress report is stored, and awaited before the export goes
   * on: whoever watches (a test) reads the record mid-export without racing it.
   */
  onProgress: ((migrationId: number, progress: MigrationProgress) => Promise<void>) | null = null;

  protected countClaimable(): Promise<number> {
    return store.countClaimable(this.ctx.db, this.ctx.clock.now().getTime());
  }

  protected runPass(): Promise<void> {
    const { ctx } = this;
    return this.claimEach(
      () => inTransaction(ctx, (tx) => store.claimNext(tx.db, ctx.dialect, ctx.clock.now().getTime(), LEASE_MS, nowIso(ctx.clock))),
      (id) => this.exportOne(id), 'migration export',
    );
  }

  private async exportOne(id: number): Promise<void> {
    const { ctx } = this;
    const m = await store.findById(ctx.db, id);
    if (!m) return;
    try {
      const archive = await writeArchive(ctx, m, async (p) => {
        await store.setProgress(ctx.db, id, p, ctx.clock.now().getTime() + LEASE_MS, nowIso(ctx.clock));
        await this.onProgress?.(id, p);
      });
      await store.finish(ctx.db, id, 'exported', { archiveFile: archive.file, archiveSize: archive.size, failure: null }, nowIso(ctx.clock));
    } catch (err) {
      ctx.log.error({ err, migrationId: id }, 'a migration export failed');
      await store.finish(ctx.db, id, 'failed', { archiveFile: null, archiveSize: null, failure: err instanceof Error ? err.message : String(err) }, nowIso(ctx.clock))
        .catch(() => undefined);
    }
  }
}
