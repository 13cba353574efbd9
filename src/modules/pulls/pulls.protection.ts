// The base branch's protection as it bears on one pull request: the facts the rule is
// judged on (approving reviews by those with write access, code owners still to approve,
// unresolved review threads, the head's statuses and check runs, whether the head is
// behind), gathered here for mergeable_state, mergeStateStatus, the merge itself and
// auto-merge.
import type { AppContext } from '../../context.ts';
import { userActor } from '../../domain/actor.ts';
import * as git from '../../git/repository.ts';
import { mergeGate, type MergeGate } from '../branch-protection/protection.merge.ts';
import type { BranchRules } from '../branch-protection/protection.model.ts';
import { mergedRules, rulesBindingMerge, rulesOfRef } from '../branch-protection/ref-rules.service.ts';
import type { Actor } from '../../domain/actor.ts';
import { roleAtLeast, type Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import * as statuses from '../statuses/statuses.service.ts';
import * as checks from '../checks/checks.service.ts';
import { runState } from '../checks/checks.model.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import { awaitedCodeOwners } from './pulls.code-owners.ts';
import type { PullRequestRecord, ReviewRecord } from './pulls.model.ts';
import * as threadStore from './review-threads.store.ts';
import * as reviewStore from './reviews.store.ts';

interface Approval {
  reviewer: Account;
  /** The commit the approval was given on. */
  commitId: string;
}

/**
 * The reviewers whose latest verdict is an approval that counts: upstream counts only
 * reviewers with write access, and with dismiss_stale_reviews only approvals of the head.
 */
async function approvals(ctx: AppContext, repo: Repo, pull: PullRequestRecord, rules: BranchRules | null, reviews: readonly ReviewRecord[]): Promise<Approval[]> {
  // Each reviewer's latest approving or change-requesting review is their verdict; comments are none.
  const verdicts = new Map<number, ReviewRecord>();
  for (const r of [...reviews].sort((a, b) => a.id - b.id)) {
    if (r.state === 'APPROVED' || r.state === 'CHANGES_REQUESTED' || r.state === 'DISMISSED') verdicts.set(r.userId, r);
  }
  const stale = rules?.requiredPullRequestReviews?.dismissStaleReviews ?? false;
  const approving = [...verdicts.values()].filter((v) => v.state === 'APPROVED' && (!stale || v.commitId === pull.headSha));
  if (!approving.length) return [];
  const accounts = await users.accountsByIds(ctx, approving.map((v) => v.userId));
  const out: Approval[] = [];
  for (const v of approving) {
    const a = accounts.get(v.userId);
    if (!a) continue;
    // The reviewer's own role on the repository (token scopes are the request's, not theirs).
    const access = await repos.accessTo(ctx, userActor({ id: a.id, login: a.login, siteAdmin: a.siteAdmin }, 'token', 0, ['repo'], ''), repo);
    if (roleAtLeast(access.role, 'push')) out.push({ reviewer: a, commitId: v.commitId });
  }
  return out;
}

/**
 * require_last_push_approval: an approval that counts was given on the head commit (after
 * the latest push) by someone other than whoever pushed it. Before any push since the
 * pull request was opened the pusher is not known; its author cannot approve it anyway.
 */
function lastPushApproved(pull: PullRequestRecord, approved: readonly Approval[]): boolean {
  return approved.some((a) => a.commitId === pull.headSha && a.reviewer.id !== pull.lastPusherId);
}

export interface ProtectionGate extends MergeGate {
  /** The actor asked about may merge although the gate refuses (no rule they cannot bypass refuses it). */
  bypassed: boolean;
}

/**
 * The gate of the base branch's rules (classic protection and active rulesets, as one)
 * for the pull request; with `actor`, whether the rules that still bind them (those
 * they do not bypass) would let them merge anyway. `submitted`: the pull request's
 * submitted reviews when the caller has them already — a page of pull requests reads
 * every pull's in one query (submittedReviewsByPull) rather than one query each.
 */
export async function protectionGate(
  ctx: AppContext, repo: Repo, pull: PullRequestRecord, baseTip: string, actor?: Actor, submitted?: readonly ReviewRecord[],
): Promise<ProtectionGate> {
  const [refRules, latest, runs, reviews] = await Promise.all([
    rulesOfRef(ctx, repo, `refs/heads/${pull.baseRef}`),
    statuses.latestStatuses(ctx, repo.id, pull.headSha),
    checks.latestRuns(ctx, repo.id, pull.headSha),
    submitted ?? reviewStore.listSubmittedReviews(ctx.db, [pull.id]),
  ]);
  const rules = mergedRules(refRules.classic, refRules.rulesets);
  const dir = repos.gitDir(ctx, repo);
  const approved = rules?.requiredPullRequestReviews ? await approvals(ctx, repo, pull, rules, reviews) : [];
  const approvers = approved.map((a) => a.reviewer);
  const [behind, codeOwnersAwaited, unresolvedThreads] = await Promise.all([
    rules?.requiredStatusChecks?.strict ? git.isAncestor(dir, baseTip, pull.headSha).then((contains) => !contains) : false,
    rules?.requiredPullRequestReviews?.requireCodeOwnerReviews ? awaitedCodeOwners(ctx, dir, baseTip, pull.headSha, approvers) : [],
    rules?.requiredConversationResolution ? threadStore.countUnresolved(ctx.db, pull.id) : 0,
  ]);
  // Check runs count beside statuses: a run's name is its context.
  const reports = [
    ...latest.map((s) => ({ context: s.context, state: s.state, appId: null })),
    ...runs.map((r) => ({ context: r.run.name, state: runState(r.run), appId: r.appId })),
  ];
  const facts = {
    approvals: approved.length, lastPushApproved: lastPushApproved(pull, approved), codeOwnersAwaited, unresolvedThreads, statuses: reports, behind,
  };
  const gate = mergeGate(rules, facts);
  const bypassed = gate.reason !== null && actor !== undefined && mergeGate(await rulesBindingMerge(ctx, actor, repo, refRules), facts).reason === null;
  return { ...gate, bypassed };
}

/** The submitted reviews of several pull requests, in one query: each pull's (maybe none) under its id. */
export async function submittedReviewsByPull(ctx: AppContext, pullIds: readonly number[]): Promise<Map<number, ReviewRecord[]>> {
  const byPull = new Map<number, ReviewRecord[]>(pullIds.map((id) => [id, []]));
  for (const r of await reviewStore.listSubmittedReviews(ctx.db, pullIds)) byPull.get(r.pullRequestId)?.push(r);
  return byPull;
}
