// Organization memberships (/orgs/{org}/memberships, /user/memberships/orgs), members and public members.
import { Type } from '@sinclair/typebox';
import { paged, pageOf } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { SimpleUser } from '../users/users.schemas.ts';
import { simpleUser } from '../users/users.views.ts';
import {
  ListMembersQuery, ListMembershipsQuery, OrgMembership, OrgParams, OrgUserParams, PageQuery, SetMembershipBody, UpdateOwnMembershipBody } from './orgs.schemas.ts';
import * as memberships from './memberships.service.ts';
import { SCOPES } from './orgs.permissions.ts';
import { scopes } from './orgs.schemas.ts';
import { orgMembership } from './orgs.views.ts';
import { PagedArray } from '../../http/schema-types.ts';

export function membershipsRoutes(app: Router): void {
  const { urls } = app.ctx;

  // Memberships

  app.get('/orgs/:org/memberships/:username', {
    schema: { params: OrgUserParams, response: { 200: OrgMembership } },
    config: { operationId: 'orgs/get-membership-for-user', acceptedScopes: scopes(SCOPES.read) },
  }, async (request, reply) => {
    const m = await memberships.getMembershipForUser(request.server.ctx, request.actor, request.params.org, request.params.username);
    // The membership view shows no updated_at, so the conventions cannot set Last-Modified.
    reply.lastModified = m.membership.updatedAt;
    return orgMembership(m.membership, m.org, m.user, urls);
  });

  app.put('/orgs/:org/memberships/:username', {
    schema: { params: OrgUserParams, body: SetMembershipBody, response: { 200: OrgMembership } },
    config: { operationId: 'orgs/set-membership-for-user', resource: 'OrganizationMembership', acceptedScopes: scopes(SCOPES.write) },
  }, async (request) => {
    const { org, username } = request.params;
    const m = await memberships.setMembershipForUser(request.server.ctx, request.actor, org, username, request.body?.role ?? 'member');
    return orgMembership(m.membership, m.org, m.user, urls);
  });

  app.delete('/orgs/:org/memberships/:username', {
    schema: { params: OrgUserParams, response: { 204: Type.Null() } },
    config: { operationId: 'orgs/remove-membership-for-user', acceptedScopes: scopes(SCOPES.write) },
  }, async (request, reply) => {
    await memberships.removeMembershipForUser(request.server.ctx, request.actor, request.params.org, request.params.username);
    return reply.code(204).send(null);
  });

  app.get('/user/memberships/orgs', {
    schema: { querystring: ListMembershipsQuery, response: { 200: PagedArray(OrgMembership) } },
    config: { operationId: 'orgs/list-memberships-for-authenticated-user', acceptedScopes: scopes(SCOPES.read) },
  }, async (request) => {
    const p = pageOf(request.query);
    const r = await memberships.listMembershipsForAuthenticatedUser(request.server.ctx, request.actor, request.query.state, p);
    return paged(r.items.map((m) => orgMembership(m.membership, m.org, m.user, urls)), p, r.total);
  });

  app.get('/user/memberships/orgs/:org', {
    schema: { params: OrgParams, response: { 200: OrgMembership } },
    config: { operationId: 'orgs/get-membership-for-authenticated-user', acceptedScopes: scopes(SCOPES.read) },
  }, async (request, reply) => {
    const m = await memberships.getMembershipForAuthenticatedUser(request.server.ctx, request.actor, request.params.org);
    // The membership view shows no updated_at, so the conventions cannot set Last-Modified.
    reply.lastModified = m.membership.updatedAt;
    return orgMembership(m.membership, m.org, m.user, urls);
  });

  app.patch('/user/memberships/orgs/:org', {
    schema: { params: OrgParams, body: UpdateOwnMembershipBody, response: { 200: OrgMembership } },
    config: { operationId: 'orgs/update-membership-for-authenticated-user', resource: 'OrganizationMembership', acceptedScopes: scopes(SCOPES.write) },
  }, async (request) => {
    const m = await memberships.updateMembershipForAuthenticatedUser(request.server.ctx, request.actor, request.params.org, request.body.state);
    return orgMembership(m.membership, m.org, m.user, urls);
  });

  // Members

  app.get('/orgs/:org/members', {
    schema: { params: OrgParams, querystring: ListMembersQuery, response: { 200: PagedArray(SimpleUser) } },
    config: { operationId: 'orgs/list-members', resource: 'Organization', acceptedScopes: scopes(SCOPES.read) },
  }, async (request) => {
    const p = pageOf(request.query);
    const r = await memberships.listMembers(request.server.ctx, request.actor, request.params.org, request.query, p);
    return paged(r.items.map((a) => simpleUser(a, urls)), p, r.total);
  });

  app.get('/orgs/:org/members/:username', {
    schema: { params: OrgUserParams, response: { 204: Type.Null() } },
    config: { operationId: 'orgs/check-membership-for-user', acceptedScopes: scopes(SCOPES.read) },
  }, async (request, reply) => {
    const { org, username } = request.params;
    const answer = await memberships.checkMembership(request.server.ctx, request.actor, org, username);
    // Upstream sends whoever is not a member to the public check.
    if (answer === 'ask_public') return reply.redirect(urls.api('orgs', org, 'public_members', username), 302);
    return reply.code(204).send(null);
  });

  app.delete('/orgs/:org/members/:username', {
    schema: { params: OrgUserParams, response: { 204: Type.Null() } },
    config: { operationId: 'orgs/remove-member', acceptedScopes: scopes(SCOPES.write) },
  }, async (request, reply) => {
    await memberships.removeMember(request.server.ctx, request.actor, request.params.org, request.params.username);
    return reply.code(204).send(null);
  });

  app.get('/orgs/:org/public_members', {
    schema: { params: OrgParams, querystring: PageQuery, response: { 200: PagedArray(SimpleUser) } },
    config: { operationId: 'orgs/list-public-members' },
  }, async (request) => {
    const p = pageOf(request.query);
    const r = await memberships.listPublicMembers(request.server.ctx, request.params.org, p);
    return paged(r.items.map((a) => simpleUser(a, urls)), p, r.total);
  });

  app.get('/orgs/:org/public_members/:username', {
    schema: { params: OrgUserParams, response: { 204: Type.Null() } },
    config: { operationId: 'orgs/check-public-membership-for-user' },
  }, async (request, reply) => {
    await memberships.checkPublicMembership(request.server.ctx, request.params.org, request.params.username);
    return reply.code(204).send(null);
  });

  for (const [method, isPublic] of [['PUT', true], ['DELETE', false]] as const) {
    app.route({
      method, url: '/orgs/:org/public_members/:username',
      schema: { params: OrgUserParams, response: { 204: Type.Null() } },
      config: {
        operationId: isPublic ? 'orgs/set-public-membership-for-authenticated-user' : 'orgs/remove-public-membership-for-authenticated-user',
        acceptedScopes: scopes(SCOPES.publicity),
      },
      handler: async (request, reply) => {
        const { org, username } = request.params;
        await memberships.setPublicMembership(request.server.ctx, request.actor, org, username, isPublic);
        return reply.code(204).send(null);
      },
    });
  }
}
