// The browser pages of organization SSO: authorizing a token after signing in at the
// identity provider, and the outcome of a sign-in.
import { html } from '../web-session/html.ts';
import { page, type PageFrame } from '../web-session/web-session.views.ts';

export function authorizeTokenPage(frame: PageFrame, org: string, token: { id: number; lastEight: string; note: string | null }): string {
  return page(frame, html`<div class="box">
<h1>Authorize a token for ${org}</h1>
<p>The organization <strong>${org}</strong> uses SAML single sign-on. Authorizing lets the token
<code>…${token.lastEight}</code>${token.note ? html` (${token.note})` : ''} reach the organization's resources.</p>
<form method="post" action="/orgs/${org}/sso/authorize">
<input type="hidden" name="authenticity_token" value="${frame.csrf}">
<input type="hidden" name="token_id" value="${token.id}">
<button type="submit" id="authorize-token">Authorize</button>
</form>
</div>`);
}

export function messagePage(frame: PageFrame, heading: string, message: string): string {
  return page(frame, html`<div class="box"><h1>${heading}</h1><p id="sso-message">${message}</p></div>`);
}
