// Pull request auto-merge (GraphQL enablePullRequestAutoMerge / disablePullRequestAutoMerge,
// REST's `auto_merge`). As upstream: the repository must allow it, the base branch must
// be protected, and the pull request must be waiting on that protection (blocked or
// behind) — a clean or unstable one should simply be merged. Enabling records who asked
// and how to merge; the auto-merge worker merges as that user once the protection lets
// it (auto-merge.worker.ts), woken by statuses, checks, reviews and pushes
// (auto-merge.subscribers.ts). A push to the head turns it off.
import { inTransaction, type AppContext } from '../../context.ts';
import { requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { ConflictError, ForbiddenError, ValidationError } from '../../domain/errors.ts';
import { wakeWorkers } from '../../events/wake.ts';
import { requireMaxLength, TEXT_LIMITS } from '../../domain/text-limits.ts';
import { branchRules } from '../branch-protection/ref-rules.service.ts';
import { recordIssueEvent } from '../issues/issue-events.service.ts';
import type { IssueEventName } from '../issues/issues.model.ts';
import { roleAtLeast } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import * as users from '../users/users.service.ts';
import type { Account } from '../users/users.model.ts';
import { DISABLED_REASONS, type AutoMergeRecord } from './auto-merge.model.ts';
import * as store from './auto-merge.store.ts';
import { recordPullEvent } from './pulls.events.ts';
import { allowed, NOT_ALLOWED } from './pulls.merge.ts';
import type { MergeMethod } from './pulls.model.ts';
import { pullFigures } from './pulls.present.ts';
import { locatePull, reload, requireWritable, type LocatedPull } from './pulls.service.ts';

/** GraphQL's messages for a refused auto-merge carry the model's name first, as upstream's do. */
function refuse(message: string): ValidationError {
  return new ValidationError([], `Pull request ${message}`);
}

const ENABLED_EVENT: Record<MergeMethod, IssueEventName> = { merge: 'auto_merge_enabled', squash: 'auto_squash_enabled', rebase: 'auto_rebase_enabled' };

export interface EnableAutoMergeInput {
  mergeMethod?: MergeMethod;
  commitHeadline?: string | null;
  commitBody?: string | null;
  authorEmail?: string | null;
  expectedHeadOid?: string | null;
}

export async function enableAutoMerge(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, input: EnableAutoMergeInput,
): Promise<LocatedPull> {
  const user = requireUser(actor);
  const l = await locatePull(ctx, actor, owner, name, number);
  await repos.requireRole(ctx, actor, l.repo, 'push');
  requireWritable(l.repo);
  requireMaxLength('PullRequest', 'commitHeadline', input.commitHeadline ?? undefined, TEXT_LIMITS.gitMessage);
  requireMaxLength('PullRequest', 'commitBody', input.commitBody ?? undefined, TEXT_LIMITS.gitMessage);
  requireMaxLength('PullRequest', 'authorEmail', input.authorEmail ?? undefined, TEXT_LIMITS.gitMessage);
  if (!l.repo.allowAutoMerge) throw refuse('Auto merge is not allowed for this repository');
  if (l.pull.mergedAt || l.issue.state !== 'open') throw refuse('Pull request is closed');
  const method = input.mergeMethod ?? 'merge';
  if (!allowed(l.repo, method)) throw refuse(NOT_ALLOWED[method]);
  if (input.expectedHeadOid && input.expectedHeadOid !== l.pull.headSha) throw new ConflictError('Head branch was modified. Review and try the merge again.');
  if (!(await branchRules(ctx, l.repo, l.pull.baseRef))) throw refuse('Protected branch rules not configured for this branch');
  // Only a pull request waiting on its base branch's protection takes auto-merge.
  const state = (await pullFigures(ctx, l.repo, l.pull, l.issue)).figures.mergeableState;
  if (state !== 'blocked' && state !== 'behind') throw refuse(`Pull request is in ${state} status`);
  return inTransaction(ctx, async (tx) => {
    const current = await reload(tx, l);
    await store.put(tx.db, {
      pullRequestId: l.pull.id, repositoryId: l.repo.id, enabledById: user.id, mergeMethod: method,
      commitTitle: input.commitHeadline ?? null, commitMessage: input.commitBody ?? null, authorEmail: input.authorEmail ?? null,
      enabledAt: nowIso(tx.clock),
    });
    wakeWorkers(tx, 'auto-merge');
    await recordIssueEvent(tx, { repositoryId: l.repo.id, issueId: l.issue.id, actorId: user.id, event: ENABLED_EVENT[method] });
    await recordPullEvent(tx, actor, l.repo, current.pull, current.issue, 'auto_merge_enabled');
    return current;
  });
}

/** Turns auto-merge off, in the caller's transaction: the request goes, the timeline and webhooks hear why. */
export async function disableInTransaction(tx: AppContext, actor: Actor, l: LocatedPull, reason: string): Promise<void> {
  if (!(await store.remove(tx.db, l.pull.id))) return;
  await recordIssueEvent(tx, { repositoryId: l.repo.id, issueId: l.issue.id, actorId: actor.user?.id ?? null, event: 'auto_merge_disabled' });
  await recordPullEvent(tx, actor, l.repo, l.pull, l.issue, 'auto_merge_disabled', { reason });
}

/** Those with write access, and the pull request's author, turn auto-merge off; off already is no error. */
export async function disableAutoMerge(ctx: AppContext, actor: Actor, owner: string, name: string, number: number): Promise<LocatedPull> {
  const user = requireUser(actor);
  const l = await locatePull(ctx, actor, owner, name, number);
  requireWritable(l.repo);
  if (!roleAtLeast(l.role, 'push') && l.issue.userId !== user.id) throw new ForbiddenError('Must have push access or be the author to disable auto-merge.');
  return inTransaction(ctx, async (tx) => {
    const current = await reload(tx, l);
    await disableInTransaction(tx, actor, current, DISABLED_REASONS.byUser(user.login));
    return current;
  });
}

export interface AutoMergeDetail {
  request: AutoMergeRecord;
  enabledBy: Account | null;
}

/** The auto-merge requests of pull requests, with the users who enabled them (in bulk, for views and GraphQL). */
export async function autoMergesOf(ctx: AppContext, pullIds: readonly number[]): Promise<Map<number, AutoMergeDetail>> {
  const requests = await store.findMany(ctx.db, pullIds);
  if (!requests.size) return new Map();
  const accounts = await users.accountsByIds(ctx, [...requests.values()].map((r) => r.enabledById));
  return new Map([...requests].map(([id, request]) => [id, { request, enabledBy: accounts.get(request.enabledById) ?? null }]));
}
