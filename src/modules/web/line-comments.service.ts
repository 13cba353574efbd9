// Review comments on lines of a pull request's diff, for its page: the comments the
// viewer may see (their own pending ones too, as the API lists them to them) with their
// authors and bodies rendered, and the line comment form's write: a single comment
// (POST …/pulls/{n}/comments) or a comment of the viewer's pending review, which the
// "Review changes" form then submits; each through the pulls module's services, whose
// rules decide (who may comment, the line must be part of the diff).
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { ValidationError } from '../../domain/errors.ts';
import { renderHtml } from '../markdown/markdown.service.ts';
import type { ReviewCommentRecord, Side } from '../pulls/pulls.model.ts';
import * as reviewComments from '../pulls/review-comments.service.ts';
import * as reviews from '../pulls/reviews.service.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import { resolvedThreadsOf, type ThreadResolution } from './review-threads.service.ts';

export interface LineComment {
  record: ReviewCommentRecord;
  html: string;
  author: Account | null;
  /** Part of the viewer's review not submitted yet (shown to them alone). */
  pending: boolean;
}

export interface LineComments {
  comments: LineComment[];
  /** The viewer's pending review, whose comments the review form submits. */
  pendingReviewId: number | null;
  /** The resolved threads, by their first comment's id. */
  resolved: Map<number, ThreadResolution>;
}

/** Review comments shown on one pull request page; the API pages the rest. */
const MAX_COMMENTS = 300;

export async function lineCommentsOf(ctx: AppContext, actor: Actor, owner: string, name: string, number: number): Promise<LineComments> {
  const [list, pending] = await Promise.all([
    reviewComments.listPullReviewComments(ctx, actor, owner, name, number, { sort: 'created', direction: 'asc' }, { perPage: MAX_COMMENTS, offset: 0 }),
    reviews.findOwnPendingReview(ctx, actor, owner, name, number),
  ]);
  const context = `${list.repo.owner.login}/${list.repo.name}`;
  const [authors, html, resolved] = await Promise.all([
    users.accountsByIds(ctx, list.items.map((c) => c.userId)),
    Promise.all(list.items.map((c) => renderHtml(ctx, c.body, { mode: 'gfm', context }))),
    resolvedThreadsOf(ctx, list.items),
  ]);
  return {
    comments: list.items.map((c, i) => ({ record: c, html: html[i]!, author: authors.get(c.userId) ?? null, pending: pending !== null && c.reviewId === pending.id })),
    pendingReviewId: pending?.id ?? null,
    resolved,
  };
}

/** The line comment form as typed. */
export interface LineCommentFields {
  path: string;
  line: string;
  side: string;
  body: string;
  /** The head the page showed: the comment is placed in that commit's diff. */
  commitId: string;
  /** `single`: a comment on its own; `review`: added to the viewer's pending review. */
  mode: string;
}

const RESOURCE = 'PullRequestReviewComment';

function invalid(field: string, message: string): ValidationError {
  return new ValidationError([{ resource: RESOURCE, field, code: 'invalid', message }], message);
}

export async function addLineComment(ctx: AppContext, actor: Actor, owner: string, name: string, number: number, f: LineCommentFields): Promise<{ id: number }> {
  if (!/^\d{1,9}$/.test(f.line.trim())) throw invalid('line', 'line must be a line number of the diff');
  if (f.side !== 'LEFT' && f.side !== 'RIGHT') throw invalid('side', 'side must be LEFT or RIGHT');
  const placement = { path: f.path, line: Number(f.line.trim()), side: f.side as Side };
  if (f.mode === 'review') {
    return { id: (await reviews.addPendingComment(ctx, actor, owner, name, number, { ...placement, body: f.body })).comment.id };
  }
  if (f.mode !== 'single') throw invalid('mode', 'Choose Add single comment or Add review comment.');
  const made = await reviewComments.createReviewComment(ctx, actor, owner, name, number, { ...placement, body: f.body, ...(f.commitId ? { commitId: f.commitId } : {}) });
  return { id: made.comment.id };
}
