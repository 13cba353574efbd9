// The approval page of the web flow: the app, its owner, each scope in words, and the
// two buttons. The request travels in hidden fields and is checked again on submit.
import { html } from '../web-session/html.ts';
import { page, type PageFrame } from '../web-session/web-session.views.ts';
import type { AuthorizationRequest } from './oauth.model.ts';
import { scopeInWords } from './scope-words.ts';

export function approvalPage(frame: PageFrame, req: AuthorizationRequest): string {
  const hidden: [string, string | null][] = [
    ['client_id', req.app.clientId], ['redirect_uri', req.redirectUri], ['scope', req.scopes.join(' ')], ['state', req.state],
    ['code_challenge', req.codeChallenge], ['code_challenge_method', req.codeChallenge ? 'S256' : null],
  ];
  return page(frame, html`
<div class="box">
<h1>Authorize <span id="app-name">${req.app.name}</span></h1>
<p><span id="app-owner">${req.owner?.login ?? 'Wharf'}</span> wants to access your <strong>${frame.user?.login ?? ''}</strong> account.</p>
${req.app.description ? html`<p>${req.app.description}</p>` : ''}
${req.scopes.length === 0
    ? html`<p id="no-scopes">Public information only (read-only).</p>`
    : html`<ul class="scopes" id="scopes">${req.scopes.map((s) => html`<li data-scope="${s}"><strong>${scopeInWords(s)}</strong> <code>${s}</code></li>`)}</ul>`}
${req.app.url ? html`<p>Homepage: ${req.app.url}</p>` : ''}
<p>Authorizing will redirect to <code>${new URL(req.redirectUri).origin}</code></p>
<form method="post" action="/login/oauth/authorize">
<input type="hidden" name="authenticity_token" value="${frame.csrf}">
${hidden.filter(([, v]) => v !== null).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}
<button type="submit" name="authorize" value="0" class="secondary" id="deny">Cancel</button>
<button type="submit" name="authorize" value="1" id="approve">Authorize ${req.app.name}</button>
</form>
</div>`);
}
