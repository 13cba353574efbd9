// Teams' repositories: …/teams/{team_slug}/repos… (and /organizations/{org_id}/team/{team_id}/repos…),
// and the teams of a repository at /repos/{owner}/{repo}/teams.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { paged, pageOf } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { PagedArray } from '../../http/schema-types.ts';
import { presentRepo } from '../repos/repos.present.ts';
import { RepoParams } from '../repos/repos.schemas.ts';
import {
  PageQuery, SetTeamRepoBody, Team, TeamIdParams, TeamIdRepoParams, TeamParams, TeamRepoParams, TeamRepository,
} from './orgs.schemas.ts';
import { repositoryTeam, roleName } from './orgs.views.ts';
import * as teamRepos from './team-repos.service.ts';
import type { TeamRef } from './teams.service.ts';

const READ = ['read:org', 'repo'];
const WRITE = ['write:org', 'admin:org', 'repo'];

function presentTeamRepo(request: FastifyRequest, p: teamRepos.TeamRepository): Static<typeof TeamRepository> {
  const record = presentRepo(request, p);
  return { ...record, permissions: record.permissions!, role_name: roleName(p.role) };
}

export function teamReposRoutes(app: Router): void {
  const { urls } = app.ctx;

  teamRepoRoutes(app, '/orgs/:org/teams/:team_slug', TeamParams, TeamRepoParams,
    (p) => ({ org: p.org, teamSlug: p.team_slug }),
    (p) => ({ ref: { org: p.org, teamSlug: p.team_slug }, owner: p.owner, repo: p.repo }));
  teamRepoRoutes(app, '/organizations/:org_id/team/:team_id', TeamIdParams, TeamIdRepoParams,
    (p) => ({ orgId: p.org_id, teamId: p.team_id }),
    (p) => ({ ref: { orgId: p.org_id, teamId: p.team_id }, owner: p.owner, repo: p.repo }));

  app.get('/repos/:owner/:repo/teams', {
    schema: { params: RepoParams, querystring: PageQuery, response: { 200: PagedArray(Team) } },
    config: { operationId: 'repos/list-teams', acceptedScopes: ['repo'] },
  }, async (request) => {
    const p = pageOf(request.query);
    const r = await teamRepos.listRepoTeams(request.server.ctx, request.actor, request.params.owner, request.params.repo, p);
    return paged(r.items.map((e) => repositoryTeam(e.team, e.parent, e.orgLogin, e.permission, urls)), p, r.total);
  });
}

/** One team's repository routes, under both of upstream's addresses of a team. */
function teamRepoRoutes<P extends TSchema, PR extends TSchema>(
  app: Router, base: string, params: P, withRepo: PR,
  refOf: (p: Static<P>) => TeamRef, repoRef: (p: Static<PR>) => { ref: TeamRef; owner: string; repo: string },
): void {
  app.get(`${base}/repos`, {
    schema: { params, querystring: PageQuery, response: { 200: PagedArray(TeamRepository) } },
    config: { operationId: 'teams/list-repos-in-org', acceptedScopes: READ },
  }, async (request) => {
    const p = pageOf(request.query);
    const r = await teamRepos.listTeamRepos(request.server.ctx, request.actor, refOf(request.params), p);
    return paged(r.items.map((x) => presentTeamRepo(request, x)), p, r.total);
  });

  app.get(`${base}/repos/:owner/:repo`, {
    schema: { params: withRepo, response: { 200: TeamRepository, 204: Type.Null() } },
    config: { operationId: 'teams/check-permissions-for-repo-in-org', acceptedScopes: READ },
  }, async (request, reply) => {
    const { ref, owner, repo } = repoRef(request.params);
    const found = await teamRepos.checkTeamRepo(request.server.ctx, request.actor, ref, owner, repo);
    // The repository itself only for application/vnd.github.v3.repository+json, as upstream.
    if (request.media.param === 'repository') return presentTeamRepo(request, found);
    return reply.code(204).send(null);
  });

  app.put(`${base}/repos/:owner/:repo`, {
    schema: { params: withRepo, body: SetTeamRepoBody, response: { 204: Type.Null() } },
    config: { operationId: 'teams/add-or-update-repo-permissions-in-org', resource: 'TeamRepository', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { ref, owner, repo } = repoRef(request.params);
    await teamRepos.setTeamRepo(request.server.ctx, request.actor, ref, owner, repo, request.body?.permission);
    return reply.code(204).send(null);
  });

  app.delete(`${base}/repos/:owner/:repo`, {
    schema: { params: withRepo, response: { 204: Type.Null() } },
    config: { operationId: 'teams/remove-repo-in-org', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { ref, owner, repo } = repoRef(request.params);
    await teamRepos.removeTeamRepo(request.server.ctx, request.actor, ref, owner, repo);
    return reply.code(204).send(null);
  });
}
