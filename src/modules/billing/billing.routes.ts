// Billing summaries of organizations and users, and the site admin's metering and plans.
import type { Router } from '../../http/router.ts';
import { pageOf, pagedRecord } from '../../http/pagination.ts';
import { PagedObject } from '../../http/schema-types.ts';
import * as security from './advanced-security.service.ts';
import {
  AccountPlanBody, AdvancedSecurityBilling, PageQuery, ActionsBilling, OrgParams, PackagesBilling, Plan, PlanBody, PlanList, PlanParams, RecordedUsage,
  StorageBilling, UsageBody, UserParams,
} from './billing.schemas.ts';
import * as billing from './billing.service.ts';
import { actionsBilling, advancedSecurity, packagesBilling, plan, recordedUsage, storageBilling } from './billing.views.ts';
import * as metering from './metering.service.ts';

export function billingRoutes(app: Router): void {
  const kinds = [
    { path: '/orgs/:org/settings/billing', params: OrgParams, who: 'org', scopes: billing.ORG_SCOPES },
    { path: '/users/:username/settings/billing', params: UserParams, who: 'user', scopes: billing.USER_SCOPES },
  ] as const;
  for (const k of kinds) {
    const at = (p: { org: string } | { username: string }): billing.BillingAccountAt =>
      'org' in p ? { kind: 'org', login: p.org } : { kind: 'user', login: p.username };
    app.get(`${k.path}/actions`, {
      schema: { params: k.params, response: { 200: ActionsBilling } },
      config: { operationId: `billing/get-github-actions-billing-${k.who}`, acceptedScopes: [...k.scopes] },
    }, async (request) => actionsBilling(await billing.actionsSummary(request.server.ctx, request.actor, at(request.params))));
    app.get(`${k.path}/packages`, {
      schema: { params: k.params, response: { 200: PackagesBilling } },
      config: { operationId: `billing/get-github-packages-billing-${k.who}`, acceptedScopes: [...k.scopes] },
    }, async (request) => packagesBilling(await billing.packagesSummary(request.server.ctx, request.actor, at(request.params))));
    app.get(`${k.path}/shared-storage`, {
      schema: { params: k.params, response: { 200: StorageBilling } },
      config: { operationId: `billing/get-shared-storage-billing-${k.who}`, acceptedScopes: [...k.scopes] },
    }, async (request) => storageBilling(await billing.storageSummary(request.server.ctx, request.actor, at(request.params))));
  }

  app.get('/orgs/:org/settings/billing/advanced-security', {
    schema: { params: OrgParams, querystring: PageQuery, response: { 200: PagedObject(AdvancedSecurityBilling) } },
    config: { operationId: 'billing/get-github-advanced-security-billing-org', acceptedScopes: billing.ORG_SCOPES },
  }, async (request) => {
    const p = pageOf(request.query);
    const s = await security.committersSummary(request.server.ctx, request.actor, request.params.org, p);
    return pagedRecord(advancedSecurity(s), p, s.totalRepositories);
  });

  const admin = ['site_admin'];
  app.post('/admin/billing/usage', {
    schema: { body: UsageBody, response: { 201: RecordedUsage } },
    config: { operationId: 'wharf/record-billing-usage', resource: 'Usage', acceptedScopes: admin },
  }, async (request, reply) => reply.code(201).send(recordedUsage(await metering.recordUsage(request.server.ctx, request.actor, request.body))));

  app.get('/admin/billing/plans', {
    schema: { response: { 200: PlanList } },
    config: { operationId: 'wharf/list-billing-plans', acceptedScopes: admin },
  }, async (request) => (await metering.listPlans(request.server.ctx, request.actor)).map(plan));

  app.put('/admin/billing/plans/:plan', {
    schema: { params: PlanParams, body: PlanBody, response: { 200: Plan } },
    config: { operationId: 'wharf/set-billing-plan', resource: 'Plan', acceptedScopes: admin },
  }, async (request) => plan(await metering.putPlan(request.server.ctx, request.actor, request.params.plan, {
    includedMinutes: request.body.included_minutes,
    includedGigabytesBandwidth: request.body.included_gigabytes_bandwidth,
    includedGigabytesStorage: request.body.included_gigabytes_storage,
  })));

  app.put('/admin/billing/accounts/:username/plan', {
    schema: { params: UserParams, body: AccountPlanBody, response: { 200: Plan } },
    config: { operationId: 'wharf/set-account-billing-plan', resource: 'Plan', acceptedScopes: admin },
  }, async (request) => plan(await metering.setAccountPlan(request.server.ctx, request.actor, request.params.username, request.body.plan)));
}
