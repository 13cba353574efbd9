// The settings page of the apps a user authorized, each with its scopes and a revoke button.
import { html } from '../web-session/html.ts';
import { flash, page, type PageFrame } from '../web-session/web-session.views.ts';
import type { AuthorizedApp } from './app-tokens.service.ts';

export function authorizedAppsPage(frame: PageFrame, apps: AuthorizedApp[], notice: string | null = null): string {
  return page(frame, html`
<div class="box">
<h1>Authorized OAuth apps</h1>
${flash('notice', notice)}
${apps.length === 0 ? html`<p id="no-authorized-apps">You have not authorized any application.</p>` : html`
<table id="authorized-apps">
<tr><th>Application</th><th>Owner</th><th>Scopes</th><th></th></tr>
${apps.map((a) => html`<tr data-client-id="${a.app.clientId}"><td>${a.app.name}</td><td>${a.owner?.login ?? ''}</td><td>${a.scopes.join(', ') || '(public data only)'}</td>
<td><form method="post" action="/settings/connections/applications/${a.app.clientId}/revoke" class="inline">
<input type="hidden" name="authenticity_token" value="${frame.csrf}">
<button type="submit" class="danger">Revoke</button></form></td></tr>`)}
</table>`}
</div>`);
}
