// The settings pages of personal access tokens: the list with a revoke button each, the
// form for a new one, and the new token shown once.
import { scopeTree, type ScopeNode } from '../../domain/scopes.ts';
import { html, type SafeHtml } from '../web-session/html.ts';
import { flash, page, type PageFrame } from '../web-session/web-session.views.ts';
import { TOKEN_LIFETIMES, type PersonalToken } from './auth.service.ts';

/** What the form shows again after a refusal. */
export interface TokenFormValues {
  note: string;
  scopes: readonly string[];
  lifetime: string;
}

export const EMPTY_TOKEN_FORM: TokenFormValues = { note: '', scopes: [], lifetime: '30' };

/** The checkbox of a scope is named scope.<name>: a form field repeated keeps only its first value. */
export function scopeField(scope: string): string {
  return `scope.${scope}`;
}

function day(iso: string | null): string {
  return iso ? iso.slice(0, 10) : '';
}

function tokenRow(frame: PageFrame, t: PersonalToken): SafeHtml {
  const expiry = t.expiresAt === null ? html`<span class="badge warn">never expires</span>`
    : t.expired ? html`<span class="badge warn">expired ${day(t.expiresAt)}</span>` : html`<span class="muted">expires ${day(t.expiresAt)}</span>`;
  return html`<li class="row" data-token-id="${t.id}"><div>
<strong class="note">${t.note || '(no note)'}</strong> <span class="muted">…${t.lastEight}</span>
<div class="muted">${t.scopes.length ? t.scopes.join(', ') : 'no scopes (public data only)'}</div>
<div>${expiry} · <span class="muted">${t.lastUsedAt ? `last used ${day(t.lastUsedAt)}` : 'never used'}</span></div></div>
<form method="post" action="/settings/tokens/${t.id}/delete" class="inline">
<input type="hidden" name="authenticity_token" value="${frame.csrf}">
<button type="submit" class="danger" aria-label="Revoke ${t.note || `token …${t.lastEight}`}">Revoke</button></form></li>`;
}

export function tokensPage(frame: PageFrame, tokens: PersonalToken[], shown: { token?: string; notice?: string } = {}): string {
  return page(frame, html`
<div class="box">
<h1>Personal access tokens</h1>
<p><a href="/settings">Settings</a></p>
${shown.token ? html`<div class="flash notice" role="status" id="new-token">
<p>Make sure to copy your personal access token now. You won't be able to see it again!</p>
<p><code class="secret" id="token-value">${shown.token}</code></p></div>` : ''}
${flash('notice', shown.notice)}
<p>Tokens work like a password for the API, GraphQL and git over HTTPS (<code>gh auth login --with-token</code>, <code>git clone https://TOKEN@…</code>).</p>
<p><a class="button" href="/settings/tokens/new" id="generate-token">Generate new token</a></p>
${tokens.length === 0 ? html`<p id="no-tokens">You have no personal access tokens.</p>`
    : html`<ul class="list box" id="tokens">${tokens.map((t) => tokenRow(frame, t))}</ul>`}
</div>`);
}

function scopeBoxes(nodes: ScopeNode[], checked: ReadonlySet<string>): SafeHtml {
  return html`<ul class="scopes">${nodes.map((n) => html`<li>
<input type="checkbox" id="${scopeField(n.scope)}" name="${scopeField(n.scope)}" value="1"${checked.has(n.scope) ? html` checked` : ''}>
<label class="inline" for="${scopeField(n.scope)}"><code>${n.scope}</code></label>
${n.children.length ? scopeBoxes(n.children, checked) : ''}</li>`)}</ul>`;
}

export function newTokenPage(frame: PageFrame, values: TokenFormValues, errors: readonly string[] = []): string {
  const checked = new Set(values.scopes);
  return page(frame, html`
<div class="box">
<h1>New personal access token</h1>
${errors.map((e) => flash('error', e))}
<form method="post" action="/settings/tokens/new">
<input type="hidden" name="authenticity_token" value="${frame.csrf}">
<label for="note">Note</label>
<input type="text" id="note" name="note" value="${values.note}" maxlength="255" required aria-describedby="note-help">
<p class="muted" id="note-help">What is this token for?</p>
<label for="lifetime">Expiration</label>
<select id="lifetime" name="lifetime">${TOKEN_LIFETIMES.map((d) => {
    const value = d === null ? 'none' : String(d);
    return html`<option value="${value}"${values.lifetime === value ? html` selected` : ''}>${d === null ? 'No expiration' : `${d} days`}</option>`;
  })}</select>
<fieldset><legend>Select scopes</legend>
<p class="muted">Scopes define the access for personal tokens. A scope grants the ones listed under it.</p>
${scopeBoxes(scopeTree(), checked)}
</fieldset>
<button type="submit" id="create-token">Generate token</button>
</form>
</div>`);
}
