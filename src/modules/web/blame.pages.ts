// Blame: a file at a ref, each hunk of consecutive lines from one commit beside that
// commit (short sha to the commit page, its summary, author and date, and the blame
// before it changed the lines). A file too large or binary is not blamed.
import type { BlameCommit } from '../../git/blame.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { Account } from '../users/users.model.ts';
import type { BlameView } from './blame.service.ts';
import { breadcrumbs, encPath, refSwitcher, repoHeader, repoPath } from './repo.layout.ts';
import { fragment, h, renderPage, type Frame, type ReactNode } from './web.render.ts';

export function blamePath(repo: Repo, ref: string, path: string): string {
  return repoPath(repo, 'blame', encPath(ref), encPath(path));
}

function when(epoch: number): ReactNode {
  const iso = new Date(epoch * 1000).toISOString();
  return h('time', { dateTime: iso }, iso.slice(0, 10));
}

function commitCell(repo: Repo, c: BlameCommit, author: Account | null, rows: number): ReactNode {
  return h('td', { rowSpan: rows, className: 'blame-commit' },
    h('a', { href: repoPath(repo, 'commit', c.sha), className: 'sha' }, h('code', null, c.sha.slice(0, 7))), ' ',
    h('span', { className: 'summary' }, c.summary),
    h('div', { className: 'muted' },
      author ? h('a', { href: `/${encodeURIComponent(author.login)}`, className: 'author' }, author.login) : h('span', { className: 'author' }, c.authorName),
      ' · ', when(c.authorTime),
      c.previous ? fragment(' · ', h('a', { href: blamePath(repo, c.previous.sha, c.previous.path), className: 'blame-prior', title: 'Blame the file as it was before this commit' }, 'Blame prior')) : null));
}

export function blamePage(frame: Frame, v: BlameView): string {
  const raw = repoPath(v.repo, 'raw', encPath(v.ref), encPath(v.path));
  let body: ReactNode;
  if (v.refused || !v.blame) {
    body = h('p', { className: 'box', id: 'blame-refused' }, v.refused ?? 'This file cannot be blamed.', ' ', h('a', { href: raw }, 'View it raw'), '.');
  } else {
    const blame = v.blame;
    body = h('div', { className: 'box code' },
      h('p', { className: 'muted' }, `${v.lines} line${v.lines === 1 ? '' : 's'} · ${blame.commits.size} commit${blame.commits.size === 1 ? '' : 's'}`),
      h('div', { className: 'blame-scroll' }, h('table', { className: 'blame', id: 'blame' },
        h('caption', { className: 'visually-hidden' }, `Blame of ${v.path} at ${v.ref}`),
        h('colgroup', null, h('col', { className: 'commit' }), h('col', { className: 'line' }), h('col', null)),
        h('thead', { className: 'visually-hidden' }, h('tr', null,
          h('th', { scope: 'col' }, 'Commit'), h('th', { scope: 'col' }, 'Line'), h('th', { scope: 'col' }, 'Code'))),
        ...blame.hunks.map((hunk) => h('tbody', { key: hunk.start, className: 'hunk', 'data-commit': hunk.sha, 'data-start': hunk.start },
          ...hunk.lines.map((line, i) => {
            const n = hunk.start + i;
            return h('tr', { key: n },
              i === 0 ? commitCell(v.repo, blame.commits.get(hunk.sha)!, v.authors.get(hunk.sha) ?? null, hunk.lines.length) : null,
              h('td', { className: 'num muted', id: `L${n}` }, n),
              h('td', null, h('pre', null, line)));
          }))))));
  }
  return renderPage(frame, fragment(repoHeader(v.repo, 'code'),
    h('div', { className: 'toolbar' },
      refSwitcher(v.repo, v.refs, v.ref, (ref) => blamePath(v.repo, ref, v.path)),
      breadcrumbs(v.repo, v.ref, v.path),
      h('a', { href: repoPath(v.repo, 'blob', encPath(v.ref), encPath(v.path)), id: 'blob-link' }, 'File'),
      h('a', { href: raw, id: 'raw-link' }, 'Raw'),
      h('a', { href: repoPath(v.repo, 'commits', encPath(v.ref)) + `?path=${encodeURIComponent(v.path)}` }, 'History')),
    body));
}
