// What protection means for one who pushes: the rules handed to receive-pack's hook
// (src/git/protected-push.ts), resolved for the pusher. Administrators bypass the
// review, status check, restriction, signature and linear history rules unless the
// rule enforces them for admins; force pushes, deletions and locks bind everyone.
// Active rulesets (the repository's and its organization's) bind everyone but their
// bypass actors (rulesets.bypass), on any ref they cover (tags too), beside the
// branch's classic rule; their push-content rules are checked by the hook too. What a
// pusher bypasses is still judged: the push goes through and git shows upstream's
// "Bypassed rule violations" notice listing each rule gone around.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { openSignatureChannel, protectedPushEnv, type ClassicBypass, type PushRule } from '../../git/protected-push.ts';
import * as teams from '../orgs/teams.service.ts';
import { roleAtLeast, type Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { verifyCommit } from '../verification/verification.service.ts';
import { byPriority, patternSource, type BranchRules, type ProtectionRule } from './protection.model.ts';
import * as store from './protection.store.ts';
import { activeRulesets, mergedRules, rulesetsOfRef, rulesOfRef, unbypassed } from './ref-rules.service.ts';
import { subjectOf } from './rulesets.bypass.ts';
import { contentChecks, patternViolations } from './rulesets.content.ts';
import { blocksUpdates, branchRulesOf, refNameSource, type Ruleset } from './rulesets.model.ts';

const RESTRICTED = "You're not authorized to push to this branch. Visit the branch protection settings for more information.";

/**
 * Who pushes, as restriction lists name them: a user, or an app through one of its
 * installation tokens (its bot user is named by no list). Neither for a deploy key:
 * upstream's lists cannot name one.
 */
export interface Pusher {
  userId: number | null;
  appId: number | null;
}

/** The pusher behind an actor. */
export function pusherOf(actor: Actor): Pusher {
  if (actor.deployKey || !actor.user) return { userId: null, appId: null };
  if (actor.method === 'installation') return { userId: null, appId: actor.integration?.appId ?? null };
  return { userId: actor.user.id, appId: null };
}

async function mayPushRestricted(ctx: AppContext, who: Pusher, repo: Repo, r: NonNullable<BranchRules['restrictions']>): Promise<boolean> {
  if (who.appId !== null) return r.appIds.includes(who.appId);
  const userId = who.userId;
  if (userId === null) return false;
  if (r.userIds.includes(userId)) return true;
  for (const teamId of r.teamIds) {
    if ((await teams.teamMemberIds(ctx, { orgId: repo.ownerId, teamId })).includes(userId)) return true;
  }
  return false;
}

/** Why the pusher may not update the branch at all, or null. */
export async function denial(ctx: AppContext, who: Pusher, isAdmin: boolean, repo: Repo, rules: BranchRules): Promise<string | null> {
  if (rules.lockBranch) return 'Cannot change this locked branch';
  const bypass = isAdmin && !rules.enforceAdmins;
  if (bypass) return null;
  if (rules.restrictions && !(await mayPushRestricted(ctx, who, repo, rules.restrictions))) return RESTRICTED;
  if (rules.requiredPullRequestReviews) return 'Changes must be made through a pull request.';
  // A pushed commit carries no statuses yet: upstream's "expected" for the first check.
  const first = rules.requiredStatusChecks?.checks[0];
  if (first) return `Required status check "${first.context}" is expected.`;
  return null;
}

/** Whether the actor administers the repository (the bypass of enforce_admins). */
export async function isRepoAdmin(ctx: AppContext, actor: Actor, repo: Repo): Promise<boolean> {
  return roleAtLeast((await repos.accessTo(ctx, actor, repo)).role, 'admin');
}

/**
 * What the parts of a classic rule an administrator bypasses would refuse of anyone
 * else (the push hook's "Bypassed rule violations"): null when they set nothing.
 */
async function classicBypass(ctx: AppContext, who: Pusher, repo: Repo, r: BranchRules): Promise<ClassicBypass | null> {
  const violations = [
    ...(r.restrictions && !(await mayPushRestricted(ctx, who, repo, r.restrictions)) ? [RESTRICTED] : []),
    ...standingViolations(r),
  ];
  if (violations.length === 0 && !r.requiredSignatures && !r.requiredLinearHistory) return null;
  return { violations, requireSignatures: r.requiredSignatures, requireLinearHistory: r.requiredLinearHistory };
}

async function pushRule(ctx: AppContext, who: Pusher, isAdmin: boolean, repo: Repo, rule: ProtectionRule): Promise<PushRule> {
  const r = rule.rules;
  const bypass = isAdmin && !r.enforceAdmins;
  const bypassed = bypass ? await classicBypass(ctx, who, repo, r) : null;
  return {
    pattern: rule.pattern,
    matches: patternSource(rule.pattern),
    deny: await denial(ctx, who, isAdmin, repo, r),
    allowForcePushes: r.allowForcePushes,
    allowDeletions: r.allowDeletions,
    requireSignatures: r.requiredSignatures && !bypass,
    requireLinearHistory: r.requiredLinearHistory && !bypass,
    ...(bypassed ? { bypassed } : {}),
  };
}

/**
 * What a ruleset's rules refuse whatever is pushed (a pull request is needed, checks
 * cannot have passed on new commits yet), each in upstream's words.
 */
export function standingViolations(r: BranchRules): string[] {
  return [
    ...(r.requiredPullRequestReviews ? ['Changes must be made through a pull request.'] : []),
    ...(r.requiredStatusChecks?.checks ?? []).map((c) => `Required status check "${c.context}" is expected.`),
  ];
}

/** A ruleset as the hook applies it; `bypassed` when the pusher is one of its bypass actors. */
function rulesetPushRule(ctx: AppContext, repo: Repo, rs: Ruleset, bypassed: boolean): PushRule {
  const r = branchRulesOf(rs);
  return {
    pattern: rs.name,
    matches: refNameSource(rs, repo.defaultBranch),
    deny: null,
    allowForcePushes: r.allowForcePushes,
    allowDeletions: r.allowDeletions,
    requireSignatures: r.requiredSignatures,
    requireLinearHistory: r.requiredLinearHistory,
    ruleset: {
      blockCreations: r.blockCreations, blockUpdates: blocksUpdates(rs), violations: standingViolations(r), content: contentChecks(rs.rules),
      rulesUrl: ctx.urls.html(repo.owner.login, repo.name, 'rules'),
      ...(bypassed ? { bypassed } : {}),
    },
  };
}

/**
 * The rules of the repository as they bind `actor`'s push: classic ones in priority
 * order, then rulesets. The rulesets `actor` bypasses come too, marked bypassed: the
 * hook accepts what they would refuse and says so.
 */
export async function pushRules(ctx: AppContext, actor: Actor, repo: Repo): Promise<PushRule[]> {
  const [rules, sets] = await Promise.all([store.listRules(ctx.db, repo.id), activeRulesets(ctx, repo)]);
  if ((rules.length === 0 && sets.length === 0) || !actor.user) return [];
  const isAdmin = await isRepoAdmin(ctx, actor, repo);
  const who = pusherOf(actor);
  const binding = sets.length ? await unbypassed(ctx, await subjectOf(ctx, actor, repo), repo, sets, 'push') : [];
  return [
    ...(await Promise.all(byPriority(rules).map((rule) => pushRule(ctx, who, isAdmin, repo, rule)))),
    ...sets.map((rs) => rulesetPushRule(ctx, repo, rs, !binding.includes(rs))),
  ];
}

/** What receive-pack needs to apply protection to one push; close it once git has exited. */
export interface ProtectedPush {
  env: Record<string, string>;
  close(): void;
}

/**
 * The environment that makes receive-pack apply the repository's rules to `actor`'s
 * push. When a rule that binds the pusher requires signatures, it opens the push's
 * signature channel: the hook asks this process whether each new commit's signature is
 * verified, by the same `verifyCommit` that fills `commit.verification` in the API.
 */
export async function protectPush(ctx: AppContext, actor: Actor, repo: Repo): Promise<ProtectedPush> {
  const rules = await pushRules(ctx, actor, repo);
  if (!rules.some((r) => r.requireSignatures || r.bypassed?.requireSignatures)) return { env: protectedPushEnv(rules), close() {} };
  const channel = await openSignatureChannel(async (raw) => {
    try {
      return (await verifyCommit(ctx, raw)).verified;
    } catch (err) {
      ctx.log.error({ err, repositoryId: repo.id }, 'verifying a pushed commit failed');
      return false;
    }
  });
  return { env: protectedPushEnv(rules, channel), close: channel.close };
}

export type RefChange = 'create' | 'update' | 'force' | 'delete';

/**
 * Why a change of `ref` made through the API (refs, contents, createCommitOnBranch) is
 * refused by its branch's rule, in upstream's words; null when allowed or unprotected.
 * `added` reads the commits the change brings onto the branch (the refs API moving a
 * branch to existing commits): they must then have verified signatures and no merges
 * where the rule says so, as a push's must. Commits the contents API writes are Wharf's
 * own and unsigned (Wharf has no signing key: upstream signs them with its own), so it
 * passes no `added` and has madeCommitRefusal judge their commit patterns.
 * (createCommitOnBranch moves the branch through the refs API, `added` and all.)
 */
export async function refChangeRefusal(
  ctx: AppContext, actor: Actor, repo: Repo, ref: string, change: RefChange, added?: () => Promise<Buffer[]>,
): Promise<string | null> {
  if (!actor.user) return null;
  const r = await rulesOfRef(ctx, repo, ref);
  const classic = r.classic ? await classicRefusal(ctx, actor, repo, r.classic, change, added) : null;
  if (classic || r.rulesets.length === 0) return classic;
  const binding = await unbypassed(ctx, await subjectOf(ctx, actor, repo), repo, r.rulesets, 'push');
  const violations = await rulesetViolations(ctx, binding, ref, change, added);
  // Upstream's message for rulesets: a heading, then each violated rule.
  return violations.length ? `Repository rule violations found\n\n${violations.join('\n\n')}\n\n` : null;
}

/**
 * Why the commit the contents API is about to write on `ref` breaks the commit metadata
 * patterns (message, author and committer email) of the rulesets binding `actor`, in
 * the words the push hook and the refs API use; null when it keeps them. The rest of
 * the ref's rules were judged before the commit was made (refChangeRefusal, which such
 * callers give no commits: Wharf's own commits are unsigned, upstream signs them).
 */
export async function madeCommitRefusal(ctx: AppContext, actor: Actor, repo: Repo, ref: string, raw: Buffer): Promise<string | null> {
  if (!actor.user) return null;
  const sets = await rulesetsOfRef(ctx, repo, ref);
  if (sets.length === 0) return null;
  const binding = await unbypassed(ctx, await subjectOf(ctx, actor, repo), repo, sets, 'push');
  const checks = binding.flatMap((rs) => contentChecks(rs.rules))
    .filter((c) => c.kind === 'pattern' && c.on !== 'branch_name' && c.on !== 'tag_name');
  const violations = [...new Set(patternViolations(checks, ref, false, [raw]))];
  return violations.length ? `Repository rule violations found\n\n${violations.join('\n\n')}\n\n` : null;
}

async function classicRefusal(
  ctx: AppContext, actor: Actor, repo: Repo, rule: ProtectionRule, change: RefChange, added?: () => Promise<Buffer[]>,
): Promise<string | null> {
  if (change === 'delete' && !rule.rules.allowDeletions) return 'Cannot delete this branch';
  const isAdmin = await isRepoAdmin(ctx, actor, repo);
  const denied = await denial(ctx, pusherOf(actor), isAdmin, repo, rule.rules);
  if (denied) return denied;
  if (change === 'force' && !rule.rules.allowForcePushes) return 'Cannot force-push to this branch';
  const { requiredSignatures, requiredLinearHistory, enforceAdmins } = rule.rules;
  if (!added || change === 'delete' || (isAdmin && !enforceAdmins)) return null;
  return (await commitViolations(ctx, requiredSignatures, requiredLinearHistory, added))[0] ?? null;
}

/** What the commits a change brings break: merge commits, unverified signatures (each said once). */
async function commitViolations(ctx: AppContext, signatures: boolean, linear: boolean, added: () => Promise<Buffer[]>): Promise<string[]> {
  if (!signatures && !linear) return [];
  const out = new Set<string>();
  for (const raw of await added()) {
    const header = raw.subarray(0, Math.max(0, raw.indexOf('\n\n'))).toString('utf8');
    if (linear && (header.match(/^parent /gm) ?? []).length > 1) out.add('This branch must not contain merge commits.');
    if (signatures && !(await verifyCommit(ctx, raw)).verified) out.add('Commits must have verified signatures.');
  }
  return [...out];
}

/**
 * Every rule of the binding rulesets the change breaks, in upstream's words (what the
 * push hook says too). Of the push-content rules, the API judges the commit metadata
 * and name patterns; the file rules need a push's files and are the hook's alone.
 */
async function rulesetViolations(ctx: AppContext, binding: readonly Ruleset[], ref: string, change: RefChange, readAdded?: () => Promise<Buffer[]>): Promise<string[]> {
  let read: Promise<Buffer[]> | null = null;
  const added = readAdded && (() => (read ??= readAdded()));
  const r = mergedRules(null, binding);
  if (!r) return [];
  const word = ref.startsWith('refs/tags/') ? 'tag' : 'branch';
  if (change === 'delete') return r.allowDeletions ? [] : [`Cannot delete this ${word}`];
  const out: string[] = [];
  if (change === 'create' && r.blockCreations) out.push('Cannot create ref due to creations being restricted.');
  if (change !== 'create' && binding.some(blocksUpdates)) out.push('Cannot update this protected ref.');
  out.push(...standingViolations(r));
  if (change === 'force' && !r.allowForcePushes) out.push(`Cannot force-push to this ${word}`);
  if (added) out.push(...(await commitViolations(ctx, r.requiredSignatures, r.requiredLinearHistory, added)));
  const checks = binding.flatMap((rs) => contentChecks(rs.rules));
  if (checks.some((c) => c.kind === 'pattern')) {
    const needsCommits = checks.some((c) => c.kind === 'pattern' && c.on !== 'branch_name' && c.on !== 'tag_name');
    const commits = added && needsCommits ? await added() : [];
    out.push(...new Set(patternViolations(checks, ref, change === 'create', commits)));
  }
  return out;
}
