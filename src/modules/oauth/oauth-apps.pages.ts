// The settings pages of OAuth apps a user registered: the list, the form for a new
// one, and each app's page (edit, new client secret, delete).
import { html, type SafeHtml } from '../web-session/html.ts';
import { flash, page, type PageFrame } from '../web-session/web-session.views.ts';
import type { OauthApp, OwnedOauthApp } from './oauth.model.ts';
import { MAX_DESCRIPTION, MAX_NAME } from './oauth-apps.service.ts';

export function developerAppsPage(frame: PageFrame, apps: OwnedOauthApp[], notice: string | null = null): string {
  return page(frame, html`
<div class="box">
<h1>OAuth apps</h1>
${flash('notice', notice)}
${apps.length === 0 ? html`<p>No OAuth apps registered yet.</p>` : html`
<table id="oauth-apps">
<tr><th>Name</th><th>Owner</th><th>Client ID</th></tr>
${apps.map(({ app, owner }) => html`<tr><td><a href="/settings/applications/${app.id}">${app.name}</a></td><td>${owner?.login ?? ''}</td><td><code>${app.clientId}</code></td></tr>`)}
</table>`}
<a class="button" id="new-oauth-app" href="/settings/applications/new">New OAuth app</a>
</div>`);
}

export interface AppFormValues {
  owner: string;
  name: string;
  url: string;
  callbackUrl: string;
  description: string;
}

function appFields(v: AppFormValues): SafeHtml {
  return html`
<label for="oauth_application_name">Application name</label>
<input type="text" id="oauth_application_name" name="name" maxlength="${MAX_NAME}" value="${v.name}" required>
<label for="oauth_application_url">Homepage URL</label>
<input type="url" id="oauth_application_url" name="url" value="${v.url}" required>
<label for="oauth_application_description">Application description</label>
<textarea id="oauth_application_description" name="description" maxlength="${MAX_DESCRIPTION}">${v.description}</textarea>
<label for="oauth_application_callback_url">Authorization callback URL</label>
<input type="url" id="oauth_application_callback_url" name="callback_url" value="${v.callbackUrl}" required>`;
}

export function newAppPage(frame: PageFrame, owners: string[], values: AppFormValues, errors: string[] = []): string {
  return page(frame, html`
<div class="box">
<h1>Register a new OAuth app</h1>
${errors.map((e) => flash('error', e))}
<form method="post" action="/settings/applications/new">
<input type="hidden" name="authenticity_token" value="${frame.csrf}">
<label for="oauth_application_owner">Owner</label>
<select id="oauth_application_owner" name="owner">
${owners.map((o) => html`<option value="${o}"${o === values.owner ? html` selected` : ''}>${o}</option>`)}
</select>
${appFields(values)}
<button type="submit" id="register-app">Register application</button>
</form>
</div>`);
}

export interface AppPageExtras {
  /** A client secret just made: shown this once. */
  clientSecret?: string | null;
  notice?: string | null;
  errors?: string[];
  values?: AppFormValues;
}

export function appPage(frame: PageFrame, owned: OwnedOauthApp, extras: AppPageExtras = {}): string {
  const { app, owner } = owned;
  const values = extras.values ?? formValuesOf(app, owner?.login ?? '');
  return page(frame, html`
<div class="box">
<h1>${app.name}</h1>
${flash('notice', extras.notice)}${(extras.errors ?? []).map((e) => flash('error', e))}
<p>Owned by <strong>${owner?.login ?? 'this Wharf'}</strong></p>
<p>Client ID <code id="client-id">${app.clientId}</code></p>
${extras.clientSecret ? html`<div class="flash notice">Copy the new client secret now; it will not be shown again:
<div><code class="secret" id="client-secret">${extras.clientSecret}</code></div></div>` : ''}
<form method="post" action="/settings/applications/${app.id}/secret">
<input type="hidden" name="authenticity_token" value="${frame.csrf}">
<button type="submit" class="secondary" id="generate-secret">Generate a new client secret</button>
</form>
</div>
<div class="box">
<h2>Settings</h2>
<form method="post" action="/settings/applications/${app.id}">
<input type="hidden" name="authenticity_token" value="${frame.csrf}">
${appFields(values)}
<button type="submit" id="update-app">Update application</button>
</form>
</div>
<div class="box">
<h2>Delete application</h2>
<p>Every token this app obtained stops working.</p>
<form method="post" action="/settings/applications/${app.id}/delete">
<input type="hidden" name="authenticity_token" value="${frame.csrf}">
<button type="submit" class="danger" id="delete-app">Delete application</button>
</form>
</div>`);
}

export function formValuesOf(app: OauthApp, owner: string): AppFormValues {
  return { owner, name: app.name, url: app.url ?? '', callbackUrl: app.callbackUrl ?? '', description: app.description ?? '' };
}
