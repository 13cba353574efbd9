// The settings page of a user's SSH and GPG keys: both lists with a delete button each,
// and the forms that add one (the key pasted as text).
import { html, type SafeHtml } from '../web-session/html.ts';
import { flash, page, type PageFrame } from '../web-session/web-session.views.ts';
import type { GpgKey } from '../verification/verification.model.ts';
import type { SshKey } from './keys.model.ts';

export interface KeysPageData {
  ssh: SshKey[];
  gpg: GpgKey[];
}

/** What a refused form shows again, and which form it was. */
export interface KeyFormState {
  kind: 'ssh' | 'gpg';
  title: string;
  key: string;
  errors: readonly string[];
}

function day(iso: string | null): string {
  return iso ? iso.slice(0, 10) : '';
}

function deleteButton(frame: PageFrame, action: string, label: string): SafeHtml {
  return html`<form method="post" action="${action}" class="inline">
<input type="hidden" name="authenticity_token" value="${frame.csrf}">
<button type="submit" class="danger" aria-label="${label}">Delete</button></form>`;
}

function sshRow(frame: PageFrame, k: SshKey): SafeHtml {
  return html`<li class="row" data-ssh-key-id="${k.id}"><div><strong>${k.title}</strong>
<div><code>${k.fingerprint}</code></div>
<div class="muted">Added ${day(k.createdAt)} · ${k.lastUsed ? `last used ${day(k.lastUsed)}` : 'never used'}</div></div>
${deleteButton(frame, `/settings/ssh/${k.id}/delete`, `Delete SSH key ${k.title}`)}</li>`;
}

function gpgRow(frame: PageFrame, k: GpgKey): SafeHtml {
  return html`<li class="row" data-gpg-key-id="${k.id}"><div><strong>${k.name ?? k.keyId}</strong>
<div>Key ID: <code>${k.keyId}</code>${k.subkeys.length ? html` <span class="muted">Subkeys: ${k.subkeys.map((s) => s.keyId).join(', ')}</span>` : ''}</div>
<div class="muted">${k.emails.length ? k.emails.join(', ') : 'no email address'} · Added ${day(k.createdAt)}${k.expiresAt ? ` · expires ${day(k.expiresAt)}` : ''}${k.revoked ? ' · revoked' : ''}</div></div>
${deleteButton(frame, `/settings/gpg/${k.id}/delete`, `Delete GPG key ${k.name ?? k.keyId}`)}</li>`;
}

function addForm(frame: PageFrame, kind: 'ssh' | 'gpg', state: KeyFormState | null): SafeHtml {
  const mine = state?.kind === kind ? state : null;
  const ssh = kind === 'ssh';
  return html`<details${mine ? html` open` : ''}><summary id="add-${kind}-key">New ${ssh ? 'SSH' : 'GPG'} key</summary>
${(mine?.errors ?? []).map((e) => flash('error', e))}
<form method="post" action="/settings/${kind}/new">
<input type="hidden" name="authenticity_token" value="${frame.csrf}">
<label for="${kind}-title">${ssh ? 'Title' : 'Name'}</label>
<input type="text" id="${kind}-title" name="title" value="${mine?.title ?? ''}" maxlength="255">
<label for="${kind}-key">Key</label>
<textarea id="${kind}-key" name="key" rows="${ssh ? 4 : 10}" required placeholder="${ssh ? "Begins with 'ssh-rsa', 'ssh-ed25519', 'ecdsa-sha2-nistp256', …" : "Begins with '-----BEGIN PGP PUBLIC KEY BLOCK-----'"}">${mine?.key ?? ''}</textarea>
<button type="submit" id="create-${kind}-key">Add ${ssh ? 'SSH' : 'GPG'} key</button>
</form></details>`;
}

export function keysPage(frame: PageFrame, data: KeysPageData, options: { notice?: string; form?: KeyFormState } = {}): string {
  const form = options.form ?? null;
  return page(frame, html`
<div class="box">
<h1>SSH and GPG keys</h1>
<p><a href="/settings">Settings</a></p>
${flash('notice', options.notice)}
<h2>SSH keys</h2>
<p class="muted">Keys that may use git over SSH as you.</p>
${data.ssh.length === 0 ? html`<p id="no-ssh-keys">There are no SSH keys on your account.</p>`
    : html`<ul class="list box" id="ssh-keys">${data.ssh.map((k) => sshRow(frame, k))}</ul>`}
${addForm(frame, 'ssh', form)}
<h2>GPG keys</h2>
<p class="muted">Commits and tags signed by these keys show as verified when the key's address is one of your verified email addresses.</p>
${data.gpg.length === 0 ? html`<p id="no-gpg-keys">There are no GPG keys on your account.</p>`
    : html`<ul class="list box" id="gpg-keys">${data.gpg.map((k) => gpgRow(frame, k))}</ul>`}
${addForm(frame, 'gpg', form)}
</div>`);
}
