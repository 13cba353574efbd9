// The repository settings pages, for its admins: Access (collaborators with their
// permission, pending invitations, the invite form, and a permission change and removal
// button per collaborator) and Webhooks (the list, the new and edit forms, and a hook's
// recent deliveries with a Redeliver button). A refusal comes back inline, with what was
// typed; a hook's secret is never shown back.
import { ROLE_NAME } from '../collaborators/collaborators.model.ts';
import type { Delivery, Hook } from '../hooks/hooks.model.ts';
import type { Repo } from '../repos/repos.model.ts';
import { repoHeader, repoPath } from './repo.layout.ts';
import { INVITATION_PERMISSIONS, PERMISSIONS, type AccessView, type HookFields } from './repo-settings.service.ts';
import { flash, fragment, h, postForm, renderPage, time, type Frame, type ReactNode } from './web.render.ts';

export type SettingsSection = 'access' | 'branches' | 'rules' | 'hooks';

/** The settings side menu, beside each settings page. */
function settingsNav(repo: Repo, section: SettingsSection): ReactNode {
  const items: [SettingsSection, string][] = [['access', 'Collaborators'], ['branches', 'Branches'], ['rules', 'Rules'], ['hooks', 'Webhooks']];
  return h('nav', { 'aria-label': 'Settings', className: 'tabs' },
    h('ul', null, ...items.map(([key, label]) =>
      h('li', { key }, h('a', { href: repoPath(repo, 'settings', key), ...(key === section ? { 'aria-current': 'page' } : {}) }, label)))));
}

/** A settings page: the repository's heading with the Settings tab, the settings menu, then `body`. */
export function settingsPage(frame: Frame, repo: Repo, section: SettingsSection, ...body: ReactNode[]): string {
  return renderPage(frame, fragment(repoHeader(repo, 'settings', true), settingsNav(repo, section), ...body));
}

function permissionSelect(id: string, selected: string): ReactNode {
  return h('select', { id, name: 'permission', defaultValue: selected },
    ...PERMISSIONS.map((p) => h('option', { key: p, value: p }, `${p} (${ROLE_NAME[p]})`)));
}

export interface InviteFormState { login: string; permission: string; errors: string[]; notice: string[] }

export const EMPTY_INVITE: InviteFormState = { login: '', permission: 'push', errors: [], notice: [] };

export function accessPage(frame: Frame, v: AccessView, form: InviteFormState): string {
  const { repo } = v;
  const personalOwner = (id: number) => repo.owner.type !== 'Organization' && id === repo.ownerId;
  const rows = v.collaborators.map(({ user, grant }) => h('li', { key: user.login, className: 'row', 'data-collaborator': user.login },
    h('div', null, h('a', { href: `/${encodeURIComponent(user.login)}` }, h('strong', null, user.login)), ' ',
      h('span', { className: 'badge', 'data-permission': grant.role }, grant.roleName),
      personalOwner(user.id) ? h('span', { className: 'muted' }, ' owner') : null),
    grant.direct && !personalOwner(user.id)
      ? h('div', null,
        postForm(frame, repoPath(repo, 'settings', 'access', 'collaborators'), { className: 'inline' },
          h('input', { type: 'hidden', name: 'login', value: user.login }),
          h('label', { htmlFor: `permission-${user.login}`, className: 'sr-only' }, `Permission of ${user.login}`),
          permissionSelect(`permission-${user.login}`, grant.role),
          h('button', { type: 'submit', className: 'secondary', 'aria-label': `Change the permission of ${user.login}` }, 'Change')),
        ' ',
        postForm(frame, repoPath(repo, 'settings', 'access', 'collaborators', 'remove'), { className: 'inline' },
          h('input', { type: 'hidden', name: 'login', value: user.login }),
          h('button', { type: 'submit', className: 'danger', 'aria-label': `Remove ${user.login}` }, 'Remove')))
      : null));
  const invitations = v.invitations.map((i) => {
    const who = i.invitee?.login ?? '(deleted user)';
    const id = i.invitation.id;
    return h('li', { key: id, className: 'row', 'data-invitation': i.invitee?.login ?? '', 'data-invitation-id': id },
      h('div', null, h('strong', null, who), ' ',
        h('span', { className: 'badge', 'data-permission': i.invitation.role }, ROLE_NAME[i.invitation.role]),
        h('span', { className: 'muted' }, ' invited ', time(i.invitation.createdAt), i.expired ? ' (expired)' : '')),
      h('div', null,
        postForm(frame, repoPath(repo, 'settings', 'access', 'invitations', id), { className: 'inline' },
          h('label', { htmlFor: `invitation-${id}`, className: 'sr-only' }, `Permission of the invitation of ${who}`),
          h('select', { id: `invitation-${id}`, name: 'permissions', defaultValue: ROLE_NAME[i.invitation.role] },
            ...INVITATION_PERMISSIONS.map((p) => h('option', { key: p, value: p }, p))),
          h('button', { type: 'submit', className: 'secondary', 'aria-label': `Change the permission of the invitation of ${who}` }, 'Change')),
        ' ',
        postForm(frame, repoPath(repo, 'settings', 'access', 'invitations', id, 'delete'), { className: 'inline' },
          h('button', { type: 'submit', className: 'danger', 'aria-label': `Cancel the invitation of ${who}` }, 'Cancel invitation'))));
  });
  return settingsPage(frame, repo, 'access',
    h('h2', null, 'Collaborators'),
    flash('error', form.errors), flash('notice', form.notice),
    h('ul', { className: 'list', id: 'collaborators' }, ...rows),
    h('h2', null, 'Pending invitations'),
    invitations.length ? h('ul', { className: 'list', id: 'invitations' }, ...invitations) : h('p', { className: 'muted', id: 'invitations' }, 'No pending invitations.'),
    postForm(frame, repoPath(repo, 'settings', 'access', 'collaborators'), { className: 'box', id: 'invite-form', 'aria-labelledby': 'invite-heading' },
      h('h2', { id: 'invite-heading' }, 'Add a collaborator'),
      h('label', { htmlFor: 'invite-login' }, 'Login'),
      h('input', { type: 'text', id: 'invite-login', name: 'login', defaultValue: form.login, required: true, autoComplete: 'off' }),
      h('label', { htmlFor: 'invite-permission' }, 'Permission'),
      permissionSelect('invite-permission', form.permission),
      h('button', { type: 'submit', id: 'invite' }, 'Add collaborator')));
}

// ---------------------------------------------------------------- webhooks

function eventsText(events: readonly string[]): string {
  return events.includes('*') ? 'every event' : events.join(', ');
}

function lastResponse(hook: Hook): string {
  const r = hook.lastResponse;
  return r.code !== null ? `${r.code} ${r.message ?? ''}`.trim() : r.status;
}

export function hooksPage(frame: Frame, repo: Repo, hooks: Hook[], notice: string[] = []): string {
  const rows = hooks.map((hook) => h('li', { key: hook.id, className: 'row', 'data-hook-id': hook.id },
    h('div', null,
      h('a', { href: repoPath(repo, 'settings', 'hooks', hook.id) }, h('strong', null, hook.config.url)), ' ',
      h('span', { className: hook.active ? 'badge' : 'badge warn' }, hook.active ? 'active' : 'inactive'),
      h('div', { className: 'muted' }, `Events: ${eventsText(hook.events)} · Last response: ${lastResponse(hook)}`))));
  return settingsPage(frame, repo, 'hooks',
    h('h2', null, 'Webhooks'),
    flash('notice', notice),
    h('p', null, h('a', { href: repoPath(repo, 'settings', 'hooks', 'new'), className: 'button', id: 'new-hook' }, 'Add webhook')),
    rows.length ? h('ul', { className: 'list', id: 'hooks' }, ...rows) : h('p', { className: 'muted', id: 'hooks' }, 'No webhooks yet.'));
}

export interface HookFormState extends Omit<HookFields, 'secret'> { hasSecret: boolean; errors: string[] }

export function hookFormOf(hook: Hook | null): HookFormState {
  return {
    url: hook?.config.url ?? '', contentType: hook?.config.contentType ?? 'json', events: hook ? hook.events.join(', ') : 'push',
    active: hook?.active ?? true, hasSecret: hook?.config.hasSecret ?? false, errors: [],
  };
}

/** The form again as typed, but never the secret. */
export function typedHookForm(current: HookFormState, f: HookFields, errors: string[]): HookFormState {
  return { ...current, url: f.url, contentType: f.contentType, events: f.events, active: f.active, errors };
}

function hookFields(form: HookFormState): ReactNode {
  return fragment(
    flash('error', form.errors),
    h('label', { htmlFor: 'hook-url' }, 'Payload URL'),
    h('input', { type: 'url', id: 'hook-url', name: 'url', defaultValue: form.url, required: true }),
    h('label', { htmlFor: 'hook-content-type' }, 'Content type'),
    h('select', { id: 'hook-content-type', name: 'content_type', defaultValue: form.contentType },
      h('option', { value: 'json' }, 'application/json'), h('option', { value: 'form' }, 'application/x-www-form-urlencoded')),
    h('label', { htmlFor: 'hook-secret' }, form.hasSecret ? 'Secret (one is set; leave empty to keep it)' : 'Secret'),
    h('input', { type: 'password', id: 'hook-secret', name: 'secret', autoComplete: 'new-password' }),
    h('label', { htmlFor: 'hook-events' }, 'Events (comma separated; * for every event)'),
    h('input', { type: 'text', id: 'hook-events', name: 'events', defaultValue: form.events }),
    h('label', null, h('input', { type: 'checkbox', id: 'hook-active', name: 'active', value: '1', defaultChecked: form.active }), ' Active'));
}

export function newHookPage(frame: Frame, repo: Repo, form: HookFormState): string {
  return settingsPage(frame, repo, 'hooks',
    postForm(frame, repoPath(repo, 'settings', 'hooks'), { className: 'box', id: 'new-hook-form', 'aria-labelledby': 'new-hook-heading' },
      h('h2', { id: 'new-hook-heading' }, 'Add webhook'),
      hookFields(form),
      h('button', { type: 'submit', id: 'create-hook' }, 'Add webhook')));
}

function deliveryRow(frame: Frame, repo: Repo, hook: Hook, d: Delivery): ReactNode {
  return h('tr', { key: d.id, 'data-delivery-id': d.id },
    h('td', null, d.statusCode ? String(d.statusCode) : d.state),
    h('td', null, d.action ? `${d.event}.${d.action}` : d.event, d.redelivery ? h('span', { className: 'muted' }, ' (redelivery)') : null),
    h('td', null, h('time', { dateTime: d.deliveredAt }, d.deliveredAt.replace('T', ' ').replace('Z', ' UTC'))),
    h('td', null, `${d.duration.toFixed(2)} s`),
    h('td', null, postForm(frame, repoPath(repo, 'settings', 'hooks', hook.id, 'deliveries', d.id, 'redeliver'), { className: 'inline' },
      h('button', { type: 'submit', className: 'secondary', 'aria-label': `Redeliver ${d.guid}` }, 'Redeliver'))));
}

export function hookPage(frame: Frame, repo: Repo, hook: Hook, deliveries: Delivery[], form: HookFormState, notice: string[] = []): string {
  return settingsPage(frame, repo, 'hooks',
    flash('notice', notice),
    postForm(frame, repoPath(repo, 'settings', 'hooks', hook.id), { className: 'box', id: 'edit-hook-form', 'aria-labelledby': 'edit-hook-heading' },
      h('h2', { id: 'edit-hook-heading' }, `Webhook ${hook.config.url}`),
      hookFields(form),
      h('button', { type: 'submit', id: 'save-hook' }, 'Update webhook')),
    postForm(frame, repoPath(repo, 'settings', 'hooks', hook.id, 'delete'), { className: 'inline', id: 'delete-hook-form' },
      h('button', { type: 'submit', className: 'danger', id: 'delete-hook' }, 'Delete webhook')),
    h('h2', null, 'Recent deliveries'),
    deliveries.length
      ? h('table', { id: 'deliveries' },
        h('thead', null, h('tr', null, h('th', null, 'Status'), h('th', null, 'Event'), h('th', null, 'Time'), h('th', null, 'Duration'), h('th', null, h('span', { className: 'sr-only' }, 'Actions')))),
        h('tbody', null, ...deliveries.map((d) => deliveryRow(frame, repo, hook, d))))
      : h('p', { className: 'muted', id: 'deliveries' }, 'No deliveries yet.'));
}
