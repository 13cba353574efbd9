// Review threads in a pull request's conversation, as upstream shows them: under the review
// that started each thread (the review its first comment belongs to), the file and the end
// of the diff hunk the comment is on, "Outdated" when the head moved on and the line is no
// longer in the diff, then the thread's comments with their Reply form and Resolve button
// (review-threads.pages.ts, the conversation's copy). A review made of replies alone (what
// replying to a thread makes) is no entry of its own: its comments are in their threads.
import { parsePatch } from '../pulls/review-comments.positions.ts';
import type { PullView } from './conversations.service.ts';
import type { LineComment } from './line-comments.service.ts';
import type { ReviewEntry } from './reviews.service.ts';
import { threadBoxes, type ThreadForm } from './review-threads.pages.ts';
import { h, type Frame, type ReactNode } from './web.render.ts';

/** Lines of the hunk shown above a thread: the commented line and those just before it, as upstream shows. */
const HUNK_TAIL = 4;

/** A line comment whose line the current diff no longer has (GraphQL's `outdated`). */
export const isOutdated = (c: LineComment) => c.record.subjectType === 'line' && c.record.position === null;

function hunkTable(c: LineComment): ReactNode {
  const { lines, entries } = parsePatch(c.record.diffHunk);
  const rows = entries.map((e, i) => ({ e, text: lines[i]! })).filter((r) => r.text !== '');
  const header = rows.find((r) => r.e.kind === 'header' && r.text.startsWith('@@'));
  const tail = rows.filter((r) => r.e.kind !== 'header').slice(-HUNK_TAIL);
  const shown = header ? [header, ...tail] : tail;
  return h('div', { className: 'diff-scroll' }, h('table', { className: 'diff-lines thread-hunk' },
    h('caption', { className: 'visually-hidden' }, `Lines of ${c.record.path} the comment is on`),
    h('thead', { className: 'visually-hidden' }, h('tr', null, h('th', { scope: 'col' }, 'Old line'), h('th', { scope: 'col' }, 'New line'), h('th', { scope: 'col' }, 'Text'))),
    h('tbody', null, ...shown.map(({ e, text }, i) => h('tr', { key: i, className: e.kind === 'add' ? 'l-add' : e.kind === 'delete' ? 'l-del' : e.kind === 'header' ? 'l-hunk' : undefined },
      h('td', { className: 'num' }, e.kind === 'context' || e.kind === 'delete' ? e.oldLine : ''),
      h('td', { className: 'num' }, e.kind === 'context' || e.kind === 'add' ? e.newLine : ''),
      h('td', null, h('code', null, text)))))));
}

/** What the conversation shows above a thread's comments. */
function threadHead(c: LineComment): ReactNode {
  const outdated = isOutdated(c);
  return h('div', { className: 'thread-head' },
    h('p', null, h('code', { className: 'thread-path' }, c.record.path),
      outdated ? h('span', { className: 'badge warn', 'data-badge': 'outdated' }, 'Outdated') : null),
    c.record.subjectType === 'file' ? h('p', { className: 'muted' }, 'On the file') : hunkTable(c));
}

/** The review comments of the page, by the review that started their thread. */
export function threadsByReview(v: PullView): Map<number, LineComment[]> {
  const roots = new Map<number, number>();
  for (const c of v.lineComments.comments) if (c.record.inReplyToId === null) roots.set(c.record.id, c.record.reviewId);
  const byReview = new Map<number, LineComment[]>();
  for (const c of v.lineComments.comments) {
    const review = roots.get(c.record.inReplyToId ?? c.record.id);
    if (review !== undefined) byReview.set(review, [...(byReview.get(review) ?? []), c]);
  }
  return byReview;
}

/** Whether a submitted review is an entry of the conversation: not when it is a body-less set of replies. */
export function reviewShown(v: PullView, r: ReviewEntry): boolean {
  if (r.record.body || r.record.state !== 'COMMENTED') return true;
  const own = v.lineComments.comments.filter((c) => c.record.reviewId === r.record.id);
  return own.length === 0 || own.some((c) => c.record.inReplyToId === null);
}

/** The threads a review started, below it in the conversation. */
export function reviewThreads(frame: Frame, v: PullView, comments: readonly LineComment[], form: ThreadForm | null): ReactNode {
  if (!comments.length) return null;
  return h('div', { className: 'review-threads', role: 'group', 'aria-label': 'Review comments' },
    ...threadBoxes(frame, v, comments, form, 'conversation', threadHead));
}
