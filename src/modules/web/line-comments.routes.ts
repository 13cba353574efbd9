// The line comment form's post: a comment on a line of a pull request's diff, on its own
// or in the viewer's pending review, through the pulls module's services; a refusal
// (a line outside the diff, no text, a reader who may not comment) comes back in the
// file's form on the pull request page, with nothing added.
import type { Router } from '../../http/router.ts';
import { Type } from '@sinclair/typebox';
import { sendPage } from '../web-session/web-request.ts';
import * as web from './conversations.service.ts';
import { addLineComment } from './line-comments.service.ts';
import type { LineCommentForm } from './line-comments.pages.ts';
import { pullPage } from './pulls.pages.ts';
import { repoPath } from './repo.layout.ts';
import { formErrors, issueNumber, PAGE, signedInPost } from './web.forms.ts';
import { NumberParams } from './web.schemas.ts';

const Field = Type.Optional(Type.String({ maxLength: 65536 }));
export const LineCommentBody = Type.Object({
  authenticity_token: Field, path: Field, line: Field, side: Field, body: Field, commit_id: Field, mode: Field,
});

/** The pull request page's address with a line number's link: the file's form open on that line. */
export const PullPageQuery = Type.Object({
  comment_path: Type.Optional(Type.String({ maxLength: 4096 })),
  comment_line: Type.Optional(Type.String({ maxLength: 12 })),
  comment_side: Type.Optional(Type.String({ maxLength: 8 })),
});

export function lineFormOf(q: { comment_path?: string; comment_line?: string; comment_side?: string }): LineCommentForm | undefined {
  if (!q.comment_path) return undefined;
  return { path: q.comment_path, line: q.comment_line ?? '', side: q.comment_side === 'LEFT' ? 'LEFT' : 'RIGHT', body: '', errors: [] };
}

/** Registered inside the pages' scope, beside the conversation pages (conversations.routes.ts). */
export function lineCommentPages(r: Router): void {
  const ctx = r.ctx;
  r.post('/:owner/:repo/pull/:number/line-comments', { schema: { params: NumberParams, body: LineCommentBody }, config: { ...PAGE, operationId: 'wharf/web-pull-line-comment' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const number = issueNumber(request.params.number);
    const b = request.body;
    const f = { path: b.path ?? '', line: b.line ?? '', side: b.side ?? '', body: b.body ?? '', commitId: b.commit_id ?? '', mode: b.mode ?? '' };
    return signedInPost(request, reply, b.authenticity_token, async (viewer) => {
      try {
        const made = await addLineComment(ctx, viewer.actor, owner, repo, number, f);
        const { repo: at } = await web.newIssueRepo(ctx, viewer.actor, owner, repo);
        return reply.redirect(`${repoPath(at, 'pull', number)}#discussion_r${made.id}`, 303);
      } catch (err) {
        const { status, messages } = formErrors(err);
        const v = await web.pullPage(ctx, viewer.actor, owner, repo, number);
        const line = { path: f.path, line: f.line, side: f.side, body: f.body, errors: messages };
        return sendPage(reply.code(status), pullPage(viewer.frame(`${v.issue.record.title} · Pull request #${number}`), v, { line }));
      }
    });
  });
}
