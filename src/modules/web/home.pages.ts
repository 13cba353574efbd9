// The home page (the signed-in user's repositories, or public ones and a sign-in link)
// and an account's profile with its repositories.
import type { Presentable } from '../repos/repos.service.ts';
import { activityFeed } from './activity.pages.ts';
import { NEW_REPO_PATH } from './new-repository.pages.ts';
import { pager, repoPath } from './repo.layout.ts';
import { PER_PAGE, type HomeView, type ProfileView } from './web.service.ts';
import { fragment, h, renderPage, time, type Frame, type ReactNode } from './web.render.ts';

export function repoList(items: readonly Presentable[], id: string): ReactNode {
  if (!items.length) return h('p', { className: 'box' }, 'No repositories yet.');
  return h('ul', { className: 'list box', id }, ...items.map(({ repo, counts }) => h('li', { key: repo.id, className: 'row' },
    h('div', null,
      h('a', { href: repoPath(repo), className: 'title' }, `${repo.owner.login}/${repo.name}`),
      repo.visibility !== 'public' ? h('span', { className: 'badge' }, 'Private') : null,
      repo.description ? h('p', { className: 'muted' }, repo.description) : null,
      h('div', { className: 'muted' },
        repo.language ? `${repo.language} · ` : '', `★ ${counts.stargazers} · updated `, time(repo.updatedAt))))));
}

export function homePage(frame: Frame, v: HomeView): string {
  if (!frame.user) {
    return renderPage(frame, fragment(
      h('section', { className: 'box hero' },
        h('h1', null, 'Wharf'),
        h('p', null, 'Self-hosted source hosting. ', h('a', { href: '/login?return_to=%2F' }, 'Sign in'), ' to see your repositories.')),
      h('h2', null, 'Public repositories'),
      repoList(v.repos, 'public-repos')));
  }
  return renderPage(frame, h('div', { className: 'layout' },
    h('div', { className: 'primary' },
      h('h1', null, 'Recent activity'),
      activityFeed(v.events)),
    h('div', { className: 'secondary' },
      h('h2', null, 'Your repositories'),
      h('p', null, h('a', { href: NEW_REPO_PATH, id: 'new-repository', className: 'button' }, 'New repository')),
      repoList(v.repos, 'your-repos'),
      v.total > v.repos.length ? h('p', null, h('a', { href: `/${encodeURIComponent(frame.user.login)}` }, `All ${v.total} repositories`)) : null,
      v.organizations.length ? fragment(
        h('h2', null, 'Your organizations'),
        h('ul', { className: 'list box', id: 'your-orgs' }, ...v.organizations.map((o) => h('li', { key: o.id, className: 'row' },
          h('a', { href: `/${encodeURIComponent(o.login)}` }, o.login))))) : null)));
}

/** An account's name, login, bio and facts: the head of each of its profile pages. */
export function profileCard(a: ProfileView['account']): ReactNode {
  return h('section', { className: 'box profile' },
    h('h1', null, a.name ? fragment(a.name, ' ', h('span', { className: 'muted' }, a.login)) : a.login),
    a.type === 'Organization' ? h('span', { className: 'badge' }, 'Organization') : null,
    a.bio ? h('p', null, a.bio) : null,
    h('ul', { className: 'facts' },
      a.company ? h('li', null, a.company) : null,
      a.location ? h('li', null, a.location) : null,
      a.blog ? h('li', null, h('a', { href: /^https?:\/\//.test(a.blog) ? a.blog : `https://${a.blog}`, rel: 'nofollow noopener' }, a.blog)) : null,
      h('li', null, 'Joined ', time(a.createdAt))));
}

/** The repositories tab; `more` adds the profile's tabs and, for an organization, its people beside the list. */
export function profilePage(frame: Frame, v: ProfileView, more: { nav?: ReactNode; aside?: ReactNode } = {}): string {
  const a = v.account;
  const list = fragment(
    h('h2', null, `Repositories (${v.total})`),
    repoList(v.repos, 'profile-repos'),
    pager(`/${encodeURIComponent(a.login)}`, v.page, v.total, PER_PAGE));
  return renderPage(frame, fragment(profileCard(a), more.nav ?? null,
    more.aside ? h('div', { className: 'layout' }, h('div', { className: 'primary' }, list), h('aside', { className: 'secondary' }, more.aside)) : list));
}
