// The reaction buttons' posts: on an issue or pull request, on one of its comments, and
// on a pull request's submitted review.
// Each redirects back to the subject on its page; a refusal (an archived repository, an
// interaction limit, a button that is not one of the eight) shows the page again with
// the message in that subject's bar, and nothing changed.
import type { FastifyReply } from 'fastify';
import type { Router } from '../../http/router.ts';
import { sendPage } from '../web-session/web-request.ts';
import * as web from './conversations.service.ts';
import { issuePage, issuePath } from './issues.pages.ts';
import { pullPage } from './pulls.pages.ts';
import type { ReactionErrors } from './reactions.pages.ts';
import { formErrors, issueNumber, PAGE, signedInPost } from './web.forms.ts';
import type { Viewer } from './web.request.ts';
import { CommentParams, NumberParams, ReactionForm } from './web.schemas.ts';
import { Type } from '@sinclair/typebox';

/** A review's reactions: its id beside the pull request's number (strings, as NumberParams). */
const ReviewParams = Type.Object({ owner: Type.String({ maxLength: 256 }), repo: Type.String({ maxLength: 256 }), number: Type.String({ maxLength: 20 }), review_id: Type.String({ maxLength: 20 }) });

/** Registered inside the pages' scope (web.routes.ts). */
export function reactionPages(r: Router): void {
  const ctx = r.ctx;

  async function again(reply: FastifyReply, viewer: Viewer, owner: string, repo: string, number: number, status: number, reaction: ReactionErrors): Promise<FastifyReply> {
    const v = await web.pullOrIssuePage(ctx, viewer.actor, owner, repo, number);
    if (v.kind === 'pull') return sendPage(reply.code(status), pullPage(viewer.frame(`${v.view.issue.record.title} · Pull request #${number}`), v.view, { reaction }));
    return sendPage(reply.code(status), issuePage(viewer.frame(`${v.view.issue.record.title} · Issue #${number}`), v.view, { reaction }));
  }

  r.post('/:owner/:repo/pull/:number/reviews/:review_id/reactions', { schema: { params: ReviewParams, body: ReactionForm }, config: { ...PAGE, operationId: 'wharf/web-react-pull-review' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const number = issueNumber(request.params.number);
    const reviewId = issueNumber(request.params.review_id);
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      try {
        const { repo: at, issue } = await web.toggleReviewReaction(ctx, viewer.actor, owner, repo, number, reviewId, request.body.reaction);
        return reply.redirect(`${issuePath(at, issue)}#review-${reviewId}`, 303);
      } catch (err) {
        const { status, messages } = formErrors(err);
        return again(reply, viewer, owner, repo, number, status, { bar: `reactions-review-${reviewId}`, errors: messages });
      }
    });
  });

  async function toggle(reply: FastifyReply, viewer: Viewer, owner: string, repo: string, number: number, commentId: number | null, button: string | undefined): Promise<FastifyReply> {
    const bar = commentId === null ? 'reactions-issue' : `reactions-comment-${commentId}`;
    try {
      const { repo: at, issue } = await web.toggleReaction(ctx, viewer.actor, owner, repo, number, commentId, button);
      return reply.redirect(`${issuePath(at, issue)}#${commentId === null ? 'issue-body' : `comment-${commentId}`}`, 303);
    } catch (err) {
      const { status, messages } = formErrors(err);
      return again(reply, viewer, owner, repo, number, status, { bar, errors: messages });
    }
  }

  for (const kind of ['issues', 'pull'] as const) {
    r.post(`/:owner/:repo/${kind}/:number/reactions`, { schema: { params: NumberParams, body: ReactionForm }, config: { ...PAGE, operationId: `wharf/web-react-${kind === 'pull' ? 'pull' : 'issue'}` } }, async (request, reply) => {
      const { owner, repo } = request.params;
      const number = issueNumber(request.params.number);
      return signedInPost(request, reply, request.body.authenticity_token, (viewer) => toggle(reply, viewer, owner, repo, number, null, request.body.reaction));
    });
    r.post(`/:owner/:repo/${kind}/:number/comments/:comment_id/reactions`, { schema: { params: CommentParams, body: ReactionForm }, config: { ...PAGE, operationId: `wharf/web-react-${kind === 'pull' ? 'pull' : 'issue'}-comment` } }, async (request, reply) => {
      const { owner, repo } = request.params;
      const number = issueNumber(request.params.number);
      const commentId = issueNumber(request.params.comment_id);
      return signedInPost(request, reply, request.body.authenticity_token, (viewer) => toggle(reply, viewer, owner, repo, number, commentId, request.body.reaction));
    });
  }
}
