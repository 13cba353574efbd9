// Branches, tags and the compare view: each ref with its tip commit (short sha linking to
// the commit page, message, date), protected branches marked, paged as the API pages
// the same lists; a comparison with its status, commits and unified diff, and the form
// that opens a pull request of it.
import type { Comparison } from '../compare/compare.service.ts';
import type { CommitRecordData } from '../git-data/commits.service.ts';
import { tag as tagView } from '../releases/releases.views.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { Urls } from '../../urls.ts';
import { commitRow, diffView } from './commits.pages.ts';
import { newPullDefaults, sidesOf, type BranchesView, type BranchRow, type CompareChoices, type NewPullForm, type TagsView } from './refs.service.ts';
import { compareForm } from './compare-form.pages.ts';
import { encPath, pager, repoHeader, repoPath } from './repo.layout.ts';
import { PER_PAGE } from './web.service.ts';
import { deleteTagButton } from './release-links.pages.ts';
import { flash, fragment, h, postForm, renderPage, type Frame, type ReactNode } from './web.render.ts';

function when(epoch: number): ReactNode {
  const iso = new Date(epoch * 1000).toISOString();
  return h('time', { dateTime: iso }, iso.slice(0, 10));
}

/** A tip: its short sha to the commit page, the message's first line, the commit date. */
function tip(repo: Repo, sha: string, c: CommitRecordData | null): ReactNode {
  return h('div', { className: 'muted' },
    h('a', { href: repoPath(repo, 'commit', sha), className: 'sha' }, h('code', null, sha.slice(0, 7))),
    c ? fragment(' ', c.commit.parsed.message.split('\n')[0], ' · ', when(c.commit.parsed.committer.epoch)) : null);
}

/** Branches · Tags: the two lists link to each other. */
function refsNav(repo: Repo, at: 'branches' | 'tags'): ReactNode {
  const link = (key: 'branches' | 'tags', label: string) => h('li', { key },
    h('a', { href: repoPath(repo, key), ...(key === at ? { 'aria-current': 'page' } : {}) }, label));
  return h('nav', { 'aria-label': 'Branches and tags', className: 'toolbar' },
    h('ul', { className: 'filters' }, link('branches', 'Branches'), link('tags', 'Tags'), h('li', { key: 'releases' }, h('a', { href: repoPath(repo, 'releases') }, 'Releases'))));
}

/** Commits behind and ahead of the default branch, as upstream's branches page shows them. */
function divergence(repo: Repo, d: { ahead: number; behind: number }): ReactNode {
  return h('div', { className: 'muted divergence', 'data-behind': d.behind, 'data-ahead': d.ahead, title: `Compared with ${repo.defaultBranch}` },
    h('span', { className: 'behind' }, `${d.behind} behind`), ' · ', h('span', { className: 'ahead' }, `${d.ahead} ahead`));
}

function branchRow(repo: Repo, b: BranchRow, isDefault: boolean): ReactNode {
  return h('li', { key: b.name, className: 'row branch', 'data-branch': b.name },
    h('div', null,
      h('a', { href: repoPath(repo, 'tree', encPath(b.name)), className: 'title' }, b.name),
      isDefault ? fragment(' ', h('span', { className: 'badge', title: 'The default branch' }, 'Default')) : null,
      b.protected ? fragment(' ', h('span', { className: 'badge warn protected', title: 'A branch protection rule covers this branch' }, 'Protected')) : null,
      tip(repo, b.sha, b.commit)),
    b.divergence ? divergence(repo, b.divergence) : null,
    h('div', null,
      h('a', { href: repoPath(repo, 'commits', encPath(b.name)) }, 'Commits'),
      isDefault ? null : fragment(' · ', h('a', { href: repoPath(repo, 'compare', `${encPath(repo.defaultBranch)}...${encPath(b.name)}`) }, 'Compare'))));
}

export function branchesPage(frame: Frame, v: BranchesView): string {
  const def = v.repo.defaultBranch;
  return renderPage(frame, fragment(repoHeader(v.repo, 'code'),
    refsNav(v.repo, 'branches'),
    v.defaultBranch
      ? h('section', { className: 'box', 'aria-labelledby': 'default-branch-heading', id: 'default-branch' },
        h('h2', { id: 'default-branch-heading' }, 'Default branch'),
        h('ul', { className: 'list' }, branchRow(v.repo, v.defaultBranch, true)))
      : null,
    h('section', { 'aria-labelledby': 'branches-heading' },
      h('h2', { id: 'branches-heading' }, `All branches (${v.total})`),
      v.branches.length
        ? h('ul', { className: 'list box', id: 'branches' }, ...v.branches.map((b) => branchRow(v.repo, b, b.name === def)))
        : h('p', { className: 'box' }, 'There are no branches yet.')),
    pager(repoPath(v.repo, 'branches'), v.page, v.total, PER_PAGE)));
}

/** `writer`: the viewer may delete tags (push access), as DELETE …/git/refs/tags/{tag} lets them; `errors`: a refused deletion. */
export function tagsPage(frame: Frame, v: TagsView, urls: Urls, writer = false, errors: string[] = []): string {
  return renderPage(frame, fragment(repoHeader(v.repo, 'code'),
    refsNav(v.repo, 'tags'),
    h('section', { 'aria-labelledby': 'tags-heading' },
      h('h2', { id: 'tags-heading' }, `Tags (${v.total})`),
      flash('error', errors),
      v.tags.length
        ? h('ul', { className: 'list box', id: 'tags' }, ...v.tags.map(({ tag, commit }) => h('li', { key: tag.name, className: 'row tag', 'data-tag': tag.name },
          h('div', null,
            h('a', { href: repoPath(v.repo, 'tree', encPath(tag.name)), className: 'title' }, tag.name),
            tip(v.repo, tag.commit, commit)),
          h('div', null,
            h('a', { href: tagView(urls, tag).zipball_url }, 'zip'), ' · ',
            h('a', { href: tagView(urls, tag).tarball_url }, 'tar.gz'),
            writer ? fragment(' ', deleteTagButton(frame, v.repo, tag.name)) : null))))
        : h('p', { className: 'box' }, 'There are no tags yet.')),
    pager(repoPath(v.repo, 'tags'), v.page, v.total, PER_PAGE)));
}

const STATUS_WORDS: Record<Comparison['status'], (c: Comparison) => string> = {
  identical: () => 'These commits are identical.',
  ahead: (c) => `The head is ${c.aheadBy} commit${c.aheadBy === 1 ? '' : 's'} ahead of the base.`,
  behind: (c) => `The head is ${c.behindBy} commit${c.behindBy === 1 ? '' : 's'} behind the base.`,
  diverged: (c) => `The head is ${c.aheadBy} commit${c.aheadBy === 1 ? '' : 's'} ahead of and ${c.behindBy} commit${c.behindBy === 1 ? '' : 's'} behind the base.`,
};

/**
 * "Create pull request": posts to the comparison's own address, for signed-in users of a
 * repository that is not archived; the pulls service decides whether they may.
 */
function newPullForm(frame: Frame, c: Comparison, form: NewPullForm): ReactNode {
  if (!frame.user || c.repo.archived) return null;
  const { base, head } = sidesOf(c);
  return postForm(frame, repoPath(c.repo, 'compare', `${encPath(base)}...${encPath(head)}`), { className: 'box', id: 'new-pull-form', 'aria-labelledby': 'new-pull-heading' },
    h('h2', { id: 'new-pull-heading' }, 'Open a pull request'),
    h('p', { className: 'muted' }, 'Merge ', h('code', null, head), ' into ', h('code', null, base), '.'),
    flash('error', form.errors),
    h('label', { htmlFor: 'pull-title' }, 'Title'),
    h('input', { type: 'text', id: 'pull-title', name: 'title', defaultValue: form.title, required: true }),
    h('label', { htmlFor: 'pull-body' }, 'Description'),
    h('textarea', { id: 'pull-body', name: 'body', rows: 8, defaultValue: form.body }),
    h('div', { className: 'choice' },
      h('input', { type: 'checkbox', id: 'pull-draft', name: 'draft', value: '1', defaultChecked: form.draft }),
      h('label', { htmlFor: 'pull-draft', className: 'inline' }, 'Create as a draft')),
    h('button', { type: 'submit', id: 'create-pull' }, 'Create pull request'));
}

/** `choices`: the compare form above, its sides filled in with this comparison's. */
export function comparePage(frame: Frame, c: Comparison, form: NewPullForm = newPullDefaults(c), choices: CompareChoices | null = null): string {
  const { base, head } = sidesOf(c);
  return renderPage(frame, fragment(repoHeader(c.repo, 'code'),
    choices ? compareForm(c.repo, choices, { base, head, errors: [] }) : null,
    h('section', { className: 'box', 'aria-labelledby': 'compare-heading' },
      h('h2', { id: 'compare-heading' }, 'Comparing ', h('code', null, base), ' … ', h('code', null, head)),
      h('p', null, h('span', { className: `badge ${c.status === 'diverged' || c.status === 'behind' ? 'warn' : 'ok'}`, id: 'compare-status' }, c.status), ' ',
        STATUS_WORDS[c.status](c)),
      h('p', { className: 'muted' }, 'Merge base ',
        h('a', { href: repoPath(c.repo, 'commit', c.mergeBase.commit.sha) }, h('code', null, c.mergeBase.commit.sha.slice(0, 7))))),
    newPullForm(frame, c, form),
    h('section', { 'aria-labelledby': 'compare-commits-heading' },
      h('h2', { id: 'compare-commits-heading' }, `Commits (${c.aheadBy})`),
      c.commits.length
        ? h('ul', { className: 'list box', id: 'compare-commits' }, ...c.commits.map((d) => commitRow(c.repo, d)))
        : h('p', { className: 'box' }, 'No commits to show.'),
      c.aheadBy > c.commits.length ? h('p', { className: 'muted' }, `The first ${c.commits.length} of ${c.aheadBy} commits are shown.`) : null),
    h('section', { 'aria-labelledby': 'compare-files-heading', id: 'files' },
      h('h2', { id: 'compare-files-heading' }, 'Files changed'),
      diffView(c.files, c.files.length))));
}
