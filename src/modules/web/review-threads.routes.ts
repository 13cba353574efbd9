// The review thread forms' posts on a pull request page: a reply to a thread and the
// Resolve / Unresolve button. Each redirects to the thread; a refusal (no text, a reader
// who may not resolve, an archived repository) shows the page again with the message in
// that thread, and nothing changed. `place` says which copy of the thread posted (the
// conversation's or the files tab's): the answer goes back to it.
import { Type } from '@sinclair/typebox';
import type { Router } from '../../http/router.ts';
import { sendPage } from '../web-session/web-request.ts';
import * as web from './conversations.service.ts';
import { pullPage } from './pulls.pages.ts';
import { repoPath } from './repo.layout.ts';
import { replyToThread, resolveThread } from './review-threads.service.ts';
import { threadIds, type ThreadForm, type ThreadPlace } from './review-threads.pages.ts';
import { formErrors, issueNumber, PAGE, signedInPost } from './web.forms.ts';
import type { Viewer } from './web.request.ts';
import { CommentParams } from './web.schemas.ts';
import type { FastifyReply } from 'fastify';
import { ValidationError } from '../../domain/errors.ts';

const Field = Type.Optional(Type.String({ maxLength: 65536 }));
const ReplyForm = Type.Object({ authenticity_token: Field, body: Field, place: Field });
const ResolveForm = Type.Object({ authenticity_token: Field, resolved: Field, place: Field });

/** The copy of the thread a form came from; anything else is the files tab's, as before `place` was sent. */
const placeOf = (raw: string | undefined): ThreadPlace => (raw === 'conversation' ? 'conversation' : 'files');

/** Registered inside the pages' scope, beside the conversation pages (conversations.routes.ts). */
export function reviewThreadPages(r: Router): void {
  const ctx = r.ctx;

  async function answer(
    reply: FastifyReply, viewer: Viewer, owner: string, repo: string, number: number, form: ThreadForm, act: () => Promise<number>,
  ): Promise<FastifyReply> {
    try {
      const anchor = await act();
      const { repo: at } = await web.newIssueRepo(ctx, viewer.actor, owner, repo);
      const ids = threadIds(form.place ?? 'files');
      return reply.redirect(`${repoPath(at, 'pull', number)}#${anchor === form.id ? ids.thread(anchor) : ids.comment(anchor)}`, 303);
    } catch (err) {
      const { status, messages } = formErrors(err);
      const v = await web.pullPage(ctx, viewer.actor, owner, repo, number);
      return sendPage(reply.code(status), pullPage(viewer.frame(`${v.issue.record.title} · Pull request #${number}`), v, { thread: { ...form, errors: messages } }));
    }
  }

  r.post('/:owner/:repo/pull/:number/comments/:comment_id/replies', { schema: { params: CommentParams, body: ReplyForm }, config: { ...PAGE, operationId: 'wharf/web-pull-thread-reply' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const number = issueNumber(request.params.number);
    const id = issueNumber(request.params.comment_id);
    const body = request.body.body ?? '';
    return signedInPost(request, reply, request.body.authenticity_token, (viewer) =>
      answer(reply, viewer, owner, repo, number, { id, body, errors: [], place: placeOf(request.body.place) }, async () => (await replyToThread(ctx, viewer.actor, owner, repo, number, id, body)).id));
  });

  r.post('/:owner/:repo/pull/:number/threads/:comment_id/resolve', { schema: { params: CommentParams, body: ResolveForm }, config: { ...PAGE, operationId: 'wharf/web-pull-thread-resolve' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const number = issueNumber(request.params.number);
    const id = issueNumber(request.params.comment_id);
    const resolved = request.body.resolved;
    return signedInPost(request, reply, request.body.authenticity_token, (viewer) =>
      answer(reply, viewer, owner, repo, number, { id, body: '', errors: [], place: placeOf(request.body.place) }, async () => {
        if (resolved !== 'true' && resolved !== 'false') {
          throw new ValidationError([{ resource: 'PullRequestReviewThread', field: 'resolved', code: 'invalid', message: 'Choose Resolve or Unresolve.' }]);
        }
        await resolveThread(ctx, viewer.actor, owner, repo, number, id, resolved === 'true');
        return id;
      }));
  });
}
