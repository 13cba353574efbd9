// The settings pages of apps: the list, the manifest confirmation, each app's page
// (its keys, a new private key shown once, revoking one).
import { html } from '../web-session/html.ts';
import { flash, page, type PageFrame } from '../web-session/web-session.views.ts';
import type { AppKey } from './apps.model.ts';
import type { AppFields, PresentedApp } from './apps.service.ts';

export function appsListPage(frame: PageFrame, apps: PresentedApp[]): string {
  return page(frame, html`
<div class="box">
<h1>Apps</h1>
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
</div>`);
}
