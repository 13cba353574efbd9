// The repository rulesets settings pages' data and writes (/{o}/{r}/settings/rules): the
// repository's rulesets (its organization's that cover it shown, managed elsewhere), and
// a branch ruleset's create, edit and delete through the branch-protection rulesets
// service that POST/PUT/DELETE …/rulesets use, with the viewer as actor, so the page
// refuses what the API refuses. The form itself (ruleset-form.service.ts) is shared with
// the organization rulesets pages. Only the repository's admins see any of it (404).
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { isStoredId } from '../../domain/ids.ts';
import type { BypassActor, Ruleset } from '../branch-protection/rulesets.model.ts';
import * as rulesets from '../branch-protection/rulesets.service.ts';
import type { PresentedRuleset } from '../branch-protection/rulesets.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import { adminRepo } from './repo-settings.service.ts';
import * as form from './ruleset-form.service.ts';
import type { RulesetFields } from './ruleset-form.service.ts';

/** Enough rulesets for one page. */
export const RULESET_LIMIT = 100;

export interface RulesetsView {
  repo: Repo;
  rulesets: PresentedRuleset[];
}

export async function rulesetsOf(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<RulesetsView> {
  const repo = await adminRepo(ctx, actor, owner, name);
  const list = await rulesets.listRulesets(ctx, actor, repo.owner.login, repo.name, { perPage: RULESET_LIMIT, offset: 0 });
  return { repo, rulesets: list.items };
}

/** A ruleset id from the path: anything but a stored id is a missing page. */
export function rulesetId(raw: string): number {
  if (!/^\d{1,15}$/.test(raw) || !isStoredId(Number(raw))) throw new NotFoundError();
  return Number(raw);
}

/** One of the repository's own branch rulesets (an organization's, or a tag or push ruleset, is not edited here: 404). */
export async function rulesetOf(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<{ repo: Repo; ruleset: Ruleset }> {
  const repo = await adminRepo(ctx, actor, owner, name);
  const { ruleset } = await rulesets.getRuleset(ctx, actor, repo.owner.login, repo.name, id, false);
  if (ruleset.target !== 'branch') throw new NotFoundError();
  return { repo, ruleset };
}

export async function createRuleset(ctx: AppContext, actor: Actor, owner: string, name: string, f: RulesetFields): Promise<Ruleset> {
  const repo = await adminRepo(ctx, actor, owner, name);
  return (await rulesets.createRuleset(ctx, actor, repo.owner.login, repo.name, await form.inputOf(ctx, repo.owner, f, null))).ruleset;
}

export async function updateRuleset(ctx: AppContext, actor: Actor, owner: string, name: string, id: number, f: RulesetFields): Promise<Ruleset> {
  const { repo, ruleset } = await rulesetOf(ctx, actor, owner, name, id);
  return (await rulesets.updateRuleset(ctx, actor, repo.owner.login, repo.name, id, await form.inputOf(ctx, repo.owner, f, ruleset))).ruleset;
}

export async function deleteRuleset(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<void> {
  const { repo } = await rulesetOf(ctx, actor, owner, name, id);
  await rulesets.deleteRuleset(ctx, actor, repo.owner.login, repo.name, id);
}

/** Each bypass actor of the ruleset as the form names it (teams of the repository's organization by slug). */
export function actorNames(ctx: AppContext, repo: Repo, rs: Ruleset): Promise<Map<BypassActor, string>> {
  return form.actorNames(ctx, repo.owner, rs);
}
