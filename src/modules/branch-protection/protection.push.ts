// What protection means for one who pushes: the rules handed to receive-pack's hook
// (src/git/protected-push.ts), resolved for the pusher. Administrators bypass the
// review, status check, restriction, signature and linear history rules unless the
// rule enforces them for admins; force pushes, deletions and locks bind everyone.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { openSignatureChannel, protectedPushEnv, type PushRule } from '../../git/protected-push.ts';
import * as teams from '../orgs/teams.service.ts';
import { roleAtLeast, type Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { verifyCommit } from '../verification/verification.service.ts';
import { byPriority, patternSource, type BranchRules, type ProtectionRule } from './protection.model.ts';
import * as store from './protection.store.ts';

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

async function pushRule(ctx: AppContext, who: Pusher, isAdmin: boolean, repo: Repo, rule: ProtectionRule): Promise<PushRule> {
  const r = rule.rules;
  const bypass = isAdmin && !r.enforceAdmins;
  return {
    pattern: rule.pattern,
    matches: patternSource(rule.pattern),
    deny: await denial(ctx, who, isAdmin, repo, r),
    allowForcePushes: r.allowForcePushes,
    allowDeletions: r.allowDeletions,
    requireSignatures: r.requiredSignatures && !bypass,
    requireLinearHistory: r.requiredLinearHistory && !bypass,
  };
}

/** The rules of the repository as they bind `actor`'s push, in priority order. */
export async function pushRules(ctx: AppContext, actor: Actor, repo: Repo): Promise<PushRule[]> {
  const rules = await store.listRules(ctx.db, repo.id);
  if (rules.length === 0 || !actor.user) return [];
  const isAdmin = await isRepoAdmin(ctx, actor, repo);
  const who = pusherOf(actor);
  return Promise.all(byPriority(rules).map((rule) => pushRule(ctx, who, isAdmin, repo, rule)));
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
  if (!rules.some((r) => r.requireSignatures)) return { env: protectedPushEnv(rules), close() {} };
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
 * where the rule says so, as a push's must. Commits the API writes itself (contents,
 * createCommitOnBranch) are Wharf's own and unsigned (Wharf has no signing key: upstream
 * signs them with its own), so those callers pass no `added`.
 */
export async function refChangeRefusal(
  ctx: AppContext, actor: Actor, repo: Repo, ref: string, change: RefChange, added?: () => Promise<Buffer[]>,
): Promise<string | null> {
  if (!ref.startsWith('refs/heads/') || !actor.user) return null;
  const branch = ref.slice('refs/heads/'.length);
  const rule = byPriority(await store.listRules(ctx.db, repo.id))
    .find((r) => new RegExp(patternSource(r.pattern)).test(branch));
  if (!rule) return null;
  if (change === 'delete' && !rule.rules.allowDeletions) return 'Cannot delete this branch';
  const isAdmin = await isRepoAdmin(ctx, actor, repo);
  const denied = await denial(ctx, pusherOf(actor), isAdmin, repo, rule.rules);
  if (denied) return denied;
  if (change === 'force' && !rule.rules.allowForcePushes) return 'Cannot force-push to this branch';
  const { requiredSignatures, requiredLinearHistory, enforceAdmins } = rule.rules;
  if (!added || change === 'delete' || (isAdmin && !enforceAdmins) || !(requiredSignatures || requiredLinearHistory)) return null;
  for (const raw of await added()) {
    const header = raw.subarray(0, Math.max(0, raw.indexOf('\n\n'))).toString('utf8');
    if (requiredLinearHistory && (header.match(/^parent /gm) ?? []).length > 1) return 'This branch must not contain merge commits.';
    if (requiredSignatures && !(await verifyCommit(ctx, raw)).verified) return 'Commits must have verified signatures.';
  }
  return null;
}
