// What rules apply to a ref of a repository: its branch's classic protection rule and
// every active ruleset whose conditions cover the ref, the repository's own and those of
// its organization that cover the repository (evaluate and disabled ones bind nobody). Pushes (protection.push), the refs and contents APIs (refChangeRefusal),
// merges and mergeable_state (pulls.protection) and GraphQL ask here, then apply the
// rules as classic protection's BranchRules, so both kinds are enforced by one code path.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { roleAtLeast, type Repo } from '../repos/repos.model.ts';
import type { BranchRules, ProtectionRule } from './protection.model.ts';
import { ruleOfBranch } from './protection.service.ts';
import { bypassOf, subjectOf, type BypassSubject } from './rulesets.bypass.ts';
import { branchRulesOf, coversRef, coversRepository, strictest, type Ruleset } from './rulesets.model.ts';
import * as store from './rulesets.store.ts';

export interface RefRules {
  /** The full ref name (refs/heads/main, refs/tags/v1). */
  ref: string;
  classic: ProtectionRule | null;
  /** Active rulesets covering the ref, by id. */
  rulesets: Ruleset[];
}

const HEADS = 'refs/heads/';

/** Every active ruleset that binds the repository: its own, then its organization's that cover it. */
export async function activeRulesets(ctx: AppContext, repo: Repo): Promise<Ruleset[]> {
  const [own, org] = await Promise.all([
    store.list(ctx.db, { repositoryId: repo.id }, { enforcement: 'active' }),
    repo.owner.type === 'Organization' ? store.list(ctx.db, { organizationId: repo.ownerId }, { enforcement: 'active' }) : [],
  ]);
  return [...own, ...org.filter((rs) => coversRepository(rs, repo))];
}

/** The active rulesets binding the repository that cover `ref` (a push ruleset covers every ref). */
export async function rulesetsOfRef(ctx: AppContext, repo: Repo, ref: string): Promise<Ruleset[]> {
  return (await activeRulesets(ctx, repo)).filter((rs) => coversRef(rs, repo.defaultBranch, ref));
}

/**
 * Whether an active branch ruleset among `sets` covers the branch: upstream then calls
 * the branch protected (GET …/branches), as it does for a classic rule. Push rulesets,
 * which judge every push whatever the ref, protect no branch in particular.
 */
export function rulesetProtects(sets: readonly Ruleset[], defaultBranch: string, branch: string): boolean {
  return sets.some((rs) => rs.target === 'branch' && coversRef(rs, defaultBranch, `${HEADS}${branch}`));
}

export async function rulesOfRef(ctx: AppContext, repo: Repo, ref: string): Promise<RefRules> {
  const [classic, rulesets] = await Promise.all([
    ref.startsWith(HEADS) ? ruleOfBranch(ctx, repo.id, ref.slice(HEADS.length)) : null,
    rulesetsOfRef(ctx, repo, ref),
  ]);
  return { ref, classic, rulesets };
}

/** The rules as one, each requirement the strictest any of them sets; null when none apply. */
export function mergedRules(classic: ProtectionRule | null, rulesets: readonly Ruleset[]): BranchRules | null {
  const parts = [...(classic ? [classic.rules] : []), ...rulesets.map(branchRulesOf)];
  return parts.length ? parts.reduce(strictest) : null;
}

/** The rules of a branch for everyone (mergeable_state, required checks, stale reviews). */
export async function branchRules(ctx: AppContext, repo: Repo, branch: string): Promise<BranchRules | null> {
  const r = await rulesOfRef(ctx, repo, `${HEADS}${branch}`);
  return mergedRules(r.classic, r.rulesets);
}

/**
 * The rules that still bind `actor` merging a pull request into the ref: the classic
 * rule unless they administer the repository and it does not enforce admins, and each
 * ruleset they hold no bypass of (any mode: pull_request is the merge's own).
 */
export async function rulesBindingMerge(ctx: AppContext, actor: Actor, repo: Repo, r: RefRules): Promise<BranchRules | null> {
  const subject = await subjectOf(ctx, actor, repo);
  const classic = r.classic && (r.classic.rules.enforceAdmins || !roleAtLeast(subject.role, 'admin')) ? r.classic : null;
  return mergedRules(classic, await unbypassed(ctx, subject, repo, r.rulesets, 'merge'));
}

/** The rulesets `subject` does not bypass on a push (`push`) or a merge (`merge`). */
export async function unbypassed(ctx: AppContext, subject: BypassSubject, repo: Repo, rulesets: readonly Ruleset[], on: 'push' | 'merge'): Promise<Ruleset[]> {
  const out: Ruleset[] = [];
  for (const rs of rulesets) {
    const mode = await bypassOf(ctx, subject, repo, rs);
    const bypassed = on === 'merge' ? mode !== null : mode === 'always' || mode === 'exempt';
    if (!bypassed) out.push(rs);
  }
  return out;
}

/**
 * Why the actor may not rename the repository: an active organization ruleset covering
 * it by name says `protected` (upstream: renaming target repositories is prevented),
 * and the actor holds no push bypass of it. Null when it may.
 */
export async function renameRefusal(ctx: AppContext, actor: Actor, repo: Repo): Promise<string | null> {
  const guarding = (await activeRulesets(ctx, repo)).filter((rs) => rs.repositoryCondition?.by === 'name' && rs.repositoryCondition.protected);
  if (guarding.length === 0) return null;
  const binding = await unbypassed(ctx, await subjectOf(ctx, actor, repo), repo, guarding, 'push');
  const first = binding[0];
  return first ? `Repository rule violations found\n\nThis repository's name is protected by the ruleset "${first.name}".\n\n` : null;
}
