// Classic projects on organizations, repositories and users, one project by id, and its collaborators.
import { pageOf, paged } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { NoContent } from '../../http/schema-types.ts';
import { simpleUser } from '../users/users.views.ts';
import { WRITE_SCOPES } from './projects.access.ts';
import { presentProject, presentProjects } from './projects.present.ts';
import {
  CollaboratorBody, CollaboratorList, CollaboratorListQuery, CollaboratorParams, CollaboratorPermission, CreateProjectBody, OrgParams,
  Project, ProjectList, ProjectListQuery, ProjectParams, RepoParams, UpdateProjectBody, UserParams,
} from './projects.schemas.ts';
import * as collaborators from './collaborators.service.ts';
import * as projects from './projects.service.ts';

const RESOURCE = 'Project';
const WRITE = { resource: RESOURCE, acceptedScopes: WRITE_SCOPES };

export function projectsRoutes(app: Router): void {
  app.get('/orgs/:org/projects', {
    schema: { params: OrgParams, querystring: ProjectListQuery, response: { 200: ProjectList } },
    config: { operationId: 'projects/list-for-org' },
  }, async (request) => {
    const p = pageOf(request.query);
    const page = await projects.listForOrg(request.server.ctx, request.actor, request.params.org, request.query.state, p);
    return paged(await presentProjects(request.server.ctx, page.items), p, page.total);
  });

  app.post('/orgs/:org/projects', {
    schema: { params: OrgParams, body: CreateProjectBody, response: { 201: Project } },
    config: { operationId: 'projects/create-for-org', ...WRITE },
  }, async (request, reply) => {
    const record = await projects.createForOrg(request.server.ctx, request.actor, request.params.org, request.body);
    return reply.code(201).send(await presentProject(request.server.ctx, record));
  });

  app.get('/repos/:owner/:repo/projects', {
    schema: { params: RepoParams, querystring: ProjectListQuery, response: { 200: ProjectList } },
    config: { operationId: 'projects/list-for-repo' },
  }, async (request) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const page = await projects.listForRepo(request.server.ctx, request.actor, owner, repo, request.query.state, p);
    return paged(await presentProjects(request.server.ctx, page.items), p, page.total);
  });

  app.post('/repos/:owner/:repo/projects', {
    schema: { params: RepoParams, body: CreateProjectBody, response: { 201: Project } },
    config: { operationId: 'projects/create-for-repo', ...WRITE },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const record = await projects.createForRepo(request.server.ctx, request.actor, owner, repo, request.body);
    return reply.code(201).send(await presentProject(request.server.ctx, record));
  });

  app.get('/users/:username/projects', {
    schema: { params: UserParams, querystring: ProjectListQuery, response: { 200: ProjectList } },
    config: { operationId: 'projects/list-for-user' },
  }, async (request) => {
    const p = pageOf(request.query);
    const page = await projects.listForUser(request.server.ctx, request.actor, request.params.username, request.query.state, p);
    return paged(await presentProjects(request.server.ctx, page.items), p, page.total);
  });

  app.post('/user/projects', {
    schema: { body: CreateProjectBody, response: { 201: Project } },
    config: { operationId: 'projects/create-for-authenticated-user', ...WRITE },
  }, async (request, reply) => {
    const record = await projects.createForAuthenticatedUser(request.server.ctx, request.actor, request.body);
    return reply.code(201).send(await presentProject(request.server.ctx, record));
  });

  app.get('/projects/:project_id', {
    schema: { params: ProjectParams, response: { 200: Project } },
    config: { operationId: 'projects/get' },
  }, async (request) => presentProject(request.server.ctx, await projects.getProject(request.server.ctx, request.actor, request.params.project_id)));

  app.patch('/projects/:project_id', {
    schema: { params: ProjectParams, body: UpdateProjectBody, response: { 200: Project } },
    config: { operationId: 'projects/update', ...WRITE },
  }, async (request) => presentProject(
    request.server.ctx, await projects.updateProject(request.server.ctx, request.actor, request.params.project_id, request.body),
  ));

  app.delete('/projects/:project_id', {
    schema: { params: ProjectParams, response: { 204: NoContent } },
    config: { operationId: 'projects/delete', ...WRITE },
  }, async (request, reply) => {
    await projects.deleteProject(request.server.ctx, request.actor, request.params.project_id);
    return reply.code(204).send();
  });

  app.get('/projects/:project_id/collaborators', {
    schema: { params: ProjectParams, querystring: CollaboratorListQuery, response: { 200: CollaboratorList } },
    config: { operationId: 'projects/list-collaborators' },
  }, async (request) => {
    const p = pageOf(request.query);
    const page = await collaborators.listCollaborators(request.server.ctx, request.actor, request.params.project_id, request.query.affiliation, p);
    return paged(page.items.map((a) => simpleUser(a, request.server.ctx.urls)), p, page.total);
  });

  app.put('/projects/:project_id/collaborators/:username', {
    schema: { params: CollaboratorParams, body: CollaboratorBody, response: { 204: NoContent } },
    config: { operationId: 'projects/add-collaborator', ...WRITE },
  }, async (request, reply) => {
    const { project_id: id, username } = request.params;
    await collaborators.addCollaborator(request.server.ctx, request.actor, id, username, request.body?.permission);
    return reply.code(204).send();
  });

  app.delete('/projects/:project_id/collaborators/:username', {
    schema: { params: CollaboratorParams, response: { 204: NoContent } },
    config: { operationId: 'projects/remove-collaborator', ...WRITE },
  }, async (request, reply) => {
    const { project_id: id, username } = request.params;
    await collaborators.removeCollaborator(request.server.ctx, request.actor, id, username);
    return reply.code(204).send();
  });

  app.get('/projects/:project_id/collaborators/:username/permission', {
    schema: { params: CollaboratorParams, response: { 200: CollaboratorPermission } },
    config: { operationId: 'projects/get-permission-for-user' },
  }, async (request) => {
    const { project_id: id, username } = request.params;
    const { permission, user } = await collaborators.collaboratorPermission(request.server.ctx, request.actor, id, username);
    return { permission, user: simpleUser(user, request.server.ctx.urls) };
  });
}
