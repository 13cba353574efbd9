// What a base branch's rule means for merging a pull request into it: upstream's
// mergeable_state (blocked, behind, unstable, clean) and, for a merge refused, the
// message of its 405. Pure: the pulls module gathers the facts (approvals, code owners
// still to approve, unresolved conversations, the head's statuses, whether the head
// contains the base).
import type { BranchRules } from './protection.model.ts';

export interface MergeFacts {
  /**
   * Approving reviews that count: the latest verdict of each reviewer with write access
   * (on the head commit when stale ones are dismissed).
   */
  approvals: number;
  /** One of those approvals is of the head commit, by someone other than who pushed it last. */
  lastPushApproved: boolean;
  /** Code owners of changed files none of whose owners approved, as upstream names them; empty when none wait. */
  codeOwnersAwaited: readonly string[];
  /** Review threads nobody resolved. */
  unresolvedThreads: number;
  /**
   * The latest commit status of each context on the head commit, and the latest check
   * run of each name (its state success, failure or pending; appId the app that made it).
   */
  statuses: readonly { context: string; state: string; appId?: number | null }[];
  /** The head does not contain the base branch's tip. */
  behind: boolean;
}

export interface MergeGate {
  state: 'blocked' | 'behind' | 'unstable' | 'clean';
  /** Why a merge is refused (upstream's 405 message); null when it is not. */
  reason: string | null;
  /** Administrators may merge anyway (the rule does not enforce itself on them). */
  adminsBypass: boolean;
}

function reviewsMessage(count: number): string {
  return count === 1
    ? 'At least 1 approving review is required by reviewers with write access.'
    : `At least ${count} approving reviews are required by reviewers with write access.`;
}

export function mergeGate(rules: BranchRules | null, facts: MergeFacts): MergeGate {
  const adminsBypass = rules ? !rules.enforceAdmins : true;
  const required = rules?.requiredPullRequestReviews?.requiredApprovingReviewCount ?? 0;
  if (required > 0 && facts.approvals < required) return { state: 'blocked', reason: reviewsMessage(required), adminsBypass };
  if (rules?.requiredPullRequestReviews?.requireLastPushApproval && !facts.lastPushApproved) {
    return { state: 'blocked', reason: 'New changes require approval from someone other than the last pusher.', adminsBypass };
  }
  if (rules?.requiredPullRequestReviews?.requireCodeOwnerReviews && facts.codeOwnersAwaited.length > 0) {
    return { state: 'blocked', reason: `Waiting on code owner review from ${facts.codeOwnersAwaited.join(', ')}.`, adminsBypass };
  }
  if (rules?.requiredConversationResolution && facts.unresolvedThreads > 0) {
    return { state: 'blocked', reason: 'All comments must be resolved.', adminsBypass };
  }
  for (const check of rules?.requiredStatusChecks?.checks ?? []) {
    // A check bound to an app counts only when that app reported it; a failing report
    // of the context outweighs a passing one, a passing one a pending one.
    const reports = facts.statuses.filter((s) => s.context === check.context && (check.appId === null || s.appId === check.appId));
    const state = reports.find((s) => s.state !== 'success' && s.state !== 'pending')?.state
      ?? reports.find((s) => s.state === 'success')?.state ?? reports[0]?.state;
    if (state === 'success') continue;
    const word = state === undefined || state === 'pending' ? 'expected' : 'failing';
    return { state: 'blocked', reason: `Required status check "${check.context}" is ${word}.`, adminsBypass };
  }
  if (rules?.requiredStatusChecks?.strict && facts.behind) {
    return { state: 'behind', reason: 'Head branch is not up to date with the base branch', adminsBypass };
  }
  // Checks that are not required do not block; failing or pending ones make the merge "unstable".
  if (facts.statuses.some((s) => s.state !== 'success')) return { state: 'unstable', reason: null, adminsBypass };
  return { state: 'clean', reason: null, adminsBypass };
}
