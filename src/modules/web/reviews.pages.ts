// Reviews on the pull request page: each submitted review in the conversation with its
// state and its reactions, and the "Review changes" form (a body and one of Comment, Approve, Request
// changes). The author's own pull request offers Comment alone, as upstream does; the
// review service refuses the others to anyone who posts them anyway.
import type { ReviewState } from '../pulls/pulls.model.ts';
import type { PullView } from './conversations.service.ts';
import { repoPath } from './repo.layout.ts';
import type { ReviewEntry } from './reviews.service.ts';
import { reactionBar, type ReactionErrors } from './reactions.pages.ts';
import { flash, h, postForm, time, trustedHtml, type Frame, type ReactNode } from './web.render.ts';

const STATE_WORDS: Record<ReviewState, [verb: string, badge: string]> = {
  APPROVED: ['approved these changes', 'Approved'],
  CHANGES_REQUESTED: ['requested changes', 'Changes requested'],
  COMMENTED: ['reviewed', 'Commented'],
  DISMISSED: ['reviewed (dismissed)', 'Dismissed'],
  PENDING: ['started a review', 'Pending'],
};

/** `refused`: a reaction's refusal, shown in the bar it was left on. */
export function reviewBox(frame: Frame, v: PullView, r: ReviewEntry, refused?: ReactionErrors): ReactNode {
  const [verb, badge] = STATE_WORDS[r.record.state];
  const id = `review-${r.record.id}`;
  const who = r.author ? h('a', { href: `/${encodeURIComponent(r.author.login)}` }, r.author.login) : 'ghost';
  return h('article', { className: 'comment box review', id, key: id, 'data-state': r.record.state },
    h('header', { className: 'comment-head' }, who, ` ${verb} `, r.record.submittedAt ? time(r.record.submittedAt) : null,
      h('span', { className: `badge review-state state-${r.record.state.toLowerCase()}` }, badge)),
    r.html ? trustedHtml('div', { className: 'markdown-body' }, r.html) : null,
    reactionBar(frame, `${repoPath(v.repo, 'pull', v.pull.number)}/reviews/${r.record.id}/reactions`, `reactions-review-${r.record.id}`,
      v.reviewReactions.get(r.record.id) ?? [], v.canReact, refused));
}

export interface ReviewForm {
  body: string;
  event: string;
  errors: string[];
}

export const EMPTY_REVIEW: ReviewForm = { body: '', event: 'COMMENT', errors: [] };

/** The form, for those who may comment on the pull request (the service decides the rest). */
export function reviewForm(frame: Frame, v: PullView, form: ReviewForm): ReactNode {
  if (!frame.user || !v.canComment) return null;
  const own = v.issue.record.userId === frame.user.id;
  const choice = (event: string, label: string, hint: string) => h('div', { key: event, className: 'choice' },
    h('input', { type: 'radio', name: 'event', value: event, id: `review-event-${event.toLowerCase()}`, defaultChecked: form.event === event,
      ...(own && event !== 'COMMENT' ? { disabled: true } : {}) }),
    h('label', { htmlFor: `review-event-${event.toLowerCase()}`, className: 'inline' }, label),
    h('span', { className: 'muted' }, ` — ${hint}`));
  return postForm(frame, `${repoPath(v.repo, 'pull', v.pull.number)}/reviews`, { className: 'box', id: 'review-form', 'aria-labelledby': 'review-heading' },
    h('h2', { id: 'review-heading' }, 'Review changes'),
    flash('error', form.errors),
    h('label', { htmlFor: 'review-body' }, 'Review'),
    h('textarea', { id: 'review-body', name: 'body', rows: 5, defaultValue: form.body }),
    h('fieldset', null,
      h('legend', null, 'Your verdict'),
      choice('COMMENT', 'Comment', 'general feedback without explicit approval'),
      choice('APPROVE', 'Approve', own ? 'not on your own pull request' : 'approve merging these changes'),
      choice('REQUEST_CHANGES', 'Request changes', own ? 'not on your own pull request' : 'feedback that must be addressed before merging')),
    h('button', { type: 'submit', id: 'review-submit' }, 'Submit review'));
}
