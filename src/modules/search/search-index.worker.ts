// The search index worker: takes repositories the event subscribers queued (push,
// default branch changed, renamed, visibility changed …) and brings their index up to
// date, one repository at a time. Woken at once by work committed in this process
// (ctx.bus.onWork), and every pollMs for work queued by other processes. A failed
// repository is tried again after RETRY_MS. idle() resolves once nothing queued is
// left that could be taken now (tests, and the re-index command, wait on it).
import { AsyncResource } from 'node:async_hooks';
import type { AppContext } from '../../context.ts';
import * as indexer from './search-indexer.ts';

/** A claim lasts this long; a process that dies holding it gives it up then. */
const LEASE_MS = 10 * 60_000;
const RETRY_MS = 60_000;
const CLAIM_BATCH = 10;

export class SearchIndexWorker {
  private running = false;
  private pass: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  /**
   * Passes run in the context the worker was made in, not in that of the request whose
   * commit woke it: their queries are not the request's (GraphQL's statement counts).
   */
  private readonly root = new AsyncResource('SearchIndexWorker');

  constructor(private readonly ctx: AppContext, private readonly pollMs: number, private readonly onIndexed?: (o: indexer.IndexOutcome) => void) {}

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

  /** Resolves once no queued repository is left that this worker could take now. */
  async idle(): Promise<void> {
    for (;;) {
      while (this.pass) await this.pass;
      if (!this.running || (await indexer.countQueued(this.ctx)) === 0) {
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
        const ids = await indexer.claimQueued(this.ctx, LEASE_MS, CLAIM_BATCH);
        if (!ids.length || !this.running) return;
        for (const id of ids) await this.indexOne(id);
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
