// The branch protection settings page's data and writes (/{o}/{r}/settings/branches):
// the repository's classic protection rules and its rulesets (shown, not edited here),
// and a rule's add, edit and delete through the branch-protection service that
// PUT/DELETE …/branches/{branch}/protection use, with the viewer as actor. The form is
// turned into the body that PUT takes and checked against the same schema, so the page
// refuses what the API refuses. Only the repository's admins see any of it (404).
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { NotFoundError, ValidationError, type FieldError } from '../../domain/errors.ts';
import { isStoredId } from '../../domain/ids.ts';
import { compileValidator } from '../../http/validation.ts';
import { setFlag } from '../branch-protection/protection-parts.service.ts';
import type { ProtectionRule } from '../branch-protection/protection.model.ts';
import { PutProtectionBody } from '../branch-protection/protection.schemas.ts';
import * as protection from '../branch-protection/protection.service.ts';
import type { Protection, ProtectionInput } from '../branch-protection/protection.service.ts';
import { listRulesets, type PresentedRuleset } from '../branch-protection/rulesets.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import { adminRepo } from './repo-settings.service.ts';

/** Enough rulesets to show on one page. */
const RULESET_LIMIT = 100;

export interface BranchesView {
  repo: Repo;
  rules: ProtectionRule[];
  rulesets: PresentedRuleset[];
}

export async function branchesOf(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<BranchesView> {
  const repo = await adminRepo(ctx, actor, owner, name);
  const [rules, rulesets] = await Promise.all([
    protection.rulesOf(ctx, repo.id),
    listRulesets(ctx, actor, repo.owner.login, repo.name, { perPage: RULESET_LIMIT, offset: 0 }),
  ]);
  return { repo, rules: [...rules].sort((a, b) => a.pattern.localeCompare(b.pattern)), rulesets: rulesets.items };
}

export function ruleId(raw: string): number {
  if (!/^\d{1,15}$/.test(raw) || !isStoredId(Number(raw))) throw new NotFoundError();
  return Number(raw);
}

/** One rule with the users, teams and apps it names, as GET …/protection reads it. */
export async function ruleOf(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<Protection> {
  const repo = await adminRepo(ctx, actor, owner, name);
  const rule = (await protection.rulesOf(ctx, repo.id)).find((r) => r.id === id);
  if (!rule) throw new NotFoundError();
  return protection.getProtection(ctx, actor, repo.owner.login, repo.name, rule.pattern);
}

/** The rule form as posted: checkboxes are '1' when ticked, lists one name per line or comma separated. */
export interface RuleFields {
  pattern: string;
  requireReviews: boolean;
  reviewCount: string;
  dismissStale: boolean;
  codeOwners: boolean;
  lastPushApproval: boolean;
  requireChecks: boolean;
  strict: boolean;
  contexts: string;
  enforceAdmins: boolean;
  linearHistory: boolean;
  forcePushes: boolean;
  deletions: boolean;
  blockCreations: boolean;
  signatures: boolean;
  conversations: boolean;
  lockBranch: boolean;
  forkSyncing: boolean;
  restrict: boolean;
  users: string;
  teams: string;
  apps: string;
}

function namesOf(raw: string): string[] {
  return raw.split(/[\s,]+/).filter((n) => n !== '');
}

/** What the form means as the body of PUT …/branches/{branch}/protection. */
export function inputOf(f: RuleFields): ProtectionInput {
  const count = f.reviewCount.trim() === '' ? 1 : Number(f.reviewCount.trim());
  return {
    required_status_checks: f.requireChecks ? { strict: f.strict, contexts: namesOf(f.contexts) } : null,
    enforce_admins: f.enforceAdmins,
    required_pull_request_reviews: f.requireReviews
      ? { dismiss_stale_reviews: f.dismissStale, require_code_owner_reviews: f.codeOwners, required_approving_review_count: count, require_last_push_approval: f.lastPushApproval }
      : null,
    restrictions: f.restrict ? { users: namesOf(f.users), teams: namesOf(f.teams), apps: namesOf(f.apps) } : null,
    required_linear_history: f.linearHistory,
    allow_force_pushes: f.forcePushes,
    allow_deletions: f.deletions,
    block_creations: f.blockCreations,
    required_conversation_resolution: f.conversations,
    lock_branch: f.lockBranch,
    allow_fork_syncing: f.forkSyncing,
  };
}

/** The validator of PUT …/protection's body, the one its route compiles. */
let validateBody: ReturnType<typeof compileValidator> | null = null;

/** The refusals the route's schema gives the same body (types, lengths, counts), in the words of its 422. */
function schemaErrors(input: ProtectionInput): FieldError[] {
  validateBody ??= compileValidator(PutProtectionBody, 'body');
  if (validateBody(structuredClone(input))) return [];
  return (validateBody.errors ?? []).map((e) => {
    const field = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
    return { resource: 'Branch', field, code: 'invalid', message: `${field || 'value'} ${e.message ?? 'is invalid'}` };
  });
}

function patternOf(raw: string): string {
  const pattern = raw.trim();
  if (pattern === '') throw ValidationError.field('Branch', 'pattern', 'missing_field', 'Type the branch name or pattern to protect.');
  return pattern;
}

/**
 * Writes the rule of `pattern` as PUT does (a named branch must exist; a pattern may
 * name branches to come), then required signatures, which PUT leaves as they are and
 * its own sub-resource sets. `creating` refuses a pattern that already has a rule,
 * rather than replacing it unseen.
 */
async function writeRule(ctx: AppContext, actor: Actor, repo: Repo, pattern: string, f: RuleFields, creating: boolean): Promise<ProtectionRule> {
  const input = inputOf(f);
  const errors = schemaErrors(input);
  if (errors.length) throw new ValidationError(errors);
  if (creating && (await protection.rulesOf(ctx, repo.id)).some((r) => r.pattern === pattern)) {
    throw ValidationError.field('Branch', 'pattern', 'already_exists', `${pattern} already has a protection rule: edit that one.`);
  }
  const where = { owner: repo.owner.login, repo: repo.name, branch: pattern };
  let written: Protection;
  try {
    written = await protection.putProtection(ctx, actor, where.owner, where.repo, pattern, input);
  } catch (err) {
    // The repository was found and administered above: a 404 here is the branch.
    if (err instanceof NotFoundError) throw ValidationError.field('Branch', 'pattern', 'invalid', `No branch is called ${pattern}. A pattern with * protects branches to come.`);
    throw err;
  }
  if (written.rule.rules.requiredSignatures !== f.signatures) written = await setFlag(ctx, actor, where, 'requiredSignatures', f.signatures);
  return written.rule;
}

export async function createRule(ctx: AppContext, actor: Actor, owner: string, name: string, f: RuleFields): Promise<ProtectionRule> {
  const repo = await adminRepo(ctx, actor, owner, name);
  return writeRule(ctx, actor, repo, patternOf(f.pattern), f, true);
}

/** The pattern stays what it is: the form edits the rest of the rule. */
export async function updateRule(ctx: AppContext, actor: Actor, owner: string, name: string, id: number, f: RuleFields): Promise<ProtectionRule> {
  const { repo, rule } = await ruleOf(ctx, actor, owner, name, id);
  return writeRule(ctx, actor, repo, rule.pattern, f, false);
}

export async function deleteRule(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<void> {
  const { repo, rule } = await ruleOf(ctx, actor, owner, name, id);
  await protection.deleteProtection(ctx, actor, repo.owner.login, repo.name, rule.pattern);
}

/** A rule's fields as the form shows them. */
export function fieldsOfRule(p: Protection | null): RuleFields {
  const r = p?.rule.rules;
  const reviews = r?.requiredPullRequestReviews ?? null;
  const checks = r?.requiredStatusChecks ?? null;
  const names = {
    users: (p?.users ?? []).map((u) => u.login).join(', '),
    teams: (p?.teams ?? []).map((t) => t.team.slug).join(', '),
    apps: (p?.apps ?? []).map((a) => a.app.slug).join(', '),
  };
  return {
    pattern: p?.rule.pattern ?? '',
    requireReviews: reviews !== null && r !== undefined,
    reviewCount: String(reviews?.requiredApprovingReviewCount ?? 1),
    dismissStale: reviews?.dismissStaleReviews ?? false,
    codeOwners: reviews?.requireCodeOwnerReviews ?? false,
    lastPushApproval: reviews?.requireLastPushApproval ?? false,
    requireChecks: checks !== null && r !== undefined,
    strict: checks?.strict ?? false,
    contexts: (checks?.checks ?? []).map((c) => c.context).join('\n'),
    enforceAdmins: r?.enforceAdmins ?? false,
    linearHistory: r?.requiredLinearHistory ?? false,
    forcePushes: r?.allowForcePushes ?? false,
    deletions: r?.allowDeletions ?? false,
    blockCreations: r?.blockCreations ?? false,
    signatures: r?.requiredSignatures ?? false,
    conversations: r?.requiredConversationResolution ?? false,
    lockBranch: r?.lockBranch ?? false,
    forkSyncing: r?.allowForkSyncing ?? false,
    restrict: (r?.restrictions ?? null) !== null,
    ...names,
  };
}
