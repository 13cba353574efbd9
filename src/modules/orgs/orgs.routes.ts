// Organizations: /orgs/{org} and the lists of a user's organizations; memberships and
// teams register their routes from memberships.routes.ts and teams.routes.ts.
import { paged, pageOf } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { UsernameParams } from '../users/users.schemas.ts';
import {
  OrganizationFull, OrganizationSimple,
  OrgParams, PageQuery, UpdateOrgBody } from './orgs.schemas.ts';
import * as orgs from './organizations.service.ts';
import { membershipsRoutes } from './memberships.routes.ts';
import { teamsRoutes } from './teams.routes.ts';
import { SCOPES } from './orgs.permissions.ts';
import { scopes } from './orgs.schemas.ts';
import { organizationFull, organizationSimple } from './orgs.views.ts';
import { PagedArray } from '../../http/schema-types.ts';

export function orgsRoutes(app: Router): void {
  const { urls } = app.ctx;

  app.get('/orgs/:org', {
    schema: { params: OrgParams, response: { 200: OrganizationFull } },
    config: { operationId: 'orgs/get', acceptedScopes: ['admin:org'] },
  }, async (request) => {
    const d = await orgs.getOrganization(request.server.ctx, request.actor, request.params.org);
    return organizationFull(d.org, d.counts, urls, d.includePrivate, d.advancedSecurityForNew, d.filledSeats);
  });

  app.patch('/orgs/:org', {
    schema: { params: OrgParams, body: UpdateOrgBody, response: { 200: OrganizationFull } },
    config: { operationId: 'orgs/update', resource: 'Organization', acceptedScopes: scopes(SCOPES.admin) },
  }, async (request) => {
    const d = await orgs.updateOrganization(request.server.ctx, request.actor, request.params.org, request.body ?? {});
    return organizationFull(d.org, d.counts, urls, d.includePrivate, d.advancedSecurityForNew, d.filledSeats);
  });

  app.get('/user/orgs', {
    schema: { querystring: PageQuery, response: { 200: PagedArray(OrganizationSimple) } },
    config: { operationId: 'orgs/list-for-authenticated-user', acceptedScopes: scopes(SCOPES.ownOrgs) },
  }, async (request) => {
    const p = pageOf(request.query);
    const r = await orgs.listOrganizationsForAuthenticatedUser(request.server.ctx, request.actor, p);
    return paged(r.items.map((o) => organizationSimple(o.account, o.settings.description, urls)), p, r.total);
  });

  app.get('/users/:username/orgs', {
    schema: { params: UsernameParams, querystring: PageQuery, response: { 200: PagedArray(OrganizationSimple) } },
    config: { operationId: 'orgs/list-for-user' },
  }, async (request) => {
    const p = pageOf(request.query);
    const r = await orgs.listOrganizationsForUser(request.server.ctx, request.params.username, p);
    return paged(r.items.map((o) => organizationSimple(o.account, o.settings.description, urls)), p, r.total);
  });

  membershipsRoutes(app);
  teamsRoutes(app);
}
