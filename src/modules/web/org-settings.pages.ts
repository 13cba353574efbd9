// An organization's settings pages, for its owners: the profile form at
// /organizations/{org}/settings/profile (what PATCH /orgs/{org} takes: the public
// profile, the billing address, the members' base permission and what they may create)
// and the people page as an owner sees it (/orgs/{org}/people: each member's role with a
// change and a removal button, and an invitation by username), with the settings menu
// the rulesets pages (org-rulesets.pages.ts) share. A refusal comes back inline with
// what was typed.
import type { Organization } from '../orgs/orgs.model.ts';
import type { Account } from '../users/users.model.ts';
import { profileCard } from './home.pages.ts';
import type { PeopleAdmin, ProfileFields } from './org-settings.service.ts';
import { profileNav } from './profiles.pages.ts';
import { pager } from './repo.layout.ts';
import { PER_PAGE } from './web.service.ts';
import { flash, fragment, h, postForm, renderPage, type Frame, type ReactNode } from './web.render.ts';

const enc = encodeURIComponent;
export const orgSettingsPath = (org: Pick<Account, 'login'>, section: string) => `/organizations/${enc(org.login)}/settings/${section}`;
export const peoplePath = (org: Pick<Account, 'login'>, ...rest: string[]) => ['/orgs', enc(org.login), 'people', ...rest].join('/');

type Section = 'profile' | 'people' | 'rules';

function settingsNav(org: Account, at: Section): ReactNode {
  const items: [Section, string, string][] = [
    ['profile', 'Profile', orgSettingsPath(org, 'profile')], ['people', 'People', peoplePath(org)], ['rules', 'Rules', orgSettingsPath(org, 'rules')],
  ];
  return h('nav', { 'aria-label': 'Organization settings', className: 'tabs' },
    h('ul', null, ...items.map(([key, label, href]) =>
      h('li', { key }, h('a', { href, ...(key === at ? { 'aria-current': 'page' } : {}) }, label)))));
}

/** A settings page of the organization: its card, the settings menu at `section`, then `body`. */
export function orgSettingsPage(frame: Frame, org: Account, section: Section, ...body: ReactNode[]): string {
  return renderPage(frame, fragment(profileCard(org), settingsNav(org, section), ...body));
}

function text(id: string, name: string, value: string, label: string, type = 'text'): ReactNode {
  return fragment(h('label', { htmlFor: id }, label), h('input', { type, id, name, defaultValue: value, autoComplete: 'off' }));
}

function check(id: string, name: string, checked: boolean, label: string): ReactNode {
  return h('div', null,
    h('input', { type: 'checkbox', id, name, value: '1', defaultChecked: checked }),
    h('label', { htmlFor: id, className: 'inline' }, label));
}

export interface ProfileFormState { fields: ProfileFields; errors: string[]; notice: string[] }

export function profileSettingsPage(frame: Frame, org: Organization, form: ProfileFormState): string {
  const f = form.fields;
  const a = org.account;
  return orgSettingsPage(frame, a, 'profile',
    postForm(frame, orgSettingsPath(a, 'profile'), { className: 'box', id: 'org-profile-form', 'aria-labelledby': 'org-profile-heading' },
      h('h2', { id: 'org-profile-heading' }, 'Organization profile'),
      flash('error', form.errors), flash('notice', form.notice),
      text('org-name', 'name', f.name, 'Organization display name'),
      text('org-email', 'email', f.email, 'Public email', 'email'),
      h('label', { htmlFor: 'org-description' }, 'Description'),
      h('textarea', { id: 'org-description', name: 'description', rows: 2, defaultValue: f.description }),
      text('org-blog', 'blog', f.blog, 'URL'),
      text('org-location', 'location', f.location, 'Location'),
      text('org-company', 'company', f.company, 'Company'),
      text('org-twitter', 'twitter_username', f.twitterUsername, 'Twitter username'),
      text('org-billing-email', 'billing_email', f.billingEmail, 'Billing email (private)', 'email'),
      h('fieldset', null, h('legend', null, 'Member privileges'),
        h('label', { htmlFor: 'org-base-permission' }, 'Base permission on the organization\'s repositories'),
        h('select', { id: 'org-base-permission', name: 'default_repository_permission', defaultValue: f.defaultRepositoryPermission },
          ...['none', 'read', 'write', 'admin'].map((p) => h('option', { key: p, value: p }, p))),
        check('org-members-create', 'members_can_create_repositories', f.membersCanCreateRepositories, 'Members can create repositories'),
        check('org-members-create-public', 'members_can_create_public_repositories', f.membersCanCreatePublicRepositories, 'Members can create public repositories'),
        check('org-members-create-private', 'members_can_create_private_repositories', f.membersCanCreatePrivateRepositories, 'Members can create private repositories')),
      h('fieldset', null, h('legend', null, 'Projects and commits'),
        check('org-projects', 'has_organization_projects', f.hasOrganizationProjects, 'Projects for the organization'),
        check('org-repo-projects', 'has_repository_projects', f.hasRepositoryProjects, 'Projects for its repositories'),
        check('org-signoff', 'web_commit_signoff_required', f.webCommitSignoffRequired, 'Require sign-off on web-based commits')),
      h('button', { type: 'submit', id: 'save-org-profile' }, 'Update profile')));
}

export interface InviteState { login: string; role: string; errors: string[] }

export const EMPTY_ORG_INVITE: InviteState = { login: '', role: 'member', errors: [] };

function roleSelect(id: string, selected: string): ReactNode {
  return h('select', { id, name: 'role', defaultValue: selected },
    h('option', { value: 'member' }, 'Member'), h('option', { value: 'admin' }, 'Owner'));
}

/** The people page with an owner's actions. */
export function managedPeoplePage(frame: Frame, v: PeopleAdmin, form: InviteState): string {
  const a = v.org.account;
  const rows = v.members.map((m) => {
    const owner = v.owners.has(m.id);
    return h('li', { key: m.id, className: 'row', 'data-login': m.login },
      h('div', null,
        h('a', { href: `/${enc(m.login)}`, className: 'title' }, m.login),
        m.name ? h('span', { className: 'muted' }, ` ${m.name}`) : null, ' ',
        h('span', { className: 'badge', 'data-role': owner ? 'admin' : 'member' }, owner ? 'Owner' : 'Member')),
      h('div', null,
        postForm(frame, peoplePath(a, 'role'), { className: 'inline' },
          h('input', { type: 'hidden', name: 'login', value: m.login }),
          h('label', { htmlFor: `role-${m.login}`, className: 'sr-only' }, `Role of ${m.login}`),
          roleSelect(`role-${m.login}`, owner ? 'admin' : 'member'),
          h('button', { type: 'submit', className: 'secondary', 'aria-label': `Change the role of ${m.login}` }, 'Change role')),
        ' ',
        postForm(frame, peoplePath(a, 'remove'), { className: 'inline' },
          h('input', { type: 'hidden', name: 'login', value: m.login }),
          h('button', { type: 'submit', className: 'danger', 'aria-label': `Remove ${m.login} from ${a.login}` }, 'Remove'))));
  });
  return renderPage(frame, fragment(profileCard(a), profileNav(a, 'people', true), settingsNav(a, 'people'),
    h('h2', null, `People (${v.total})`),
    flash('error', form.errors),
    h('ul', { className: 'list box', id: 'people' }, ...rows),
    pager(peoplePath(a), v.page, v.total, PER_PAGE),
    postForm(frame, peoplePath(a, 'invite'), { className: 'box', id: 'invite-member-form', 'aria-labelledby': 'invite-member-heading' },
      h('h2', { id: 'invite-member-heading' }, 'Invite member'),
      h('label', { htmlFor: 'invite-member-login' }, 'Username'),
      h('input', { type: 'text', id: 'invite-member-login', name: 'login', defaultValue: form.login, required: true, autoComplete: 'off' }),
      h('label', { htmlFor: 'invite-member-role' }, 'Role'),
      roleSelect('invite-member-role', form.role),
      h('button', { type: 'submit', id: 'invite-member' }, 'Invite'))));
}
