// A repository ruleset as stored (upstream's repository-ruleset record), which refs it
// covers, and what its enforced rules mean in the terms classic protection is enforced
// in (BranchRules), so that pushes, the refs and contents APIs and merges apply both
// through the same code.
import { patternSource, type BranchRules } from './protection.model.ts';

export const ENFORCEMENTS = ['disabled', 'active', 'evaluate'] as const;
export type Enforcement = (typeof ENFORCEMENTS)[number];
export const TARGETS = ['branch', 'tag', 'push'] as const;
export type Target = (typeof TARGETS)[number];

export const ACTOR_TYPES = ['Integration', 'OrganizationAdmin', 'RepositoryRole', 'Team', 'DeployKey', 'User'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];
export const BYPASS_MODES = ['always', 'pull_request', 'exempt'] as const;
export type BypassMode = (typeof BYPASS_MODES)[number];

export interface BypassActor {
  actorId: number | null;
  actorType: ActorType;
  bypassMode: BypassMode;
}

export interface RefNameCondition {
  include: string[];
  exclude: string[];
}

/** One rule as given: its type and its parameters (checked by rulesets.rules). */
export interface RuleEntry {
  type: string;
  parameters?: Record<string, unknown>;
}

/**
 * Which of an organization's repositories its ruleset covers: names matching one of
 * `include` (fnmatch; `~ALL` every one) and none of `exclude`, or the repositories of
 * `ids`. `protected` (names) is stored and shown.
 */
export type RepositoryCondition =
  | { by: 'name'; include: string[]; exclude: string[]; protected: boolean }
  | { by: 'id'; ids: number[] };

export interface Ruleset {
  id: number;
  /** The repository that owns it, or null for an organization's. */
  repositoryId: number | null;
  /** The organization that owns it, or null for a repository's. */
  organizationId: number | null;
  name: string;
  target: Target;
  enforcement: Enforcement;
  bypassActors: BypassActor[];
  conditions: { refName: RefNameCondition } | null;
  /** An organization ruleset's repositories; null for a repository's own. */
  repositoryCondition: RepositoryCondition | null;
  rules: RuleEntry[];
  createdAt: string;
  updatedAt: string;
}

/** Upstream's id of the repository admin role among RepositoryRole bypass actors. */
export const ADMIN_ROLE_ID = 5;

/** The rule types Wharf enforces; the others are validated and stored only. */
export const ENFORCED_RULES: ReadonlySet<string> = new Set([
  'creation', 'update', 'deletion', 'non_fast_forward', 'required_linear_history', 'required_signatures', 'pull_request', 'required_status_checks',
  'commit_message_pattern', 'commit_author_email_pattern', 'committer_email_pattern', 'branch_name_pattern', 'tag_name_pattern',
  'file_path_restriction', 'max_file_path_length', 'file_extension_restriction', 'max_file_size',
]);

const PREFIX: Record<Target, string> = { branch: 'refs/heads/', tag: 'refs/tags/', push: 'refs/' };

/**
 * The regular expression source of the full ref names a ruleset covers: one of its
 * includes and none of its excludes, among the refs of its target. `~DEFAULT_BRANCH` is
 * the repository's default branch and `~ALL` every ref of the target; other entries are
 * fnmatch patterns of full ref names (`refs/heads/feature/*`). No includes: nothing.
 * A push ruleset judges what every push brings, whatever the ref (upstream's push
 * rulesets have no ref conditions).
 */
export function refNameSource(rs: Pick<Ruleset, 'target' | 'conditions'>, defaultBranch: string): string {
  const prefix = PREFIX[rs.target];
  if (rs.target === 'push') return `^${escape(prefix)}`;
  const one = (p: string): string => {
    if (p === '~ALL') return `${escape(prefix)}.*`;
    if (p === '~DEFAULT_BRANCH') return escape(`refs/heads/${defaultBranch}`);
    return patternSource(p).slice(1, -1);
  };
  const include = rs.conditions?.refName.include ?? [];
  const exclude = rs.conditions?.refName.exclude ?? [];
  if (include.length === 0) return '(?!)';
  const excluded = exclude.length ? `(?!(?:${exclude.map(one).join('|')})$)` : '';
  return `^(?=${escape(prefix)})${excluded}(?:${include.map(one).join('|')})$`;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function coversRef(rs: Ruleset, defaultBranch: string, ref: string): boolean {
  return new RegExp(refNameSource(rs, defaultBranch)).test(ref);
}

/** Whether an organization ruleset covers one of its repositories (a repository's own always does). */
export function coversRepository(rs: Ruleset, repo: { id: number; name: string }): boolean {
  const c = rs.repositoryCondition;
  if (rs.organizationId === null) return true;
  if (!c) return false;
  if (c.by === 'id') return c.ids.includes(repo.id);
  const name = repo.name.toLowerCase();
  const matches = (p: string) => p === '~ALL' || new RegExp(patternSource(p.toLowerCase())).test(name);
  return c.include.some(matches) && !c.exclude.some(matches);
}

/** Rules that bind nothing: the start that each ruleset's rules tighten. */
export const NO_RULES: BranchRules = {
  requiredStatusChecks: null, enforceAdmins: false, requiredPullRequestReviews: null, restrictions: null,
  requiredSignatures: false, requiredLinearHistory: false, allowForcePushes: true, allowDeletions: true,
  blockCreations: false, requiredConversationResolution: false, lockBranch: false, allowForkSyncing: false,
};

const flag = (p: Record<string, unknown> | undefined, name: string): boolean => p?.[name] === true;

/**
 * A ruleset's enforced rules as classic protection's terms. Rulesets bind admins too
 * (enforceAdmins): only bypass actors escape them, which the caller decides. The
 * `update` rule is kept apart (RulesetLimits.blockUpdates): its refusal is its own.
 */
export function branchRulesOf(rs: Ruleset): BranchRules {
  let r: BranchRules = { ...NO_RULES, enforceAdmins: true };
  for (const rule of rs.rules) {
    const p = rule.parameters;
    switch (rule.type) {
      case 'creation': r = { ...r, blockCreations: true }; break;
      case 'deletion': r = { ...r, allowDeletions: false }; break;
      case 'non_fast_forward': r = { ...r, allowForcePushes: false }; break;
      case 'required_linear_history': r = { ...r, requiredLinearHistory: true }; break;
      case 'required_signatures': r = { ...r, requiredSignatures: true }; break;
      case 'pull_request':
        r = {
          ...r,
          requiredPullRequestReviews: {
            dismissStaleReviews: flag(p, 'dismiss_stale_reviews_on_push'),
            requireCodeOwnerReviews: flag(p, 'require_code_owner_review'),
            requiredApprovingReviewCount: Number(p?.required_approving_review_count ?? 0),
            requireLastPushApproval: flag(p, 'require_last_push_approval'),
          },
          requiredConversationResolution: flag(p, 'required_review_thread_resolution'),
        };
        break;
      case 'required_status_checks': {
        const checks = (p?.required_status_checks as { context: string; integration_id?: number }[] | undefined) ?? [];
        r = {
          ...r,
          requiredStatusChecks: {
            strict: flag(p, 'strict_required_status_checks_policy'),
            checks: checks.map((c) => ({ context: c.context, appId: c.integration_id ?? null })),
          },
        };
        break;
      }
      default: break;
    }
  }
  return r;
}

export function blocksUpdates(rs: Ruleset): boolean {
  return rs.rules.some((r) => r.type === 'update');
}

/**
 * The strictest of two sets of rules: every requirement of either, the higher review
 * count, the union of required checks (a context bound to an app in either stays bound).
 */
export function strictest(a: BranchRules, b: BranchRules): BranchRules {
  const ra = a.requiredPullRequestReviews;
  const rb = b.requiredPullRequestReviews;
  const ca = a.requiredStatusChecks;
  const cb = b.requiredStatusChecks;
  const checks = [...(ca?.checks ?? []), ...(cb?.checks ?? [])];
  return {
    requiredStatusChecks: ca || cb ? {
      strict: (ca?.strict ?? false) || (cb?.strict ?? false),
      checks: [...new Map(checks.map((c) => [`${c.context}\0${c.appId ?? ''}`, c])).values()],
    } : null,
    enforceAdmins: a.enforceAdmins || b.enforceAdmins,
    requiredPullRequestReviews: ra && rb ? {
      dismissStaleReviews: ra.dismissStaleReviews || rb.dismissStaleReviews,
      requireCodeOwnerReviews: ra.requireCodeOwnerReviews || rb.requireCodeOwnerReviews,
      requiredApprovingReviewCount: Math.max(ra.requiredApprovingReviewCount, rb.requiredApprovingReviewCount),
      requireLastPushApproval: ra.requireLastPushApproval || rb.requireLastPushApproval,
    } : ra ?? rb,
    restrictions: a.restrictions ?? b.restrictions,
    requiredSignatures: a.requiredSignatures || b.requiredSignatures,
    requiredLinearHistory: a.requiredLinearHistory || b.requiredLinearHistory,
    allowForcePushes: a.allowForcePushes && b.allowForcePushes,
    allowDeletions: a.allowDeletions && b.allowDeletions,
    blockCreations: a.blockCreations || b.blockCreations,
    requiredConversationResolution: a.requiredConversationResolution || b.requiredConversationResolution,
    lockBranch: a.lockBranch || b.lockBranch,
    allowForkSyncing: a.allowForkSyncing || b.allowForkSyncing,
  };
}
