// After authentication, git over HTTP and git over SSH take this one path: who may run
// the service on the repository (git-http.service authorize), the protected-branch
// rules receive-pack's hook applies to the pusher, and the push journaled before git
// runs and recorded once it exits (git-http.push). Only running git differs by
// transport: git http-backend for HTTP, the service itself on an SSH channel.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { protectPush } from '../branch-protection/protection.push.ts';
import type { Repo } from '../repos/repos.model.ts';
import { startPush } from './git-http.push.ts';
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
  return {
    repo,
    push,
    env: protection?.env ?? {},
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
}
