// A team's access to its organization's projects.
import { pageOf, paged } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { NoContent } from '../../http/schema-types.ts';
import { WRITE_SCOPES } from './projects.access.ts';
import { presentTeamProjects } from './projects.present.ts';
import { PageQuery, TeamParams, TeamProject, TeamProjectBody, TeamProjectList, TeamProjectParams } from './projects.schemas.ts';
import * as teamProjects from './team-projects.service.ts';

const WRITE = { resource: 'Project', acceptedScopes: WRITE_SCOPES };

export function teamProjectsRoutes(app: Router): void {
  app.get('/orgs/:org/teams/:team_slug/projects', {
    schema: { params: TeamParams, querystring: PageQuery, response: { 200: TeamProjectList } },
    config: { operationId: 'teams/list-projects-in-org' },
  }, async (request) => {
    const p = pageOf(request.query);
    const page = await teamProjects.listTeamProjects(request.server.ctx, request.actor, request.params.org, request.params.team_slug, p);
    return paged(await presentTeamProjects(request.server.ctx, page.items), p, page.total);
  });

  app.get('/orgs/:org/teams/:team_slug/projects/:project_id', {
    schema: { params: TeamProjectParams, response: { 200: TeamProject } },
    config: { operationId: 'teams/check-permissions-for-project-in-org' },
  }, async (request) => {
    const { org, team_slug: slug, project_id: id } = request.params;
    const [view] = await presentTeamProjects(request.server.ctx, [await teamProjects.getTeamProject(request.server.ctx, request.actor, org, slug, id)]);
    return view!;
  });

  app.put('/orgs/:org/teams/:team_slug/projects/:project_id', {
    schema: { params: TeamProjectParams, body: TeamProjectBody, response: { 204: NoContent } },
    config: { operationId: 'teams/add-or-update-project-permissions-in-org', ...WRITE },
  }, async (request, reply) => {
    const { org, team_slug: slug, project_id: id } = request.params;
    await teamProjects.addTeamProject(request.server.ctx, request.actor, org, slug, id, request.body?.permission);
    return reply.code(204).send();
  });

  app.delete('/orgs/:org/teams/:team_slug/projects/:project_id', {
    schema: { params: TeamProjectParams, response: { 204: NoContent } },
    config: { operationId: 'teams/remove-project-in-org', ...WRITE },
  }, async (request, reply) => {
    const { org, team_slug: slug, project_id: id } = request.params;
    await teamProjects.removeTeamProject(request.server.ctx, request.actor, org, slug, id);
    return reply.code(204).send();
  });
}
