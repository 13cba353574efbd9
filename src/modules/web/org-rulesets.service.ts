// The organization rulesets settings pages' data and writes (/organizations/{org}/settings/rules):
// the organization's rulesets, and a branch ruleset's create, edit and delete through the
// organization rulesets service that POST/PUT/DELETE /orgs/{org}/rulesets use, with the
// viewer as actor, so the page refuses what the API refuses. The form is the repository
// rulesets pages' (ruleset-form.service.ts) with the repositories it covers by name
// (include and exclude patterns, one a line); a ruleset that picks its repositories by id,
// or targets tags or pushes, is listed but edited through the API. Only the
// organization's owners see any of it (404).
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { BypassActor, Ruleset } from '../branch-protection/rulesets.model.ts';
import * as orgRulesets from '../branch-protection/rulesets-org.service.ts';
import type { PresentedRuleset } from '../branch-protection/rulesets.service.ts';
import type { Organization } from '../orgs/orgs.model.ts';
import { ownedOrg } from './org-settings.service.ts';
import * as form from './ruleset-form.service.ts';
import type { RulesetFields } from './ruleset-form.service.ts';
import { RULESET_LIMIT } from './rulesets.service.ts';
import type { OrgRulesetForm } from './settings.schemas.ts';

/** The organization's form: the repository's, and which of its repositories the ruleset covers, one name or pattern a line. */
export interface OrgRulesetFields extends RulesetFields {
  repositoryInclude: string;
  repositoryExclude: string;
}

export function orgFieldsOfForm(b: OrgRulesetForm): OrgRulesetFields {
  return { ...form.fieldsOfForm(b), repositoryInclude: b.repository_include ?? '', repositoryExclude: b.repository_exclude ?? '' };
}

/** The form of an organization ruleset (null: a new one, covering every repository's default branch). */
export function orgFieldsOfRuleset(rs: Ruleset | null, names?: ReadonlyMap<BypassActor, string>): OrgRulesetFields {
  const repos = rs?.repositoryCondition?.by === 'name' ? rs.repositoryCondition : null;
  return {
    ...form.fieldsOfRuleset(rs, names),
    repositoryInclude: (repos?.include ?? (rs ? [] : ['~ALL'])).join('\n'),
    repositoryExclude: (repos?.exclude ?? []).join('\n'),
  };
}

export interface OrgRulesetsView {
  org: Organization;
  rulesets: PresentedRuleset[];
}

export async function orgRulesetsOf(ctx: AppContext, actor: Actor, login: string): Promise<OrgRulesetsView> {
  const org = await ownedOrg(ctx, actor, login);
  const list = await orgRulesets.listOrgRulesets(ctx, actor, org.account.login, { perPage: RULESET_LIMIT, offset: 0 });
  return { org, rulesets: list.items };
}

/** Whether the form edits the ruleset: a branch ruleset that picks repositories by name. */
export const editable = (rs: Ruleset) => rs.target === 'branch' && rs.repositoryCondition?.by === 'name';

/** One of the organization's rulesets the form edits (any other is a 404 here). */
export async function orgRulesetOf(ctx: AppContext, actor: Actor, login: string, id: number): Promise<{ org: Organization; ruleset: Ruleset }> {
  const org = await ownedOrg(ctx, actor, login);
  const { ruleset } = await orgRulesets.getOrgRuleset(ctx, actor, org.account.login, id);
  if (!editable(ruleset)) throw new NotFoundError();
  return { org, ruleset };
}

/** A repository name, or an fnmatch pattern of names, or ~ALL. */
const REPOSITORY_PATTERN = /^(~ALL|[A-Za-z0-9._*?[\]!-]{1,100})$/;

function repositoryPatterns(raw: string, field: string): string[] {
  const patterns = form.lines(raw);
  const bad = patterns.find((p) => !REPOSITORY_PATTERN.test(p));
  if (bad !== undefined) throw form.invalid('conditions', `${field}, "${bad}": a repository name, a pattern (* and ? match within the name) or ~ALL.`);
  return patterns;
}

async function orgInputOf(ctx: AppContext, org: Organization, f: OrgRulesetFields, current: Ruleset | null) {
  const include = repositoryPatterns(f.repositoryInclude, 'Repositories to include');
  const exclude = repositoryPatterns(f.repositoryExclude, 'Repositories to exclude');
  if (!include.length) throw form.invalid('conditions', 'Name at least one repository to target (a name, a pattern or ~ALL).');
  const input = await form.inputOf(ctx, org.account, f, current);
  // `protected` is not on the form: kept as it was.
  const kept = current?.repositoryCondition?.by === 'name' ? current.repositoryCondition.protected : false;
  return { ...input, conditions: { ...input.conditions, repository_name: { include, exclude, protected: kept } } };
}

export async function createOrgRuleset(ctx: AppContext, actor: Actor, login: string, f: OrgRulesetFields): Promise<Ruleset> {
  const org = await ownedOrg(ctx, actor, login);
  return (await orgRulesets.createOrgRuleset(ctx, actor, org.account.login, await orgInputOf(ctx, org, f, null))).ruleset;
}

export async function updateOrgRuleset(ctx: AppContext, actor: Actor, login: string, id: number, f: OrgRulesetFields): Promise<Ruleset> {
  const { org, ruleset } = await orgRulesetOf(ctx, actor, login, id);
  return (await orgRulesets.updateOrgRuleset(ctx, actor, org.account.login, id, await orgInputOf(ctx, org, f, ruleset))).ruleset;
}

export async function deleteOrgRuleset(ctx: AppContext, actor: Actor, login: string, id: number): Promise<void> {
  const { org } = await orgRulesetOf(ctx, actor, login, id);
  await orgRulesets.deleteOrgRuleset(ctx, actor, org.account.login, id);
}

/** Each bypass actor of the ruleset as the form names it (the organization's teams by slug). */
export function orgActorNames(ctx: AppContext, org: Organization, rs: Ruleset): Promise<Map<BypassActor, string>> {
  return form.actorNames(ctx, org.account, rs);
}
