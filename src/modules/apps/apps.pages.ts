// The settings pages of apps: the list, the manifest confirmation, each app's page
// (its keys, a new private key shown once, revoking one).
import { html } from '../web-session/html.ts';
import { flash, page, type PageFrame } from '../web-session/web-session.views.ts';
import type { AppKey } from './apps.model.ts';
import type { App } from './apps.model.ts';
import type { AppFields, AppForm, PresentedApp } from './apps.service.ts';

export function appsListPage(frame: PageFrame, apps: PresentedApp[], notice: string | null = null): string {
  return page(frame, html`
<div class="box">
<h1>Apps</h1>
${flash('notice', notice)}
<a class="button" id="new-app" href="/settings/apps/new">New app</a>
${apps.length === 0 ? html`<p>No apps registered yet.</p>` : html`
<table id="apps">
<tr><th>Name</th><th>Owner</th><th>App ID</th><th>Client ID</th></tr>
${apps.map(({ app, owner }) => html`<tr><td><a href="/settings/apps/${app.slug}">${app.name}</a></td><td>${owner?.login ?? ''}</td><td>${app.id}</td><td><code>${app.clientId}</code></td></tr>`)}
</table>`}
</div>`);
}

export interface ManifestRequest {
  /** Where the confirmation posts back to (the user's or the organization's path). */
  action: string;
  owner: string;
  manifest: string;
  state: string;
}

export function manifestConfirmPage(frame: PageFrame, req: ManifestRequest, fields: AppFields | null, errors: string[] = []): string {
  return page(frame, html`
<div class="box">
<h1>Create app${fields ? html` <span id="app-name">${fields.name}</span>` : ''}</h1>
${errors.map((e) => flash('error', e))}
${fields ? html`
<p>Owned by <strong id="app-owner">${req.owner}</strong>. Homepage: ${fields.externalUrl}</p>
${fields.description ? html`<p>${fields.description}</p>` : ''}
<h2>Permissions</h2>
<ul id="permissions">${Object.entries(fields.permissions).map(([k, v]) => html`<li data-permission="${k}">${k}: ${v}</li>`)}</ul>
<h2>Events</h2>
${fields.events.length ? html`<ul id="events">${fields.events.map((e) => html`<li>${e}</li>`)}</ul>` : html`<p>None.</p>`}
<p>Webhook: ${fields.webhookUrl ?? 'none'}${fields.webhookActive ? '' : ' (inactive)'}</p>
<form method="post" action="${req.action}">
<input type="hidden" name="authenticity_token" value="${frame.csrf}">
<input type="hidden" name="manifest" value="${req.manifest}">
<input type="hidden" name="state" value="${req.state}">
<input type="hidden" name="confirm" value="1">
<button type="submit" id="create-app">Create app for ${req.owner}</button>
</form>` : ''}
</div>`);
}

/** Shown when the manifest named no redirect_url: the code goes to the user instead. */
export function manifestCodePage(frame: PageFrame, app: PresentedApp, code: string): string {
  return page(frame, html`
<div class="box">
<h1>${app.app.name} created</h1>
<p>Convert this code with <code>POST /app-manifests/{code}/conversions</code> within an hour:</p>
<p><code id="manifest-code">${code}</code></p>
<p><a href="/settings/apps/${app.app.slug}">App settings</a></p>
</div>`);
}

export interface AppPageExtras {
  notice?: string | null;
  /** A private key just made: shown this once. */
  pem?: string | null;
  /** A client secret just made: shown this once. */
  clientSecret?: string | null;
  /** The settings form as posted, with what is wrong with it. */
  values?: AppForm;
  errors?: string[];
  /** What is wrong with a deletion request. */
  deleteErrors?: string[];
}

export function appSettingsPage(frame: PageFrame, presented: PresentedApp, keys: AppKey[], extras: AppPageExtras = {}): string {
  const { app, owner } = presented;
  return page(frame, html`
<div class="box">
<h1>${app.name}</h1>
${flash('notice', extras.notice)}
<p>Owned by <strong>${owner?.login ?? ''}</strong>; ${app.public ? 'public' : 'private'}</p>
<p>App ID <code id="app-id">${app.id}</code> · Client ID <code id="client-id">${app.clientId}</code></p>
<p>Install: <a href="/apps/${app.slug}/installations/new">/apps/${app.slug}/installations/new</a></p>
</div>
${appSettingsForm(frame, app, extras.values ?? formOf(app), extras.errors ?? [], extras.clientSecret ?? null)}
<div class="box">
<h2>Private keys</h2>
${extras.pem ? html`<div class="flash notice">Save the new private key now; Wharf keeps only its public half:
<pre class="secret" id="private-key">${extras.pem}</pre></div>` : ''}
${keys.length === 0 ? html`<p>No keys: JSON web tokens cannot be signed.</p>` : html`
<table id="keys">
${keys.map((k) => html`<tr data-key-id="${k.id}"><td><code>${k.fingerprint}</code></td><td>${k.createdAt}</td><td>
<form method="post" action="/settings/apps/${app.slug}/keys/${k.id}/delete">
<input type="hidden" name="authenticity_token" value="${frame.csrf}">
<button type="submit" class="danger">Revoke</button>
</form></td></tr>`)}
</table>`}
<form method="post" action="/settings/apps/${app.slug}/keys">
<input type="hidden" name="authenticity_token" value="${frame.csrf}">
<button type="submit" id="generate-key">Generate a private key</button>
</form>
</div>
<div class="box danger-zone">
<h2>Delete this app</h2>
${(extras.deleteErrors ?? []).map((e) => flash('error', e))}
<p>Deleting removes every installation (each is told by an <code>installation</code> <code>deleted</code> webhook), and every token and key of the app.</p>
<form method="post" action="/settings/apps/${app.slug}/delete">
<input type="hidden" name="authenticity_token" value="${frame.csrf}">
<label for="delete_verify">Type the app's name to confirm</label><input type="text" id="delete_verify" name="verify" value="">
<button type="submit" class="danger" id="delete-app">Delete app</button>
</form>
</div>`);
}

/** The form's values of an app (for its settings page). */
export function formOf(app: App): AppForm {
  return {
    name: app.name, url: app.externalUrl, description: app.description ?? '', callback_url: app.callbackUrl ?? '',
    setup_url: app.setupUrl ?? '', webhook_url: app.webhookUrl ?? '', webhook_active: app.webhookActive ? '1' : undefined,
    public: app.public ? '1' : undefined, permissions: Object.entries(app.permissions).map(([k, v]) => `${k}: ${v}`).join('\n'),
    events: app.events.join(', '), user_tokens_expire: app.userTokensExpire ? '1' : '0',
  };
}

function settingsFields(v: AppForm, withName: boolean) {
  return html`
${withName ? html`<label for="app_name">App name</label><input type="text" id="app_name" name="name" value="${v.name ?? ''}" required>` : ''}
<label for="app_url">Homepage URL</label><input type="url" id="app_url" name="url" value="${v.url ?? ''}" required>
<label for="app_description">Description</label><textarea id="app_description" name="description">${v.description ?? ''}</textarea>
<label for="app_callback_url">Callback URL</label><input type="url" id="app_callback_url" name="callback_url" value="${v.callback_url ?? ''}">
<label for="app_setup_url">Setup URL</label><input type="url" id="app_setup_url" name="setup_url" value="${v.setup_url ?? ''}">
<label for="app_webhook_url">Webhook URL</label><input type="url" id="app_webhook_url" name="webhook_url" value="${v.webhook_url ?? ''}">
<label><input type="checkbox" name="webhook_active" value="1"${v.webhook_active ? html` checked` : ''}> Webhook active</label>
<label><input type="checkbox" name="public" value="1"${v.public ? html` checked` : ''}> Any account may install this app</label>
<label for="app_user_tokens_expire">User authorization tokens</label>
<select id="app_user_tokens_expire" name="user_tokens_expire">
<option value="1"${v.user_tokens_expire !== '0' ? html` selected` : ''}>Expire after 8 hours (refreshable)</option>
<option value="0"${v.user_tokens_expire === '0' ? html` selected` : ''}>Never expire</option>
</select>
<label for="app_permissions">Permissions (one "name: read" or "name: write" per line)</label>
<textarea id="app_permissions" name="permissions">${v.permissions ?? ''}</textarea>
<label for="app_events">Events (comma-separated)</label><input type="text" id="app_events" name="events" value="${v.events ?? ''}">`;
}

export function newAppPage(frame: PageFrame, owners: string[], owner: string, values: AppForm, errors: string[] = []): string {
  return page(frame, html`
<div class="box">
<h1>Register a new app</h1>
${errors.map((e) => flash('error', e))}
<form method="post" action="/settings/apps/new">
<input type="hidden" name="authenticity_token" value="${frame.csrf}">
<label for="app_owner">Owner</label>
<select id="app_owner" name="owner">${owners.map((o) => html`<option value="${o}"${o === owner ? html` selected` : ''}>${o}</option>`)}</select>
${settingsFields(values, true)}
<button type="submit" id="register-app">Register app</button>
</form>
</div>`);
}

/** The settings part of an app's page: the form, and a new client secret. */
export function appSettingsForm(frame: PageFrame, app: App, values: AppForm, errors: string[] = [], clientSecret: string | null = null) {
  return html`
<div class="box">
<h2>Settings</h2>
${errors.map((e) => flash('error', e))}
${clientSecret ? html`<div class="flash notice">Copy the new client secret now; it will not be shown again:
<div><code class="secret" id="client-secret">${clientSecret}</code></div></div>` : ''}
<form method="post" action="/settings/apps/${app.slug}/secret">
<input type="hidden" name="authenticity_token" value="${frame.csrf}">
<button type="submit" class="secondary" id="generate-secret">Generate a new client secret</button>
</form>
<form method="post" action="/settings/apps/${app.slug}">
<input type="hidden" name="authenticity_token" value="${frame.csrf}">
${settingsFields(values, false)}
<button type="submit" id="update-app">Save changes</button>
</form>
</div>`;
}
