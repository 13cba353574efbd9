// The migration import worker: claims pending imports from the database (so an import
// queued before a restart, or held by a process that died, is taken up again) and runs
// each to imported or failed. The JobWorker loop in src/events wakes it.
import { inTransaction } from '../../context.ts';
import { nowIso } from '../../domain/clock.ts';
import { JobWorker } from '../../events/job-worker.ts';
import { LEASE_MS, runHeldImport } from './import.service.ts';
import * as store from './import.store.ts';

export class MigrationImportWorker extends JobWorker {
  protected countClaimable(): Promise<number> {
    return store.countClaimable(this.ctx.db, this.ctx.clock.now().getTime());
  }

  protected runPass(): Promise<void> {
    const { ctx } = this;
    return this.claimEach(
      () => inTransaction(ctx, (tx) => store.claimNext(tx.db, ctx.dialect, ctx.clock.now().getTime(), LEASE_MS, nowIso(ctx.clock))),
      async (id) => { await runHeldImport(ctx, id); }, 'migration import',
    );
  }
}
