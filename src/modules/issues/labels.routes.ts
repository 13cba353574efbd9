// Labels (repository, issue, milestone), milestones and assignees.
import { pageOf, setPageLinks } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { simpleUser } from '../users/users.views.ts';
import * as assignees from './assignees.service.ts';
import {
  AssigneeParams, AssigneesBody, CreateLabelBody, IssueAssigneeParams, IssueLabelParams, IssueParams, LabelParams,
  ListMilestonesQuery, MilestoneBody, MilestoneParams, RepoParams, UpdateLabelBody,
} from './issues.schemas.ts';
import { presentOptions } from './issues.routes.ts';
import * as labels from './labels.service.ts';
import * as milestones from './milestones.service.ts';

const WRITE = ['public_repo', 'repo'];

export function labelsRoutes(app: Router): void {
  // ---------------------------------------------------------------- repository labels

  app.get('/repos/:owner/:repo/labels', {
    schema: { params: RepoParams },
    config: { operationId: 'issues/list-labels-for-repo', resource: 'Label' },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const page = await labels.listLabels(request.server.ctx, request.actor, owner, repo, p);
    setPageLinks(request, reply, p, page.total);
    return page.items;
  });

  app.post('/repos/:owner/:repo/labels', {
    schema: { params: RepoParams, body: CreateLabelBody },
    config: { operationId: 'issues/create-label', resource: 'Label', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const view = await labels.createLabel(request.server.ctx, request.actor, owner, repo, request.body ?? {});
    return reply.code(201).header('location', view.url).send(view);
  });

  app.get('/repos/:owner/:repo/labels/:name', {
    schema: { params: LabelParams },
    config: { operationId: 'issues/get-label', resource: 'Label' },
  }, async (request) => {
    const { owner, repo, name } = request.params;
    return labels.getLabel(request.server.ctx, request.actor, owner, repo, name);
  });

  app.patch('/repos/:owner/:repo/labels/:name', {
    schema: { params: LabelParams, body: UpdateLabelBody },
    config: { operationId: 'issues/update-label', resource: 'Label', acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, name } = request.params;
    return labels.updateLabel(request.server.ctx, request.actor, owner, repo, name, request.body ?? {});
  });

  app.delete('/repos/:owner/:repo/labels/:name', {
    schema: { params: LabelParams },
    config: { operationId: 'issues/delete-label', resource: 'Label', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, name } = request.params;
    await labels.deleteLabel(request.server.ctx, request.actor, owner, repo, name);
    return reply.code(204).send();
  });

  // ---------------------------------------------------------------- labels on an issue

  app.get('/repos/:owner/:repo/issues/:issue_number/labels', {
    schema: { params: IssueParams },
    config: { operationId: 'issues/list-labels-on-issue', resource: 'Label' },
  }, async (request, reply) => {
    const { owner, repo, issue_number: number } = request.params;
    const p = pageOf(request.query);
    const page = await labels.listForIssue(request.server.ctx, request.actor, owner, repo, number, p);
    setPageLinks(request, reply, p, page.total);
    return page.items;
  });

  app.post('/repos/:owner/:repo/issues/:issue_number/labels', {
    schema: { params: IssueParams },
    config: { operationId: 'issues/add-labels', resource: 'Label', acceptedScopes: WRITE, allowJsonArray: true },
  }, async (request) => {
    const { owner, repo, issue_number: number } = request.params;
    return labels.addToIssue(request.server.ctx, request.actor, owner, repo, number, labels.labelsFromBody(request.body));
  });

  app.put('/repos/:owner/:repo/issues/:issue_number/labels', {
    schema: { params: IssueParams },
    config: { operationId: 'issues/set-labels', resource: 'Label', acceptedScopes: WRITE, allowJsonArray: true },
  }, async (request) => {
    const { owner, repo, issue_number: number } = request.params;
    return labels.setForIssue(request.server.ctx, request.actor, owner, repo, number, labels.labelsFromBody(request.body));
  });

  app.delete('/repos/:owner/:repo/issues/:issue_number/labels', {
    schema: { params: IssueParams },
    config: { operationId: 'issues/remove-all-labels', resource: 'Label', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, issue_number: number } = request.params;
    await labels.removeAllFromIssue(request.server.ctx, request.actor, owner, repo, number);
    return reply.code(204).send();
  });

  app.delete('/repos/:owner/:repo/issues/:issue_number/labels/:name', {
    schema: { params: IssueLabelParams },
    config: { operationId: 'issues/remove-label', resource: 'Label', acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, issue_number: number, name } = request.params;
    return labels.removeFromIssue(request.server.ctx, request.actor, owner, repo, number, name);
  });

  app.get('/repos/:owner/:repo/milestones/:milestone_number/labels', {
    schema: { params: MilestoneParams },
    config: { operationId: 'issues/list-labels-for-milestone', resource: 'Label' },
  }, async (request, reply) => {
    const { owner, repo, milestone_number: number } = request.params;
    const p = pageOf(request.query);
    const page = await labels.listForMilestone(request.server.ctx, request.actor, owner, repo, number, p);
    setPageLinks(request, reply, p, page.total);
    return page.items;
  });

  // ---------------------------------------------------------------- milestones

  app.get('/repos/:owner/:repo/milestones', {
    schema: { params: RepoParams, querystring: ListMilestonesQuery },
    config: { operationId: 'issues/list-milestones', resource: 'Milestone' },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const page = await milestones.listMilestones(request.server.ctx, request.actor, owner, repo, request.query, p);
    setPageLinks(request, reply, p, page.total);
    return page.items;
  });

  app.post('/repos/:owner/:repo/milestones', {
    schema: { params: RepoParams, body: MilestoneBody },
    config: { operationId: 'issues/create-milestone', resource: 'Milestone', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const view = await milestones.createMilestone(request.server.ctx, request.actor, owner, repo, request.body ?? {});
    return reply.code(201).header('location', view.url).send(view);
  });

  app.get('/repos/:owner/:repo/milestones/:milestone_number', {
    schema: { params: MilestoneParams },
    config: { operationId: 'issues/get-milestone', resource: 'Milestone' },
  }, async (request) => {
    const { owner, repo, milestone_number: number } = request.params;
    return milestones.getMilestone(request.server.ctx, request.actor, owner, repo, number);
  });

  app.patch('/repos/:owner/:repo/milestones/:milestone_number', {
    schema: { params: MilestoneParams, body: MilestoneBody },
    config: { operationId: 'issues/update-milestone', resource: 'Milestone', acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, milestone_number: number } = request.params;
    return milestones.updateMilestone(request.server.ctx, request.actor, owner, repo, number, request.body ?? {});
  });

  app.delete('/repos/:owner/:repo/milestones/:milestone_number', {
    schema: { params: MilestoneParams },
    config: { operationId: 'issues/delete-milestone', resource: 'Milestone', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, milestone_number: number } = request.params;
    await milestones.deleteMilestone(request.server.ctx, request.actor, owner, repo, number);
    return reply.code(204).send();
  });

  // ---------------------------------------------------------------- assignees

  app.get('/repos/:owner/:repo/assignees', {
    schema: { params: RepoParams },
    config: { operationId: 'issues/list-assignees', resource: 'User' },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const page = await assignees.listAssignees(request.server.ctx, request.actor, owner, repo, p);
    setPageLinks(request, reply, p, page.total);
    return page.items.map((a) => simpleUser(a, request.server.ctx.urls));
  });

  app.get('/repos/:owner/:repo/assignees/:assignee', {
    schema: { params: AssigneeParams },
    config: { operationId: 'issues/check-user-can-be-assigned', resource: 'User' },
  }, async (request, reply) => {
    const { owner, repo, assignee } = request.params;
    await assignees.checkAssignee(request.server.ctx, request.actor, owner, repo, assignee);
    return reply.code(204).send();
  });

  app.post('/repos/:owner/:repo/issues/:issue_number/assignees', {
    schema: { params: IssueParams, body: AssigneesBody },
    config: { operationId: 'issues/add-assignees', resource: 'Issue', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, issue_number: number } = request.params;
    const view = await assignees.changeIssueAssignees(request.server.ctx, request.actor, owner, repo, number,
      assignees.assigneesFromBody(request.body), true, presentOptions(request));
    return reply.code(201).send(view);
  });

  app.delete('/repos/:owner/:repo/issues/:issue_number/assignees', {
    schema: { params: IssueParams, body: AssigneesBody },
    config: { operationId: 'issues/remove-assignees', resource: 'Issue', acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, issue_number: number } = request.params;
    return assignees.changeIssueAssignees(request.server.ctx, request.actor, owner, repo, number,
      assignees.assigneesFromBody(request.body), false, presentOptions(request));
  });

  app.get('/repos/:owner/:repo/issues/:issue_number/assignees/:assignee', {
    schema: { params: IssueAssigneeParams },
    config: { operationId: 'issues/check-user-can-be-assigned-to-issue', resource: 'Issue' },
  }, async (request, reply) => {
    const { owner, repo, issue_number: number, assignee } = request.params;
    await assignees.checkIssueAssignee(request.server.ctx, request.actor, owner, repo, number, assignee);
    return reply.code(204).send();
  });
}
