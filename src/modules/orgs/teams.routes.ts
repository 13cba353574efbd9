// Teams, addressed by organization and slug, or by ids under /organizations/{org_id}/team/{team_id}.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { paged, pageOf } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import {
  CreateTeamBody, ListTeamMembersQuery, OrgParams, PageQuery, SetTeamMembershipBody, Team, TeamFull, TeamIdParams,
  TeamIdUserParams, TeamMember, TeamMembership, TeamParams, TeamUserParams, UpdateTeamBody } from './orgs.schemas.ts';
import * as teams from './teams.service.ts';
import { SCOPES } from './orgs.permissions.ts';
import { scopes } from './orgs.schemas.ts';
import type { TeamRef } from './teams.service.ts';
import { team, teamFull, teamMember, teamMembership } from './orgs.views.ts';
import { PagedArray } from '../../http/schema-types.ts';
import { teamReposRoutes } from './team-repos.routes.ts';

export function teamsRoutes(app: Router): void {
  const { urls } = app.ctx;

  // Teams

  app.get('/orgs/:org/teams', {
    schema: { params: OrgParams, querystring: PageQuery, response: { 200: PagedArray(Team) } },
    config: { operationId: 'teams/list', acceptedScopes: scopes(SCOPES.read) },
  }, async (request) => {
    const p = pageOf(request.query);
    const r = await teams.listTeams(request.server.ctx, request.actor, request.params.org, p);
    return paged(r.items.map((e) => team(e.team, e.parent, r.org.account.login, urls)), p, r.total);
  });

  app.post('/orgs/:org/teams', {
    schema: { params: OrgParams, body: CreateTeamBody, response: { 201: TeamFull } },
    config: { operationId: 'teams/create', resource: 'Team', acceptedScopes: scopes(SCOPES.write) },
  }, async (request, reply) => {
    const d = await teams.createTeam(request.server.ctx, request.actor, request.params.org, request.body);
    return reply.code(201).send(teamFull(d, urls));
  });

  app.get('/user/teams', {
    schema: { querystring: PageQuery, response: { 200: PagedArray(TeamFull) } },
    config: { operationId: 'teams/list-for-authenticated-user', acceptedScopes: scopes(SCOPES.ownTeams) },
  }, async (request) => {
    const p = pageOf(request.query);
    const r = await teams.listTeamsForAuthenticatedUser(request.server.ctx, request.actor, p);
    return paged(r.items.map((d) => teamFull(d, urls)), p, r.total);
  });

  teamRoutes(app, '/orgs/:org/teams/:team_slug', TeamParams, TeamUserParams,
    (p) => ({ org: p.org, teamSlug: p.team_slug }),
    (p) => ({ ref: { org: p.org, teamSlug: p.team_slug }, username: p.username }));
  teamRoutes(app, '/organizations/:org_id/team/:team_id', TeamIdParams, TeamIdUserParams,
    (p) => ({ orgId: p.org_id, teamId: p.team_id }),
    (p) => ({ ref: { orgId: p.org_id, teamId: p.team_id }, username: p.username }));
  teamReposRoutes(app);
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
  }, async (request) => {
    const d = await teams.getTeam(request.server.ctx, request.actor, refOf(request.params));
    return teamFull(d, urls);
  });

  app.patch(base, {
    schema: { params, body: UpdateTeamBody, response: { 200: TeamFull } },
    config: { operationId: 'teams/update-in-org', resource: 'Team', acceptedScopes: scopes(SCOPES.write) },
  }, async (request) => {
    const d = await teams.updateTeam(request.server.ctx, request.actor, refOf(request.params), request.body ?? {});
    return teamFull(d, urls);
  });

  app.delete(base, {
    schema: { params, response: { 204: Type.Null() } },
    config: { operationId: 'teams/delete-in-org', acceptedScopes: scopes(SCOPES.write) },
  }, async (request, reply) => {
    await teams.deleteTeam(request.server.ctx, request.actor, refOf(request.params));
    return reply.code(204).send(null);
  });

  app.get(`${base}/teams`, {
    schema: { params, querystring: PageQuery, response: { 200: PagedArray(Team) } },
    config: { operationId: 'teams/list-child-in-org', acceptedScopes: scopes(SCOPES.read) },
  }, async (request) => {
    const p = pageOf(request.query);
    const r = await teams.listChildTeams(request.server.ctx, request.actor, refOf(request.params), p);
    return paged(r.items.map((e) => team(e.team, e.parent, r.org.account.login, urls)), p, r.total);
  });

  app.get(`${base}/members`, {
    schema: { params, querystring: ListTeamMembersQuery, response: { 200: PagedArray(TeamMember) } },
    config: { operationId: 'teams/list-members-in-org', acceptedScopes: scopes(SCOPES.read) },
  }, async (request) => {
    const p = pageOf(request.query);
    const r = await teams.listTeamMembers(request.server.ctx, request.actor, refOf(request.params), request.query.role, p);
    return paged(r.items.map((m) => teamMember(m.user, m.role, m.inherited, urls)), p, r.total);
  });

  app.get(`${base}/memberships/:username`, {
    schema: { params: withUser, response: { 200: TeamMembership } },
    config: { operationId: 'teams/get-membership-for-user-in-org', acceptedScopes: scopes(SCOPES.read) },
  }, async (request) => {
    const { ref, username } = userRef(request.params);
    const m = await teams.getTeamMembership(request.server.ctx, request.actor, ref, username);
    return teamMembership(m.team, m.user, m.role, urls);
  });

  app.put(`${base}/memberships/:username`, {
    schema: { params: withUser, body: SetTeamMembershipBody, response: { 200: TeamMembership } },
    config: { operationId: 'teams/add-or-update-membership-for-user-in-org', resource: 'TeamMember', acceptedScopes: scopes(SCOPES.write) },
  }, async (request) => {
    const { ref, username } = userRef(request.params);
    const m = await teams.setTeamMembership(request.server.ctx, request.actor, ref, username, request.body?.role ?? 'member');
    return teamMembership(m.team, m.user, m.role, urls);
  });

  app.delete(`${base}/memberships/:username`, {
    schema: { params: withUser, response: { 204: Type.Null() } },
    config: { operationId: 'teams/remove-membership-for-user-in-org', acceptedScopes: scopes(SCOPES.write) },
  }, async (request, reply) => {
    const { ref, username } = userRef(request.params);
    await teams.removeTeamMembership(request.server.ctx, request.actor, ref, username);
    return reply.code(204).send(null);
  });
}
