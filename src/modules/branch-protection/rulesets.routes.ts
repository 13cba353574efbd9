// /repos/{owner}/{repo}/rulesets and /repos/{owner}/{repo}/rules/branches/{branch}:
// repository rulesets and the rules that apply to a branch.
import { Type } from '@sinclair/typebox';
import { pageOf, paged } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import {
  BranchRuleList, BranchRulesParams, CreateRulesetBody, GetRulesetQuery, ListRulesetsQuery, PageQuery, RepoParams, Ruleset, RulesetList,
  RulesetParams, UpdateRulesetBody,
} from './rulesets.schemas.ts';
import * as rulesets from './rulesets.service.ts';
import { branchRuleViews, rulesetView } from './rulesets.views.ts';

/** Managing rulesets is administration of the repository: repo scope (public_repo for a public one). */
const ADMIN = ['public_repo', 'repo'];
const RESOURCE = 'Ruleset';

export function rulesetsRoutes(app: Router): void {
  const { urls } = app.ctx;
  const view = (p: rulesets.PresentedRuleset) => rulesetView(urls, p.at, p.ruleset, p.canBypass);

  app.get('/repos/:owner/:repo/rulesets', {
    schema: { params: RepoParams, querystring: ListRulesetsQuery, response: { 200: RulesetList } },
    config: { operationId: 'repos/get-repo-rulesets' },
  }, async (request) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const { targets, includes_parents: parents } = request.query;
    const page = await rulesets.listRulesets(request.server.ctx, request.actor, owner, repo, p, targets, parents ?? true);
    return paged(page.items.map(view), p, page.total);
  });

  app.post('/repos/:owner/:repo/rulesets', {
    schema: { params: RepoParams, body: CreateRulesetBody, response: { 201: Ruleset } },
    config: { operationId: 'repos/create-repo-ruleset', resource: RESOURCE, acceptedScopes: ADMIN },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const created = view(await rulesets.createRuleset(request.server.ctx, request.actor, owner, repo, request.body));
    return reply.code(201).header('location', created._links.self.href).send(created);
  });

  app.get('/repos/:owner/:repo/rulesets/:ruleset_id', {
    schema: { params: RulesetParams, querystring: GetRulesetQuery, response: { 200: Ruleset } },
    config: { operationId: 'repos/get-repo-ruleset' },
  }, async (request) => {
    const { owner, repo, ruleset_id: id } = request.params;
    return view(await rulesets.getRuleset(request.server.ctx, request.actor, owner, repo, id, request.query.includes_parents ?? true));
  });

  app.put('/repos/:owner/:repo/rulesets/:ruleset_id', {
    schema: { params: RulesetParams, body: UpdateRulesetBody, response: { 200: Ruleset } },
    config: { operationId: 'repos/update-repo-ruleset', resource: RESOURCE, acceptedScopes: ADMIN },
  }, async (request) => {
    const { owner, repo, ruleset_id: id } = request.params;
    return view(await rulesets.updateRuleset(request.server.ctx, request.actor, owner, repo, id, request.body));
  });

  app.delete('/repos/:owner/:repo/rulesets/:ruleset_id', {
    schema: { params: RulesetParams, response: { 204: Type.Null() } },
    config: { operationId: 'repos/delete-repo-ruleset', resource: RESOURCE, acceptedScopes: ADMIN },
  }, async (request, reply) => {
    const { owner, repo, ruleset_id: id } = request.params;
    await rulesets.deleteRuleset(request.server.ctx, request.actor, owner, repo, id);
    return reply.code(204).send(null);
  });

  app.get('/repos/:owner/:repo/rules/branches/:branch', {
    schema: { params: BranchRulesParams, querystring: PageQuery, response: { 200: BranchRuleList } },
    config: { operationId: 'repos/get-branch-rules' },
  }, async (request) => {
    const { owner, repo, branch } = request.params;
    const p = pageOf(request.query);
    const found = await rulesets.branchRulesets(request.server.ctx, request.actor, owner, repo, branch);
    const rules = branchRuleViews(found.at, found.rulesets);
    return paged(rules.slice(p.offset, p.offset + p.perPage), p, rules.length);
  });
}
