// Pull requests: the list, and one pull request with its conversation, commits, files
// (with their line comments, line-comments.pages.ts) and the merge button (shown to
// those who may push; the merge service decides).
import { roleAtLeast } from '../repos/repos.model.ts';
import type { Account } from '../users/users.model.ts';
import { commitRow } from './commits.pages.ts';
import { pullDiff, type LineCommentForm } from './line-comments.pages.ts';
import { conversation, milestoneOf, stateBadge, type IssueInline } from './issues.pages.ts';
import type { ThreadForm } from './review-threads.pages.ts';
import { EMPTY_REVIEW, reviewBox, reviewForm, type ReviewForm } from './reviews.pages.ts';
import { reviewShown, reviewThreads, threadsByReview } from './review-conversation.pages.ts';
import { pager, repoHeader, repoPath } from './repo.layout.ts';
import type { PullListView, PullView } from './conversations.service.ts';
import { PER_PAGE } from './web.service.ts';
import { flash, fragment, h, postForm, renderPage, time, type Frame, type ReactNode } from './web.render.ts';

function login(people: Map<number, Account>, id: number): ReactNode {
  const a = people.get(id);
  return a ? h('a', { href: `/${encodeURIComponent(a.login)}` }, a.login) : 'ghost';
}

export function pullsPage(frame: Frame, v: PullListView): string {
  const base = repoPath(v.repo, 'pulls');
  const stateLink = (state: 'open' | 'closed' | 'all', label: string) => h('li', { key: state },
    h('a', { href: `${base}?state=${state}`, ...(v.state === state ? { 'aria-current': 'page' } : {}) }, label));
  return renderPage(frame, fragment(repoHeader(v.repo, 'pulls'),
    h('nav', { 'aria-label': 'Pull request state', className: 'toolbar' },
      h('ul', { className: 'filters' }, stateLink('open', 'Open'), stateLink('closed', 'Closed'), stateLink('all', 'All'))),
    v.items.length
      ? h('ul', { className: 'list box', id: 'pulls' }, ...v.items.map(({ pull, issue }) => h('li', { key: pull.id, className: 'row' },
        h('div', null,
          h('a', { href: repoPath(v.repo, 'pull', pull.number), className: 'title' }, issue.title),
          pull.draft ? h('span', { className: 'badge' }, 'Draft') : null,
          h('div', { className: 'muted' }, `#${pull.number} `, h('code', null, pull.headRef), ' → ', h('code', null, pull.baseRef),
            ' opened ', time(issue.createdAt), ' by ', login(v.authors, issue.userId),
            pull.mergedAt ? ' · merged' : issue.state === 'closed' ? ' · closed' : '')))))
      : h('p', { className: 'box' }, 'No pull requests match.'),
    pager(base, v.page, v.total, PER_PAGE, { state: v.state })));
}

const STATE_WORDS: Record<string, string> = {
  clean: 'This branch has no conflicts with the base branch and may be merged.',
  unstable: 'Some checks are not passing, but the branch may be merged.',
  blocked: 'Merging is blocked by the base branch\'s protection (reviews or checks).',
  behind: 'The head branch is behind the base branch, which its protection requires to be up to date.',
  dirty: 'This branch has conflicts that must be resolved.',
  draft: 'This pull request is still a draft.',
  unknown: 'Mergeability is not known yet.',
};

function mergeBox(frame: Frame, v: PullView, errors: string[]): ReactNode {
  if (v.pull.mergedAt) {
    return h('section', { className: 'box merged', id: 'merge-box' },
      h('p', null, 'Merged ', v.mergedBy ? fragment('by ', login(new Map([[v.mergedBy.id, v.mergedBy]]), v.mergedBy.id), ' ') : null, time(v.pull.mergedAt),
        v.pull.mergeCommitSha ? fragment(' as ', h('a', { href: repoPath(v.repo, 'commit', v.pull.mergeCommitSha) }, h('code', null, v.pull.mergeCommitSha.slice(0, 7)))) : null));
  }
  if (v.issue.record.state !== 'open') return h('section', { className: 'box', id: 'merge-box' }, h('p', null, 'Closed without merging.'));
  const mayMerge = frame.user !== null && roleAtLeast(v.role, 'push') && !v.repo.archived;
  const ready = v.mergeableState === 'clean' || v.mergeableState === 'unstable' || v.mergeableState === 'unknown';
  return h('section', { className: 'box', id: 'merge-box', 'aria-labelledby': 'merge-heading' },
    h('h2', { id: 'merge-heading' }, 'Merge'),
    flash('error', errors),
    h('p', { id: 'merge-state' }, STATE_WORDS[v.mergeableState] ?? v.mergeableState),
    mayMerge
      ? postForm(frame, `${repoPath(v.repo, 'pull', v.pull.number)}/merge`, { id: 'merge-form' },
        h('input', { type: 'hidden', name: 'sha', value: v.pull.headSha }),
        h('button', { type: 'submit', id: 'merge-button', ...(ready ? {} : { className: 'secondary' }) }, 'Merge pull request'))
      : null);
}

/** What a refused post shows again on a pull request page: its form as typed, or the merge's refusal. */
export interface PullInline extends IssueInline {
  merge?: string[];
  review?: ReviewForm;
  line?: LineCommentForm;
  thread?: ThreadForm;
}

export function pullPage(frame: Frame, v: PullView, inline: PullInline = {}): string {
  const i = v.issue.record;
  const threads = threadsByReview(v);
  // Each review at its place in the timeline, with the threads it started below it.
  const reviews = v.reviews.filter((r) => reviewShown(v, r)).map((r) => ({
    at: r.record.submittedAt ?? r.record.createdAt,
    node: fragment(reviewBox(frame, v, r, inline.reaction), reviewThreads(frame, v, threads.get(r.record.id) ?? [], inline.thread ?? null)),
  }));
  return renderPage(frame, fragment(repoHeader(v.repo, 'pulls'),
    h('div', { className: 'issue-title' },
      h('h2', { id: 'issue-title' }, i.title, ' ', h('span', { className: 'muted' }, `#${i.number}`)),
      stateBadge(i, v.pull.mergedAt !== null),
      h('p', { className: 'muted' }, 'Wants to merge ', `${v.commits.length} commit${v.commits.length === 1 ? '' : 's'}`, ' into ',
        h('code', null, v.pull.baseRef), ' from ', h('code', null, v.pull.headRef)),
      milestoneOf(v)),
    h('nav', { 'aria-label': 'Pull request sections', className: 'tabs' },
      h('ul', null,
        h('li', null, h('a', { href: '#conversation' }, 'Conversation')),
        h('li', null, h('a', { href: '#pull-commits' }, `Commits (${v.commits.length})`)),
        h('li', null, h('a', { href: '#files' }, `Files changed (${v.fileCount})`)))),
    h('section', { id: 'conversation', 'aria-label': 'Conversation' },
      conversation(frame, v, inline, reviews)),
    reviewForm(frame, v, inline.review ?? EMPTY_REVIEW),
    mergeBox(frame, v, inline.merge ?? []),
    h('section', { id: 'pull-commits', 'aria-labelledby': 'commits-heading' },
      h('h2', { id: 'commits-heading' }, 'Commits'),
      h('ul', { className: 'list box' }, ...v.commits.map((c) => commitRow(v.repo, c)))),
    h('section', { id: 'files', 'aria-labelledby': 'files-heading' },
      h('h2', { id: 'files-heading' }, 'Files changed'),
      pullDiff(frame, v, inline.line ?? null, inline.thread ?? null))));
}
