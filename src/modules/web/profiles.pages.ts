// The profile pages beyond the repositories: a user's stars (`/{user}?tab=stars`, as
// upstream), an organization's people beside its repositories and on their own page
// (`/orgs/{org}/people`), its teams (`/orgs/{org}/teams`, members only) and one team at
// the html_url the teams API hands out (`/orgs/{org}/teams/{slug}`).
import type { TeamEntry } from '../orgs/teams.service.ts';
import type { Account } from '../users/users.model.ts';
import { profileCard, repoList } from './home.pages.ts';
import type { OrgPeople, PeopleView, StarsView, TeamsView, TeamView } from './profiles.service.ts';
import { pager } from './repo.layout.ts';
import { PER_PAGE } from './web.service.ts';
import { fragment, h, renderPage, time, type Frame, type ReactNode } from './web.render.ts';

export type ProfileTab = 'repositories' | 'stars' | 'people' | 'teams';

function home(a: Account): string {
  return `/${encodeURIComponent(a.login)}`;
}

function orgPath(a: Account, ...rest: string[]): string {
  return ['/orgs', encodeURIComponent(a.login), ...rest.map(encodeURIComponent)].join('/');
}

export function teamPath(org: Account, slug: string): string {
  return orgPath(org, 'teams', slug);
}

/** A user's tabs (repositories, stars); an organization's (repositories, people, and teams for those who may see them). */
export function profileNav(a: Account, at: ProfileTab, seesTeams = false): ReactNode {
  const tabs: [ProfileTab, string, string][] = a.type === 'Organization'
    ? [['repositories', 'Repositories', home(a)], ['people', 'People', orgPath(a, 'people')], ...(seesTeams ? [['teams', 'Teams', orgPath(a, 'teams')] as [ProfileTab, string, string]] : [])]
    : [['repositories', 'Repositories', home(a)], ['stars', 'Stars', `${home(a)}?tab=stars`]];
  return h('nav', { 'aria-label': 'Profile', className: 'tabs' },
    h('ul', null, ...tabs.map(([key, label, href]) =>
      h('li', { key }, h('a', { href, id: `tab-${key}`, ...(key === at ? { 'aria-current': 'page' } : {}) }, label)))));
}

function memberList(members: readonly Account[], id: string): ReactNode {
  return h('ul', { className: 'list box', id }, ...members.map((m) => h('li', { key: m.id, className: 'row', 'data-login': m.login },
    h('div', null,
      h('a', { href: home(m), className: 'title' }, m.login),
      m.name ? h('span', { className: 'muted' }, ` ${m.name}`) : null))));
}

function teamList(org: Account, entries: readonly TeamEntry[], id: string): ReactNode {
  return h('ul', { className: 'list box', id }, ...entries.map(({ team, parent }) => h('li', { key: team.id, className: 'row', 'data-team': team.slug },
    h('div', null,
      h('a', { href: teamPath(org, team.slug), className: 'title' }, team.name),
      team.privacy === 'secret' ? h('span', { className: 'badge' }, 'Secret') : null,
      team.description ? h('p', { className: 'muted' }, team.description) : null,
      parent ? h('div', { className: 'muted' }, 'Part of ', h('a', { href: teamPath(org, parent.slug) }, parent.name)) : null))));
}

/** An organization's people and teams beside its repositories. */
export function orgAside(v: OrgPeople): ReactNode {
  const { org, members, teams } = v;
  return fragment(
    h('section', { className: 'box', 'aria-labelledby': 'people-heading', id: 'org-people' },
      h('h2', { id: 'people-heading' }, h('a', { href: orgPath(org, 'people') }, `People (${members.total})`)),
      members.items.length ? memberList(members.items, 'org-members') : h('p', { className: 'muted' }, 'This organization has no public members.'),
      members.total > members.items.length ? h('p', null, h('a', { href: orgPath(org, 'people') }, `View all ${members.total}`)) : null),
    teams ? h('section', { className: 'box', 'aria-labelledby': 'teams-heading', id: 'org-teams' },
      h('h2', { id: 'teams-heading' }, h('a', { href: orgPath(org, 'teams') }, `Teams (${teams.total})`)),
      teams.items.length ? teamList(org, teams.items, 'org-team-list') : h('p', { className: 'muted' }, 'No teams yet.'),
      teams.total > teams.items.length ? h('p', null, h('a', { href: orgPath(org, 'teams') }, `View all ${teams.total}`)) : null) : null);
}

export function starsPage(frame: Frame, v: StarsView): string {
  return renderPage(frame, fragment(profileCard(v.account), profileNav(v.account, 'stars'),
    h('h2', null, `Starred repositories (${v.total})`),
    v.repos.length ? repoList(v.repos, 'starred-repos') : h('p', { className: 'box' }, 'No starred repositories to show.'),
    pager(home(v.account), v.page, v.total, PER_PAGE, { tab: 'stars' })));
}

export function peoplePage(frame: Frame, v: PeopleView): string {
  return renderPage(frame, fragment(profileCard(v.org), profileNav(v.org, 'people', v.seesTeams),
    h('h2', null, `People (${v.members.total})`),
    v.members.items.length ? memberList(v.members.items, 'people') : h('p', { className: 'box' }, 'This organization has no public members.'),
    pager(orgPath(v.org, 'people'), v.page, v.members.total, PER_PAGE)));
}

export function teamsPage(frame: Frame, v: TeamsView): string {
  return renderPage(frame, fragment(profileCard(v.org), profileNav(v.org, 'teams', true),
    h('h2', null, `Teams (${v.teams.total})`),
    v.teams.items.length ? teamList(v.org, v.teams.items, 'teams') : h('p', { className: 'box' }, 'No teams yet.'),
    pager(orgPath(v.org, 'teams'), v.page, v.teams.total, PER_PAGE)));
}

function teamMembers(members: TeamView['members']): ReactNode {
  return h('ul', { className: 'list box', id: 'team-members' }, ...members.items.map((m) => h('li', { key: m.user.id, className: 'row', 'data-login': m.user.login },
    h('div', null,
      h('a', { href: home(m.user), className: 'title' }, m.user.login),
      m.role === 'maintainer' ? h('span', { className: 'badge' }, 'Maintainer') : null,
      m.inherited ? h('span', { className: 'muted' }, ' through a child team') : null))));
}

export function teamPage(frame: Frame, v: TeamView): string {
  const { team, parent, org, membersCount, reposCount } = v.team;
  return renderPage(frame, fragment(
    h('p', null, h('a', { href: home(org.account) }, org.account.login), ' / ', h('a', { href: orgPath(org.account, 'teams'), id: 'all-teams' }, 'Teams')),
    h('section', { className: 'box', 'aria-labelledby': 'team-name' },
      h('h1', { id: 'team-name' }, team.name,
        h('span', { className: 'badge', id: 'team-privacy' }, team.privacy === 'secret' ? 'Secret' : 'Visible')),
      team.description ? h('p', null, team.description) : null,
      h('ul', { className: 'facts' },
        parent ? h('li', null, 'Part of ', h('a', { href: teamPath(org.account, parent.slug), id: 'parent-team' }, parent.name)) : null,
        h('li', null, `${membersCount} member${membersCount === 1 ? '' : 's'}`),
        h('li', null, `${reposCount} repositor${reposCount === 1 ? 'y' : 'ies'}`),
        h('li', null, 'Created ', time(team.createdAt)))),
    h('h2', null, `Members (${v.members.total})`),
    v.members.items.length ? teamMembers(v.members) : h('p', { className: 'box' }, 'This team has no members.'),
    pager(teamPath(org.account, team.slug), v.page, v.members.total, PER_PAGE)));
}
