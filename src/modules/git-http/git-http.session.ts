// After authentication, git over HTTP and git over SSH take this one path: who may run
// the service on the repository (git-http.service authorize), the protected-branch
// rules receive-pack's hook applies to the pusher, and the push journaled before git
// runs and recorded once it exits (git-http.push). Only running git differs by
// transport: git http-backend for HTTP, the service itself on an SSH channel.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { anyPushUnrecorded, pushesRecordedIn } from '../../git/push-recordings.ts';
import { protectPush } from '../branch-protection/protection.push.ts';
import type { Repo } from '../repos/repos.model.ts';
import { recordInBackground, startPush } from './git-http.push.ts';
import { removeDeadQuarantines } from './git-http.reconcile.ts';
import { authorize, type GitService } from './git-http.service.ts';

export interface GitSession {
  repo: Repo;
  /** The session receives a push, journaled: settle it once git exits. */
  push: boolean;
  /** More environment for the git process: the protected-branch hook's settings. */
  env: Record<string, string>;
  /**
   * Once git has exited: records what the push changed (whatever git's exit code: refs
   * it moved are recorded) and closes its journal row; after an interrupted push, also
   * removes the quarantine git may have left. Never throws; a no-op for fetches.
   */
  settle(options?: { interrupted?: boolean }): Promise<void>;
  /**
   * As settle, once git has exited 0 or not, without waiting for it: the client is
   * answered while the push is recorded (it is journaled already, so a process dying
   * meanwhile leaves it to the reconciler), and the server's close waits for it.
   */
  settleInBackground(): void;
}

/**
 * Opens `service` on `owner/name` (with or without `.git`) for the actor, or throws the
 * domain error saying why not. `push`: the session receives a push (receive-pack's POST
 * over HTTP, every receive-pack over SSH), which is journaled before this returns.
 */
export async function openGitSession(
  ctx: AppContext, actor: Actor, owner: string, name: string, service: GitService, options: { push: boolean },
): Promise<GitSession> {
  const repo = await authorize(ctx, actor, owner, name.replace(/\.git$/, ''), service);
  // A push acknowledged but not yet recorded is recorded first: a clone then gets the
  // default branch a first push set, and a push's changes are not taken for the next one's.
  if (anyPushUnrecorded()) await pushesRecordedIn(repo.id);
  const push = options.push && service === 'git-receive-pack';
  // Protected branches: receive-pack's hook declines what the pusher may not do.
  const protection = push ? await protectPush(ctx, actor, repo) : null;
  // Journaled before git runs: a process dying after git accepted the push still has it recorded.
  let journaled;
  try {
    journaled = push ? await startPush(ctx, actor, repo) : null;
  } catch (err) {
    protection?.close();
    throw err;
  }
  const session: GitSession = {
    repo,
    push,
    env: protection?.env ?? {},
    settleInBackground() {
      recordInBackground(ctx, actor, repo, () => session.settle());
    },
    async settle(settleOptions = {}) {
      // The hook has run: its signature channel, if any, closes with the push.
      protection?.close();
      if (!journaled) return;
      await journaled.settle().catch((err: unknown) => ctx.log.error({ err, repositoryId: repo.id }, 'recording a push failed'));
      if (!settleOptions.interrupted) return;
      // The row is closed: unless another push to the repository is in flight, any
      // quarantine directory left is this dead push's.
      await removeDeadQuarantines(ctx, [repo.id]).catch((err: unknown) => ctx.log.error({ err, repositoryId: repo.id }, 'removing a quarantine failed'));
    },
  };
  return session;
}
