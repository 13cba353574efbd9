// Reactions: list (with the content filter), create (201, or 200 when already left),
// delete, on every reactable subject. The team discussion routes answer at both of
// upstream's addresses of a team and require the squirrel-girl preview (415 without).
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Router } from '../../http/router.ts';
import { paged, pageOf } from '../../http/pagination.ts';
import {
  CommentNumber, DiscussionNumber, DISCUSSIONS_PREVIEW, intParam, TEAM_BASES, teamParams, teamRefOf, type TeamForm,
} from '../team-discussions/team-discussions.schemas.ts';
import { SCOPES as DISCUSSION_SCOPES } from '../team-discussions/team-discussions.service.ts';
import {
  CommentParams, CommentReactionParams, CreateReactionBody, CreateReleaseReactionBody, IssueParams, IssueReactionParams, ListReactionsQuery, Reaction,
  ReactionList, ReleaseParams, ReleaseReactionParams,
} from './reactions.schemas.ts';
import * as reactions from './reactions.service.ts';
import type { SubjectRef } from './reactions.service.ts';
import { presentReactions } from './reactions.present.ts';

const RESOURCE = 'Reaction';
const REPO_READ = ['repo'];
const REPO_WRITE = ['public_repo', 'repo'];
const DISCUSSION_READ = [...DISCUSSION_SCOPES.read, ...DISCUSSION_SCOPES.write];
const DISCUSSION_WRITE = [...DISCUSSION_SCOPES.write];
const NO_CONTENT = { 204: Type.Null() };

/** Operation ids of one kind of subject: list, create, delete. */
interface Operations {
  list: string;
  create: string;
  delete: string;
}

async function list(request: FastifyRequest, ref: SubjectRef, query: ListReactionsQuery) {
  const p = pageOf(query);
  const page = await reactions.listReactions(request.server.ctx, request.actor, ref, query.content, p);
  return paged(await presentReactions(request.server.ctx, page.items), p, page.total);
}

async function create(request: FastifyRequest, reply: FastifyReply, ref: SubjectRef, body: CreateReactionBody) {
  const r = await reactions.createReaction(request.server.ctx, request.actor, ref, body.content);
  const [view] = await presentReactions(request.server.ctx, [r.reaction]);
  return reply.code(r.created ? 201 : 200).send(view!);
}

async function remove(request: FastifyRequest, reply: FastifyReply, ref: SubjectRef, reactionId: number) {
  await reactions.deleteReaction(request.server.ctx, request.actor, ref, reactionId);
  return reply.code(204).send(null);
}

export function reactionsRoutes(app: Router): void {
  // Issues (and pull requests, through their issue)
  const issue = '/repos/:owner/:repo/issues/:issue_number/reactions';
  const issueRef = (p: { owner: string; repo: string; issue_number: number }): SubjectRef =>
    ({ kind: 'issue', owner: p.owner, repo: p.repo, number: p.issue_number });
  const issueOps: Operations = { list: 'reactions/list-for-issue', create: 'reactions/create-for-issue', delete: 'reactions/delete-for-issue' };

  app.get(issue, {
    schema: { params: IssueParams, querystring: ListReactionsQuery, response: { 200: ReactionList } },
    config: { operationId: issueOps.list, acceptedScopes: REPO_READ },
  }, (request) => list(request, issueRef(request.params), request.query));
  app.post(issue, {
    schema: { params: IssueParams, body: CreateReactionBody, response: { 200: Reaction, 201: Reaction } },
    config: { operationId: issueOps.create, resource: RESOURCE, acceptedScopes: REPO_WRITE },
  }, (request, reply) => create(request, reply, issueRef(request.params), request.body));
  app.delete(`${issue}/:reaction_id`, {
    schema: { params: IssueReactionParams, response: NO_CONTENT },
    config: { operationId: issueOps.delete, acceptedScopes: REPO_WRITE },
  }, (request, reply) => remove(request, reply, issueRef(request.params), request.params.reaction_id));

  // Issue comments and pull request review comments
  const commentKinds = [
    { kind: 'issue_comment', path: '/repos/:owner/:repo/issues/comments/:comment_id/reactions', ops: {
      list: 'reactions/list-for-issue-comment', create: 'reactions/create-for-issue-comment', delete: 'reactions/delete-for-issue-comment',
    } },
    { kind: 'pull_request_review_comment', path: '/repos/:owner/:repo/pulls/comments/:comment_id/reactions', ops: {
      list: 'reactions/list-for-pull-request-review-comment', create: 'reactions/create-for-pull-request-review-comment',
      delete: 'reactions/delete-for-pull-request-comment',
    } },
  ] as const;
  for (const { kind, path, ops } of commentKinds) {
    const ref = (p: { owner: string; repo: string; comment_id: number }): SubjectRef =>
      ({ kind, owner: p.owner, repo: p.repo, commentId: p.comment_id });
    app.get(path, {
      schema: { params: CommentParams, querystring: ListReactionsQuery, response: { 200: ReactionList } },
      config: { operationId: ops.list, acceptedScopes: REPO_READ },
    }, (request) => list(request, ref(request.params), request.query));
    app.post(path, {
      schema: { params: CommentParams, body: CreateReactionBody, response: { 200: Reaction, 201: Reaction } },
      config: { operationId: ops.create, resource: RESOURCE, acceptedScopes: REPO_WRITE },
    }, (request, reply) => create(request, reply, ref(request.params), request.body));
    app.delete(`${path}/:reaction_id`, {
      schema: { params: CommentReactionParams, response: NO_CONTENT },
      config: { operationId: ops.delete, acceptedScopes: REPO_WRITE },
    }, (request, reply) => remove(request, reply, ref(request.params), request.params.reaction_id));
  }

  // Releases (a draft's reactions are there for those who see the draft)
  const release = '/repos/:owner/:repo/releases/:release_id/reactions';
  const releaseRef = (p: { owner: string; repo: string; release_id: number }): SubjectRef =>
    ({ kind: 'release', owner: p.owner, repo: p.repo, releaseId: p.release_id });
  app.get(release, {
    schema: { params: ReleaseParams, querystring: ListReactionsQuery, response: { 200: ReactionList } },
    config: { operationId: 'reactions/list-for-release', acceptedScopes: REPO_READ },
  }, (request) => list(request, releaseRef(request.params), request.query));
  app.post(release, {
    schema: { params: ReleaseParams, body: CreateReleaseReactionBody, response: { 200: Reaction, 201: Reaction } },
    config: { operationId: 'reactions/create-for-release', resource: RESOURCE, acceptedScopes: REPO_WRITE },
  }, (request, reply) => create(request, reply, releaseRef(request.params), request.body));
  app.delete(`${release}/:reaction_id`, {
    schema: { params: ReleaseReactionParams, response: NO_CONTENT },
    config: { operationId: 'reactions/delete-for-release', acceptedScopes: REPO_WRITE },
  }, (request, reply) => remove(request, reply, releaseRef(request.params), request.params.reaction_id));

  for (const form of ['slug', 'ids'] as const) teamDiscussionRoutes(app, form);
}

function teamDiscussionRoutes(app: Router, form: TeamForm): void {
  const base = `${TEAM_BASES[form]}/discussions/:discussion_number`;
  const read = { acceptedScopes: DISCUSSION_READ, requiredPreview: DISCUSSIONS_PREVIEW };
  const write = { acceptedScopes: DISCUSSION_WRITE, requiredPreview: DISCUSSIONS_PREVIEW };
  const subjects = [
    {
      path: `${base}/reactions`,
      params: teamParams(form, DiscussionNumber),
      withReaction: teamParams(form, { ...DiscussionNumber, reaction_id: Type.Integer() }),
      ref: (p: unknown): SubjectRef => ({ kind: 'team_discussion', team: teamRefOf(form, p), number: intParam(p, 'discussion_number') }),
      ops: {
        list: 'reactions/list-for-team-discussion-in-org', create: 'reactions/create-for-team-discussion-in-org',
        delete: 'reactions/delete-for-team-discussion',
      },
    },
    {
      path: `${base}/comments/:comment_number/reactions`,
      params: teamParams(form, CommentNumber),
      withReaction: teamParams(form, { ...CommentNumber, reaction_id: Type.Integer() }),
      ref: (p: unknown): SubjectRef => ({
        kind: 'team_discussion_comment', team: teamRefOf(form, p),
        number: intParam(p, 'discussion_number'), commentNumber: intParam(p, 'comment_number'),
      }),
      ops: {
        list: 'reactions/list-for-team-discussion-comment-in-org', create: 'reactions/create-for-team-discussion-comment-in-org',
        delete: 'reactions/delete-for-team-discussion-comment',
      },
    },
  ];
  for (const s of subjects) {
    app.get(s.path, {
      schema: { params: s.params, querystring: ListReactionsQuery, response: { 200: ReactionList } },
      config: { operationId: s.ops.list, ...read },
    }, (request) => list(request, s.ref(request.params), request.query));
    app.post(s.path, {
      schema: { params: s.params, body: CreateReactionBody, response: { 200: Reaction, 201: Reaction } },
      config: { operationId: s.ops.create, resource: RESOURCE, ...write },
    }, (request, reply) => create(request, reply, s.ref(request.params), request.body));
    app.delete(`${s.path}/:reaction_id`, {
      schema: { params: s.withReaction, response: NO_CONTENT },
      config: { operationId: s.ops.delete, ...write },
    }, (request, reply) => remove(request, reply, s.ref(request.params), intParam(request.params, 'reaction_id')));
  }
}
