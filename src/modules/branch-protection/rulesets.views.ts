// Repository rulesets → API representation (upstream's repository-ruleset record, its
// list items, and the rules of a branch with the ruleset each comes from). Pure.
import { encodeNodeId } from '../../domain/node-id.ts';
import type { Urls } from '../../urls.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { CanBypass } from './rulesets.bypass.ts';
import type { RuleEntry, Ruleset } from './rulesets.model.ts';

function links(urls: Urls, repo: Repo, rs: Ruleset) {
  return {
    self: { href: urls.api('repos', repo.owner.login, repo.name, 'rulesets', rs.id) },
    html: { href: urls.html(repo.owner.login, repo.name, 'rules', rs.id) },
  };
}

const source = (repo: Repo) => `${repo.owner.login}/${repo.name}`;

function ruleView(r: RuleEntry) {
  return r.parameters === undefined ? { type: r.type } : { type: r.type, parameters: r.parameters };
}

export function rulesetSummaryView(urls: Urls, repo: Repo, rs: Ruleset) {
  return {
    id: rs.id, name: rs.name, target: rs.target, source_type: 'Repository', source: source(repo), enforcement: rs.enforcement,
    node_id: encodeNodeId('RepositoryRuleset', rs.id), _links: links(urls, repo, rs),
    created_at: rs.createdAt, updated_at: rs.updatedAt,
  };
}

export function rulesetView(urls: Urls, repo: Repo, rs: Ruleset, canBypass: CanBypass) {
  return {
    id: rs.id, name: rs.name, target: rs.target, source_type: 'Repository', source: source(repo), enforcement: rs.enforcement,
    bypass_actors: rs.bypassActors.map((a) => ({ actor_id: a.actorId, actor_type: a.actorType, bypass_mode: a.bypassMode })),
    current_user_can_bypass: canBypass,
    node_id: encodeNodeId('RepositoryRuleset', rs.id), _links: links(urls, repo, rs),
    conditions: rs.conditions ? { ref_name: { include: rs.conditions.refName.include, exclude: rs.conditions.refName.exclude } } : null,
    rules: rs.rules.map(ruleView),
    created_at: rs.createdAt, updated_at: rs.updatedAt,
  };
}

/** The ruleset as webhook payloads carry it (no caller to say whether they may bypass). */
export function rulesetHookView(urls: Urls, repo: Repo, rs: Ruleset) {
  const { current_user_can_bypass: _omitted, ...view } = rulesetView(urls, repo, rs, 'never');
  return view;
}

/** Each rule of each ruleset, with where it comes from (GET …/rules/branches/{branch}). */
export function branchRuleViews(repo: Repo, rulesets: readonly Ruleset[]) {
  return rulesets.flatMap((rs) => rs.rules.map((r) => ({
    ...ruleView(r), ruleset_source_type: 'Repository', ruleset_source: source(repo), ruleset_id: rs.id,
  })));
}
