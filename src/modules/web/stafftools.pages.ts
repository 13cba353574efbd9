// The site-admin pages: the lists of users, organizations and repositories (each with a
// filter by name and pages), the create forms, and a user's or an organization's page
// with the switches the site-admin API has. Each form posts without script; a refusal
// comes back inline in the form that was sent, with what was typed (never a password).
import type { Organization } from '../orgs/orgs.model.ts';
import type { Account } from '../users/users.model.ts';
import { pager, repoPath } from './repo.layout.ts';
import { STAFF_PER_PAGE, type AccountList, type RepoList } from './stafftools.service.ts';
import { flash, fragment, h, postForm, renderPage, time, type Frame, type ReactNode } from './web.render.ts';

export type StaffTab = 'users' | 'organizations' | 'repositories';

export function staffPath(...rest: string[]): string {
  return ['/stafftools', ...rest.map(encodeURIComponent)].join('/');
}

function staffNav(tab: StaffTab | null): ReactNode {
  const items: [StaffTab, string][] = [['users', 'Users'], ['organizations', 'Organizations'], ['repositories', 'Repositories']];
  return h('nav', { 'aria-label': 'Site admin', className: 'tabs' },
    h('ul', null, ...items.map(([key, label]) =>
      h('li', { key }, h('a', { href: staffPath(key), ...(key === tab ? { 'aria-current': 'page' } : {}) }, label)))));
}

function staffPage(frame: Frame, tab: StaffTab | null, ...body: ReactNode[]): string {
  return renderPage(frame, fragment(h('h1', null, 'Site admin'), staffNav(tab), ...body));
}

/** A form's state after a post: the errors to show in it and what was typed. */
export interface FormState { errors: string[]; typed: Record<string, string> }

export const NO_FORM: FormState = { errors: [], typed: {} };

/** The filter by name (a GET form: the address can be bookmarked). */
function filterForm(tab: StaffTab, q: string, label: string): ReactNode {
  return h('form', { method: 'get', action: staffPath(tab), className: 'filter-form', role: 'search', id: `${tab}-filter` },
    h('label', { htmlFor: `${tab}-q` }, label),
    h('input', { type: 'text', id: `${tab}-q`, name: 'q', defaultValue: q }),
    h('button', { type: 'submit', className: 'secondary' }, 'Filter'));
}

function badges(a: Account): ReactNode {
  return fragment(
    a.siteAdmin ? h('span', { className: 'badge ok', 'data-badge': 'site-admin' }, 'site admin') : null,
    a.suspendedAt ? h('span', { className: 'badge warn', 'data-badge': 'suspended' }, 'suspended') : null);
}

function accountRows(list: AccountList, id: string, none: string): ReactNode {
  if (!list.items.length) return h('p', { className: 'muted', id }, none);
  return h('ul', { className: 'list box', id }, ...list.items.map((a) => h('li', { key: a.id, className: 'row', 'data-login': a.login },
    h('div', null,
      h('a', { href: staffPath('users', a.login) }, h('strong', null, a.login)), badges(a),
      h('div', { className: 'muted' }, a.name ? `${a.name} · ` : '', 'joined ', time(a.createdAt))))));
}

function field(id: string, name: string, label: string, value: string, props: Record<string, unknown> = {}): ReactNode {
  return fragment(
    h('label', { htmlFor: id }, label),
    h('input', { type: 'text', id, name, defaultValue: value, autoComplete: 'off', ...props }));
}

/** What tells the users and organizations lists apart. */
interface AccountListKind {
  tab: 'users' | 'organizations';
  one: string;
  many: string;
  /** The create form's id stem (`create-${stem}-form`) and heading. */
  stem: string;
  heading: string;
  submit: string;
  fields: (typed: Record<string, string>) => ReactNode;
}

/** A list of accounts with its filter, pages and the create form below. */
function accountListPage(frame: Frame, kind: AccountListKind, list: AccountList, form: FormState): string {
  const { q, page } = list.filter;
  const { tab, one, many, stem } = kind;
  return staffPage(frame, tab,
    h('div', { className: 'toolbar' }, filterForm(tab, q, `Filter ${many} by login`),
      h('span', { className: 'muted', id: `${tab}-total` }, `${list.total} ${list.total === 1 ? one : many}`)),
    accountRows(list, tab, q ? `No ${one}'s login holds ${q}.` : `No ${many}.`),
    pager(staffPath(tab), page, list.total, STAFF_PER_PAGE, q ? { q } : {}),
    postForm(frame, staffPath(tab), { className: 'box', id: `create-${stem}-form`, 'aria-labelledby': `create-${stem}-heading` },
      h('h2', { id: `create-${stem}-heading` }, kind.heading),
      flash('error', form.errors),
      kind.fields(form.typed),
      h('button', { type: 'submit', id: `create-${stem}` }, kind.submit)));
}

const USERS: AccountListKind = {
  tab: 'users', one: 'user', many: 'users', stem: 'user', heading: 'Create a user', submit: 'Create user',
  fields: (typed) => fragment(
    field('new-user-login', 'login', 'Login', typed.login ?? '', { required: true }),
    field('new-user-email', 'email', 'E-mail address (optional)', typed.email ?? '', { type: 'email' })),
};

const ORGANIZATIONS: AccountListKind = {
  tab: 'organizations', one: 'organization', many: 'organizations', stem: 'org', heading: 'Create an organization', submit: 'Create organization',
  fields: (typed) => fragment(
    field('new-org-login', 'login', 'Login', typed.login ?? '', { required: true }),
    field('new-org-admin', 'admin', 'Owner (login of a user)', typed.admin ?? '', { required: true }),
    field('new-org-name', 'profile_name', 'Display name (optional)', typed.profile_name ?? '')),
};

export function usersPage(frame: Frame, list: AccountList, form: FormState = NO_FORM): string {
  return accountListPage(frame, USERS, list, form);
}

export function organizationsPage(frame: Frame, list: AccountList, form: FormState = NO_FORM): string {
  return accountListPage(frame, ORGANIZATIONS, list, form);
}

export function repositoriesPage(frame: Frame, list: RepoList): string {
  const { q, page } = list.filter;
  const rows = list.items.length
    ? h('ul', { className: 'list box', id: 'repositories' }, ...list.items.map(({ repo }) => h('li', { key: repo.id, className: 'row', 'data-repo': `${repo.owner.login}/${repo.name}` },
      h('div', null,
        h('a', { href: repoPath(repo) }, h('strong', null, `${repo.owner.login}/${repo.name}`)),
        repo.visibility !== 'public' ? h('span', { className: 'badge' }, repo.visibility) : null,
        repo.isFork ? h('span', { className: 'badge' }, 'fork') : null,
        h('div', { className: 'muted' }, 'owner ', h('a', { href: staffPath('users', repo.owner.login) }, repo.owner.login), ' · created ', time(repo.createdAt))))))
    : h('p', { className: 'muted', id: 'repositories' }, q ? `No repository's name holds ${q}.` : 'No repositories.');
  return staffPage(frame, 'repositories',
    h('div', { className: 'toolbar' }, filterForm('repositories', q, 'Filter repositories by name'),
      h('span', { className: 'muted', id: 'repositories-total' }, `${list.total} ${list.total === 1 ? 'repository' : 'repositories'}`)),
    h('p', { className: 'muted' }, 'Public repositories, and the private ones you may read.'),
    rows,
    pager(staffPath('repositories'), page, list.total, STAFF_PER_PAGE, q ? { q } : {}));
}

// ---------------------------------------------------------------- a user, an organization

/** Which form of the user page a post came from: its refusal is shown in that form. */
export type UserForm = 'suspend' | 'site-admin' | 'rename' | 'password' | 'delete';

export interface UserPageState { form: UserForm | null; state: FormState; notice: string[] }

export const FRESH_USER_PAGE: UserPageState = { form: null, state: NO_FORM, notice: [] };

function details(rows: [string, ReactNode][]): ReactNode {
  return h('table', { className: 'box', id: 'details' },
    h('tbody', null, ...rows.map(([k, v]) => h('tr', { key: k }, h('th', { scope: 'row' }, k), h('td', null, v)))));
}

export function userPage(frame: Frame, a: Account, s: UserPageState = FRESH_USER_PAGE): string {
  const path = (...rest: string[]) => staffPath('users', a.login, ...rest);
  const errorsOf = (f: UserForm) => flash('error', s.form === f ? s.state.errors : []);
  const typed = (f: UserForm, name: string) => (s.form === f ? s.state.typed[name] ?? '' : '');
  const box = (f: UserForm, heading: string, action: string, ...children: ReactNode[]) =>
    postForm(frame, action, { className: 'box', id: `${f}-form`, 'aria-labelledby': `${f}-heading` },
      h('h2', { id: `${f}-heading` }, heading), errorsOf(f), ...children);
  return staffPage(frame, null,
    h('h2', { id: 'account-login' }, a.login, badges(a)),
    flash('notice', s.notice),
    details([
      ['Login', h('a', { href: `/${encodeURIComponent(a.login)}` }, a.login)],
      ['ID', String(a.id)],
      ['Name', a.name ?? '—'],
      ['E-mail', a.email ?? '—'],
      ['Joined', time(a.createdAt)],
      ['Site admin', a.siteAdmin ? 'yes' : 'no'],
      ['Suspended', a.suspendedAt ? fragment('since ', time(a.suspendedAt)) : 'no'],
    ]),
    a.suspendedAt
      ? box('suspend', 'Suspension', path('unsuspend'),
        h('p', null, `${a.login} cannot sign in, nor use their tokens or SSH keys.`),
        h('button', { type: 'submit', id: 'unsuspend' }, 'Unsuspend'))
      : box('suspend', 'Suspend', path('suspend'),
        h('p', null, 'A suspended user cannot sign in, nor use their tokens or SSH keys; their sessions end.'),
        field('suspend-reason', 'reason', 'Reason (written to the server log)', typed('suspend', 'reason')),
        h('button', { type: 'submit', className: 'danger', id: 'suspend' }, 'Suspend')),
    box('site-admin', 'Site administrator', path(a.siteAdmin ? 'demote' : 'promote'),
      h('p', null, a.siteAdmin ? `${a.login} is a site administrator.` : `${a.login} is not a site administrator.`),
      h('button', { type: 'submit', className: a.siteAdmin ? 'danger' : 'secondary', id: a.siteAdmin ? 'demote' : 'promote' },
        a.siteAdmin ? 'Demote to a user' : 'Promote to site administrator')),
    box('rename', 'Rename', path('rename'),
      field('rename-login', 'login', 'New login', typed('rename', 'login') || a.login, { required: true }),
      h('button', { type: 'submit', className: 'secondary', id: 'rename' }, 'Rename')),
    box('password', 'Password', path('password'),
      h('p', null, 'Sets the password of the browser sign-in; the user\'s sessions end.'),
      h('label', { htmlFor: 'new-password' }, 'New password'),
      h('input', { type: 'password', id: 'new-password', name: 'password', autoComplete: 'new-password', required: true }),
      h('button', { type: 'submit', className: 'secondary', id: 'set-password' }, 'Set password')),
    box('delete', 'Delete', path('delete'),
      h('p', null, `Deletes ${a.login} and everything they own. This cannot be undone.`),
      field('delete-confirm', 'confirm', `Type ${a.login} to confirm`, typed('delete', 'confirm'), { required: true }),
      h('button', { type: 'submit', className: 'danger', id: 'delete-user' }, 'Delete user')));
}

export function organizationPage(frame: Frame, org: Organization, form: FormState = NO_FORM): string {
  const a = org.account;
  return staffPage(frame, null,
    h('h2', { id: 'account-login' }, a.login, h('span', { className: 'badge' }, 'organization')),
    details([
      ['Login', h('a', { href: `/${encodeURIComponent(a.login)}` }, a.login)],
      ['ID', String(a.id)],
      ['Name', a.name ?? '—'],
      ['Description', org.settings.description ?? '—'],
      ['Created', time(a.createdAt)],
    ]),
    postForm(frame, staffPath('users', a.login, 'rename'), { className: 'box', id: 'rename-form', 'aria-labelledby': 'rename-heading' },
      h('h2', { id: 'rename-heading' }, 'Rename'),
      flash('error', form.errors),
      field('rename-login', 'login', 'New login', form.typed.login ?? a.login, { required: true }),
      h('button', { type: 'submit', className: 'secondary', id: 'rename' }, 'Rename')));
}
