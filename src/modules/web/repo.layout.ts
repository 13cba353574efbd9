// The parts every repository page shares: the owner/name heading with its visibility,
// the tabs (Code, Issues, Pull requests, Commits, and Settings for an admin), the branch and tag switcher, and
// addresses built from names (each segment encoded, slashes of a path kept).
import type { Repo } from '../repos/repos.model.ts';
import type { RefNames } from './code.service.ts';
import { fragment, h, withFrame, type ReactElement, type ReactNode } from './web.render.ts';

/** A path of segments (a ref or a file path may hold slashes) as an address. */
export function encPath(p: string): string {
  return p.split('/').map(encodeURIComponent).join('/');
}

export function repoPath(repo: Repo, ...rest: (string | number)[]): string {
  const base = `/${encodeURIComponent(repo.owner.login)}/${encodeURIComponent(repo.name)}`;
  return rest.length ? `${base}/${rest.map((s) => (typeof s === 'number' ? String(s) : s)).join('/')}` : base;
}

export type RepoTab = 'code' | 'issues' | 'pulls' | 'commits' | 'settings';

/**
 * `admin`: the viewer administers the repository, and gets its Settings tab. Any page
 * gets the tab for an admin without saying so: the page's frame lists the repositories
 * of its address that the viewer administers (web.request.ts).
 */
export function repoHeader(repo: Repo, tab: RepoTab, admin = false): ReactElement {
  return withFrame((frame) => repoHeading(repo, tab, admin || (frame?.adminOf ?? []).includes(repo.id)));
}

function repoHeading(repo: Repo, tab: RepoTab, admin: boolean): ReactElement {
  const tabs: [RepoTab, string, string][] = [
    ['code', 'Code', repoPath(repo)],
    ['issues', 'Issues', repoPath(repo, 'issues')],
    ['pulls', 'Pull requests', repoPath(repo, 'pulls')],
    ['commits', 'Commits', repoPath(repo, 'commits', encPath(repo.defaultBranch))],
    ...(admin ? [['settings', 'Settings', repoPath(repo, 'settings', 'access')] as [RepoTab, string, string]] : []),
  ];
  return fragment(
    h('div', { className: 'repo-title' },
      h('h1', null, h('a', { href: `/${encodeURIComponent(repo.owner.login)}` }, repo.owner.login), ' / ',
        h('a', { href: repoPath(repo), id: 'repo-name' }, repo.name)),
      h('span', { className: 'badge' }, repo.visibility === 'public' ? 'Public' : repo.visibility === 'internal' ? 'Internal' : 'Private'),
      repo.archived ? h('span', { className: 'badge warn' }, 'Archived') : null),
    repo.description ? h('p', { className: 'muted' }, repo.description) : null,
    h('nav', { 'aria-label': 'Repository', className: 'tabs' },
      h('ul', null, ...tabs.map(([key, label, href]) =>
        h('li', { key }, h('a', { href, ...(key === tab ? { 'aria-current': 'page' } : {}) }, label))))));
}

/**
 * Branches and tags as links to the same view at another ref: a disclosure widget,
 * so it works without a script and with the keyboard.
 */
export function refSwitcher(repo: Repo, refs: RefNames, current: string, view: (ref: string) => string): ReactElement {
  const item = (name: string) => h('li', { key: name },
    h('a', { href: view(name), ...(name === current ? { 'aria-current': 'true' } : {}) }, name));
  return h('details', { className: 'switcher' },
    h('summary', null, h('span', { className: 'muted' }, 'Branch or tag: '), h('strong', { id: 'current-ref' }, current.length === 40 ? current.slice(0, 7) : current)),
    h('div', { className: 'menu' },
      h('h2', null, 'Branches'), h('ul', null, ...refs.branches.map(item)),
      refs.tags.length ? fragment(h('h2', null, 'Tags'), h('ul', null, ...refs.tags.map(item))) : null));
}

/** Breadcrumbs of a path: repository root, then each directory. */
export function breadcrumbs(repo: Repo, ref: string, path: string): ReactNode {
  const parts = path ? path.split('/') : [];
  return h('nav', { 'aria-label': 'Path', className: 'crumbs' },
    h('a', { href: repoPath(repo, 'tree', encPath(ref)) }, repo.name),
    ...parts.map((part, i) => {
      const sub = parts.slice(0, i + 1).join('/');
      return i === parts.length - 1
        ? fragment(' / ', h('strong', { key: sub }, part))
        : fragment(' / ', h('a', { key: sub, href: repoPath(repo, 'tree', encPath(ref), encPath(sub)) }, part));
    }));
}

/** "Showing page N" links, previous and next, as the API pages the same list. */
export function pager(base: string, page: number, total: number, perPage: number, query: Record<string, string> = {}): ReactNode {
  const last = Math.max(1, Math.ceil(total / perPage));
  if (last === 1) return null;
  const at = (n: number) => `${base}?${new URLSearchParams({ ...query, page: String(n) })}`;
  return h('nav', { 'aria-label': 'Pages', className: 'pager' },
    page > 1 ? h('a', { href: at(page - 1), rel: 'prev' }, 'Previous') : null,
    h('span', null, ` Page ${page} of ${last} `),
    page < last ? h('a', { href: at(page + 1), rel: 'next' }, 'Next') : null);
}
