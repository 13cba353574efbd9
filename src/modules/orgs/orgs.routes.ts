// /orgs/{org}, memberships, members, teams (also addressed by id under /organizations/{org_id}/team/{team_id}).
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { pageOf, setPageLinks } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { SimpleUser, UsernameParams } from '../users/users.schemas.ts';
import { simpleUser } from '../users/users.views.ts';
import {
  CreateTeamBody, ListMembersQuery, ListMembershipsQuery, ListTeamMembersQuery, OrganizationFull, OrganizationSimple,
  OrgMembership, OrgParams, OrgUserParams, PageQuery, SetMembershipBody, SetTeamMembershipBody, Team, TeamFull, TeamIdParams,
  TeamIdUserParams, TeamMember, TeamMembership, TeamParams, TeamUserParams, UpdateOrgBody, UpdateOwnMembershipBody, UpdateTeamBody,
} from './orgs.schemas.ts';
import * as orgs from './orgs.service.ts';
import { SCOPES, type TeamRef } from './orgs.service.ts';
import { organizationFull, organizationSimple, orgMembership, team, teamFull, teamMember, teamMembership } from './orgs.views.ts';

const scopes = (s: readonly string[]) => [...s];

export function orgsRoutes(app: Router): void {
  const { urls } = app.ctx;

  app.get('/orgs/:org', {
    schema: { params: OrgParams, response: { 200: OrganizationFull } },
    config: { operationId: 'orgs/get', acceptedScopes: ['admin:org'] },
  }, async (request, reply) => {
    const d = await orgs.getOrganization(request.server.ctx, request.actor, request.params.org);
    reply.lastModified = d.org.account.updatedAt;
    return organizationFull(d.org, d.counts, urls, d.includePrivate);
  });

  app.patch('/orgs/:org', {
    schema: { params: OrgParams, body: UpdateOrgBody, response: { 200: OrganizationFull } },
    config: { operationId: 'orgs/update', resource: 'Organization', acceptedScopes: scopes(SCOPES.admin) },
  }, async (request) => {
    const d = await orgs.updateOrganization(request.server.ctx, request.actor, request.params.org, request.body ?? {});
    return organizationFull(d.org, d.counts, urls, d.includePrivate);
  });

  app.get('/user/orgs', {
    schema: { querystring: PageQuery, response: { 200: Type.Array(OrganizationSimple) } },
    config: { operationId: 'orgs/list-for-authenticated-user', acceptedScopes: scopes(SCOPES.ownOrgs) },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    const r = await orgs.listOrganizationsForAuthenticatedUser(request.server.ctx, request.actor, p);
    setPageLinks(request, reply, p, r.total);
    return r.items.map((o) => organizationSimple(o.account, o.settings.description, urls));
  });

  app.get('/users/:username/orgs', {
    schema: { params: UsernameParams, querystring: PageQuery, response: { 200: Type.Array(OrganizationSimple) } },
    config: { operationId: 'orgs/list-for-user' },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    const r = await orgs.listOrganizationsForUser(request.server.ctx, request.params.username, p);
    setPageLinks(request, reply, p, r.total);
    return r.items.map((o) => organizationSimple(o.account, o.settings.description, urls));
  });

  // Memberships

  app.get('/orgs/:org/memberships/:username', {
    schema: { params: OrgUserParams, response: { 200: OrgMembership } },
    config: { operationId: 'orgs/get-membership-for-user', acceptedScopes: scopes(SCOPES.read) },
  }, async (request, reply) => {
    const m = await orgs.getMembershipForUser(request.server.ctx, request.actor, request.params.org, request.params.username);
    reply.lastModified = m.membership.updatedAt;
    return orgMembership(m.membership, m.org, m.user, urls);
  });

  app.put('/orgs/:org/memberships/:username', {
    schema: { params: OrgUserParams, body: SetMembershipBody, response: { 200: OrgMembership } },
    config: { operationId: 'orgs/set-membership-for-user', resource: 'OrganizationMembership', acceptedScopes: scopes(SCOPES.write) },
  }, async (request) => {
    const { org, username } = request.params;
    const m = await orgs.setMembershipForUser(request.server.ctx, request.actor, org, username, request.body?.role ?? 'member');
    return orgMembership(m.membership, m.org, m.user, urls);
  });

  app.delete('/orgs/:org/memberships/:username', {
    schema: { params: OrgUserParams },
    config: { operationId: 'orgs/remove-membership-for-user', acceptedScopes: scopes(SCOPES.write) },
  }, async (request, reply) => {
    await orgs.removeMembershipForUser(request.server.ctx, request.actor, request.params.org, request.params.username);
    return reply.code(204).send();
  });

  app.get('/user/memberships/orgs', {
    schema: { querystring: ListMembershipsQuery, response: { 200: Type.Array(OrgMembership) } },
    config: { operationId: 'orgs/list-memberships-for-authenticated-user', acceptedScopes: scopes(SCOPES.read) },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    const r = await orgs.listMembershipsForAuthenticatedUser(request.server.ctx, request.actor, request.query.state, p);
    setPageLinks(request, reply, p, r.total);
    return r.items.map((m) => orgMembership(m.membership, m.org, m.user, urls));
  });

  app.get('/user/memberships/orgs/:org', {
    schema: { params: OrgParams, response: { 200: OrgMembership } },
    config: { operationId: 'orgs/get-membership-for-authenticated-user', acceptedScopes: scopes(SCOPES.read) },
  }, async (request, reply) => {
    const m = await orgs.getMembershipForAuthenticatedUser(request.server.ctx, request.actor, request.params.org);
    reply.lastModified = m.membership.updatedAt;
    return orgMembership(m.membership, m.org, m.user, urls);
  });

  app.patch('/user/memberships/orgs/:org', {
    schema: { params: OrgParams, body: UpdateOwnMembershipBody, response: { 200: OrgMembership } },
    config: { operationId: 'orgs/update-membership-for-authenticated-user', resource: 'OrganizationMembership', acceptedScopes: scopes(SCOPES.write) },
  }, async (request) => {
    const m = await orgs.updateMembershipForAuthenticatedUser(request.server.ctx, request.actor, request.params.org, request.body.state);
    return orgMembership(m.membership, m.org, m.user, urls);
  });

  // Members

  app.get('/orgs/:org/members', {
    schema: { params: OrgParams, querystring: ListMembersQuery, response: { 200: Type.Array(SimpleUser) } },
    config: { operationId: 'orgs/list-members', resource: 'Organization', acceptedScopes: scopes(SCOPES.read) },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    const r = await orgs.listMembers(request.server.ctx, request.actor, request.params.org, request.query, p);
    setPageLinks(request, reply, p, r.total);
    return r.items.map((a) => simpleUser(a, urls));
  });

  app.get('/orgs/:org/members/:username', {
    schema: { params: OrgUserParams },
    config: { operationId: 'orgs/check-membership-for-user', acceptedScopes: scopes(SCOPES.read) },
  }, async (request, reply) => {
    const { org, username } = request.params;
    const answer = await orgs.checkMembership(request.server.ctx, request.actor, org, username);
    // Upstream sends whoever is not a member to the public check.
    if (answer === 'ask_public') return reply.redirect(urls.api('orgs', org, 'public_members', username), 302);
    return reply.code(204).send();
  });

  app.delete('/orgs/:org/members/:username', {
    schema: { params: OrgUserParams },
    config: { operationId: 'orgs/remove-member', acceptedScopes: scopes(SCOPES.write) },
  }, async (request, reply) => {
    await orgs.removeMember(request.server.ctx, request.actor, request.params.org, request.params.username);
    return reply.code(204).send();
  });

  app.get('/orgs/:org/public_members', {
    schema: { params: OrgParams, querystring: PageQuery, response: { 200: Type.Array(SimpleUser) } },
    config: { operationId: 'orgs/list-public-members' },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    const r = await orgs.listPublicMembers(request.server.ctx, request.params.org, p);
    setPageLinks(request, reply, p, r.total);
    return r.items.map((a) => simpleUser(a, urls));
  });

  app.get('/orgs/:org/public_members/:username', {
    schema: { params: OrgUserParams },
    config: { operationId: 'orgs/check-public-membership-for-user' },
  }, async (request, reply) => {
    await orgs.checkPublicMembership(request.server.ctx, request.params.org, request.params.username);
    return reply.code(204).send();
  });

  for (const [method, isPublic] of [['PUT', true], ['DELETE', false]] as const) {
    app.route({
      method, url: '/orgs/:org/public_members/:username',
      schema: { params: OrgUserParams },
      config: {
        operationId: isPublic ? 'orgs/set-public-membership-for-authenticated-user' : 'orgs/remove-public-membership-for-authenticated-user',
        acceptedScopes: scopes(SCOPES.publicity),
      },
      handler: async (request, reply) => {
        const { org, username } = request.params;
        await orgs.setPublicMembership(request.server.ctx, request.actor, org, username, isPublic);
        return reply.code(204).send();
      },
    });
  }

  // Teams

  app.get('/orgs/:org/teams', {
    schema: { params: OrgParams, querystring: PageQuery, response: { 200: Type.Array(Team) } },
    config: { operationId: 'teams/list', acceptedScopes: scopes(SCOPES.read) },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    const r = await orgs.listTeams(request.server.ctx, request.actor, request.params.org, p);
    setPageLinks(request, reply, p, r.total);
    return r.items.map((e) => team(e.team, e.parent, r.org.account.login, urls));
  });

  app.post('/orgs/:org/teams', {
    schema: { params: OrgParams, body: CreateTeamBody, response: { 201: TeamFull } },
    config: { operationId: 'teams/create', resource: 'Team', acceptedScopes: scopes(SCOPES.write) },
  }, async (request, reply) => {
    const d = await orgs.createTeam(request.server.ctx, request.actor, request.params.org, request.body);
    return reply.code(201).send(teamFull(d, urls));
  });

  app.get('/user/teams', {
    schema: { querystring: PageQuery, response: { 200: Type.Array(TeamFull) } },
    config: { operationId: 'teams/list-for-authenticated-user', acceptedScopes: scopes(SCOPES.ownTeams) },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    const r = await orgs.listTeamsForAuthenticatedUser(request.server.ctx, request.actor, p);
    setPageLinks(request, reply, p, r.total);
    return r.items.map((d) => teamFull(d, urls));
  });

  teamRoutes(app, '/orgs/:org/teams/:team_slug', TeamParams, TeamUserParams,
    (p) => ({ org: p.org, teamSlug: p.team_slug }),
    (p) => ({ ref: { org: p.org, teamSlug: p.team_slug }, username: p.username }));
  teamRoutes(app, '/organizations/:org_id/team/:team_id', TeamIdParams, TeamIdUserParams,
    (p) => ({ orgId: p.org_id, teamId: p.team_id }),
    (p) => ({ ref: { orgId: p.org_id, teamId: p.team_id }, username: p.username }));
}

/**
 * One team's routes, registered under both of upstream's addresses of a team: the
 * organization login and team slug, and the ids (which every team `url` uses).
 */
function teamRoutes<P extends TSchema, PU extends TSchema>(
  app: Router, base: string, params: P, withUser: PU,
  refOf: (p: Static<P>) => TeamRef, userRef: (p: Static<PU>) => { ref: TeamRef; username: string },
): void {
  const { urls } = app.ctx;

  app.get(base, {
    schema: { params, response: { 200: TeamFull } },
    config: { operationId: 'teams/get-by-name', acceptedScopes: scopes(SCOPES.read) },
  }, async (request, reply) => {
    const d = await orgs.getTeam(request.server.ctx, request.actor, refOf(request.params));
    reply.lastModified = d.team.updatedAt;
    return teamFull(d, urls);
  });

  app.patch(base, {
    schema: { params, body: UpdateTeamBody, response: { 200: TeamFull } },
    config: { operationId: 'teams/update-in-org', resource: 'Team', acceptedScopes: scopes(SCOPES.write) },
  }, async (request) => {
    const d = await orgs.updateTeam(request.server.ctx, request.actor, refOf(request.params), request.body ?? {});
    return teamFull(d, urls);
  });

  app.delete(base, {
    schema: { params },
    config: { operationId: 'teams/delete-in-org', acceptedScopes: scopes(SCOPES.write) },
  }, async (request, reply) => {
    await orgs.deleteTeam(request.server.ctx, request.actor, refOf(request.params));
    return reply.code(204).send();
  });

  app.get(`${base}/teams`, {
    schema: { params, querystring: PageQuery, response: { 200: Type.Array(Team) } },
    config: { operationId: 'teams/list-child-in-org', acceptedScopes: scopes(SCOPES.read) },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    const r = await orgs.listChildTeams(request.server.ctx, request.actor, refOf(request.params), p);
    setPageLinks(request, reply, p, r.total);
    return r.items.map((e) => team(e.team, e.parent, r.org.account.login, urls));
  });

  app.get(`${base}/members`, {
    schema: { params, querystring: ListTeamMembersQuery, response: { 200: Type.Array(TeamMember) } },
    config: { operationId: 'teams/list-members-in-org', acceptedScopes: scopes(SCOPES.read) },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    const r = await orgs.listTeamMembers(request.server.ctx, request.actor, refOf(request.params), request.query.role, p);
    setPageLinks(request, reply, p, r.total);
    return r.items.map((m) => teamMember(m.user, m.role, m.inherited, urls));
  });

  app.get(`${base}/memberships/:username`, {
    schema: { params: withUser, response: { 200: TeamMembership } },
    config: { operationId: 'teams/get-membership-for-user-in-org', acceptedScopes: scopes(SCOPES.read) },
  }, async (request) => {
    const { ref, username } = userRef(request.params);
    const m = await orgs.getTeamMembership(request.server.ctx, request.actor, ref, username);
    return teamMembership(m.team, m.user, m.role, urls);
  });

  app.put(`${base}/memberships/:username`, {
    schema: { params: withUser, body: SetTeamMembershipBody, response: { 200: TeamMembership } },
    config: { operationId: 'teams/add-or-update-membership-for-user-in-org', resource: 'TeamMember', acceptedScopes: scopes(SCOPES.write) },
  }, async (request) => {
    const { ref, username } = userRef(request.params);
    const m = await orgs.setTeamMembership(request.server.ctx, request.actor, ref, username, request.body?.role ?? 'member');
    return teamMembership(m.team, m.user, m.role, urls);
  });

  app.delete(`${base}/memberships/:username`, {
    schema: { params: withUser },
    config: { operationId: 'teams/remove-membership-for-user-in-org', acceptedScopes: scopes(SCOPES.write) },
  }, async (request, reply) => {
    const { ref, username } = userRef(request.params);
    await orgs.removeTeamMembership(request.server.ctx, request.actor, ref, username);
    return reply.code(204).send();
  });
}
