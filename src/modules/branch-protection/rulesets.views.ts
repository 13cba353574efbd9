// Rulesets → API representation (upstream's repository-ruleset record, its list items,
// and the rules of a branch with the ruleset each comes from), for a repository's own
// rulesets and an organization's alike. Pure.
import { encodeNodeId } from '../../domain/node-id.ts';
import type { Urls } from '../../urls.ts';
import type { CanBypass } from './rulesets.bypass.ts';
import type { RuleEntry, Ruleset } from './rulesets.model.ts';

/**
 * Where a ruleset is seen from: the owner's login, and the repository's name when it is
 * read through a repository. An organization's ruleset is named by its owner alone.
 */
export interface Place {
  owner: string;
  repo: string | null;
}

export const placeOfRepo = (repo: { owner: { login: string }; name: string }): Place => ({ owner: repo.owner.login, repo: repo.name });

const isOrg = (rs: Ruleset) => rs.organizationId !== null;

function links(urls: Urls, at: Place, rs: Ruleset) {
  if (isOrg(rs)) {
    return {
      self: { href: urls.api('orgs', at.owner, 'rulesets', rs.id) },
      html: { href: urls.html('organizations', at.owner, 'settings', 'rules', rs.id) },
    };
  }
  return {
    self: { href: urls.api('repos', at.owner, at.repo ?? '', 'rulesets', rs.id) },
    html: { href: urls.html(at.owner, at.repo ?? '', 'rules', rs.id) },
  };
}

const sourceType = (rs: Ruleset) => (isOrg(rs) ? 'Organization' : 'Repository');
const source = (at: Place, rs: Ruleset) => (isOrg(rs) ? at.owner : `${at.owner}/${at.repo ?? ''}`);

function ruleView(r: RuleEntry) {
  return r.parameters === undefined ? { type: r.type } : { type: r.type, parameters: r.parameters };
}

/**
 * The refs a ruleset that names none covers (an organization's given only repositories):
 * every ref for a push ruleset, which judges what every push brings; none for another.
 */
const unnamedRefs = (rs: Ruleset) => ({ include: rs.target === 'push' ? ['~ALL'] : [], exclude: [] as string[] });

function conditionsView(rs: Ruleset) {
  const c = rs.repositoryCondition;
  if (!rs.conditions && !c) return null;
  return {
    ref_name: rs.conditions ? { include: rs.conditions.refName.include, exclude: rs.conditions.refName.exclude } : unnamedRefs(rs),
    ...(c?.by === 'name' ? { repository_name: { include: c.include, exclude: c.exclude, protected: c.protected } } : {}),
    ...(c?.by === 'id' ? { repository_id: { repository_ids: c.ids } } : {}),
  };
}

export function rulesetView(urls: Urls, at: Place, rs: Ruleset, canBypass: CanBypass) {
  return {
    id: rs.id, name: rs.name, target: rs.target, source_type: sourceType(rs), source: source(at, rs), enforcement: rs.enforcement,
    bypass_actors: rs.bypassActors.map((a) => ({ actor_id: a.actorId, actor_type: a.actorType, bypass_mode: a.bypassMode })),
    current_user_can_bypass: canBypass,
    node_id: encodeNodeId('RepositoryRuleset', rs.id), _links: links(urls, at, rs),
    conditions: conditionsView(rs),
    rules: rs.rules.map(ruleView),
    created_at: rs.createdAt, updated_at: rs.updatedAt,
  };
}

/** The ruleset as webhook payloads carry it (no caller to say whether they may bypass). */
export function rulesetHookView(urls: Urls, at: Place, rs: Ruleset) {
  const { current_user_can_bypass: _omitted, ...view } = rulesetView(urls, at, rs, 'never');
  return view;
}

/** Each rule of each ruleset, with where it comes from (GET …/rules/branches/{branch}). */
export function branchRuleViews(at: Place, rulesets: readonly Ruleset[]) {
  return rulesets.flatMap((rs) => rs.rules.map((r) => ({
    ...ruleView(r), ruleset_source_type: sourceType(rs), ruleset_source: source(at, rs), ruleset_id: rs.id,
  })));
}
