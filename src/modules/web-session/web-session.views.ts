// The frame every browser page shares (header, stylesheet, sign-out form) and the
// pages of sign-in and password change. Plain HTML forms: no script needed anywhere.
import type { ActorUser } from '../../domain/actor.ts';
import { html, type SafeHtml } from './html.ts';

export const STYLESHEET = `
:root{color-scheme:light dark;--fg:#1f2328;--muted:#59636e;--bg:#f6f8fa;--panel:#fff;--line:#d0d7de;--link:#0550ae;--head:#24292f;--green:#1a7f37;--red:#cf222e;--code:#eff2f5;--add:#dafbe1;--del:#ffebe9;--hunk:#ddf4ff;--accent:#0969da}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--panel:#151b23;--line:#3d444d;--link:#4493f8;--head:#010409;--green:#3fb950;--red:#f85149;--code:#262c36;--add:#12361f;--del:#3c1618;--hunk:#0c2d6b;--accent:#4493f8}}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--link)}
a:focus-visible,button:focus-visible,summary:focus-visible,input:focus-visible,textarea:focus-visible,pre:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:var(--panel);padding:.5rem}
.skip:focus{left:.5rem;z-index:2}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
body>header{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;padding:.6rem 1.5rem;background:var(--head);color:#fff}
body>header a{color:#fff;text-decoration:none}
body>header .brand{font-weight:600;margin-right:auto}
body>header form{margin:0}
body>header button{margin:0;background:none;border:1px solid #8c959f;color:#fff;border-radius:6px;padding:.2rem .6rem;cursor:pointer;font-weight:400}
ul.nav{display:flex;gap:1rem;align-items:center;list-style:none;margin:0;padding:0}
main{max-width:44rem;margin:2rem auto;padding:0 1rem}
main.wide{max-width:72rem}
main:focus{outline:none}
footer{max-width:72rem;margin:2rem auto;padding:0 1rem;color:var(--muted);font-size:.85rem}
.box{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:1.25rem 1.5rem;margin-bottom:1rem}
h1{font-size:1.4rem;font-weight:600;margin:0 0 1rem}
h2{font-size:1.1rem;margin:0 0 .5rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=text],input[type=password],input[type=url],textarea{width:100%;padding:.4rem .6rem;border:1px solid var(--line);border-radius:6px;font:inherit;color:inherit;background:var(--panel)}
button,.button{display:inline-block;margin-top:1rem;padding:.4rem 1rem;border-radius:6px;border:1px solid #1f883d;background:#1f883d;color:#fff;font:inherit;font-weight:600;cursor:pointer;text-decoration:none}
button.secondary{background:var(--bg);color:var(--fg);border-color:var(--line)}
button.danger{background:var(--panel);color:var(--red);border-color:var(--red)}
.flash{padding:.75rem 1rem;border-radius:6px;margin-bottom:1rem;border:1px solid}
.flash.error{background:var(--del);border-color:var(--red)}
.flash.notice{background:var(--hunk);border-color:var(--accent)}
code,.secret{font-family:ui-monospace,monospace;background:var(--code);padding:.1rem .3rem;border-radius:4px;word-break:break-all}
pre{overflow:auto;font:13px/1.45 ui-monospace,monospace;margin:0}
pre code{background:none;padding:0;word-break:normal}
ul.scopes li{margin:.25rem 0}
table{width:100%;border-collapse:collapse}
td,th{text-align:left;padding:.4rem;border-bottom:1px solid var(--line)}
.inline{display:inline}
.muted{color:var(--muted)}
.num{text-align:right}
.badge{display:inline-block;border:1px solid var(--line);border-radius:2rem;padding:0 .5rem;font-size:.8rem;margin-left:.4rem;color:var(--muted)}
.badge.ok,.state-open{color:var(--green);border-color:var(--green)}
.badge.warn,.state-closed{color:var(--red);border-color:var(--red)}
.state-merged{color:#8250df;border-color:#8250df}
.state-approved{color:var(--green);border-color:var(--green)}
.state-changes_requested{color:var(--red);border-color:var(--red)}
fieldset{border:1px solid var(--line);border-radius:6px;margin:.75rem 0 0;padding:.5rem 1rem}
label.inline{display:inline;margin:0 0 0 .3rem}
.choice{margin:.25rem 0}
.reactions{display:flex;flex-wrap:wrap;gap:.3rem;padding:.25rem 1rem .6rem;margin:0}
.reactions button{margin:0;padding:.05rem .5rem;background:var(--bg);color:var(--fg);border-color:var(--line);font-weight:400}
.reactions button[aria-pressed=true]{background:var(--hunk);border-color:var(--accent)}
.repo-title{display:flex;align-items:center;gap:.5rem}
.repo-title h1{margin:0}
.tabs ul,.filters{display:flex;gap:1.25rem;list-style:none;padding:0;margin:.75rem 0 1rem;border-bottom:1px solid var(--line)}
.tabs a,.filters a{display:inline-block;padding:.4rem 0;text-decoration:none;color:var(--fg)}
.tabs a[aria-current],.filters a[aria-current]{border-bottom:2px solid #fd8c73;font-weight:600}
.toolbar{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;margin-bottom:1rem}
.toolbar .filters{margin:0;border:0}
.filter-form{display:flex;gap:.5rem;align-items:center}
.filter-form label{margin:0}
.filter-form input{width:14rem}
.filter-form button,.toolbar .button{margin:0}
.toolbar form.inline button{margin:0}
.switcher{position:relative}
.switcher summary{cursor:pointer;border:1px solid var(--line);border-radius:6px;padding:.25rem .6rem;background:var(--panel)}
.switcher .menu{position:absolute;z-index:1;background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.5rem 1rem;min-width:14rem;max-height:20rem;overflow:auto}
.switcher .menu h2{font-size:.85rem;margin:.5rem 0 .25rem}
.switcher ul{list-style:none;padding:0;margin:0}
.layout{display:grid;grid-template-columns:minmax(0,1fr) 18rem;gap:1rem}
@media (max-width:50rem){.layout{grid-template-columns:minmax(0,1fr)}}
table.files{padding:0}
table.files td.icon{width:1.5rem}
td.icon.dir::before{content:"📁"}
td.icon.file::before,td.icon.symlink::before{content:"📄"}
td.icon.submodule::before{content:"🔗"}
.clone label{font-weight:400;font-size:.85rem}
ul.list{list-style:none;padding:0}
ul.list .row{display:flex;justify-content:space-between;gap:1rem;padding:.6rem 1rem;border-bottom:1px solid var(--line)}
ul.list .row:last-child{border-bottom:0}
ul.list .title{font-weight:600;text-decoration:none}
ul.labels{display:inline-flex;gap:.3rem;list-style:none;padding:0;margin:0 0 0 .4rem}
.label{border-radius:2rem;padding:0 .5rem;font-size:.8rem;background:var(--code)}
.issue-title h2{font-size:1.5rem;font-weight:400;margin:0;display:inline}
.comment{padding:0}
.comment-head{background:var(--bg);border-bottom:1px solid var(--line);padding:.5rem 1rem;border-radius:6px 6px 0 0}
.comment .markdown-body,.comment>p{padding:.5rem 1rem}
.markdown-body img{max-width:100%}
.code pre,.file-diff pre{border-top:1px solid var(--line);padding-top:.5rem}
.add{color:var(--green)}
.del{color:var(--red)}
.d-add{background:var(--add);display:block}
.d-del{background:var(--del);display:block}
.d-hunk{background:var(--hunk);color:var(--muted);display:block}
.file-diff h3{font-size:.95rem;margin:0 0 .5rem}
.diff-scroll{overflow-x:auto;border-top:1px solid var(--line)}
table.diff-lines{width:100%;border-collapse:collapse;font:13px/1.5rem ui-monospace,monospace}
table.diff-lines td{padding:0 .5rem;border:0;vertical-align:top}
table.diff-lines td.num{width:3rem;text-align:right;color:var(--muted)}
table.diff-lines code{white-space:pre;background:none;padding:0}
table.diff-lines tr.l-add{background:var(--add)}
table.diff-lines tr.l-del{background:var(--del)}
table.diff-lines tr.l-hunk{background:var(--hunk);color:var(--muted)}
table.diff-lines tr.line-comments td{padding:.5rem 1rem;font:inherit;font-family:system-ui,sans-serif}
.status-mark.mark-success{color:var(--green)}
.status-mark.mark-failure{color:var(--red)}
.pager{display:flex;gap:1rem;justify-content:center}
.blame-scroll{overflow-x:auto}
table.blame{table-layout:fixed;min-width:40rem}
table.blame col.commit{width:18rem}
table.blame col.line{width:3.5rem}
table.blame td{vertical-align:top;padding:0 .5rem;border:0}
table.blame tbody.hunk{border-top:1px solid var(--line)}
table.blame td.blame-commit{padding:.3rem .5rem;font-size:.85rem;border-right:1px solid var(--line);overflow-wrap:anywhere}
table.blame pre{white-space:pre;border:0;padding:0}
table.blame td.num,table.blame pre{font:13px/1.5rem ui-monospace,monospace}
.milestone-progress progress{width:12rem}
.hljs-keyword,.hljs-selector-tag,.hljs-built_in,.hljs-type{color:#cf222e}
.hljs-string,.hljs-regexp,.hljs-attr{color:#0a3069}
.hljs-comment,.hljs-quote{color:#59636e;font-style:italic}
.hljs-number,.hljs-literal,.hljs-variable,.hljs-attribute{color:#0550ae}
.hljs-title,.hljs-section,.hljs-name{color:#6639ba}
@media (prefers-color-scheme:dark){.hljs-keyword,.hljs-selector-tag,.hljs-built_in,.hljs-type{color:#ff7b72}.hljs-string,.hljs-regexp,.hljs-attr{color:#a5d6ff}.hljs-comment,.hljs-quote{color:#9198a1}.hljs-number,.hljs-literal,.hljs-variable,.hljs-attribute{color:#79c0ff}.hljs-title,.hljs-section,.hljs-name{color:#d2a8ff}}
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
<span>Signed in as <strong id="signed-in-as">${frame.user.login}</strong></span>${frame.user.siteAdmin ? html`
<a href="/stafftools" id="site-admin-link">Site admin</a>` : ''}
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
<li><a href="/settings/tokens">Personal access tokens</a></li>
<li><a href="/settings/keys">SSH and GPG keys</a></li>
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
