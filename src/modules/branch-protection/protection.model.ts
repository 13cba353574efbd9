// A branch protection rule as stored: what classic protection (PUT …/protection)
// configures, users and teams by id so that renames do not break a rule.

export interface StatusChecks {
  strict: boolean;
  /** Required contexts with the app that must set them (null: any). */
  checks: { context: string; appId: number | null }[];
}

export interface PullRequestReviews {
  dismissStaleReviews: boolean;
  requireCodeOwnerReviews: boolean;
  requiredApprovingReviewCount: number;
  requireLastPushApproval: boolean;
}

export interface Restrictions {
  userIds: number[];
  teamIds: number[];
  appIds: number[];
}

export interface BranchRules {
  requiredStatusChecks: StatusChecks | null;
  enforceAdmins: boolean;
  requiredPullRequestReviews: PullRequestReviews | null;
  restrictions: Restrictions | null;
  requiredSignatures: boolean;
  requiredLinearHistory: boolean;
  allowForcePushes: boolean;
  allowDeletions: boolean;
  blockCreations: boolean;
  requiredConversationResolution: boolean;
  lockBranch: boolean;
  allowForkSyncing: boolean;
}

export interface ProtectionRule {
  id: number;
  repositoryId: number;
  /** A branch name, or an fnmatch pattern (`*` within a path segment, `**` across). */
  pattern: string;
  rules: BranchRules;
  createdAt: string;
  updatedAt: string;
}

export function isWildcard(pattern: string): boolean {
  return /[*?[]/.test(pattern);
}

/** The regular expression source of the branch names a rule covers. */
export function patternSource(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*' && pattern[i + 1] === '*') { out += '.*'; i++; }
    else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|\\\]]/g, '\\$&').replace('[', '\\[');
  }
  return `^${out}$`;
}

/** Rules in the order they win: exact names, then longer (more specific) patterns first. */
export function byPriority<T extends { pattern: string }>(rules: readonly T[]): T[] {
  const rank = (r: T) => (isWildcard(r.pattern) ? r.pattern.length : Number.MAX_SAFE_INTEGER);
  return [...rules].sort((a, b) => rank(b) - rank(a));
}

/**
 * The rule that protects `branch`: the one named exactly, else the most specific
 * (longest) pattern matching it, as upstream picks among several matching rules.
 */
export function ruleFor<T extends { pattern: string }>(rules: readonly T[], branch: string): T | null {
  return byPriority(rules).find((r) => r.pattern === branch || (isWildcard(r.pattern) && new RegExp(patternSource(r.pattern)).test(branch))) ?? null;
}
