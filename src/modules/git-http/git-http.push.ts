// A push over HTTP, journaled: the refs as they were are committed to the push journal
// before git receive-pack runs, the lease is renewed while it runs, and the bookkeeping
// after git exits closes the row in the transaction that records the push. A process
// that dies in between leaves the row for git-http.reconcile to record at the next start.
// A database that cannot be reached when git exits (git has told the client the push is
// accepted by then) does not leave the row to the reconciler's lease, minutes away:
// recording is tried again, in the background, until the database answers.
import type { AppContext } from '../../context.ts';
import { isDatabaseUnavailable } from '../../db/failures.ts';
import type { Actor } from '../../domain/actor.ts';
import { trackRecording } from '../../git/push-recordings.ts';
import { beginRefWrite } from '../../git/ref-writes.ts';
import * as git from '../../git/repository.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import * as journal from './git-http.journal.ts';
import { afterPush, withRefRecordingLock } from './git-http.service.ts';

export interface JournaledPush {
  /**
   * Records what the push changed (whatever git's exit code: refs it moved are recorded)
   * and closes the row. When the database cannot be reached it throws, and recording
   * goes on being retried in the background until it succeeds or the row's lease passes
   * (the reconciler's then).
   */
  settle(): Promise<void>;
}

/** Retries of recording a push while the database is unavailable: the first after RETRY_FIRST_MS, doubling to RETRY_MAX_MS. */
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 5000;

/** Runs `record` again while the database is unavailable, until it succeeds or `until` (epoch ms on ctx.clock) passes. */
function retryRecording(ctx: AppContext, journalId: number, until: number, record: () => Promise<void>): void {
  let delay = RETRY_FIRST_MS;
  const attempt = () => {
    const timer = setTimeout(() => {
      record().then(
        () => ctx.log.info({ journalId }, 'recorded a push once the database answered again'),
        (err: unknown) => {
          delay = Math.min(delay * 2, RETRY_MAX_MS);
          if (isDatabaseUnavailable(err) && ctx.clock.now().getTime() + delay < until) attempt();
          else ctx.log.error({ err, journalId }, 'recording a push failed; left to the push reconciler');
        },
      );
    }, delay);
    // A process that ends meanwhile leaves the row to the reconciler at its next start.
    timer.unref();
  };
  attempt();
}

/**
 * Runs `recording` (a push's settle) without the caller waiting for it: the client has
 * its answer once git has exited, the push being journaled already (an acknowledged push
 * whose process dies before this ends is recorded at the next start). Until it ends, the
 * pusher's requests, git sessions on the repository and the server's close wait for it
 * (git/push-recordings.ts).
 */
export function recordInBackground(ctx: AppContext, actor: Actor, repo: Repo, recording: () => Promise<void>): void {
  const done = recording().catch((err: unknown) => ctx.log.error({ err, repositoryId: repo.id }, 'recording a push failed'));
  trackRecording(ctx.bus, repo.id, actor.user?.id ?? null, done);
}

export async function startPush(ctx: AppContext, actor: Actor, repo: Repo): Promise<JournaledPush> {
  const dir = repos.gitDir(ctx, repo);
  // Refs may move from here until the push is recorded (ref-writes.ts).
  const endRefWrite = beginRefWrite();
  let before: git.RefEntry[];
  let id: number;
  try {
    before = await git.listRefs(dir);
    id = await journal.openEntry(ctx, actor, repo.id, before);
  } catch (err) {
    endRefWrite();
    throw err;
  }
  const leaseMs = journal.pushLeaseMs(ctx.config);
  let leaseUntil = ctx.clock.now().getTime() + leaseMs;
  const renewal = setInterval(() => {
    const until = ctx.clock.now().getTime() + leaseMs;
    journal.renewLease(ctx, id).then(() => { leaseUntil = until; })
      .catch((err: unknown) => ctx.log.warn({ err, journalId: id }, 'renewing a push lease failed'));
  }, leaseMs / 3);
  renewal.unref();

  const record = async (): Promise<void> => {
    // Under the repository's ref recording lock: an API ref change in this process has
    // then either been recorded (and moved this push's row along) or not begun.
    await withRefRecordingLock(ctx, repo.id, async (locked) => {
      // The row's refs, not `before`: changes recorded meanwhile by other pushes to the
      // repository have moved them along (journal.advanceEntries), and are not this push's.
      const recorded = await journal.recordedRefs(locked, id);
      if (!recorded) {
        ctx.log.warn({ journalId: id, repositoryId: repo.id }, 'push already recorded by the reconciler');
        return;
      }
      if (!(await afterPush(locked, actor, repo, recorded, journal.pushedRefs(recorded, await git.listRefs(dir)), { journalIds: [id] }))) {
        ctx.log.warn({ journalId: id, repositoryId: repo.id }, 'push already recorded by the reconciler');
      }
    });
  };
  return {
    async settle() {
      clearInterval(renewal);
      try {
        await record();
      } catch (err) {
        // Until the lease as last written: past it, the reconciler (of any process) records the row.
        if (isDatabaseUnavailable(err)) retryRecording(ctx, id, leaseUntil, record);
        throw err;
      } finally {
        endRefWrite();
      }
    },
  };
}
