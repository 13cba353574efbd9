// The auto-merge worker: takes the auto-merge requests that a status, check run, review,
// resolved thread or push marked (auto-merge.subscribers.ts) and merges each pull request
// whose base branch's protection now lets it, as the user who enabled auto-merge, with
// the method and words they chose. The merge is git work, so it happens here and not in
// the transaction of the change that cleared the way. A request still blocked waits for
// the next change; one whose user may no longer merge is turned off with the reason.
import { inTransaction } from '../../context.ts';
import { userActor } from '../../domain/actor.ts';
import { DomainError, NotAllowedError, ConflictError } from '../../domain/errors.ts';
import { JobWorker } from '../../events/job-worker.ts';
import * as issues from '../issues/issues.service.ts';
import * as repos from '../repos/repos.service.ts';
import * as users from '../users/users.service.ts';
import { disableInTransaction } from './auto-merge.service.ts';
import * as store from './auto-merge.store.ts';
import { mergePull } from './pulls.merge.ts';
import { pullFigures } from './pulls.present.ts';
import * as pullStore from './pulls.store.ts';

/** A claim lasts this long; a process that dies holding one gives it up then. */
const LEASE_MS = 5 * 60_000;
const CLAIM_BATCH = 10;

export class AutoMergeWorker extends JobWorker {
  protected override readonly wakesOn = 'auto-merge';

  protected countClaimable(): Promise<number> {
    return store.countClaimable(this.ctx.db, this.ctx.clock.now().getTime());
  }

  protected async runPass(): Promise<void> {
    try {
      for (;;) {
        if (!this.running) return;
        const { ctx } = this;
        const ids = await inTransaction(ctx, (tx) => store.claimPending(tx.db, ctx.dialect, ctx.clock.now().getTime(), LEASE_MS, CLAIM_BATCH));
        if (!ids.length) return;
        for (const id of ids) {
          await this.judge(id).catch((err: unknown) => ctx.log.error({ err, pullRequestId: id }, 'an auto-merge failed; it is tried again on the next change'));
          await store.release(ctx.db, id).catch(() => undefined);
        }
      }
    } catch (err) {
      this.ctx.log.error({ err }, 'auto-merge pass failed');
    }
  }

  /** Merges the pull request when nothing it waits on is left. */
  private async judge(pullId: number): Promise<void> {
    const { ctx } = this;
    const request = (await store.findMany(ctx.db, [pullId])).get(pullId);
    const pull = request ? await pullStore.findById(ctx.db, pullId) : null;
    if (!request || !pull || pull.mergedAt) return;
    const [[issue], [repo], accounts] = await Promise.all([
      issues.findIssuesByIds(ctx, [pull.issueId]), repos.reposByIds(ctx, [pull.repositoryId]), users.accountsByIds(ctx, [request.enabledById]),
    ]);
    const enabler = accounts.get(request.enabledById);
    if (!issue || !repo || !enabler) return;
    // A closed pull request merges no more: its request goes quietly.
    if (issue.state !== 'open') { await store.remove(ctx.db, pullId); return; }
    const state = (await pullFigures(ctx, repo, pull, issue)).figures.mergeableState;
    if (state !== 'clean' && state !== 'unstable') return;
    // The merge is the enabler's, with the rights they have now (as a token of theirs with the repo scope).
    const actor = userActor({ id: enabler.id, login: enabler.login, siteAdmin: enabler.siteAdmin }, 'token', 0, ['repo'], '');
    try {
      await mergePull(ctx, actor, repo.owner.login, repo.name, pull.number, {
        mergeMethod: request.mergeMethod, sha: pull.headSha,
        ...(request.commitTitle !== null ? { commitTitle: request.commitTitle } : {}),
        ...(request.commitMessage !== null ? { commitMessage: request.commitMessage } : {}),
        ...(request.authorEmail !== null ? { authorEmail: request.authorEmail } : {}),
      });
    } catch (err) {
      // Moved on meanwhile (a push, a new block): the next change judges it again.
      if (err instanceof NotAllowedError || err instanceof ConflictError) return;
      if (!(err instanceof DomainError)) throw err;
      // Refused for good (the enabler lost write access, the repository was archived …): turned off, saying why.
      await inTransaction(ctx, (tx) => disableInTransaction(tx, actor, { repo, role: null, pull, issue }, err.message));
    }
  }
}
