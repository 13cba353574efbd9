// Bringing one repository's index up to date with its default branch. The index
// remembers the branch and commit it holds; from there only what changed is read
// (commits old..new, and the files the tree diff names). A commit the index no longer
// finds (history rewritten and collected) or none at all means a full read. What a
// force push took off the branch leaves the commit index.
import { inTransaction, type AppContext } from '../../context.ts';
import { nowIso } from '../../domain/clock.ts';
import { wakeWorkers } from '../../events/wake.ts';
import * as repos from '../repos/repos.service.ts';
import * as gitIndex from './search-index.git.ts';
import * as codeStore from './search-code.store.ts';
import * as counts from './search-code-counts.store.ts';
import * as commitStore from './search-commits.store.ts';
import * as store from './search-index-state.store.ts';

export interface IndexOutcome {
  repositoryId: number;
  /** full: read from scratch; changes: only old..new; unchanged; empty: no default branch; gone: deleted. */
  kind: 'full' | 'changes' | 'unchanged' | 'empty' | 'gone';
  commits: number;
  files: number;
}

export async function indexRepository(ctx: AppContext, repositoryId: number, options: { full?: boolean } = {}): Promise<IndexOutcome> {
  const [repo] = await repos.reposByIds(ctx, [repositoryId]);
  const none = { repositoryId, commits: 0, files: 0 };
  // A deleted repository's rows went with it (foreign keys).
  if (!repo) return { ...none, kind: 'gone' };
  const dir = repos.gitDir(ctx, repo);
  const branch = repo.defaultBranch;
  const tip = await gitIndex.branchTip(dir, branch);
  const state = await store.stateOf(ctx.db, repositoryId);
  const at = nowIso(ctx.clock);
  if (!tip) {
    await inTransaction(ctx, async (tx) => {
      await commitStore.clearCommits(tx.db, repositoryId);
      await codeStore.clearFiles(tx.db, repositoryId);
      await store.recordIndexed(tx.db, repositoryId, branch, null, at);
    });
    return { ...none, kind: 'empty' };
  }
  const old = options.full ? null : state?.indexedCommit ?? null;
  if (old === tip) {
    await store.recordIndexed(ctx.db, repositoryId, branch, tip, at);
    return { ...none, kind: 'unchanged' };
  }
  if (old && await gitIndex.hasCommit(dir, old)) {
    const [added, gone, changes] = await Promise.all([
      gitIndex.commitsOf(dir, repositoryId, tip, [old]),
      gitIndex.shasOnlyIn(dir, old, tip),
      gitIndex.changesBetween(dir, old, tip),
    ]);
    const texts = await gitIndex.readTexts(dir, repositoryId, changes.changed);
    await inTransaction(ctx, async (tx) => {
      await commitStore.deleteCommits(tx.db, repositoryId, gone);
      await commitStore.insertCommits(tx.db, added);
      await codeStore.deleteFiles(tx.db, repositoryId, changes.removed);
      await codeStore.upsertFiles(tx.db, ctx.dialect, texts, at);
      await store.recordIndexed(tx.db, repositoryId, branch, tip, at);
    });
    return { repositoryId, kind: 'changes', commits: added.length, files: texts.length };
  }
  const [commits, files] = await Promise.all([gitIndex.commitsOf(dir, repositoryId, tip, []), gitIndex.filesOf(dir, tip)]);
  const texts = await gitIndex.readTexts(dir, repositoryId, files);
  await inTransaction(ctx, async (tx) => {
    await commitStore.clearCommits(tx.db, repositoryId);
    await codeStore.clearFiles(tx.db, repositoryId);
    await commitStore.insertCommits(tx.db, commits);
    await codeStore.upsertFiles(tx.db, ctx.dialect, texts, at);
    await store.recordIndexed(tx.db, repositoryId, branch, tip, at);
  });
  return { repositoryId, kind: 'full', commits: commits.length, files: texts.length };
}

/** Queues a repository for the indexer (event subscribers, in the recording transaction), waking it once that commits. */
export async function queueRepository(ctx: AppContext, repositoryId: number): Promise<void> {
  await store.markPending(ctx.db, repositoryId);
  wakeWorkers(ctx, 'search-index');
}

/** Claims queued repositories for this worker (see store.claimPending). */
export function claimQueued(ctx: AppContext, leaseMs: number, limit: number): Promise<number[]> {
  return inTransaction(ctx, (tx) => store.claimPending(tx.db, tx.dialect, tx.clock.now().getTime(), leaseMs, limit));
}

export function retryLater(ctx: AppContext, repositoryId: number, retryAtMs: number): Promise<void> {
  return store.retryLater(ctx.db, repositoryId, retryAtMs);
}

/** How many repositories wait for the indexer and may be taken now. */
export function countQueued(ctx: AppContext): Promise<number> {
  return store.countOutstanding(ctx.db, ctx.clock.now().getTime());
}

/**
 * How many files indexed before the count index (migration 0052, SQLite) still wait
 * for their counts; code search reads text to score until none does.
 */
export function countUncounted(ctx: AppContext): Promise<number> {
  return ctx.dialect === 'sqlite' ? counts.uncountedFiles(ctx.db) : Promise.resolve(0);
}

/** Writes the counts of up to `limit` of those files, in one transaction; how many it did. */
export function countSomeFiles(ctx: AppContext, limit: number): Promise<number> {
  return ctx.dialect === 'sqlite' ? inTransaction(ctx, (tx) => counts.countSome(tx.db, limit)) : Promise.resolve(0);
}

export interface ReindexProgress {
  outcome: IndexOutcome;
  fullName: string;
  done: number;
  total: number;
}

/**
 * Re-reads the index of the named repositories (or of every one Wharf holds), from
 * scratch unless `changesOnly`, one after the other; `progress` hears of each.
 * The admin command line runs it (cli/search.ts).
 */
export async function reindex(
  ctx: AppContext, repositoryIds: readonly number[] | null, options: { changesOnly?: boolean }, progress: (p: ReindexProgress) => void,
): Promise<number> {
  const ids = repositoryIds ?? await store.knownRepositoryIds(ctx.db);
  let done = 0;
  for (const id of ids) {
    const [repo] = await repos.reposByIds(ctx, [id]);
    if (!repo) continue;
    await store.markPending(ctx.db, id);
    const outcome = await indexRepository(ctx, id, { full: !options.changesOnly });
    // Done here: a server's worker need not read it again.
    await store.clearPending(ctx.db, id);
    done += 1;
    progress({ outcome, fullName: `${repo.owner.login}/${repo.name}`, done, total: ids.length });
  }
  return done;
}
