// The install page of an app: where (the user's account or an organization it owns),
// on which repositories, and the permissions the user accepts by installing.
import { html } from '../web-session/html.ts';
import { flash, page, type PageFrame } from '../web-session/web-session.views.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { Account } from '../users/users.model.ts';
import type { App, Installation } from './apps.model.ts';

export function installPage(frame: PageFrame, app: App, targets: Account[], target: Account, repositories: Repo[], errors: string[] = []): string {
  return page(frame, html`
<div class="box">
<h1>Install <span id="app-name">${app.name}</span></h1>
${errors.map((e) => flash('error', e))}
${targets.length > 1 ? html`<form method="get" action="/apps/${app.slug}/installations/new">
<label for="target-switch">Account</label>
<select id="target-switch" name="target">${targets.map((t) => html`<option value="${t.login}"${t.id === target.id ? html` selected` : ''}>${t.login}</option>`)}</select>
<button type="submit" class="secondary">Switch</button>
</form>` : ''}
<form method="post" action="/apps/${app.slug}/installations/new">
<input type="hidden" name="authenticity_token" value="${frame.csrf}">
<input type="hidden" name="target" value="${target.login}">
<p>Install on <strong id="install-target">${target.login}</strong></p>
<label><input type="radio" name="repository_selection" value="all" checked> All repositories</label>
<label><input type="radio" name="repository_selection" value="selected"> Only select repositories</label>
<ul id="repositories">${repositories.map((r) => html`<li><label><input type="checkbox" name="repo_${r.id}" value="1"> ${r.name}</label></li>`)}</ul>
<h2>Permissions</h2>
<ul id="permissions">${Object.entries(app.permissions).map(([k, v]) => html`<li data-permission="${k}">${k}: ${v}</li>`)}</ul>
<button type="submit" id="install">Install</button>
</form>
</div>`);
}

export function installedPage(frame: PageFrame, app: App, target: Account, installation: Installation): string {
  return page(frame, html`
<div class="box">
<h1>${app.name} installed</h1>
<p>On <strong>${target.login}</strong>, ${installation.repositorySelection === 'all' ? 'all repositories' : 'selected repositories'}.</p>
<p>Installation ID <code id="installation-id">${installation.id}</code></p>
</div>`);
}
