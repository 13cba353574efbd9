// The frame every browser page shares (header, stylesheet, sign-out form) and the
// pages of sign-in and password change. Plain HTML forms: no script needed anywhere.
import type { ActorUser } from '../../domain/actor.ts';
import { html, type SafeHtml } from './html.ts';

export const STYLESHEET = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1f2328;background:#f6f8fa}
header{display:flex;gap:1rem;align-items:center;padding:.6rem 1.5rem;background:#24292f;color:#fff}
header a{color:#fff;text-decoration:none}
header .brand{font-weight:600;margin-right:auto}
header form{margin:0}
header button{background:none;border:1px solid #8c959f;color:#fff;border-radius:6px;padding:.2rem .6rem;cursor:pointer}
main{max-width:44rem;margin:2rem auto;padding:0 1rem}
.box{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:1.25rem 1.5rem;margin-bottom:1rem}
h1{font-size:1.4rem;font-weight:600;margin:0 0 1rem}
h2{font-size:1.1rem;margin:0 0 .5rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=text],input[type=password],input[type=url],textarea{width:100%;padding:.4rem .6rem;border:1px solid #d0d7de;border-radius:6px;font:inherit}
button,.button{display:inline-block;margin-top:1rem;padding:.4rem 1rem;border-radius:6px;border:1px solid #1f883d;background:#1f883d;color:#fff;font:inherit;font-weight:600;cursor:pointer;text-decoration:none}
button.secondary{background:#f6f8fa;color:#24292f;border-color:#d0d7de}
button.danger{background:#fff;color:#cf222e;border-color:#cf222e}
.flash{padding:.75rem 1rem;border-radius:6px;margin-bottom:1rem;border:1px solid}
.flash.error{background:#ffebe9;border-color:#ff8182}
.flash.notice{background:#ddf4ff;border-color:#54aeff}
code,.secret{font-family:ui-monospace,monospace;background:#eff2f5;padding:.1rem .3rem;border-radius:4px;word-break:break-all}
ul.scopes li{margin:.25rem 0}
table{width:100%;border-collapse:collapse}
td,th{text-align:left;padding:.4rem;border-bottom:1px solid #d0d7de}
.inline{display:inline}
`;

export interface PageFrame {
  title: string;
  user: ActorUser | null;
  /** The CSRF token for the sign-out form in the header (signed-in pages). */
  csrf: string | null;
}

export function page(frame: PageFrame, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${frame.title} · Wharf</title>
<link rel="stylesheet" href="/web/wharf.css">
</head>
<body>
<header><a class="brand" href="/settings">Wharf</a>${frame.user ? html`
<span>Signed in as <strong id="signed-in-as">${frame.user.login}</strong></span>
<form method="post" action="/logout"><input type="hidden" name="authenticity_token" value="${frame.csrf}"><button type="submit" id="sign-out">Sign out</button></form>` : ''}
</header>
<main>
${body}
</main>
</body>
</html>
`.text;
}

export function flash(kind: 'error' | 'notice', message: string | null | undefined): SafeHtml {
  return message ? html`<div class="flash ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${message}</div>` : html``;
}

export interface LoginForm {
  csrf: string;
  returnTo: string | null;
  login: string | null;
  error: string | null;
}

export function loginPage(form: LoginForm): string {
  return page({ title: 'Sign in', user: null, csrf: null }, html`
<div class="box">
<h1>Sign in to Wharf</h1>
${flash('error', form.error)}
<form method="post" action="/login">
<input type="hidden" name="authenticity_token" value="${form.csrf}">
${form.returnTo ? html`<input type="hidden" name="return_to" value="${form.returnTo}">` : ''}
<label for="login_field">Username</label>
<input type="text" id="login_field" name="login" value="${form.login ?? ''}" autocomplete="username" autofocus required>
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<button type="submit" id="sign-in">Sign in</button>
</form>
</div>`);
}

export function settingsPage(frame: PageFrame): string {
  return page(frame, html`
<div class="box">
<h1>Settings</h1>
<ul>
<li><a href="/settings/password">Password</a></li>
<li><a href="/settings/developers">OAuth apps you registered</a></li>
<li><a href="/settings/applications">Authorized OAuth apps</a></li>
</ul>
</div>`);
}

export function passwordPage(frame: PageFrame, message: { error?: string | null; notice?: string | null } = {}): string {
  return page({ ...frame, title: 'Password' }, html`
<div class="box">
<h1>Change password</h1>
${flash('error', message.error)}${flash('notice', message.notice)}
<form method="post" action="/settings/password">
<input type="hidden" name="authenticity_token" value="${frame.csrf}">
<label for="current_password">Current password</label>
<input type="password" id="current_password" name="current_password" autocomplete="current-password">
<label for="new_password">New password</label>
<input type="password" id="new_password" name="new_password" autocomplete="new-password" required>
<button type="submit" id="change-password">Update password</button>
</form>
</div>`);
}

/** A page that only says something went wrong, and never redirects anywhere. */
export function errorPage(user: ActorUser | null, csrf: string | null, title: string, message: string): string {
  return page({ title, user, csrf }, html`
<div class="box">
<h1>${title}</h1>
${flash('error', message)}
</div>`);
}
