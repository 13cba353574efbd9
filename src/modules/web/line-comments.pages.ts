// A pull request's changed files with their review comments: each file's diff as a
// table of lines (old and new line numbers beside the text), the comments on a line
// right below it (the viewer's pending ones marked), and for those who may comment a
// "Comment on a line" form per file (line, side, text; a single comment or one of the
// viewer's pending review), which a line number's link opens on that line. A line's
// comments come as threads with their replies and resolution (review-threads.pages.ts). The comments of lines this diff no longer shows are listed
// under their file. A refused comment comes back in its file's form, open, as typed.
import type { FileChange } from '../../git/history.ts';
import { parsePatch } from '../pulls/review-comments.positions.ts';
import type { PullView } from './conversations.service.ts';
import type { LineComment } from './line-comments.service.ts';
import { repoPath } from './repo.layout.ts';
import { threadBoxes, type ThreadForm } from './review-threads.pages.ts';
import { flash, h, postForm, type Frame, type ReactNode } from './web.render.ts';

export interface LineCommentForm {
  path: string;
  line: string;
  side: string;
  body: string;
  errors: string[];
}

const STATUS: Record<string, string> = { added: 'added', removed: 'deleted', modified: 'modified', renamed: 'renamed', copied: 'copied', changed: 'changed', unchanged: 'unchanged' };

/** Where a comment sits: its side and line in this diff. */
const keyOf = (side: string | null, line: number | null) => `${side}:${line}`;

function lineForm(frame: Frame, v: PullView, f: FileChange, index: number, form: LineCommentForm | null): ReactNode {
  if (!mayComment(frame, v)) return null;
  const mine = form && form.path === f.path ? form : null;
  const id = (what: string) => `line-comment-${index}-${what}`;
  return h('details', { className: 'line-comment', id: `line-comment-${index}`, ...(mine ? { open: true } : {}) },
    h('summary', null, 'Comment on a line'),
    postForm(frame, `${repoPath(v.repo, 'pull', v.pull.number)}/line-comments`, { className: 'line-comment-form', 'data-path': f.path },
      h('input', { type: 'hidden', name: 'path', value: f.path }),
      h('input', { type: 'hidden', name: 'commit_id', value: v.pull.headSha }),
      flash('error', mine?.errors ?? []),
      h('label', { htmlFor: id('line') }, 'Line number'),
      h('input', { type: 'text', inputMode: 'numeric', id: id('line'), name: 'line', defaultValue: mine?.line ?? '', required: true }),
      h('label', { htmlFor: id('side') }, 'Side'),
      h('select', { id: id('side'), name: 'side', defaultValue: mine?.side ?? 'RIGHT' },
        h('option', { value: 'RIGHT' }, 'New file (right: added and unchanged lines)'),
        h('option', { value: 'LEFT' }, 'Old file (left: deleted and unchanged lines)')),
      h('label', { htmlFor: id('body') }, 'Comment'),
      h('textarea', { id: id('body'), name: 'body', rows: 4, defaultValue: mine?.body ?? '' }),
      h('button', { type: 'submit', name: 'mode', value: 'single', className: 'secondary' }, 'Add single comment'),
      ' ',
      h('button', { type: 'submit', name: 'mode', value: 'review' }, v.lineComments.pendingReviewId ? 'Add review comment' : 'Start a review')));
}

/** A line number's link: the page again with the file's form open on that line (no script needed). */
function lineLink(v: PullView, path: string, index: number, line: number, side: 'LEFT' | 'RIGHT'): string {
  const q = new URLSearchParams({ comment_path: path, comment_line: String(line), comment_side: side });
  return `${repoPath(v.repo, 'pull', v.pull.number)}?${q}#line-comment-${index}`;
}

const mayComment = (frame: Frame, v: PullView) => frame.user !== null && v.canComment && !v.repo.archived;

function fileDiff(frame: Frame, v: PullView, f: FileChange, index: number, comments: LineComment[], form: LineCommentForm | null, thread: ThreadForm | null): ReactNode {
  const commentable = mayComment(frame, v);
  const byLine = new Map<string, LineComment[]>();
  for (const c of comments) byLine.set(keyOf(c.record.side, c.record.line), [...(byLine.get(keyOf(c.record.side, c.record.line)) ?? []), c]);
  const placed = new Set<number>();
  let body: ReactNode;
  if (f.patch === null) body = h('p', { className: 'muted' }, 'Binary file or a change of mode only.');
  else {
    const { lines, entries } = parsePatch(f.patch);
    const rows: ReactNode[] = [];
    entries.forEach((e, i) => {
      const text = lines[i]!;
      const kind = e.kind === 'add' ? 'l-add' : e.kind === 'delete' ? 'l-del' : text.startsWith('@@') ? 'l-hunk' : undefined;
      const num = (line: number | null, side: 'LEFT' | 'RIGHT') => (line === null ? '' : commentable
        ? h('a', { href: lineLink(v, f.path, index, line, side), 'aria-label': `Comment on ${side === 'LEFT' ? 'old' : 'new'} line ${line} of ${f.path}` }, line)
        : line);
      rows.push(h('tr', { key: `l${i}`, className: kind },
        h('td', { className: 'num' }, num(e.kind === 'add' ? null : e.oldLine, 'LEFT')), h('td', { className: 'num' }, num(e.kind === 'delete' ? null : e.newLine, 'RIGHT')),
        h('td', null, h('code', null, text))));
      // A context line is on both sides: the comments of either follow it.
      const here = [
        ...(e.kind !== 'add' && e.oldLine !== null ? byLine.get(keyOf('LEFT', e.oldLine)) ?? [] : []),
        ...(e.kind !== 'delete' && e.newLine !== null ? byLine.get(keyOf('RIGHT', e.newLine)) ?? [] : []),
      ].filter((c) => !placed.has(c.record.id));
      if (here.length) {
        for (const c of here) placed.add(c.record.id);
        rows.push(h('tr', { key: `c${i}`, className: 'line-comments' }, h('td', { colSpan: 3 }, ...threadBoxes(frame, v, here, thread))));
      }
    });
    body = h('div', { className: 'diff-scroll' }, h('table', { className: 'diff-lines' },
      h('caption', { className: 'visually-hidden' }, `Changes to ${f.path}`),
      h('thead', { className: 'visually-hidden' }, h('tr', null, h('th', { scope: 'col' }, 'Old line'), h('th', { scope: 'col' }, 'New line'), h('th', { scope: 'col' }, 'Text'))),
      h('tbody', null, ...rows)));
  }
  const elsewhere = comments.filter((c) => !placed.has(c.record.id));
  return h('section', { key: f.path, className: 'box file-diff', 'aria-label': f.path },
    h('h3', null, h('code', null, f.previousPath && f.previousPath !== f.path ? `${f.previousPath} → ${f.path}` : f.path),
      ' ', h('span', { className: 'muted' }, STATUS[f.status] ?? f.status, ' ',
        h('span', { className: 'add' }, `+${f.additions}`), ' ', h('span', { className: 'del' }, `−${f.deletions}`))),
    body,
    elsewhere.length
      ? h('div', { className: 'outdated-comments' }, h('h4', null, 'Comments on lines this diff no longer shows'), ...threadBoxes(frame, v, elsewhere, thread))
      : null,
    lineForm(frame, v, f, index, form));
}

/** The Files changed section of a pull request page. */
export function pullDiff(frame: Frame, v: PullView, form: LineCommentForm | null, thread: ThreadForm | null = null): ReactNode {
  const byPath = new Map<string, LineComment[]>();
  for (const c of v.lineComments.comments) byPath.set(c.record.path, [...(byPath.get(c.record.path) ?? []), c]);
  return h('div', { className: 'diff' },
    h('p', { className: 'muted' }, `${v.fileCount} changed file${v.fileCount === 1 ? '' : 's'}`,
      v.fileCount > v.files.length ? ` (the first ${v.files.length} shown)` : ''),
    // A refused comment on a file this diff does not show: its refusal above the files.
    form && !v.files.some((f) => f.path === form.path) ? h('div', { id: 'line-comment-errors' }, flash('error', form.errors)) : null,
    v.lineComments.pendingReviewId
      ? h('p', { className: 'flash notice', role: 'status', id: 'pending-review-note' }, 'Your review is pending: its comments are shown to you alone until you submit it with Review changes.')
      : null,
    ...v.files.map((f, i) => fileDiff(frame, v, f, i, byPath.get(f.path) ?? [], form, thread)));
}
