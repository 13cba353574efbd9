// The browser pages of organization SSO: authorizing a token after signing in at the
// identity provider, and the outcome of a sign-in.
import { html } from '../web-session/html.ts';
import { flash, page, type PageFrame } from '../web-session/web-session.views.ts';

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

export interface SsoSettingsForm {
  org: string;
  enabled: boolean;
  idpEntityId: string;
  ssoUrl: string;
  certificate: string;
  fingerprint: string | null;
  /** Wharf's side, for the identity provider. */
  spEntityId: string;
  acsUrl: string;
  metadataUrl: string;
  error?: string | null;
  notice?: string | null;
}

/** The owner's SSO settings page: the identity provider's entity id, SSO URL and signing certificate. */
export function ssoSettingsPage(frame: PageFrame, f: SsoSettingsForm): string {
  return page(frame, html`<div class="box">
<h1>SAML single sign-on for ${f.org}</h1>
${flash('error', f.error)}${flash('notice', f.notice)}
<p id="sso-state">${f.enabled ? html`Enabled. Certificate fingerprint <code>${f.fingerprint}</code>.` : 'Not enabled.'}</p>
<p>Configure the identity provider with the entity id <code>${f.spEntityId}</code> and the assertion consumer URL
<code>${f.acsUrl}</code>, or give it the <a href="${f.metadataUrl}">service provider metadata</a>.</p>
<form method="post" action="/orgs/${f.org}/settings/sso">
<input type="hidden" name="authenticity_token" value="${frame.csrf}">
<label for="idp_entity_id">Identity provider entity id (issuer)</label>
<input type="text" id="idp_entity_id" name="idp_entity_id" value="${f.idpEntityId}" required>
<label for="sso_url">Sign-on URL</label>
<input type="url" id="sso_url" name="sso_url" value="${f.ssoUrl}" required>
<label for="certificate">Signing certificate (PEM)</label>
<textarea id="certificate" name="certificate" rows="8" required>${f.certificate}</textarea>
<button type="submit" id="save-sso">${f.enabled ? 'Save' : 'Enable SAML single sign-on'}</button>
</form>
${f.enabled ? html`<form method="post" action="/orgs/${f.org}/settings/sso/disable">
<input type="hidden" name="authenticity_token" value="${frame.csrf}">
<button type="submit" class="danger" id="disable-sso">Turn off SAML single sign-on</button>
</form>` : ''}
</div>`);
}
