// The search index worker: takes repositories the event subscribers queued (push,
// default branch changed, renamed, visibility changed …) and brings their index up to
// date, one repository at a time. Woken at once by work committed in this process
// (ctx.bus.onWork), and every pollMs for work queued by other processes. A failed
// repository is tried again after RETRY_MS. idle() resolves once nothing queued is
// left that could be taken now (tests, and the re-index command, wait on it). Between
// repositories it also writes the count index of files indexed before there was one
// (migration 0052), a batch per transaction, until none is left.
import type { AppContext } from '../../context.ts';
import { JobWorker } from '../../events/job-worker.ts';
import * as indexer from './search-indexer.ts';

/** A claim lasts this long; a process that dies holding it gives it up then. */
const LEASE_MS = 10 * 60_000;
const RETRY_MS = 60_000;
const CLAIM_BATCH = 10;
/** Files counted per transaction while catching up on the count index. */
const COUNT_BATCH = 200;

export class SearchIndexWorker extends JobWorker {
  protected override readonly wakesOn = 'search-index';

  constructor(ctx: AppContext, pollMs: number, private readonly onIndexed?: (o: indexer.IndexOutcome) => void) {
    super(ctx, pollMs);
  }

  protected async countClaimable(): Promise<number> {
    return await indexer.countQueued(this.ctx) + Math.min(1, await indexer.countUncounted(this.ctx));
  }

  protected async runPass(): Promise<void> {
    try {
      for (;;) {
        if (!this.running) return;
        const ids = await indexer.claimQueued(this.ctx, LEASE_MS, CLAIM_BATCH);
        if (ids.length) {
          for (const id of ids) await this.indexOne(id);
          continue;
        }
        if (!await indexer.countSomeFiles(this.ctx, COUNT_BATCH)) return;
      }
    } catch (err) {
      this.ctx.log.error({ err }, 'search index pass failed');
    }
  }

  private async indexOne(repositoryId: number): Promise<void> {
    try {
      const outcome = await indexer.indexRepository(this.ctx, repositoryId);
      this.onIndexed?.(outcome);
    } catch (err) {
      this.ctx.log.error({ err, repositoryId }, 'indexing a repository for search failed; it is tried again later');
      await indexer.retryLater(this.ctx, repositoryId, this.ctx.clock.now().getTime() + RETRY_MS).catch(() => undefined);
    }
  }
}
