// Assignees: who may be assigned in a repository, and an issue's assignees.
import { pageOf, paged } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { simpleUser } from '../users/users.views.ts';
import * as assignees from './assignees.service.ts';
import { presentIssue } from './issues.present.ts';
import { AssigneeParams, AssigneesBody, Issue, IssueAssigneeParams, IssueParams, RepoParams, UserPage } from './issues.schemas.ts';
import { NoContent } from '../../http/schema-types.ts';

const WRITE = ['public_repo', 'repo'];

export function assigneesRoutes(app: Router): void {
  // ---------------------------------------------------------------- assignees

  app.get('/repos/:owner/:repo/assignees', {
    schema: { params: RepoParams, response: { 200: UserPage } },
    config: { operationId: 'issues/list-assignees', resource: 'User' },
  }, async (request) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const page = await assignees.listAssignees(request.server.ctx, request.actor, owner, repo, p);
    return paged(page.items.map((a) => simpleUser(a, request.server.ctx.urls)), p, page.total);
  });

  app.get('/repos/:owner/:repo/assignees/:assignee', {
    schema: { params: AssigneeParams, response: { 204: NoContent } },
    config: { operationId: 'issues/check-user-can-be-assigned', resource: 'User' },
  }, async (request, reply) => {
    const { owner, repo, assignee } = request.params;
    await assignees.checkAssignee(request.server.ctx, request.actor, owner, repo, assignee);
    return reply.code(204).send(null);
  });

  app.post('/repos/:owner/:repo/issues/:issue_number/assignees', {
    schema: { params: IssueParams, body: AssigneesBody, response: { 201: Issue } },
    config: { operationId: 'issues/add-assignees', resource: 'Issue', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, issue_number: number } = request.params;
    const { ctx } = request.server;
    const view = await presentIssue(ctx, request.actor, await assignees.changeIssueAssignees(ctx, request.actor, owner, repo, number,
      assignees.assigneesFromBody(request.body), true), request.media);
    return reply.code(201).send(view);
  });

  app.delete('/repos/:owner/:repo/issues/:issue_number/assignees', {
    schema: { params: IssueParams, body: AssigneesBody, response: { 200: Issue } },
    config: { operationId: 'issues/remove-assignees', resource: 'Issue', acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, issue_number: number } = request.params;
    const { ctx } = request.server;
    return presentIssue(ctx, request.actor, await assignees.changeIssueAssignees(ctx, request.actor, owner, repo, number,
      assignees.assigneesFromBody(request.body), false), request.media);
  });

  app.get('/repos/:owner/:repo/issues/:issue_number/assignees/:assignee', {
    schema: { params: IssueAssigneeParams, response: { 204: NoContent } },
    config: { operationId: 'issues/check-user-can-be-assigned-to-issue', resource: 'Issue' },
  }, async (request, reply) => {
    const { owner, repo, issue_number: number, assignee } = request.params;
    await assignees.checkIssueAssignee(request.server.ctx, request.actor, owner, repo, number, assignee);
    return reply.code(204).send(null);
  });
}
