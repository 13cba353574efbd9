// The device flow's pages: enter the code shown on the device, then approve or deny.
import { html } from '../web-session/html.ts';
import { flash, page, type PageFrame } from '../web-session/web-session.views.ts';
import type { DeviceRequest } from './device-flow.service.ts';
import { scopeInWords } from './scope-words.ts';

export function enterCodePage(frame: PageFrame, userCode: string, error: string | null = null): string {
  return page(frame, html`
<div class="box">
<h1>Device activation</h1>
${flash('error', error)}
<p>Enter the code displayed on your device.</p>
<form method="post" action="/login/device">
<input type="hidden" name="authenticity_token" value="${frame.csrf}">
<label for="user-code">Code</label>
<input type="text" id="user-code" name="user_code" value="${userCode}" placeholder="XXXX-XXXX" autocomplete="off" autofocus required>
<button type="submit" id="continue">Continue</button>
</form>
</div>`);
}

export function deviceApprovalPage(frame: PageFrame, req: DeviceRequest): string {
  return page(frame, html`
<div class="box">
<h1>Authorize <span id="app-name">${req.app.name}</span></h1>
<p><span id="app-owner">${req.owner?.login ?? 'Wharf'}</span> wants to access your <strong>${frame.user?.login ?? ''}</strong> account from the device showing <code id="device-user-code">${req.userCode}</code>.</p>
${req.scopes.length === 0
    ? html`<p id="no-scopes">Public information only (read-only).</p>`
    : html`<ul class="scopes" id="scopes">${req.scopes.map((s) => html`<li data-scope="${s}"><strong>${scopeInWords(s)}</strong> <code>${s}</code></li>`)}</ul>`}
<form method="post" action="/login/device/authorize">
<input type="hidden" name="authenticity_token" value="${frame.csrf}">
<input type="hidden" name="user_code" value="${req.userCode}">
<button type="submit" name="authorize" value="0" class="secondary" id="deny">Cancel</button>
<button type="submit" name="authorize" value="1" id="approve">Authorize ${req.app.name}</button>
</form>
</div>`);
}

export function deviceDonePage(frame: PageFrame, approved: boolean): string {
  return page(frame, approved
    ? html`<div class="box"><h1 id="device-done">Congratulations, you're all set!</h1><p>Your device is now connected.</p></div>`
    : html`<div class="box"><h1 id="device-denied">Access denied</h1><p>The device was not given access to your account.</p></div>`);
}
