// /orgs/{org}/rulesets: an organization's rulesets (upstream's repository-ruleset
// record with source_type Organization).
import { Type } from '@sinclair/typebox';
import { pageOf, paged } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { CreateOrgRulesetBody, OrgListQuery, OrgParams, OrgRulesetParams, Ruleset, RulesetList, UpdateOrgRulesetBody } from './rulesets.schemas.ts';
import * as orgRulesets from './rulesets-org.service.ts';
import type { PresentedRuleset } from './rulesets.service.ts';
import { rulesetView } from './rulesets.views.ts';

const READ = ['read:org', 'write:org', 'admin:org'];
const WRITE = ['admin:org'];
const RESOURCE = 'Ruleset';

export function orgRulesetsRoutes(app: Router): void {
  const { urls } = app.ctx;
  const view = (p: PresentedRuleset) => rulesetView(urls, p.at, p.ruleset, p.canBypass);

  app.get('/orgs/:org/rulesets', {
    schema: { params: OrgParams, querystring: OrgListQuery, response: { 200: RulesetList } },
    config: { operationId: 'repos/get-org-rulesets', acceptedScopes: READ },
  }, async (request) => {
    const p = pageOf(request.query);
    const page = await orgRulesets.listOrgRulesets(request.server.ctx, request.actor, request.params.org, p, request.query.targets);
    return paged(page.items.map(view), p, page.total);
  });

  app.post('/orgs/:org/rulesets', {
    schema: { params: OrgParams, body: CreateOrgRulesetBody, response: { 201: Ruleset } },
    config: { operationId: 'repos/create-org-ruleset', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request, reply) => {
    const created = view(await orgRulesets.createOrgRuleset(request.server.ctx, request.actor, request.params.org, request.body));
    return reply.code(201).header('location', created._links.self.href).send(created);
  });

  app.get('/orgs/:org/rulesets/:ruleset_id', {
    schema: { params: OrgRulesetParams, response: { 200: Ruleset } },
    config: { operationId: 'repos/get-org-ruleset', acceptedScopes: READ },
  }, async (request) => {
    const { org, ruleset_id: id } = request.params;
    return view(await orgRulesets.getOrgRuleset(request.server.ctx, request.actor, org, id));
  });

  app.put('/orgs/:org/rulesets/:ruleset_id', {
    schema: { params: OrgRulesetParams, body: UpdateOrgRulesetBody, response: { 200: Ruleset } },
    config: { operationId: 'repos/update-org-ruleset', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request) => {
    const { org, ruleset_id: id } = request.params;
    return view(await orgRulesets.updateOrgRuleset(request.server.ctx, request.actor, org, id, request.body));
  });

  app.delete('/orgs/:org/rulesets/:ruleset_id', {
    schema: { params: OrgRulesetParams, response: { 204: Type.Null() } },
    config: { operationId: 'repos/delete-org-ruleset', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { org, ruleset_id: id } = request.params;
    await orgRulesets.deleteOrgRuleset(request.server.ctx, request.actor, org, id);
    return reply.code(204).send(null);
  });
}
