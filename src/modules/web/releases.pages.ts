// Releases: the list (paged as the API pages it) and one release at its html_url
// (/releases/tag/{tag}): name, tag, draft/pre-release/latest badges, the body rendered
// as the API's body_html is, the assets with their download links and sizes, and the
// source code archives. Every address comes from the releases module's own views.
import type { Urls } from '../../urls.ts';
import { release as releaseView } from '../releases/releases.views.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { ReleaseEntry, ReleasesView } from './refs.service.ts';
import { encPath, pager, repoHeader, repoPath } from './repo.layout.ts';
import { PER_PAGE } from './web.service.ts';
import { fragment, h, renderPage, time, trustedHtml, type Frame, type ReactNode } from './web.render.ts';
import { editReleaseLink, newReleaseButton } from './release-links.pages.ts';

/** A size as people read it: bytes, KB, MB (base 1024, one decimal). */
export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let n = bytes / 1024;
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i += 1; }
  return `${n.toFixed(1)} ${units[i]}`;
}

function badges(e: ReleaseEntry): ReactNode {
  const r = e.detail.release;
  return fragment(
    r.draft ? fragment(' ', h('span', { className: 'badge warn', 'data-badge': 'draft' }, 'Draft')) : null,
    r.prerelease ? fragment(' ', h('span', { className: 'badge warn', 'data-badge': 'prerelease' }, 'Pre-release')) : null,
    e.latest ? fragment(' ', h('span', { className: 'badge ok', 'data-badge': 'latest' }, 'Latest')) : null);
}

function releaseBody(repo: Repo, e: ReleaseEntry, urls: Urls, heading: 'h2' | 'h3', linkTitle: boolean, writer: boolean): ReactNode {
  const r = e.detail.release;
  const view = releaseView(urls, e.detail);
  const title = r.name || r.tagName;
  const page = repoPath(repo, 'releases', 'tag', encPath(r.tagName));
  const published = r.publishedAt ?? r.createdAt;
  return fragment(
    h(heading, { className: 'release-title' }, linkTitle ? h('a', { href: page }, title) : title, badges(e)),
    writer ? h('p', null, editReleaseLink(repo, r.tagName)) : null,
    h('p', { className: 'muted' },
      h('a', { href: repoPath(repo, 'tree', encPath(r.tagName)), className: 'release-tag' }, h('code', null, r.tagName)),
      e.detail.author ? fragment(' · ', h('a', { href: `/${encodeURIComponent(e.detail.author.login)}` }, e.detail.author.login)) : null,
      r.draft ? ' · not published' : fragment(' released ', time(published))),
    e.html ? trustedHtml('div', { className: 'markdown-body release-body' }, e.html) : null,
    h('section', { 'aria-label': `Assets of ${title}`, className: 'assets' },
      h(heading === 'h2' ? 'h3' : 'h4', null, `Assets (${view.assets.length + (view.zipball_url ? 2 : 0)})`),
      h('ul', { className: 'list' },
        ...view.assets.map((a) => h('li', { key: a.id, className: 'row asset' },
          h('a', { href: a.browser_download_url, className: 'asset-link' }, a.label || a.name),
          h('span', { className: 'muted num asset-size', title: `${a.size} bytes` }, humanSize(a.size)))),
        view.zipball_url ? h('li', { key: 'zip', className: 'row' }, h('a', { href: view.zipball_url, className: 'source-zip' }, 'Source code (zip)')) : null,
        view.tarball_url ? h('li', { key: 'tar', className: 'row' }, h('a', { href: view.tarball_url, className: 'source-tar' }, 'Source code (tar.gz)')) : null)));
}

/** `writer`: the viewer may draft, edit and delete releases (the releases service's rule). */
export function releasesPage(frame: Frame, v: ReleasesView, urls: Urls, writer = false): string {
  return renderPage(frame, fragment(repoHeader(v.repo, 'code'),
    h('nav', { 'aria-label': 'Branches and tags', className: 'toolbar' },
      h('ul', { className: 'filters' },
        h('li', null, h('a', { href: repoPath(v.repo, 'releases'), 'aria-current': 'page' }, 'Releases')),
        h('li', null, h('a', { href: repoPath(v.repo, 'tags') }, 'Tags')),
        h('li', null, h('a', { href: repoPath(v.repo, 'branches') }, 'Branches')))),
    h('h2', { className: 'visually-hidden' }, 'Releases'),
    writer ? newReleaseButton(v.repo) : null,
    v.releases.length
      ? h('div', { id: 'releases' }, ...v.releases.map((e) => h('article', { key: e.detail.release.id, className: 'box release', 'data-tag': e.detail.release.tagName },
        releaseBody(v.repo, e, urls, 'h3', true, writer))))
      : h('p', { className: 'box' }, 'There are no releases yet.'),
    pager(repoPath(v.repo, 'releases'), v.page, v.total, PER_PAGE)));
}

export function releasePage(frame: Frame, e: ReleaseEntry, urls: Urls, writer = false): string {
  const repo = e.detail.repo;
  return renderPage(frame, fragment(repoHeader(repo, 'code'),
    h('nav', { 'aria-label': 'Releases', className: 'crumbs' },
      h('a', { href: repoPath(repo, 'releases') }, 'Releases'), ' / ', h('strong', null, e.detail.release.tagName)),
    h('article', { className: 'box release', id: 'release' }, releaseBody(repo, e, urls, 'h2', false, writer))));
}
