// Issues: lists, create, get, update, lock; comments; issue events.
import type { FastifyRequest } from 'fastify';
import { pageOf, setPageLinks } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import * as comments from './comments.service.ts';
import * as events from './issue-events.service.ts';
import * as lists from './issues.lists.ts';
import {
  CommentBody, CommentParams, CreateIssueBody, EventParams, IssueParams, ListCommentsQuery, ListIssuesQuery,
  ListRepoCommentsQuery, ListRepoIssuesQuery, LockBody, OrgParams, RepoParams, UpdateIssueBody,
} from './issues.schemas.ts';
import * as issues from './issues.service.ts';
import { subscribeIssues } from './issues.subscribers.ts';
import { bodyFormatOf } from './issues.views.ts';

const WRITE = ['public_repo', 'repo'];

/** The representation the Accept header asks for: body fields and previews. */
export function presentOptions(request: FastifyRequest): issues.PresentOptions {
  return { bodyFormat: bodyFormatOf(request.media.param), previews: request.media.previews };
}

export function issuesRoutes(app: Router): void {
  subscribeIssues();

  // ---------------------------------------------------------------- lists

  app.get('/issues', {
    schema: { querystring: ListIssuesQuery },
    config: { operationId: 'issues/list', resource: 'Issue' },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    const page = await lists.listForAuthenticatedUser(request.server.ctx, request.actor, request.query, p, true, presentOptions(request));
    setPageLinks(request, reply, p, page.total);
    return page.items;
  });

  app.get('/user/issues', {
    schema: { querystring: ListIssuesQuery },
    config: { operationId: 'issues/list-for-authenticated-user', resource: 'Issue' },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    const page = await lists.listForAuthenticatedUser(request.server.ctx, request.actor, request.query, p, false, presentOptions(request));
    setPageLinks(request, reply, p, page.total);
    return page.items;
  });

  app.get('/orgs/:org/issues', {
    schema: { params: OrgParams, querystring: ListIssuesQuery },
    config: { operationId: 'issues/list-for-org', resource: 'Issue' },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    const page = await lists.listForOrg(request.server.ctx, request.actor, request.params.org, request.query, p, presentOptions(request));
    setPageLinks(request, reply, p, page.total);
    return page.items;
  });

  app.get('/repos/:owner/:repo/issues', {
    schema: { params: RepoParams, querystring: ListRepoIssuesQuery },
    config: { operationId: 'issues/list-for-repo', resource: 'Issue' },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const page = await lists.listForRepo(request.server.ctx, request.actor, owner, repo, request.query, p, presentOptions(request));
    setPageLinks(request, reply, p, page.total);
    return page.items;
  });

  // ---------------------------------------------------------------- one issue

  app.post('/repos/:owner/:repo/issues', {
    schema: { params: RepoParams, body: CreateIssueBody },
    config: { operationId: 'issues/create', resource: 'Issue', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const view = await issues.createIssue(request.server.ctx, request.actor, owner, repo, request.body ?? {}, presentOptions(request));
    return reply.code(201).header('location', view.url).send(view);
  });

  app.get('/repos/:owner/:repo/issues/:issue_number', {
    schema: { params: IssueParams },
    config: { operationId: 'issues/get', resource: 'Issue' },
  }, async (request) => {
    const { owner, repo, issue_number: number } = request.params;
    return issues.getIssue(request.server.ctx, request.actor, owner, repo, number, presentOptions(request));
  });

  app.patch('/repos/:owner/:repo/issues/:issue_number', {
    schema: { params: IssueParams, body: UpdateIssueBody },
    config: { operationId: 'issues/update', resource: 'Issue', acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, issue_number: number } = request.params;
    return issues.updateIssue(request.server.ctx, request.actor, owner, repo, number, request.body ?? {}, presentOptions(request));
  });

  app.put('/repos/:owner/:repo/issues/:issue_number/lock', {
    schema: { params: IssueParams, body: LockBody },
    config: { operationId: 'issues/lock', resource: 'Issue', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, issue_number: number } = request.params;
    await issues.lockIssue(request.server.ctx, request.actor, owner, repo, number, request.body?.lock_reason);
    return reply.code(204).send();
  });

  app.delete('/repos/:owner/:repo/issues/:issue_number/lock', {
    schema: { params: IssueParams },
    config: { operationId: 'issues/unlock', resource: 'Issue', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, issue_number: number } = request.params;
    await issues.unlockIssue(request.server.ctx, request.actor, owner, repo, number);
    return reply.code(204).send();
  });

  // ---------------------------------------------------------------- comments

  app.get('/repos/:owner/:repo/issues/:issue_number/comments', {
    schema: { params: IssueParams, querystring: ListCommentsQuery },
    config: { operationId: 'issues/list-comments', resource: 'IssueComment' },
  }, async (request, reply) => {
    const { owner, repo, issue_number: number } = request.params;
    const p = pageOf(request.query);
    const page = await comments.listForIssue(request.server.ctx, request.actor, owner, repo, number, request.query, p, bodyFormatOf(request.media.param));
    setPageLinks(request, reply, p, page.total);
    return page.items;
  });

  app.post('/repos/:owner/:repo/issues/:issue_number/comments', {
    schema: { params: IssueParams, body: CommentBody },
    config: { operationId: 'issues/create-comment', resource: 'IssueComment', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, issue_number: number } = request.params;
    const view = await comments.createComment(request.server.ctx, request.actor, owner, repo, number, request.body ?? {}, bodyFormatOf(request.media.param));
    return reply.code(201).header('location', view.url).send(view);
  });

  app.get('/repos/:owner/:repo/issues/comments', {
    schema: { params: RepoParams, querystring: ListRepoCommentsQuery },
    config: { operationId: 'issues/list-comments-for-repo', resource: 'IssueComment' },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const page = await comments.listForRepo(request.server.ctx, request.actor, owner, repo, request.query, p, bodyFormatOf(request.media.param));
    setPageLinks(request, reply, p, page.total);
    return page.items;
  });

  app.get('/repos/:owner/:repo/issues/comments/:comment_id', {
    schema: { params: CommentParams },
    config: { operationId: 'issues/get-comment', resource: 'IssueComment' },
  }, async (request) => {
    const { owner, repo, comment_id: id } = request.params;
    return comments.getComment(request.server.ctx, request.actor, owner, repo, id, bodyFormatOf(request.media.param));
  });

  app.patch('/repos/:owner/:repo/issues/comments/:comment_id', {
    schema: { params: CommentParams, body: CommentBody },
    config: { operationId: 'issues/update-comment', resource: 'IssueComment', acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, comment_id: id } = request.params;
    return comments.updateComment(request.server.ctx, request.actor, owner, repo, id, request.body ?? {}, bodyFormatOf(request.media.param));
  });

  app.delete('/repos/:owner/:repo/issues/comments/:comment_id', {
    schema: { params: CommentParams },
    config: { operationId: 'issues/delete-comment', resource: 'IssueComment', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, comment_id: id } = request.params;
    await comments.deleteComment(request.server.ctx, request.actor, owner, repo, id);
    return reply.code(204).send();
  });

  // ---------------------------------------------------------------- issue events

  app.get('/repos/:owner/:repo/issues/:issue_number/events', {
    schema: { params: IssueParams },
    config: { operationId: 'issues/list-events', resource: 'IssueEvent' },
  }, async (request, reply) => {
    const { owner, repo, issue_number: number } = request.params;
    const p = pageOf(request.query);
    const page = await events.listForIssue(request.server.ctx, request.actor, owner, repo, number, p);
    setPageLinks(request, reply, p, page.total);
    return page.items;
  });

  app.get('/repos/:owner/:repo/issues/events', {
    schema: { params: RepoParams },
    config: { operationId: 'issues/list-events-for-repo', resource: 'IssueEvent' },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const page = await events.listForRepo(request.server.ctx, request.actor, owner, repo, p);
    setPageLinks(request, reply, p, page.total);
    return page.items;
  });

  app.get('/repos/:owner/:repo/issues/events/:event_id', {
    schema: { params: EventParams },
    config: { operationId: 'issues/get-event', resource: 'IssueEvent' },
  }, async (request) => {
    const { owner, repo, event_id: id } = request.params;
    return events.getEvent(request.server.ctx, request.actor, owner, repo, id);
  });
}
