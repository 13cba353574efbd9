// Issues: lists, create, get, update, lock; comments; issue events.
import { pageOf, paged } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import * as comments from './comments.service.ts';
import * as events from './issue-events.service.ts';
import * as lists from './issue-lists.service.ts';
import { presentComment, presentComments, presentEvents, presentIssue, presentIssues } from './issues.present.ts';
import { CommentBody, CommentParams, CreateIssueBody, EventParams, Issue, IssueComment, IssueCommentPage, IssueEvent, IssueEventPage, IssuePage, IssueParams, ListCommentsQuery, ListIssuesQuery, ListRepoCommentsQuery, ListRepoIssuesQuery, LockBody, OrgParams, RepoParams, UpdateIssueBody } from './issues.schemas.ts';
import * as issues from './issues.service.ts';
import { NoContent } from '../../http/schema-types.ts';

const WRITE = ['public_repo', 'repo'];

export function issuesRoutes(app: Router): void {
  // ---------------------------------------------------------------- lists

  app.get('/issues', {
    schema: { querystring: ListIssuesQuery, response: { 200: IssuePage } },
    config: { operationId: 'issues/list', resource: 'Issue' },
  }, async (request) => {
    const p = pageOf(request.query);
    const { ctx } = request.server;
    const { repos, page } = await lists.listUserIssues(ctx, request.actor, request.query, p, true);
    return paged(await presentIssues(ctx, request.actor, page.items, { ...request.media, repos, withRepository: true }), p, page.total);
  });

  app.get('/user/issues', {
    schema: { querystring: ListIssuesQuery, response: { 200: IssuePage } },
    config: { operationId: 'issues/list-for-authenticated-user', resource: 'Issue' },
  }, async (request) => {
    const p = pageOf(request.query);
    const { ctx } = request.server;
    const { repos, page } = await lists.listUserIssues(ctx, request.actor, request.query, p, false);
    return paged(await presentIssues(ctx, request.actor, page.items, { ...request.media, repos, withRepository: true }), p, page.total);
  });

  app.get('/orgs/:org/issues', {
    schema: { params: OrgParams, querystring: ListIssuesQuery, response: { 200: IssuePage } },
    config: { operationId: 'issues/list-for-org', resource: 'Issue' },
  }, async (request) => {
    const p = pageOf(request.query);
    const { ctx } = request.server;
    const { repos, page } = await lists.listOrgIssues(ctx, request.actor, request.params.org, request.query, p);
    return paged(await presentIssues(ctx, request.actor, page.items, { ...request.media, repos, withRepository: true }), p, page.total);
  });

  app.get('/repos/:owner/:repo/issues', {
    schema: { params: RepoParams, querystring: ListRepoIssuesQuery, response: { 200: IssuePage } },
    config: { operationId: 'issues/list-for-repo', resource: 'Issue', answerCache: true },
  }, async (request) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const { ctx } = request.server;
    const { repo: located, page } = await lists.listRepoIssues(ctx, request.actor, owner, repo, request.query, p);
    return paged(await presentIssues(ctx, request.actor, page.items, { ...request.media, repos: [located] }), p, page.total);
  });

  // ---------------------------------------------------------------- one issue

  app.post('/repos/:owner/:repo/issues', {
    schema: { params: RepoParams, body: CreateIssueBody, response: { 201: Issue } },
    config: { operationId: 'issues/create', resource: 'Issue', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const { ctx } = request.server;
    const view = await presentIssue(ctx, request.actor, await issues.createIssue(ctx, request.actor, owner, repo, request.body ?? {}), request.media);
    return reply.code(201).header('location', view.url).send(view);
  });

  app.get('/repos/:owner/:repo/issues/:issue_number', {
    schema: { params: IssueParams, response: { 200: Issue } },
    config: { operationId: 'issues/get', resource: 'Issue', answerCache: true },
  }, async (request) => {
    const { owner, repo, issue_number: number } = request.params;
    const { ctx } = request.server;
    return presentIssue(ctx, request.actor, await issues.getIssue(ctx, request.actor, owner, repo, number), request.media);
  });

  app.patch('/repos/:owner/:repo/issues/:issue_number', {
    schema: { params: IssueParams, body: UpdateIssueBody, response: { 200: Issue } },
    config: { operationId: 'issues/update', resource: 'Issue', acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, issue_number: number } = request.params;
    const { ctx } = request.server;
    return presentIssue(ctx, request.actor, await issues.updateIssue(ctx, request.actor, owner, repo, number, request.body ?? {}), request.media);
  });

  app.put('/repos/:owner/:repo/issues/:issue_number/lock', {
    schema: { params: IssueParams, body: LockBody, response: { 204: NoContent } },
    config: { operationId: 'issues/lock', resource: 'Issue', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, issue_number: number } = request.params;
    await issues.lockIssue(request.server.ctx, request.actor, owner, repo, number, request.body?.lock_reason);
    return reply.code(204).send(null);
  });

  app.delete('/repos/:owner/:repo/issues/:issue_number/lock', {
    schema: { params: IssueParams, response: { 204: NoContent } },
    config: { operationId: 'issues/unlock', resource: 'Issue', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, issue_number: number } = request.params;
    await issues.unlockIssue(request.server.ctx, request.actor, owner, repo, number);
    return reply.code(204).send(null);
  });

  // ---------------------------------------------------------------- comments

  app.get('/repos/:owner/:repo/issues/:issue_number/comments', {
    schema: { params: IssueParams, querystring: ListCommentsQuery, response: { 200: IssueCommentPage } },
    config: { operationId: 'issues/list-comments', resource: 'IssueComment' },
  }, async (request) => {
    const { owner, repo, issue_number: number } = request.params;
    const p = pageOf(request.query);
    const { ctx } = request.server;
    const found = await comments.listForIssue(ctx, request.actor, owner, repo, number, request.query, p);
    return paged(await presentComments(ctx, found.repo, found.page.items, { ...request.media, issues: found.issues }), p, found.page.total);
  });

  app.post('/repos/:owner/:repo/issues/:issue_number/comments', {
    schema: { params: IssueParams, body: CommentBody, response: { 201: IssueComment } },
    config: { operationId: 'issues/create-comment', resource: 'IssueComment', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, issue_number: number } = request.params;
    const { ctx } = request.server;
    const view = await presentComment(ctx, await comments.createComment(ctx, request.actor, owner, repo, number, request.body ?? {}), request.media);
    return reply.code(201).header('location', view.url).send(view);
  });

  app.get('/repos/:owner/:repo/issues/comments', {
    schema: { params: RepoParams, querystring: ListRepoCommentsQuery, response: { 200: IssueCommentPage } },
    config: { operationId: 'issues/list-comments-for-repo', resource: 'IssueComment' },
  }, async (request) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const { ctx } = request.server;
    const found = await comments.listForRepo(ctx, request.actor, owner, repo, request.query, p);
    return paged(await presentComments(ctx, found.repo, found.page.items, request.media), p, found.page.total);
  });

  app.get('/repos/:owner/:repo/issues/comments/:comment_id', {
    schema: { params: CommentParams, response: { 200: IssueComment } },
    config: { operationId: 'issues/get-comment', resource: 'IssueComment' },
  }, async (request) => {
    const { owner, repo, comment_id: id } = request.params;
    const { ctx } = request.server;
    return presentComment(ctx, await comments.getComment(ctx, request.actor, owner, repo, id), request.media);
  });

  app.patch('/repos/:owner/:repo/issues/comments/:comment_id', {
    schema: { params: CommentParams, body: CommentBody, response: { 200: IssueComment } },
    config: { operationId: 'issues/update-comment', resource: 'IssueComment', acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, comment_id: id } = request.params;
    const { ctx } = request.server;
    return presentComment(ctx, await comments.updateComment(ctx, request.actor, owner, repo, id, request.body ?? {}), request.media);
  });

  app.delete('/repos/:owner/:repo/issues/comments/:comment_id', {
    schema: { params: CommentParams, response: { 204: NoContent } },
    config: { operationId: 'issues/delete-comment', resource: 'IssueComment', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, comment_id: id } = request.params;
    await comments.deleteComment(request.server.ctx, request.actor, owner, repo, id);
    return reply.code(204).send(null);
  });

  // ---------------------------------------------------------------- issue events

  app.get('/repos/:owner/:repo/issues/:issue_number/events', {
    schema: { params: IssueParams, response: { 200: IssueEventPage } },
    config: { operationId: 'issues/list-events', resource: 'IssueEvent' },
  }, async (request) => {
    const { owner, repo, issue_number: number } = request.params;
    const p = pageOf(request.query);
    const { ctx } = request.server;
    const found = await events.listForIssue(ctx, request.actor, owner, repo, number, p);
    return paged(await presentEvents(ctx, request.actor, found.repo, found.page.items, found.withIssue), p, found.page.total);
  });

  app.get('/repos/:owner/:repo/issues/events', {
    schema: { params: RepoParams, response: { 200: IssueEventPage } },
    config: { operationId: 'issues/list-events-for-repo', resource: 'IssueEvent' },
  }, async (request) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const { ctx } = request.server;
    const found = await events.listForRepo(ctx, request.actor, owner, repo, p);
    return paged(await presentEvents(ctx, request.actor, found.repo, found.page.items, found.withIssue), p, found.page.total);
  });

  app.get('/repos/:owner/:repo/issues/events/:event_id', {
    schema: { params: EventParams, response: { 200: IssueEvent } },
    config: { operationId: 'issues/get-event', resource: 'IssueEvent' },
  }, async (request) => {
    const { owner, repo, event_id: id } = request.params;
    const { ctx } = request.server;
    const found = await events.getEvent(ctx, request.actor, owner, repo, id);
    return (await presentEvents(ctx, request.actor, found.repo, found.page.items, found.withIssue))[0]!;
  });
}
