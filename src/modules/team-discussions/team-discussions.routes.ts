// Team discussions and their comments, at both of upstream's addresses of a team
// (organization login and slug; organization and team ids). Like the reactions on
// them, every route asks for the squirrel-girl preview (spec: Reactions, team
// discussions; 415 without it).
import { Type } from '@sinclair/typebox';
import type { Router } from '../../http/router.ts';
import { pageOf, setPageLinks } from '../../http/pagination.ts';
import {
  CommentBody, CommentNumber, CreateDiscussionBody, DiscussionNumber, DISCUSSIONS_PREVIEW, intParam, ListCommentsQuery, ListDiscussionsQuery,
  TEAM_BASES, TeamDiscussion, TeamDiscussionComment, teamParams, teamRefOf, UpdateDiscussionBody, type TeamForm,
} from './team-discussions.schemas.ts';
import * as discussions from './team-discussions.service.ts';
import { SCOPES } from './team-discussions.service.ts';
import { teamDiscussion, teamDiscussionComment } from './team-discussions.views.ts';

const READ = [...SCOPES.read, ...SCOPES.write];
const WRITE = [...SCOPES.write];

export function teamDiscussionsRoutes(app: Router): void {
  for (const form of ['slug', 'ids'] as const) discussionRoutes(app, form);
}

function discussionRoutes(app: Router, form: TeamForm): void {
  const { urls } = app.ctx;
  const base = `${TEAM_BASES[form]}/discussions`;
  const team = teamParams(form);
  const discussion = teamParams(form, DiscussionNumber);
  const comment = teamParams(form, CommentNumber);
  const read = { acceptedScopes: READ, requiredPreview: DISCUSSIONS_PREVIEW };
  const write = { acceptedScopes: WRITE, requiredPreview: DISCUSSIONS_PREVIEW };

  // Discussions

  app.get(base, {
    schema: { params: team, querystring: ListDiscussionsQuery, response: { 200: Type.Array(TeamDiscussion) } },
    config: { operationId: 'teams/list-discussions-in-org', ...read },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    const page = await discussions.listDiscussions(request.server.ctx, request.actor, teamRefOf(form, request.params), request.query, p);
    setPageLinks(request, reply, p, page.total);
    return page.items.map((d) => teamDiscussion(d, urls));
  });

  app.post(base, {
    schema: { params: team, body: CreateDiscussionBody, response: { 201: TeamDiscussion } },
    config: { operationId: 'teams/create-discussion-in-org', resource: 'TeamDiscussion', ...write },
  }, async (request, reply) => {
    const d = await discussions.createDiscussion(request.server.ctx, request.actor, teamRefOf(form, request.params), request.body);
    return reply.code(201).send(teamDiscussion(d, urls));
  });

  app.get(`${base}/:discussion_number`, {
    schema: { params: discussion, response: { 200: TeamDiscussion } },
    config: { operationId: 'teams/get-discussion-in-org', ...read },
  }, async (request, reply) => {
    const d = await discussions.getDiscussion(request.server.ctx, request.actor, teamRefOf(form, request.params), intParam(request.params, 'discussion_number'));
    reply.lastModified = d.discussion.updatedAt;
    return teamDiscussion(d, urls);
  });

  app.patch(`${base}/:discussion_number`, {
    schema: { params: discussion, body: UpdateDiscussionBody, response: { 200: TeamDiscussion } },
    config: { operationId: 'teams/update-discussion-in-org', resource: 'TeamDiscussion', ...write },
  }, async (request) => {
    const d = await discussions.updateDiscussion(
      request.server.ctx, request.actor, teamRefOf(form, request.params), intParam(request.params, 'discussion_number'), request.body ?? {},
    );
    return teamDiscussion(d, urls);
  });

  app.delete(`${base}/:discussion_number`, {
    schema: { params: discussion },
    config: { operationId: 'teams/delete-discussion-in-org', ...write },
  }, async (request, reply) => {
    await discussions.deleteDiscussion(request.server.ctx, request.actor, teamRefOf(form, request.params), intParam(request.params, 'discussion_number'));
    return reply.code(204).send();
  });

  // Comments

  app.get(`${base}/:discussion_number/comments`, {
    schema: { params: discussion, querystring: ListCommentsQuery, response: { 200: Type.Array(TeamDiscussionComment) } },
    config: { operationId: 'teams/list-discussion-comments-in-org', ...read },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    const page = await discussions.listComments(
      request.server.ctx, request.actor, teamRefOf(form, request.params), intParam(request.params, 'discussion_number'), request.query.direction, p,
    );
    setPageLinks(request, reply, p, page.total);
    return page.items.map((c) => teamDiscussionComment(c, urls));
  });

  app.post(`${base}/:discussion_number/comments`, {
    schema: { params: discussion, body: CommentBody, response: { 201: TeamDiscussionComment } },
    config: { operationId: 'teams/create-discussion-comment-in-org', resource: 'TeamDiscussionComment', ...write },
  }, async (request, reply) => {
    const c = await discussions.createComment(
      request.server.ctx, request.actor, teamRefOf(form, request.params), intParam(request.params, 'discussion_number'), request.body,
    );
    return reply.code(201).send(teamDiscussionComment(c, urls));
  });

  app.get(`${base}/:discussion_number/comments/:comment_number`, {
    schema: { params: comment, response: { 200: TeamDiscussionComment } },
    config: { operationId: 'teams/get-discussion-comment-in-org', ...read },
  }, async (request, reply) => {
    const c = await discussions.getComment(
      request.server.ctx, request.actor, teamRefOf(form, request.params),
      intParam(request.params, 'discussion_number'), intParam(request.params, 'comment_number'),
    );
    reply.lastModified = c.comment.updatedAt;
    return teamDiscussionComment(c, urls);
  });

  app.patch(`${base}/:discussion_number/comments/:comment_number`, {
    schema: { params: comment, body: CommentBody, response: { 200: TeamDiscussionComment } },
    config: { operationId: 'teams/update-discussion-comment-in-org', resource: 'TeamDiscussionComment', ...write },
  }, async (request) => {
    const c = await discussions.updateComment(
      request.server.ctx, request.actor, teamRefOf(form, request.params),
      intParam(request.params, 'discussion_number'), intParam(request.params, 'comment_number'), request.body,
    );
    return teamDiscussionComment(c, urls);
  });

  app.delete(`${base}/:discussion_number/comments/:comment_number`, {
    schema: { params: comment },
    config: { operationId: 'teams/delete-discussion-comment-in-org', ...write },
  }, async (request, reply) => {
    await discussions.deleteComment(
      request.server.ctx, request.actor, teamRefOf(form, request.params),
      intParam(request.params, 'discussion_number'), intParam(request.params, 'comment_number'),
    );
    return reply.code(204).send();
  });
}
