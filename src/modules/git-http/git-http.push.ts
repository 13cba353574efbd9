// A push over HTTP, journaled: the refs as they were are committed to the push journal
// before git receive-pack runs, the lease is renewed while it runs, and the bookkeeping
// after git exits closes the row in the transaction that records the push. A process
// that dies in between leaves the row for git-http.reconcile to record at the next start.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import * as git from '../../git/repository.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import * as journal from './git-http.journal.ts';
import { afterPush, withRefRecordingLock } from './git-http.service.ts';

export interface JournaledPush {
  /** Records what the push changed (whatever git's exit code: refs it moved are recorded) and closes the row. */
  settle(): Promise<void>;
}

export async function startPush(ctx: AppContext, actor: Actor, repo: Repo): Promise<JournaledPush> {
  const dir = repos.gitDir(ctx, repo);
  const before = await git.listRefs(dir);
  const id = await journal.openEntry(ctx, actor, repo.id, before);
  const renewal = setInterval(() => {
    journal.renewLease(ctx, id).catch((err: unknown) => ctx.log.warn({ err, journalId: id }, 'renewing a push lease failed'));
  }, journal.pushLeaseMs(ctx.config) / 3);
  renewal.unref();
  return {
    async settle() {
      clearInterval(renewal);
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
    },
  };
}
