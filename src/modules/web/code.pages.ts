// The code view: a repository's home page (file tree of the default branch, README,
// clone addresses), a directory at any ref, and a file with syntax highlighting.
import hljs from 'highlight.js/lib/common';
import { repoLinks } from '../repos/repos.views.ts';
import type { Urls } from '../../urls.ts';
import type { DirEntryData } from '../git-data/contents.service.ts';
import { breadcrumbs, encPath, refSwitcher, repoHeader, repoPath } from './repo.layout.ts';
import type { BlobView, CodeView } from './code.service.ts';
import { fragment, h, renderPage, trustedHtml, type Frame, type ReactNode } from './web.render.ts';

function cloneBox(v: CodeView, urls: Urls): ReactNode {
  const links = repoLinks(v.repo, urls);
  const field = (id: string, label: string, value: string) => h('div', { className: 'clone' },
    h('label', { htmlFor: id }, label),
    h('input', { type: 'text', id, value, readOnly: true }));
  return h('section', { className: 'box', 'aria-labelledby': 'clone-heading' },
    h('h2', { id: 'clone-heading' }, 'Clone'),
    field('clone-https', 'HTTPS', links.clone_url),
    field('clone-ssh', 'SSH', links.ssh_url));
}

function countOf(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

const ORDER: Record<DirEntryData['type'], number> = { dir: 0, submodule: 1, file: 2, symlink: 2 };

function entryRow(v: CodeView, e: DirEntryData): ReactNode {
  const name = e.path.split('/').pop()!;
  const kind = e.type === 'dir' ? 'tree' : 'blob';
  const label = e.type === 'dir' ? 'Directory' : e.type === 'submodule' ? 'Submodule' : e.type === 'symlink' ? 'Symbolic link' : 'File';
  return h('tr', { key: e.path },
    h('td', { className: `icon ${e.type}` }, h('span', { className: 'visually-hidden' }, label)),
    h('td', null, e.type === 'submodule'
      ? h('span', null, name, ' @ ', h('code', null, e.sha.slice(0, 7)))
      : h('a', { href: repoPath(v.repo, kind, encPath(v.ref), encPath(e.path)) }, name)),
    h('td', { className: 'muted num' }, e.type === 'file' ? `${e.size} bytes` : ''));
}

/** `admin`: the viewer administers the repository (its Settings tab). */
export function treePage(frame: Frame, v: CodeView, urls: Urls, admin = false): string {
  const head = repoHeader(v.repo, 'code', admin);
  if (!v.refs || !v.content || v.content.kind !== 'dir') {
    return renderPage(frame, fragment(head,
      h('section', { className: 'box' },
        h('h2', null, 'This repository is empty'),
        h('p', null, 'Push a branch to start:'),
        h('pre', null, h('code', null, `git remote add origin ${repoLinks(v.repo, urls).clone_url}\ngit push -u origin ${v.repo.defaultBranch}`))),
      cloneBox(v, urls)));
  }
  const entries = [...v.content.entries].sort((a, b) => ORDER[a.type] - ORDER[b.type] || a.path.localeCompare(b.path));
  const parent = v.path.includes('/') ? v.path.slice(0, v.path.lastIndexOf('/')) : '';
  return renderPage(frame, fragment(head,
    h('div', { className: 'toolbar' },
      refSwitcher(v.repo, v.refs, v.ref, (ref) => repoPath(v.repo, 'tree', encPath(ref), encPath(v.path))),
      breadcrumbs(v.repo, v.ref, v.path),
      h('a', { href: repoPath(v.repo, 'commits', encPath(v.ref)) }, 'History'),
      h('a', { href: repoPath(v.repo, 'branches'), id: 'branches-link' }, countOf(v.refs.branches.length, 'branch', 'branches')),
      h('a', { href: repoPath(v.repo, 'tags'), id: 'tags-link' }, countOf(v.refs.tags.length, 'tag', 'tags'))),
    h('div', { className: 'layout' },
      h('div', { className: 'primary' },
        h('table', { className: 'files box' },
          h('caption', { className: 'visually-hidden' }, `Files in ${v.path || v.repo.name} at ${v.ref}`),
          h('thead', { className: 'visually-hidden' }, h('tr', null, h('th', { scope: 'col' }, 'Type'), h('th', { scope: 'col' }, 'Name'), h('th', { scope: 'col' }, 'Size'))),
          h('tbody', null,
            v.path ? h('tr', { key: '..' }, h('td', null), h('td', null, h('a', { href: repoPath(v.repo, 'tree', encPath(v.ref), encPath(parent)).replace(/\/$/, '') }, '..')), h('td', null)) : null,
            ...entries.map((e) => entryRow(v, e)))),
        v.readme ? h('section', { className: 'box readme', 'aria-labelledby': 'readme-heading' },
          h('h2', { id: 'readme-heading' }, v.readme.path.split('/').pop()),
          'html' in v.readme ? trustedHtml('div', { className: 'markdown-body' }, v.readme.html) : h('pre', { tabIndex: 0 }, v.readme.text)) : null),
      h('aside', { className: 'secondary' }, cloneBox(v, urls),
        h('section', { className: 'box', 'aria-labelledby': 'releases-heading' },
          h('h2', { id: 'releases-heading' }, h('a', { href: repoPath(v.repo, 'releases'), id: 'releases-link' }, 'Releases')))))));
}

/** A file's bytes as text, or null when it is binary (a NUL among its first bytes, as git decides). */
function textOf(bytes: Buffer): string | null {
  return bytes.subarray(0, 8000).includes(0) ? null : bytes.toString('utf8');
}

/** Highlighted HTML (escaped by highlight.js) for a file whose name names a known language. */
function highlighted(path: string, text: string): string | null {
  const name = path.split('/').pop()!.toLowerCase();
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : name;
  const language = hljs.getLanguage(ext) ? ext : name === 'dockerfile' ? 'dockerfile' : name === 'makefile' ? 'makefile' : null;
  if (!language || !hljs.getLanguage(language)) return null;
  return hljs.highlight(text, { language, ignoreIllegals: true }).value;
}

export function blobPage(frame: Frame, v: BlobView): string {
  const raw = repoPath(v.repo, 'raw', encPath(v.ref), encPath(v.path));
  const bytes = v.file.content;
  const text = bytes ? textOf(bytes) : null;
  let body: ReactNode;
  if (!bytes) body = h('p', { className: 'box' }, 'This file is too large to show. ', h('a', { href: raw }, 'View it raw'), '.');
  else if (text === null) body = h('p', { className: 'box' }, 'Binary file not shown. ', h('a', { href: raw }, 'Download it'), '.');
  else {
    const html = highlighted(v.path, text);
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    body = h('div', { className: 'box code' },
      h('p', { className: 'muted' }, `${lines} line${lines === 1 ? '' : 's'} · ${v.file.size} bytes`),
      h('pre', { tabIndex: 0, 'aria-label': `Contents of ${v.path}` },
        html === null ? h('code', null, text) : trustedHtml('code', { className: 'hljs' }, html)));
  }
  return renderPage(frame, fragment(repoHeader(v.repo, 'code'),
    h('div', { className: 'toolbar' },
      refSwitcher(v.repo, v.refs, v.ref, (ref) => repoPath(v.repo, 'blob', encPath(ref), encPath(v.path))),
      breadcrumbs(v.repo, v.ref, v.path),
      h('a', { href: raw, id: 'raw-link' }, 'Raw'),
      h('a', { href: repoPath(v.repo, 'blame', encPath(v.ref), encPath(v.path)), id: 'blame-link' }, 'Blame'),
      h('a', { href: repoPath(v.repo, 'commits', encPath(v.ref)) + `?path=${encodeURIComponent(v.path)}` }, 'History')),
    body));
}
