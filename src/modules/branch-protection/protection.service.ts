// Classic branch protection: reading, writing and removing the rule of a branch (or
// wildcard pattern), and what a rule means for the one who pushes (protection.push).
// Managing protection takes the admin role on the repository, as upstream.
import { inTransaction, type AppContext } from '../../context.ts';
import { requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import * as git from '../../git/repository.ts';
import type { App } from '../apps/apps.model.ts';
import * as apps from '../apps/apps.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import type { Organization } from '../orgs/orgs.model.ts';
import { organizationsByIds } from '../orgs/organizations.service.ts';
import * as teams from '../orgs/teams.service.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import { idsOf } from './protection-actors.service.ts';
import { isWildcard, ruleFor, type BranchRules, type ProtectionRule } from './protection.model.ts';
import * as store from './protection.store.ts';

const RESOURCE = 'Branch';

export interface ProtectionInput {
  required_status_checks: { strict: boolean; contexts: string[]; checks?: { context: string; app_id?: number }[] } | null;
  enforce_admins: boolean | null;
  required_pull_request_reviews: {
    dismiss_stale_reviews?: boolean;
    require_code_owner_reviews?: boolean;
    required_approving_review_count?: number;
    require_last_push_approval?: boolean;
  } | null;
  restrictions: { users: string[]; teams: string[]; apps?: string[] } | null;
  required_linear_history?: boolean;
  allow_force_pushes?: boolean | null;
  allow_deletions?: boolean;
  block_creations?: boolean;
  required_conversation_resolution?: boolean;
  lock_branch?: boolean;
  allow_fork_syncing?: boolean;
}

/** A rule with what its views show: the repository and the accounts, teams and apps it names. */
export interface Protection {
  repo: Repo;
  rule: ProtectionRule;
  /** The branch it was read for (the rule's pattern when written as one). */
  branch: string;
  users: Account[];
  teams: Awaited<ReturnType<typeof teams.teamsWithOrgLogins>>;
  apps: apps.PresentedApp[];
  /** The organizations among the apps' owners (restriction policies show their addresses). */
  appOwnerOrgs: Map<number, Organization>;
}

async function adminRepo(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<Repo> {
  requireUser(actor);
  return (await repos.locate(ctx, actor, owner, name, 'admin')).repo;
}

async function withDetails(ctx: AppContext, repo: Repo, rule: ProtectionRule, branch: string): Promise<Protection> {
  const r = rule.rules.restrictions;
  const accounts = r ? await users.accountsByIds(ctx, r.userIds) : new Map<number, Account>();
  const found = r?.appIds.length ? await apps.appsByIds(ctx, r.appIds) : new Map<number, App>();
  const named = r && r.teamIds.length ? await teams.teamsWithOrgLogins(ctx, r.teamIds) : [];
  const presented = await apps.presentApps(ctx, (r?.appIds ?? []).flatMap((id) => found.get(id) ?? []));
  const orgIds = presented.flatMap((a) => (a.owner?.type === 'Organization' ? [a.owner.id] : []));
  return {
    repo, rule, branch,
    users: (r?.userIds ?? []).flatMap((id) => accounts.get(id) ?? []),
    // In the rule's order, as the lists were given.
    teams: named.sort((a, b) => r!.teamIds.indexOf(a.team.id) - r!.teamIds.indexOf(b.team.id)),
    apps: presented,
    appOwnerOrgs: orgIds.length ? await organizationsByIds(ctx, orgIds) : new Map(),
  };
}

/** The rules of a repository (every pattern), for branch listings and enforcement. */
export function rulesOf(ctx: AppContext, repositoryId: number): Promise<ProtectionRule[]> {
  return store.listRules(ctx.db, repositoryId);
}

/** The rule protecting `branch` in a repository, or null. */
export async function ruleOfBranch(ctx: AppContext, repositoryId: number, branch: string): Promise<ProtectionRule | null> {
  return ruleFor(await store.listRules(ctx.db, repositoryId), branch);
}

/** The rule named `branch`, else the pattern protecting it; 404 "Branch not protected". */
async function requireRule(ctx: AppContext, repo: Repo, branch: string): Promise<ProtectionRule> {
  const rule = await ruleOfBranch(ctx, repo.id, branch);
  if (!rule) throw new NotFoundError('Branch not protected');
  return rule;
}

export async function getProtection(ctx: AppContext, actor: Actor, owner: string, name: string, branch: string): Promise<Protection> {
  const repo = await adminRepo(ctx, actor, owner, name);
  return withDetails(ctx, repo, await requireRule(ctx, repo, branch), branch);
}

async function resolveRestrictions(ctx: AppContext, repo: Repo, input: NonNullable<ProtectionInput['restrictions']>): Promise<BranchRules['restrictions']> {
  return {
    userIds: await idsOf(ctx, repo, 'users', input.users),
    teamIds: await idsOf(ctx, repo, 'teams', input.teams),
    appIds: await idsOf(ctx, repo, 'apps', input.apps ?? []),
  };
}

function statusChecksOf(input: ProtectionInput['required_status_checks']): BranchRules['requiredStatusChecks'] {
  if (!input) return null;
  // `checks` supersedes the deprecated `contexts` when both are given, as upstream.
  const checks = input.checks
    ? input.checks.map((c) => ({ context: c.context, appId: c.app_id === undefined || c.app_id === -1 ? null : c.app_id }))
    : input.contexts.map((context) => ({ context, appId: null }));
  const unique = [...new Map(checks.map((c) => [c.context, c])).values()];
  return { strict: input.strict, checks: unique };
}

export function reviewsOf(input: ProtectionInput['required_pull_request_reviews']): BranchRules['requiredPullRequestReviews'] {
  if (!input) return null;
  const count = input.required_approving_review_count ?? 1;
  if (!Number.isInteger(count) || count < 0 || count > 6) {
    throw ValidationError.field(RESOURCE, 'required_approving_review_count', 'invalid', 'Invalid request.\n\nrequired_approving_review_count must be between 0 and 6.');
  }
  return {
    dismissStaleReviews: input.dismiss_stale_reviews ?? false,
    requireCodeOwnerReviews: input.require_code_owner_reviews ?? false,
    requiredApprovingReviewCount: count,
    requireLastPushApproval: input.require_last_push_approval ?? false,
  };
}

/** PUT …/branches/{branch}/protection: replaces the rule of `branch` (a name or a wildcard pattern). */
export async function putProtection(ctx: AppContext, actor: Actor, owner: string, name: string, branch: string, input: ProtectionInput): Promise<Protection> {
  const repo = await adminRepo(ctx, actor, owner, name);
  // A named branch must exist (upstream's 404); a pattern may match branches to come.
  if (!isWildcard(branch) && !(await git.resolve(repos.gitDir(ctx, repo), `refs/heads/${branch}`))) throw new NotFoundError('Branch not found');
  const rules: BranchRules = {
    requiredStatusChecks: statusChecksOf(input.required_status_checks),
    enforceAdmins: input.enforce_admins ?? false,
    requiredPullRequestReviews: reviewsOf(input.required_pull_request_reviews),
    restrictions: input.restrictions ? await resolveRestrictions(ctx, repo, input.restrictions) : null,
    // Signatures are set through their own sub-resource; a PUT keeps what is there.
    requiredSignatures: (await store.findRule(ctx.db, repo.id, branch))?.rules.requiredSignatures ?? false,
    requiredLinearHistory: input.required_linear_history ?? false,
    allowForcePushes: input.allow_force_pushes ?? false,
    allowDeletions: input.allow_deletions ?? false,
    blockCreations: input.block_creations ?? false,
    requiredConversationResolution: input.required_conversation_resolution ?? false,
    lockBranch: input.lock_branch ?? false,
    allowForkSyncing: input.allow_fork_syncing ?? false,
  };
  await store.putRule(ctx.db, repo.id, branch, rules, nowIso(ctx.clock));
  return withDetails(ctx, repo, (await store.findRule(ctx.db, repo.id, branch))!, branch);
}

/**
 * Changes part of an existing rule (the sub-resources); 404 when the branch is not
 * protected. The rule is read, changed and written back in one transaction, its row
 * locked on PostgreSQL, so parallel changes (two contexts added at once) all land.
 * `change` gets the repository (what a name means can depend on its owner) and the
 * transaction's context for any reads of its own.
 */
export async function changeProtection(
  ctx: AppContext, actor: Actor, owner: string, name: string, branch: string,
  change: (rules: BranchRules, repo: Repo, tx: AppContext) => BranchRules | Promise<BranchRules>,
): Promise<Protection> {
  const repo = await adminRepo(ctx, actor, owner, name);
  const { pattern } = await requireRule(ctx, repo, branch);
  const changed = await inTransaction(ctx, async (tx) => {
    const rule = await store.findRule(tx.db, repo.id, pattern, { lock: tx.dialect === 'postgres' });
    if (!rule) throw new NotFoundError('Branch not protected');
    await store.putRule(tx.db, repo.id, pattern, await change(rule.rules, repo, tx), nowIso(tx.clock));
    return (await store.findRule(tx.db, repo.id, pattern))!;
  });
  return withDetails(ctx, repo, changed, branch);
}

export async function deleteProtection(ctx: AppContext, actor: Actor, owner: string, name: string, branch: string): Promise<void> {
  const repo = await adminRepo(ctx, actor, owner, name);
  const rule = await requireRule(ctx, repo, branch);
  await store.deleteRule(ctx.db, repo.id, rule.pattern);
}
