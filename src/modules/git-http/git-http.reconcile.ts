// Pushes whose process died after git accepted them: their journal rows (git-http.journal)
// are compared with the refs in git now and recorded as the push the bookkeeping would
// have recorded (afterPush: push/create/delete events and what their subscribers do,
// such as pull requests synchronized; size, pushed_at), closing the rows in the same
// transaction. Then git's quarantine directories of those dead pushes are removed.
//
// When: at start-up, before the server listens; on SQLite (one process per data dir)
// every row is a dead process's, on PostgreSQL (several processes may share the
// database) only the rows whose lease has passed, the live ones being renewed by their
// process. Then periodically, for rows whose lease has passed.
import type { AppContext } from '../../context.ts';
import { userActor, type Actor } from '../../domain/actor.ts';
import { pushesRecordedBy } from '../../git/push-recordings.ts';
import { quarantineDirs, quarantineDirsByRepo, removeDirs } from '../../git/quarantine.ts';
import * as git from '../../git/repository.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import * as users from '../users/users.service.ts';
import * as journal from './git-http.journal.ts';
import { afterPush, withRefRecordingLock } from './git-http.service.ts';

/** The account a journaled push is recorded as: its pusher, or the repository's owner when that account is gone. */
async function pusherOf(ctx: AppContext, actorId: number | null, repo: Repo): Promise<Actor> {
  const account = (actorId === null ? undefined : (await users.accountsByIds(ctx, [actorId])).get(actorId)) ?? repo.owner;
  return userActor({ id: account.id, login: account.login, siteAdmin: account.siteAdmin }, 'token', 0, [], '');
}

/**
 * Records the journaled pushes (`all` rows, or the `expired` ones); the ids of the
 * repositories whose rows it closed. Several rows of one repository are one push from
 * the oldest row's refs to now, recorded as the oldest row's pusher's: the refs cannot
 * tell which of them moved what. A repository that fails keeps its rows for the next run.
 */
export async function reconcilePushes(ctx: AppContext, which: 'all' | 'expired'): Promise<number[]> {
  const byRepo = new Map<number, journal.JournalRow[]>();
  for (const row of await journal.entries(ctx, which)) byRepo.set(row.repositoryId, [...(byRepo.get(row.repositoryId) ?? []), row]);
  const closed: number[] = [];
  for (const [repositoryId, rows] of byRepo) {
    try {
      const [repo] = await repos.reposByIds(ctx, [repositoryId]);
      if (!repo) continue; // deleted meanwhile: its rows went with it
      const oldest = rows[0]!;
      const recorded = await withRefRecordingLock(ctx, repositoryId, async (locked) => {
        // As the row is now: pushes recorded meanwhile (by another process) moved it along.
        const refs = await journal.recordedRefs(locked, oldest.id);
        if (!refs) return false;
        const after = journal.pushedRefs(refs, await git.listRefs(repos.gitDir(locked, repo)));
        return afterPush(locked, await pusherOf(locked, oldest.actorId, repo), repo, refs, after, { journalIds: rows.map((r) => r.id) });
      });
      if (recorded) ctx.log.info({ repositoryId, journalIds: rows.map((r) => r.id), startedAt: oldest.startedAt }, 'recorded a push its process did not');
      closed.push(repositoryId);
    } catch (err) {
      ctx.log.error({ err, repositoryId }, 'reconciling a journaled push failed; left for the next run');
    }
  }
  return closed;
}

/**
 * Removes the quarantine directories of the given repositories (or of every one) that
 * have no push journaled. A directory is read before the journal, and every push Wharf
 * runs is journaled before git starts, so a directory without a row belongs to no live
 * push: a dead push's (reconciled, or from before the journal existed).
 */
export async function removeDeadQuarantines(ctx: AppContext, repositoryIds: readonly number[] | 'all'): Promise<number> {
  const root = git.reposRoot(ctx.config.dataDir);
  const found = repositoryIds === 'all'
    ? await quarantineDirsByRepo(root)
    : new Map(await Promise.all(repositoryIds.map(async (id) => [id, await quarantineDirs(git.repoDir(ctx.config.dataDir, id))] as const)));
  if (![...found.values()].some((dirs) => dirs.length)) return 0;
  const live = await journal.journaledRepositoryIds(ctx);
  let removed = 0;
  for (const [id, dirs] of found) {
    if (live.has(id) || dirs.length === 0) continue;
    await removeDirs(dirs);
    removed += dirs.length;
  }
  if (removed) ctx.log.info({ removed }, 'removed quarantine directories of dead pushes');
  return removed;
}

export interface PushReconciler {
  /** Stops the periodic runs, waiting for one in progress. */
  stop(): Promise<void>;
}

const SWEEP_MS = 60_000;

/** Reconciles at start-up (awaited), then every minute for rows whose lease has passed. */
export async function startPushReconciler(ctx: AppContext): Promise<PushReconciler> {
  await reconcilePushes(ctx, ctx.dialect === 'sqlite' ? 'all' : 'expired');
  await removeDeadQuarantines(ctx, 'all');
  let running: Promise<void> | null = null;
  const sweep = async () => {
    const closed = await reconcilePushes(ctx, 'expired');
    if (closed.length) await removeDeadQuarantines(ctx, closed);
  };
  const timer = setInterval(() => {
    running ??= sweep()
      .catch((err: unknown) => ctx.log.error({ err }, 'push reconciliation failed'))
      .finally(() => { running = null; });
  }, Math.min(SWEEP_MS, journal.pushLeaseMs(ctx.config) / 2));
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      // Pushes acknowledged before the close are recorded while the database is open.
      await pushesRecordedBy(ctx.bus);
      await running;
    },
  };
}
