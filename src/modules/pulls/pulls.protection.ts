// The base branch's protection as it bears on one pull request: the facts the rule is
// judged on (approving reviews, the head's statuses and check runs, whether the head is behind),
// gathered here for mergeable_state, mergeStateStatus and the merge itself.
import type { AppContext } from '../../context.ts';
import * as git from '../../git/repository.ts';
import { mergeGate, type MergeGate } from '../branch-protection/protection.merge.ts';
import * as protection from '../branch-protection/protection.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import * as statuses from '../statuses/statuses.service.ts';
import * as checks from '../checks/checks.service.ts';
import { runState } from '../checks/checks.model.ts';
import type { PullRequestRecord } from './pulls.model.ts';
import * as reviewStore from './reviews.store.ts';

export async function protectionGate(ctx: AppContext, repo: Repo, pull: PullRequestRecord, baseTip: string): Promise<MergeGate> {
  const [rule, latest, runs, reviews] = await Promise.all([
    protection.ruleOfBranch(ctx, repo.id, pull.baseRef),
    statuses.latestStatuses(ctx, repo.id, pull.headSha),
    checks.latestRuns(ctx, repo.id, pull.headSha),
    reviewStore.listSubmittedReviews(ctx.db, [pull.id]),
  ]);
  const rules = rule?.rules ?? null;
  // Each reviewer's latest approving or change-requesting review is their verdict; comments are none.
  const verdicts = new Map<number, { state: string; commitId: string }>();
  for (const r of [...reviews].sort((a, b) => a.id - b.id)) {
    if (r.state === 'APPROVED' || r.state === 'CHANGES_REQUESTED' || r.state === 'DISMISSED') verdicts.set(r.userId, r);
  }
  const stale = rules?.requiredPullRequestReviews?.dismissStaleReviews ?? false;
  const approvals = [...verdicts.values()].filter((v) => v.state === 'APPROVED' && (!stale || v.commitId === pull.headSha)).length;
  const behind = rules?.requiredStatusChecks?.strict ? !(await git.isAncestor(repos.gitDir(ctx, repo), baseTip, pull.headSha)) : false;
  // Check runs count beside statuses: a run's name is its context.
  const reports = [
    ...latest.map((s) => ({ context: s.context, state: s.state, appId: null })),
    ...runs.map((r) => ({ context: r.run.name, state: runState(r.run), appId: r.appId })),
  ];
  return mergeGate(rules, { approvals, statuses: reports, behind });
}
