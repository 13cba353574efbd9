// Team discussions and their comments, at both of upstream's addresses of a team
// (organization login and slug; organization and team ids). Like the reactions on
// them, every route asks for the squirrel-girl preview (spec: Reactions, team
// discussions; 415 without it).
import { Type } from '@sinclair/typebox';
import type { Router } from '../../http/router.ts';
import { paged, pageOf } from '../../http/pagination.ts';
import {
  CommentBody, CommentNumber, CreateDiscussionBody, DiscussionNumber, DISCUSSIONS_PREVIEW, intParam, ListCommentsQuery, ListDiscussionsQuery,
  TEAM_BASES, TeamDiscussion, TeamDiscussionComment, teamParams, teamRefOf, UpdateDiscussionBody, type TeamForm,
} from './team-discussions.schemas.ts';
import * as discussions from './team-discussions.service.ts';
import { SCOPES } from './team-discussions.service.ts';
import { presentComment, presentComments, presentDiscussion, presentDiscussions } from './team-discussions.present.ts';
import { PagedArray } from '../../http/schema-types.ts';

const READ = [...SCOPES.read, ...SCOPES.write];
const WRITE = [...SCOPES.write];

export function teamDiscussionsRoutes(app: Router): void {
  for (const form of ['slug', 'ids'] as const) discussionRoutes(app, form);
}

function discussionRoutes(app: Router, form: TeamForm): void {
  const base = `${TEAM_BASES[form]}/discussions`;
  const team = teamParams(form);
  const discussion = teamParams(form, DiscussionNumber);
  const comment = teamParams(form, CommentNumber);
  const read = { acceptedScopes: READ, requiredPreview: DISCUSSIONS_PREVIEW };
  const write = { acceptedScopes: WRITE, requiredPreview: DISCUSSIONS_PREVIEW };

  // Discussions

  app.get(base, {
    schema: { params: team, querystring: ListDiscussionsQuery, response: { 200: PagedArray(TeamDiscussion) } },
    config: { operationId: 'teams/list-discussions-in-org', ...read },
  }, async (request) => {
    const p = pageOf(request.query);
    const page = await discussions.listDiscussions(request.server.ctx, request.actor, teamRefOf(form, request.params), request.query, p);
    return paged(await presentDiscussions(request.server.ctx, page.items), p, page.total);
  });

  app.post(base, {
    schema: { params: team, body: CreateDiscussionBody, response: { 201: TeamDiscussion } },
    config: { operationId: 'teams/create-discussion-in-org', resource: 'TeamDiscussion', ...write },
  }, async (request, reply) => {
    const d = await discussions.createDiscussion(request.server.ctx, request.actor, teamRefOf(form, request.params), request.body);
    return reply.code(201).send(await presentDiscussion(request.server.ctx, d));
  });

  app.get(`${base}/:discussion_number`, {
    schema: { params: discussion, response: { 200: TeamDiscussion } },
    config: { operationId: 'teams/get-discussion-in-org', ...read },
  }, async (request) => {
    const d = await discussions.getDiscussion(request.server.ctx, request.actor, teamRefOf(form, request.params), intParam(request.params, 'discussion_number'));
    return presentDiscussion(request.server.ctx, d);
  });

  app.patch(`${base}/:discussion_number`, {
    schema: { params: discussion, body: UpdateDiscussionBody, response: { 200: TeamDiscussion } },
    config: { operationId: 'teams/update-discussion-in-org', resource: 'TeamDiscussion', ...write },
  }, async (request) => {
    const d = await discussions.updateDiscussion(
      request.server.ctx, request.actor, teamRefOf(form, request.params), intParam(request.params, 'discussion_number'), request.body ?? {},
    );
    return presentDiscussion(request.server.ctx, d);
  });

  app.delete(`${base}/:discussion_number`, {
    schema: { params: discussion, response: { 204: Type.Null() } },
    config: { operationId: 'teams/delete-discussion-in-org', ...write },
  }, async (request, reply) => {
    await discussions.deleteDiscussion(request.server.ctx, request.actor, teamRefOf(form, request.params), intParam(request.params, 'discussion_number'));
    return reply.code(204).send(null);
  });

  // Comments

  app.get(`${base}/:discussion_number/comments`, {
    schema: { params: discussion, querystring: ListCommentsQuery, response: { 200: PagedArray(TeamDiscussionComment) } },
    config: { operationId: 'teams/list-discussion-comments-in-org', ...read },
  }, async (request) => {
    const p = pageOf(request.query);
    const page = await discussions.listComments(
      request.server.ctx, request.actor, teamRefOf(form, request.params), intParam(request.params, 'discussion_number'), request.query.direction, p,
    );
    return paged(await presentComments(request.server.ctx, page.items), p, page.total);
  });

  app.post(`${base}/:discussion_number/comments`, {
    schema: { params: discussion, body: CommentBody, response: { 201: TeamDiscussionComment } },
    config: { operationId: 'teams/create-discussion-comment-in-org', resource: 'TeamDiscussionComment', ...write },
  }, async (request, reply) => {
    const c = await discussions.createComment(
      request.server.ctx, request.actor, teamRefOf(form, request.params), intParam(request.params, 'discussion_number'), request.body,
    );
    return reply.code(201).send(await presentComment(request.server.ctx, c));
  });

  app.get(`${base}/:discussion_number/comments/:comment_number`, {
    schema: { params: comment, response: { 200: TeamDiscussionComment } },
    config: { operationId: 'teams/get-discussion-comment-in-org', ...read },
  }, async (request) => {
    const c = await discussions.getComment(
      request.server.ctx, request.actor, teamRefOf(form, request.params),
      intParam(request.params, 'discussion_number'), intParam(request.params, 'comment_number'),
    );
    return presentComment(request.server.ctx, c);
  });

  app.patch(`${base}/:discussion_number/comments/:comment_number`, {
    schema: { params: comment, body: CommentBody, response: { 200: TeamDiscussionComment } },
    config: { operationId: 'teams/update-discussion-comment-in-org', resource: 'TeamDiscussionComment', ...write },
  }, async (request) => {
    const c = await discussions.updateComment(
      request.server.ctx, request.actor, teamRefOf(form, request.params),
      intParam(request.params, 'discussion_number'), intParam(request.params, 'comment_number'), request.body,
    );
    return presentComment(request.server.ctx, c);
  });

  app.delete(`${base}/:discussion_number/comments/:comment_number`, {
    schema: { params: comment, response: { 204: Type.Null() } },
    config: { operationId: 'teams/delete-discussion-comment-in-org', ...write },
  }, async (request, reply) => {
    await discussions.deleteComment(
      request.server.ctx, request.actor, teamRefOf(form, request.params),
      intParam(request.params, 'discussion_number'), intParam(request.params, 'comment_number'),
    );
    return reply.code(204).send(null);
  });
}
