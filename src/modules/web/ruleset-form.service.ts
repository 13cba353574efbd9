// The branch ruleset form that the repository and the organization rulesets pages share:
// the fields as posted, a stored ruleset as the form shows it, and the form turned into
// the rulesets services' input (name, enforcement, the branches targeted and excluded, the
// common rules with their parameters, the bypass list one actor a line). The form edits
// the common rules; a ruleset's other rules (made through the API) and the parameters the
// form does not show are kept as they are. The pages' own services check who may edit.
import type { AppContext } from '../../context.ts';
import { ValidationError } from '../../domain/errors.ts';
import {
  BYPASS_MODES, ENFORCEMENTS, type ActorType, type BypassActor, type Enforcement, type RuleEntry, type Ruleset,
} from '../branch-protection/rulesets.model.ts';
import type { BypassActorInput } from '../branch-protection/rulesets.service.ts';
import * as teams from '../orgs/teams.service.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import type { RulesetForm } from './settings.schemas.ts';

const RESOURCE = 'Ruleset';

/** The rules the form edits, each a checkbox; pull_request and required_status_checks have their fields too. */
export const FORM_RULES = ['deletion', 'non_fast_forward', 'required_linear_history', 'required_signatures', 'pull_request', 'required_status_checks'] as const;
export type FormRule = (typeof FORM_RULES)[number];

/** The form as posted: checkboxes ticked when sent, lists one entry per line. */
export interface RulesetFields {
  name: string;
  enforcement: string;
  include: string;
  exclude: string;
  rules: FormRule[];
  reviewCount: string;
  contexts: string;
  /** The bypass list, one actor per line (BYPASS_SYNTAX). */
  bypass: string;
}

/** The posted form's fields (a missing field is empty, a rule ticked when its box sent '1'). */
export function fieldsOfForm(b: RulesetForm): RulesetFields {
  const ticked: Record<FormRule, string | undefined> = {
    deletion: b.rule_deletion, non_fast_forward: b.rule_non_fast_forward, required_linear_history: b.rule_required_linear_history,
    required_signatures: b.rule_required_signatures, pull_request: b.rule_pull_request, required_status_checks: b.rule_required_status_checks,
  };
  return {
    name: b.name ?? '', enforcement: b.enforcement ?? '', include: b.include ?? '', exclude: b.exclude ?? '',
    rules: FORM_RULES.filter((r) => ticked[r] === '1'),
    reviewCount: b.required_approving_review_count ?? '', contexts: b.contexts ?? '', bypass: b.bypass_actors ?? '',
  };
}

const REF_PREFIX = 'refs/heads/';

/** A branch pattern as the form shows it: without refs/heads/ (the special ~ names as they are). */
const shownPattern = (p: string) => (p.startsWith(REF_PREFIX) ? p.slice(REF_PREFIX.length) : p);
/** …and as stored: a branch name or pattern is made a full ref name, as upstream's form does. */
const storedPattern = (p: string) => (p.startsWith('~') || p.startsWith('refs/') ? p : `${REF_PREFIX}${p}`);

/** The form of a ruleset (null: a new one), its bypass actors named as `names` has them (actorNames). */
export function fieldsOfRuleset(rs: Ruleset | null, names: ReadonlyMap<BypassActor, string> = new Map()): RulesetFields {
  const ruleOf = (type: string) => rs?.rules.find((r) => r.type === type);
  const pr = ruleOf('pull_request')?.parameters;
  const checks = (ruleOf('required_status_checks')?.parameters?.required_status_checks as { context: string }[] | undefined) ?? [];
  return {
    name: rs?.name ?? '',
    enforcement: rs?.enforcement ?? 'active',
    include: (rs?.conditions?.refName.include ?? (rs ? [] : ['~DEFAULT_BRANCH'])).map(shownPattern).join('\n'),
    exclude: (rs?.conditions?.refName.exclude ?? []).map(shownPattern).join('\n'),
    rules: FORM_RULES.filter((t) => ruleOf(t) !== undefined),
    reviewCount: String(pr?.required_approving_review_count ?? 1),
    contexts: checks.map((c) => c.context).join('\n'),
    bypass: (rs?.bypassActors ?? []).map((a) => `${names.get(a) ?? wordOf(a, new Map(), new Map())} ${a.bypassMode}`).join('\n'),
  };
}

export function invalid(field: string, message: string): ValidationError {
  return ValidationError.field(RESOURCE, field, 'invalid', message);
}

/** A list typed one entry a line: trimmed, blank lines and repeats dropped. */
export const lines = (s: string) => [...new Set(s.split(/[\r\n]+/).map((l) => l.trim()).filter(Boolean))];

function enforcementOf(raw: string): Enforcement {
  const found = ENFORCEMENTS.find((e) => e === raw);
  if (!found) throw invalid('enforcement', 'Choose the enforcement: active, evaluate or disabled.');
  return found;
}

/**
 * How the form's bypass list names actors, one a line, then optionally the mode (always
 * unless said: always, pull_request or exempt): `role:maintain`, `role:write`,
 * `role:admin`, `org-admins`, `deploy-keys`, `team:<slug>`, `user:<login>`, `app:<id>`;
 * a user or team no longer found is `user:#<id>` or `team:#<id>`.
 */
export const BYPASS_SYNTAX = 'One per line: role:maintain, role:write, role:admin, org-admins, deploy-keys, team:<slug>, user:<login> or app:<id>, then always (the default), pull_request or exempt.';

const ROLE_IDS: Record<string, number> = { maintain: 2, write: 4, admin: 5 };

/** One line of the bypass list as the API's bypass actor; teams are `owner`'s (an organization's). */
async function actorOfLine(ctx: AppContext, owner: Account, line: string): Promise<BypassActorInput> {
  const [who = '', rawMode, ...rest] = line.split(/\s+/);
  const bad = (why: string) => invalid('bypass_actors', `Bypass list, "${line}": ${why}`);
  if (rest.length) throw bad('one actor and a mode a line.');
  const mode = BYPASS_MODES.find((m) => m === (rawMode ?? 'always'));
  if (!mode) throw bad('the mode is always, pull_request or exempt.');
  if (who === 'org-admins') return { actor_type: 'OrganizationAdmin', bypass_mode: mode };
  if (who === 'deploy-keys') return { actor_type: 'DeployKey', bypass_mode: mode };
  const colon = who.indexOf(':');
  const kind = who.slice(0, colon);
  const name = who.slice(colon + 1);
  const byId = /^#\d{1,15}$/.test(name) ? Number(name.slice(1)) : null;
  switch (colon < 0 ? '' : kind) {
    case 'role': {
      const id = ROLE_IDS[name];
      if (id === undefined) throw bad('the repository roles are maintain, write and admin.');
      return { actor_type: 'RepositoryRole', actor_id: id, bypass_mode: mode };
    }
    case 'user': {
      if (byId !== null) return { actor_type: 'User', actor_id: byId, bypass_mode: mode };
      const account = name ? await users.findAccount(ctx, name) : null;
      if (!account || account.type !== 'User') throw bad(`there is no user ${name}.`);
      return { actor_type: 'User', actor_id: account.id, bypass_mode: mode };
    }
    case 'team': {
      if (byId !== null) return { actor_type: 'Team', actor_id: byId, bypass_mode: mode };
      if (owner.type !== 'Organization') throw bad('teams are an organization\'s; this repository has none.');
      const [team] = name ? await teams.teamsBySlugs(ctx, owner.id, [name.toLowerCase()]) : [];
      if (!team) throw bad(`there is no team ${name} in ${owner.login}.`);
      return { actor_type: 'Team', actor_id: team.id, bypass_mode: mode };
    }
    case 'app':
      if (!/^\d{1,15}$/.test(name)) throw bad('an app is named by its id (a number).');
      return { actor_type: 'Integration', actor_id: Number(name), bypass_mode: mode };
    default:
      throw bad(BYPASS_SYNTAX);
  }
}

function reviewCountOf(raw: string): number {
  if (!/^\d{1,2}$/.test(raw.trim())) throw invalid('rules', 'Required approving reviews must be a number from 0 to 10.');
  return Number(raw.trim());
}

/**
 * The rules the form gives: its ticked ones, each with the parameters it had (the form
 * sets the review count and the checks' contexts; the rest stay, or upstream's defaults
 * for a new rule), then the ruleset's rules of other types as they were.
 */
function rulesOf(f: RulesetFields, current: readonly RuleEntry[]): RuleEntry[] {
  const before = (type: string) => current.find((r) => r.type === type)?.parameters ?? {};
  const ticked: RuleEntry[] = f.rules.map((type) => {
    if (type === 'pull_request') {
      return { type, parameters: {
        dismiss_stale_reviews_on_push: false, require_code_owner_review: false, require_last_push_approval: false, required_review_thread_resolution: false,
        ...before(type), required_approving_review_count: reviewCountOf(f.reviewCount),
      } };
    }
    if (type === 'required_status_checks') {
      const kept = new Map(((before(type).required_status_checks as { context: string; integration_id?: number }[] | undefined) ?? []).map((c) => [c.context, c]));
      const contexts = lines(f.contexts);
      if (!contexts.length) throw invalid('rules', 'Name at least one status check that must pass.');
      return { type, parameters: {
        strict_required_status_checks_policy: false, ...before(type),
        required_status_checks: contexts.map((c) => kept.get(c) ?? { context: c }),
      } };
    }
    return { type };
  });
  const formTypes = new Set<string>(FORM_RULES);
  return [...ticked, ...current.filter((r) => !formTypes.has(r.type))];
}

/** What the form sets of a branch ruleset, as the rulesets services take it (the repository's or the organization's). */
export interface BranchRulesetInput {
  name: string;
  enforcement: Enforcement;
  target: 'branch';
  conditions: { ref_name: { include: string[]; exclude: string[] } };
  rules: RuleEntry[];
  bypass_actors: BypassActorInput[];
}

/** The form as a branch ruleset's input; `owner` is the account whose teams the bypass list names. */
export async function inputOf(ctx: AppContext, owner: Account, f: RulesetFields, current: Ruleset | null): Promise<BranchRulesetInput> {
  const actors = [];
  for (const line of lines(f.bypass)) actors.push(await actorOfLine(ctx, owner, line));
  const include = lines(f.include).map(storedPattern);
  if (!include.length) throw invalid('conditions', 'Name at least one branch to target (a name, a pattern, ~DEFAULT_BRANCH or ~ALL).');
  return {
    name: f.name, enforcement: enforcementOf(f.enforcement), target: 'branch',
    conditions: { ref_name: { include, exclude: lines(f.exclude).map(storedPattern) } },
    rules: rulesOf(f, current?.rules ?? []),
    bypass_actors: actors,
  };
}

/** A bypass actor as the form's list names it (BYPASS_SYNTAX), users and teams by the names given. */
function wordOf(a: BypassActor, logins: ReadonlyMap<number, string>, slugs: ReadonlyMap<number, string>): string {
  const role = Object.entries(ROLE_IDS).find(([, id]) => id === a.actorId)?.[0];
  switch (a.actorType) {
    case 'RepositoryRole': return `role:${role ?? `#${a.actorId}`}`;
    case 'OrganizationAdmin': return 'org-admins';
    case 'DeployKey': return 'deploy-keys';
    case 'User': return `user:${logins.get(a.actorId ?? 0) ?? `#${a.actorId}`}`;
    case 'Team': return `team:${slugs.get(a.actorId ?? 0) ?? `#${a.actorId}`}`;
    case 'Integration': return `app:${a.actorId}`;
  }
}

/** Each bypass actor of the ruleset as the form names it: users' logins and `owner`'s teams' slugs looked up. */
export async function actorNames(ctx: AppContext, owner: Account, rs: Ruleset): Promise<Map<BypassActor, string>> {
  const ids = (type: ActorType) => rs.bypassActors.filter((a) => a.actorType === type && a.actorId !== null).map((a) => a.actorId!);
  const [people, teamRows] = await Promise.all([users.accountsByIds(ctx, ids('User')), teams.teamsWithOrgLogins(ctx, ids('Team'))]);
  const logins = new Map([...people].map(([id, a]) => [id, a.login]));
  // Only the owner's teams are named by slug (a slug is looked up there).
  const slugs = new Map(teamRows.filter((t) => t.team.orgId === owner.id).map((t) => [t.team.id, t.team.slug]));
  return new Map(rs.bypassActors.map((a) => [a, wordOf(a, logins, slugs)]));
}
