// Review threads in a pull request's files: a line's comments grouped by thread (the first
// comment, then its replies), a resolved thread folded with who resolved it, and under each
// submitted thread a Reply form and the Resolve (or Unresolve) button for those the pulls
// service lets do so: anyone who may comment replies; those with push access and the pull
// request's author resolve. A refused post comes back in its thread, open, as typed.
// The same threads show in the conversation under their review (review-conversation.pages.ts):
// each copy has its own element ids, and its forms say which copy posted (`place`), so the
// answer returns to, and a refusal shows in, the copy that was used.
import { canResolveThread } from '../pulls/review-threads.service.ts';
import type { PullView } from './conversations.service.ts';
import type { LineComment } from './line-comments.service.ts';
import { repoPath } from './repo.layout.ts';
import { flash, fragment, h, postForm, time, trustedHtml, type Frame, type ReactNode } from './web.render.ts';

/** A refused reply or resolution, shown again in its thread. */
export interface ThreadForm {
  id: number;
  body: string;
  errors: string[];
  /** Which copy of the thread posted; the files tab's when not said. */
  place?: ThreadPlace;
}

/** Where a thread is shown: under its line in Files changed, or under its review in the conversation. */
export type ThreadPlace = 'files' | 'conversation';

/** Element ids of a thread's copy, its comments, and its reply box. */
export const threadIds = (place: ThreadPlace) => place === 'files'
  ? { thread: (root: number) => `thread-${root}`, comment: (id: number) => `discussion_r${id}`, reply: (root: number) => `reply-${root}` }
  : { thread: (root: number) => `conversation-thread-${root}`, comment: (id: number) => `conversation_r${id}`, reply: (root: number) => `conversation-reply-${root}` };

function commentBox(c: LineComment, place: ThreadPlace): ReactNode {
  const who = c.author ? h('a', { href: `/${encodeURIComponent(c.author.login)}` }, c.author.login) : 'ghost';
  const id = threadIds(place).comment(c.record.id);
  return h('article', { key: id, id, className: 'comment box review-comment', 'data-path': c.record.path, 'data-line': c.record.line ?? '', 'data-side': c.record.side ?? '' },
    h('header', { className: 'comment-head' }, who, ' commented ', time(c.record.createdAt),
      c.pending ? fragment(' ', h('span', { className: 'badge warn', 'data-badge': 'pending' }, 'Pending')) : null),
    trustedHtml('div', { className: 'markdown-body' }, c.html));
}

function threadActions(frame: Frame, v: PullView, rootId: number, resolved: boolean, form: ThreadForm | null, place: ThreadPlace): ReactNode {
  const user = frame.user;
  if (!user || v.repo.archived) return null;
  const pull = repoPath(v.repo, 'pull', v.pull.number);
  const mayReply = v.canComment;
  const mayResolve = canResolveThread(user.id, v.role, v.issue.record);
  const replyId = threadIds(place).reply(rootId);
  const from = place === 'files' ? null : h('input', { type: 'hidden', name: 'place', value: place });
  return h('div', { className: 'thread-actions' },
    flash('error', form?.errors ?? []),
    mayReply
      ? h('details', { className: 'thread-reply', ...(form && form.body ? { open: true } : {}) },
        h('summary', null, 'Reply'),
        postForm(frame, `${pull}/comments/${rootId}/replies`, { className: 'reply-form' }, from,
          h('label', { htmlFor: replyId }, 'Reply'),
          h('textarea', { id: replyId, name: 'body', rows: 3, defaultValue: form?.body ?? '' }),
          h('button', { type: 'submit' }, 'Reply')))
      : null,
    mayResolve
      ? postForm(frame, `${pull}/threads/${rootId}/resolve`, { className: 'resolve-form' }, from,
        h('button', { type: 'submit', name: 'resolved', value: resolved ? 'false' : 'true', className: 'secondary' },
          resolved ? 'Unresolve conversation' : 'Resolve conversation'))
      : null);
}

/** Comments grouped by thread (the first comment's id), in the order given. */
export function groupThreads(comments: readonly LineComment[]): Map<number, LineComment[]> {
  const threads = new Map<number, LineComment[]>();
  for (const c of comments) {
    const root = c.record.inReplyToId ?? c.record.id;
    threads.set(root, [...(threads.get(root) ?? []), c]);
  }
  return threads;
}

/**
 * A line's (or a file's outdated) comments as threads, oldest first. `head`: what the
 * conversation's copy shows above the comments (the file, the diff hunk, outdated).
 */
export function threadBoxes(
  frame: Frame, v: PullView, comments: readonly LineComment[], form: ThreadForm | null,
  place: ThreadPlace = 'files', head: (root: LineComment) => ReactNode = () => null,
): ReactNode[] {
  const ids = threadIds(place);
  return [...groupThreads(comments)].map(([rootId, list]) => {
    const resolution = v.lineComments.resolved.get(rootId) ?? null;
    const mine = form && form.id === rootId && (form.place ?? 'files') === place ? form : null;
    // A pending thread is not submitted yet: there is nothing to reply to or resolve.
    const submitted = !list.some((c) => c.record.id === rootId && c.pending);
    const attrs = { key: ids.thread(rootId), id: ids.thread(rootId), className: 'review-thread', 'data-thread': rootId, 'data-resolved': resolution ? 'true' : 'false' };
    const actions = submitted ? threadActions(frame, v, rootId, resolution !== null, mine, place) : null;
    const boxes = list.map((c) => commentBox(c, place));
    const top = list[0]!.record.id === rootId ? head(list[0]!) : null;
    if (!resolution) return h('div', attrs, top, ...boxes, actions);
    const by = resolution.resolvedBy ? resolution.resolvedBy.login : 'ghost';
    return h('details', { ...attrs, ...(mine ? { open: true } : {}) },
      h('summary', { className: 'muted' }, h('span', { className: 'badge ok', 'data-badge': 'resolved' }, 'Resolved'), ` by ${by} `, time(resolution.resolvedAt)),
      top, ...boxes, actions);
  });
}
