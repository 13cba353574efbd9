// Labels: a repository's, an issue's, a milestone's issues'.
import { pageOf, paged } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { CreateLabelBody, IssueLabelParams, IssueParams, Label, LabelList, LabelPage, LabelParams, MilestoneParams, RepoParams, UpdateLabelBody } from './issues.schemas.ts';
import { presentLabel, presentLabels } from './issues.present.ts';
import * as labels from './labels.service.ts';
import { NoContent } from '../../http/schema-types.ts';

const WRITE = ['public_repo', 'repo'];

export function labelsRoutes(app: Router): void {
  // ---------------------------------------------------------------- repository labels

  app.get('/repos/:owner/:repo/labels', {
    schema: { params: RepoParams, response: { 200: LabelPage } },
    config: { operationId: 'issues/list-labels-for-repo', resource: 'Label' },
  }, async (request) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const { repo: at, page } = await labels.listLabels(request.server.ctx, request.actor, owner, repo, p);
    return paged(presentLabels(request.server.ctx, at, page.items), p, page.total);
  });

  app.post('/repos/:owner/:repo/labels', {
    schema: { params: RepoParams, body: CreateLabelBody, response: { 201: Label } },
    config: { operationId: 'issues/create-label', resource: 'Label', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const view = presentLabel(request.server.ctx, await labels.createLabel(request.server.ctx, request.actor, owner, repo, request.body ?? {}));
    return reply.code(201).header('location', view.url).send(view);
  });

  app.get('/repos/:owner/:repo/labels/:name', {
    schema: { params: LabelParams, response: { 200: Label } },
    config: { operationId: 'issues/get-label', resource: 'Label' },
  }, async (request) => {
    const { owner, repo, name } = request.params;
    return presentLabel(request.server.ctx, await labels.getLabel(request.server.ctx, request.actor, owner, repo, name));
  });

  app.patch('/repos/:owner/:repo/labels/:name', {
    schema: { params: LabelParams, body: UpdateLabelBody, response: { 200: Label } },
    config: { operationId: 'issues/update-label', resource: 'Label', acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, name } = request.params;
    return presentLabel(request.server.ctx, await labels.updateLabel(request.server.ctx, request.actor, owner, repo, name, request.body ?? {}));
  });

  app.delete('/repos/:owner/:repo/labels/:name', {
    schema: { params: LabelParams, response: { 204: NoContent } },
    config: { operationId: 'issues/delete-label', resource: 'Label', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, name } = request.params;
    await labels.deleteLabel(request.server.ctx, request.actor, owner, repo, name);
    return reply.code(204).send(null);
  });

  // ---------------------------------------------------------------- labels on an issue

  app.get('/repos/:owner/:repo/issues/:issue_number/labels', {
    schema: { params: IssueParams, response: { 200: LabelPage } },
    config: { operationId: 'issues/list-labels-on-issue', resource: 'Label' },
  }, async (request) => {
    const { owner, repo, issue_number: number } = request.params;
    const p = pageOf(request.query);
    const { repo: at, page } = await labels.listForIssue(request.server.ctx, request.actor, owner, repo, number, p);
    return paged(presentLabels(request.server.ctx, at, page.items), p, page.total);
  });

  app.post('/repos/:owner/:repo/issues/:issue_number/labels', {
    schema: { params: IssueParams, response: { 200: LabelList } },
    config: { operationId: 'issues/add-labels', resource: 'Label', acceptedScopes: WRITE, allowJsonArray: true },
  }, async (request) => {
    const { owner, repo, issue_number: number } = request.params;
    const now = await labels.addToIssue(request.server.ctx, request.actor, owner, repo, number, labels.labelsFromBody(request.body));
    return presentLabels(request.server.ctx, now.repo, now.labels);
  });

  app.put('/repos/:owner/:repo/issues/:issue_number/labels', {
    schema: { params: IssueParams, response: { 200: LabelList } },
    config: { operationId: 'issues/set-labels', resource: 'Label', acceptedScopes: WRITE, allowJsonArray: true },
  }, async (request) => {
    const { owner, repo, issue_number: number } = request.params;
    const now = await labels.setForIssue(request.server.ctx, request.actor, owner, repo, number, labels.labelsFromBody(request.body));
    return presentLabels(request.server.ctx, now.repo, now.labels);
  });

  app.delete('/repos/:owner/:repo/issues/:issue_number/labels', {
    schema: { params: IssueParams, response: { 204: NoContent } },
    config: { operationId: 'issues/remove-all-labels', resource: 'Label', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, issue_number: number } = request.params;
    await labels.removeAllFromIssue(request.server.ctx, request.actor, owner, repo, number);
    return reply.code(204).send(null);
  });

  app.delete('/repos/:owner/:repo/issues/:issue_number/labels/:name', {
    schema: { params: IssueLabelParams, response: { 200: LabelList } },
    config: { operationId: 'issues/remove-label', resource: 'Label', acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, issue_number: number, name } = request.params;
    const now = await labels.removeFromIssue(request.server.ctx, request.actor, owner, repo, number, name);
    return presentLabels(request.server.ctx, now.repo, now.labels);
  });

  app.get('/repos/:owner/:repo/milestones/:milestone_number/labels', {
    schema: { params: MilestoneParams, response: { 200: LabelPage } },
    config: { operationId: 'issues/list-labels-for-milestone', resource: 'Label' },
  }, async (request) => {
    const { owner, repo, milestone_number: number } = request.params;
    const p = pageOf(request.query);
    const { repo: at, page } = await labels.listForMilestone(request.server.ctx, request.actor, owner, repo, number, p);
    return paged(presentLabels(request.server.ctx, at, page.items), p, page.total);
  });
}
