// The secrets suite (issue #22 § 1): Wharf as a child process at LOG_LEVEL=trace; the
// run creates every kind of secret Wharf issues or takes and uses each one, then
// searches for each — raw, base64, and base64 of login:secret as basic authentication
// carries it — in every response body and header the run received (a recording proxy
// in front of Wharf), every request Wharf sent (webhook deliveries), every line Wharf
// wrote, every text and binary cell of its database, and every file of its data dir.
//
// Secrets: the site admin token (WHARF_ADMIN_TOKEN); a classic token from the
// site-admin API and one from the settings page; a password set by the site admin
// (signed in with on the page, tried on the API with basic authentication) and a
// mistyped one; the session cookie; an OAuth app's client secret, its authorization
// code and access token (client credentials used with basic authentication too); a
// GitHub App's client secret, webhook secret, private key and installation token
// (from the manifest flow; a JSON web token signed with the key); repository webhook
// secrets (set, then replaced; deliveries checked against each); a source import's
// username and password (a wrong one first, then the right one, to a git source that
// asks for them); a runner's registration token, credential and remove token.
//
// A response that shows a secret once at its creation, as the API promises, is not a
// leak: those are listed in SHOWN_ONCE (method, path, where) and counted apart.
import { createHmac, createSign, randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GitSourceServer } from '../test/helpers/import-sources.ts';
import { csrfIn, WebClient, type WebResponse } from '../test/helpers/web.ts';
import type { Figure } from './figures.ts';
import { databaseCells, DeliveryReceiver, RecordingProxy, type RecordedResponse } from './secrets-record.ts';
import { startWharf, type Wharf } from './secrets-wharf.ts';

const SUITE = 'secrets';
const USER_AGENT = 'wharf-reliability/1.0';
const LOGIN = 'alice';
/**
 * Plain data (an issue title, and the repository's name) that must turn up in responses,
 * deliveries, log lines (the repository's name, in request URLs) and the database: a
 * search that finds no secret must be one that would have found it.
 */
const CONTROL = `control-${randomBytes(12).toString('hex')}`;
const REPO = `vault-${randomBytes(6).toString('hex')}`;

export interface SecretsOptions {
  serverArgs: string[];
  cwd: string;
  dialect: 'sqlite' | 'postgres';
  databaseUrl?: string;
  progress?: (line: string) => void;
}

export interface SecretsResult {
  figures: Figure[];
  secrets: number;
  responses: number;
  logLines: number;
  cells: number;
  seconds: number;
}

// ---------------------------------------------------------------- secrets and where each may be shown

type Where = 'body' | 'location' | 'set-cookie';
interface ShownOnce { method: string; path: RegExp; where: Where }

interface Secret {
  kind: string;
  value: string;
  /** The login it is sent with in basic authentication, when it is. */
  login?: string;
  /** Responses that may show it: its creation. */
  shown: ShownOnce[];
}

const SHOWN_ONCE = {
  adminAuthorization: { method: 'POST', path: /^\/admin\/users\/[^/]+\/authorizations$/, where: 'body' },
  tokenPage: { method: 'POST', path: /^\/settings\/tokens\/new$/, where: 'body' },
  signIn: { method: 'POST', path: /^\/login$/, where: 'set-cookie' },
  oauthAppPage: { method: 'POST', path: /^\/settings\/applications\/new$/, where: 'body' },
  authorizeRedirect: { method: 'POST', path: /^\/login\/oauth\/authorize$/, where: 'location' },
  // Authorized before (or installed, for a GitHub App): sent straight back with a code.
  authorizeRedirectAgain: { method: 'GET', path: /^\/login\/oauth\/authorize$/, where: 'location' },
  codeExchange: { method: 'POST', path: /^\/login\/oauth\/access_token$/, where: 'body' },
  // Check a token: upstream answers with the token the app sent (the app has it already).
  tokenCheck: { method: 'POST', path: /^\/applications\/[^/]+\/token$/, where: 'body' },
  manifestRedirect: { method: 'POST', path: /^\/settings\/apps\/new$/, where: 'location' },
  manifestConversion: { method: 'POST', path: /^\/app-manifests\/[^/]+\/conversions$/, where: 'body' },
  installationToken: { method: 'POST', path: /^\/app\/installations\/\d+\/access_tokens$/, where: 'body' },
  runnerToken: { method: 'POST', path: /^\/repos\/[^/]+\/[^/]+\/actions\/runners\/(registration|remove)-token$/, where: 'body' },
  runnerRegistration: { method: 'POST', path: /^\/actions\/runner\/register$/, where: 'body' },
  deviceCodes: { method: 'POST', path: /^\/login\/device\/code$/, where: 'body' },
  devicePage: { method: 'POST', path: /^\/login\/device$/, where: 'body' },
  deviceAuthorize: { method: 'POST', path: /^\/login\/device\/authorize$/, where: 'body' },
} as const satisfies Record<string, ShownOnce>;

/** The forms a secret is searched in. */
function variants(s: Secret): { form: string; text: string }[] {
  const out = [{ form: 'raw', text: s.value }];
  if (s.value.includes('-----BEGIN')) {
    // A PEM is searched by the longest line of its body (JSON escapes its newlines).
    const body = s.value.split('\n').filter((l) => l && !l.startsWith('-----')).sort((a, b) => b.length - a.length)[0];
    if (body) out.push({ form: 'PEM body line', text: body });
    return out;
  }
  out.push({ form: 'base64', text: Buffer.from(s.value).toString('base64').replace(/=+$/, '') });
  if (encodeURIComponent(s.value) !== s.value) out.push({ form: 'URL-encoded', text: encodeURIComponent(s.value) });
  if (s.login) out.push({ form: 'basic auth', text: Buffer.from(`${s.login}:${s.value}`).toString('base64').replace(/=+$/, '') });
  return out;
}

// ---------------------------------------------------------------- clients

interface Answer { status: number; text: string; json: any; headers: Headers }

class Api {
  constructor(readonly base: string) {}

  async call(method: string, pathname: string, o: { token?: string; bearer?: string; basic?: [string, string]; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
    const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: 'application/vnd.github+json', ...(o.headers ?? {}) };
    if (o.token) headers.authorization = `token ${o.token}`;
    if (o.bearer) headers.authorization = `Bearer ${o.bearer}`;
    if (o.basic) headers.authorization = `Basic ${Buffer.from(`${o.basic[0]}:${o.basic[1]}`).toString('base64')}`;
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.base}${pathname}`, {
      method, headers, redirect: 'manual', signal: AbortSignal.timeout(30_000),
      ...(o.body === undefined ? {} : { body: JSON.stringify(o.body) }),
    });
    const text = await res.text();
    let json: any = null;
    try { json = text ? JSON.parse(text) : null; } catch { json = null; }
    return { status: res.status, text, json, headers: res.headers };
  }

  async ok(method: string, pathname: string, o: Parameters<Api['call']>[2] = {}): Promise<any> {
    const a = await this.call(method, pathname, o);
    if (a.status < 200 || a.status >= 300) throw new Error(`${method} ${pathname} answered ${a.status}: ${a.text.slice(0, 300)}`);
    return a.json;
  }
}

function expect(page: WebResponse, status: number | number[], what: string): WebResponse {
  if (!(Array.isArray(status) ? status : [status]).includes(page.status)) throw new Error(`${what}: ${page.status}\n${page.body.slice(0, 500)}`);
  return page;
}

function run(cmd: string, args: string[], cwd?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => { out += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { out += c.toString(); });
    child.on('error', reject);
    child.on('close', (code) => code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${out.slice(-500)}`)));
  });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** The signed-in user authorizes the app (approving when asked); the code of the redirect back. */
async function authorizeCode(web: WebClient, clientId: string, o: { scope?: string; redirectUri?: string }): Promise<string> {
  const query = { client_id: clientId, state: 's1', ...(o.scope ? { scope: o.scope } : {}), ...(o.redirectUri ? { redirect_uri: o.redirectUri } : {}) };
  const page = await web.get(`/login/oauth/authorize?${new URLSearchParams(query)}`);
  let location = page.location;
  if (page.status === 200) {
    const fields: Record<string, string> = { authenticity_token: csrfIn(page.body), authorize: '1' };
    for (const m of page.body.matchAll(/<input type="hidden" name="([a-z_]+)" value="([^"]*)">/g)) {
      if (m[1] !== 'authenticity_token') fields[m[1]!] = m[2]!.replace(/&amp;/g, '&');
    }
    location = (await web.post('/login/oauth/authorize', fields)).location;
  }
  const code = location ? new URL(location).searchParams.get('code') : null;
  if (!code) throw new Error(`no code from the authorization (${page.status}, ${location})`);
  return code;
}

function appJwt(pem: string, iss: number): string {
  const now = Math.floor(Date.now() / 1000);
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const input = `${enc({ alg: 'RS256', typ: 'JWT' })}.${enc({ iat: now - 60, exp: now + 540, iss })}`;
  return `${input}.${createSign('RSA-SHA256').update(input).sign(pem).toString('base64url')}`;
}

const fresh = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`;

// ---------------------------------------------------------------- the run: make and use every secret

interface Usage { kind: string; ok: boolean; detail: string }

async function makeAndUse(api: Api, w: Wharf, receiver: DeliveryReceiver, work: string, progress: (l: string) => void): Promise<{ secrets: Secret[]; usages: Usage[] }> {
  const secrets: Secret[] = [{ kind: 'site admin token', value: w.adminToken, shown: [] }];
  const usages: Usage[] = [];
  const used = (kind: string, ok: boolean, detail: string) => usages.push({ kind, ok, detail });
  const admin = w.adminToken;

  await api.ok('POST', '/admin/users', { token: admin, body: { login: LOGIN, email: `${LOGIN}@example.com` } });
  // Classic token from the site-admin API.
  const pat = String((await api.ok('POST', `/admin/users/${LOGIN}/authorizations`, { token: admin, body: { scopes: ['repo', 'user', 'admin:repo_hook', 'admin:org'] } })).token);
  secrets.push({ kind: 'personal access token (site-admin API)', value: pat, login: LOGIN, shown: [SHOWN_ONCE.adminAuthorization] });
  const repo = await api.ok('POST', '/user/repos', { token: pat, body: { name: REPO, auto_init: true, private: true } });
  used('personal access token (site-admin API)', (await api.call('GET', '/user', { token: pat })).status === 200, 'GET /user');

  // git over HTTP with the token as the password (through the proxy, as any client).
  const remote = new URL(`${api.base}/${LOGIN}/${REPO}.git`);
  remote.username = LOGIN;
  remote.password = pat;
  const clone = path.join(work, 'clone');
  await run('git', ['clone', '-q', remote.toString(), clone]);
  fs.writeFileSync(path.join(clone, 'note.txt'), 'pushed by the secrets suite\n');
  await run('git', ['add', 'note.txt'], clone);
  await run('git', ['-c', 'user.name=Alice', '-c', 'user.email=alice@example.com', 'commit', '-qm', 'note'], clone);
  await run('git', ['push', '-q', 'origin', 'HEAD'], clone);
  used('personal access token (site-admin API)', true, 'git clone and push over HTTP (basic authentication)');

  // A password, set by the site admin; a mistyped one tried too.
  const password = fresh('Pw');
  const mistyped = `${password.slice(0, -3)}zzz`;
  secrets.push({ kind: 'password', value: password, login: LOGIN, shown: [] });
  secrets.push({ kind: 'mistyped password', value: mistyped, login: LOGIN, shown: [] });
  const pw = await api.call('PUT', `/admin/users/${LOGIN}/password`, { token: admin, body: { password } });
  if (pw.status !== 204) throw new Error(`setting the password: ${pw.status} ${pw.text.slice(0, 200)}`);
  const web = new WebClient({ baseUrl: api.base });
  const loginForm = await web.get('/login');
  const wrong = await web.post('/login', { authenticity_token: csrfIn(loginForm.body), login: LOGIN, password: mistyped });
  used('mistyped password', wrong.status !== 302 && wrong.status !== 303, `sign-in refused (${wrong.status})`);
  const basicWrong = await api.call('GET', '/user', { basic: [LOGIN, mistyped] });
  used('mistyped password', basicWrong.status === 401, `API basic authentication: ${basicWrong.status}`);
  const basicRight = await api.call('GET', '/user', { basic: [LOGIN, password] });
  used('password', true, `API basic authentication with the password: ${basicRight.status}`);
  const form2 = await web.get('/login');
  const signedIn = await web.post('/login', { authenticity_token: csrfIn(form2.body), login: LOGIN, password });
  used('password', signedIn.status === 302 || signedIn.status === 303, `sign-in: ${signedIn.status}`);
  // The session cookie; the CSRF cookie is no credential (every form repeats it by design).
  for (const [name, value] of web.cookies) if (!/csrf/i.test(name)) secrets.push({ kind: `session cookie (${name})`, value, shown: [SHOWN_ONCE.signIn] });
  used('session cookie', (await web.get('/settings/tokens')).status === 200, 'GET /settings/tokens signed in');

  // Credentials Wharf refuses: a password too long to set, a token it never issued, a
  // password sent with a login that does not exist. Refusals are logged; what was
  // refused must not be.
  const longPassword = fresh('Lp').repeat(8);
  const bogusToken = fresh('ghp_');
  const strangerPassword = fresh('Sp');
  secrets.push(
    { kind: 'rejected password (too long)', value: longPassword, shown: [] },
    { kind: 'unknown token', value: bogusToken, login: LOGIN, shown: [] },
    { kind: 'password of an unknown login', value: strangerPassword, login: 'nobody-here', shown: [] },
  );
  const long = await api.call('PUT', `/admin/users/${LOGIN}/password`, { token: admin, body: { password: longPassword } });
  used('rejected password (too long)', long.status === 422, `refused: ${long.status}`);
  const bogus = await api.call('GET', '/user', { token: bogusToken });
  used('unknown token', bogus.status === 401, `refused: ${bogus.status}`);
  const bogusBasic = await api.call('GET', '/user', { basic: [LOGIN, bogusToken] });
  used('unknown token', bogusBasic.status === 401, `refused in basic authentication: ${bogusBasic.status}`);
  const anonymous = new WebClient({ baseUrl: api.base });
  const strangerForm = await anonymous.get('/login');
  await anonymous.post('/login', { authenticity_token: csrfIn(strangerForm.body), login: 'nobody-here', password: strangerPassword });
  const stranger = await api.call('GET', '/user', { basic: ['nobody-here', strangerPassword] });
  used('password of an unknown login', stranger.status === 401, `refused: ${stranger.status}`);

  // A classic token from the settings page.
  const newToken = await web.get('/settings/tokens/new');
  const tokenPage = expect(await web.post('/settings/tokens/new', { authenticity_token: csrfIn(newToken.body), note: 'suite', lifetime: '30', 'scope.repo': 'on' }), 201, 'token page');
  const pagePat = /id="token-value">([^<]+)</.exec(tokenPage.body)![1]!;
  secrets.push({ kind: 'personal access token (settings page)', value: pagePat, login: LOGIN, shown: [SHOWN_ONCE.tokenPage] });
  used('personal access token (settings page)', (await api.call('GET', '/user/repos', { token: pagePat })).status === 200, 'GET /user/repos');

  // A repository webhook with a secret, then replaced by another.
  const hookSecret = fresh('hs');
  const hookSecret2 = fresh('hs2');
  secrets.push({ kind: 'webhook secret', value: hookSecret, shown: [] }, { kind: 'webhook secret (replaced)', value: hookSecret2, shown: [] });
  const signedBy = (secret: string, title: string) => until(`the delivery of "${title}"`, async () => receiver.deliveries.find((d) => {
    if (!d.body.includes(`"${title}"`)) return false;
    const sig = d.headers.find(([k]) => k === 'x-hub-signature-256')?.[1];
    return sig === `sha256=${createHmac('sha256', secret).update(d.body).digest('hex')}`;
  }), 20_000).then(() => true, () => false);
  const hook = await api.ok('POST', `/repos/${LOGIN}/${REPO}/hooks`, { token: pat, body: { name: 'web', events: ['issues', 'push'], config: { url: receiver.url, content_type: 'json', secret: hookSecret } } });
  // The control: plain data every search below must find (see CONTROL).
  await api.ok('POST', `/repos/${LOGIN}/${REPO}/issues`, { token: pat, body: { title: CONTROL } });
  // Deliveries are signed when sent: the first is awaited before the secret changes.
  used('webhook secret', await signedBy(hookSecret, CONTROL), 'a delivery signed with it (X-Hub-Signature-256)');
  await api.ok('PATCH', `/repos/${LOGIN}/${REPO}/hooks/${hook.id}`, { token: pat, body: { config: { url: receiver.url, content_type: 'json', secret: hookSecret2 } } });
  await api.ok('POST', `/repos/${LOGIN}/${REPO}/issues`, { token: pat, body: { title: 'signed twice' } });
  await api.ok('GET', `/repos/${LOGIN}/${REPO}/hooks/${hook.id}`, { token: pat });
  used('webhook secret (replaced)', await signedBy(hookSecret2, 'signed twice'), 'a delivery signed with it after the PATCH');
  const deliveries = await api.ok('GET', `/repos/${LOGIN}/${REPO}/hooks/${hook.id}/deliveries`, { token: pat });
  for (const d of (deliveries as { id: number }[]).slice(0, 3)) await api.ok('GET', `/repos/${LOGIN}/${REPO}/hooks/${hook.id}/deliveries/${d.id}`, { token: pat });

  // An OAuth app: its client secret, an authorization code, an access token.
  const appForm = await web.get('/settings/applications/new');
  const appPage = expect(await web.post('/settings/applications/new', {
    authenticity_token: csrfIn(appForm.body), name: 'Secret keeper', url: 'https://keeper.example', callback_url: 'https://keeper.example/cb',
  }), 201, 'OAuth app registration');
  const clientId = /<code id="client-id">([^<]+)</.exec(appPage.body)![1]!;
  const clientSecret = /id="client-secret">([0-9a-f]{40})</.exec(appPage.body)![1]!;
  secrets.push({ kind: 'OAuth app client secret', value: clientSecret, login: clientId, shown: [SHOWN_ONCE.oauthAppPage] });
  const code = await authorizeCode(web, clientId, { scope: 'repo' });
  secrets.push({ kind: 'OAuth authorization code', value: code, shown: [SHOWN_ONCE.authorizeRedirect] });
  const exchanged = await api.ok('POST', '/login/oauth/access_token', { headers: { accept: 'application/json' }, body: { client_id: clientId, client_secret: clientSecret, code } });
  const accessToken = String(exchanged.access_token);
  secrets.push({ kind: 'OAuth access token', value: accessToken, login: LOGIN, shown: [SHOWN_ONCE.codeExchange, SHOWN_ONCE.tokenCheck] });
  used('OAuth authorization code', true, 'exchanged for an access token');
  used('OAuth app client secret', true, 'the code exchange');
  used('OAuth access token', (await api.call('GET', '/user', { token: accessToken })).status === 200, 'GET /user');
  const checked = await api.call('POST', `/applications/${clientId}/token`, { basic: [clientId, clientSecret], body: { access_token: accessToken } });
  used('OAuth app client secret', checked.status === 200, `check a token with the client's basic authentication: ${checked.status}`);
  const wrongSecret = await api.call('POST', `/applications/${clientId}/token`, { basic: [clientId, `${clientSecret.slice(0, -4)}0000`], body: { access_token: accessToken } });
  used('OAuth app client secret', wrongSecret.status === 401 || wrongSecret.status === 404, `a wrong client secret refused: ${wrongSecret.status}`);

  // A GitHub App from a manifest: client secret, webhook secret, private key; installed; an installation token.
  const manifest = JSON.stringify({
    name: 'Secret bot', url: 'https://bot.example', redirect_url: 'https://bot.example/created', callback_urls: ['https://bot.example/cb'],
    hook_attributes: { url: receiver.url }, default_permissions: { issues: 'write', contents: 'read', metadata: 'read' }, default_events: ['issues'],
  });
  const shownManifest = expect(await web.post('/settings/apps/new', { manifest, state: 'st8' }), 200, 'manifest page');
  const confirmed = expect(await web.post('/settings/apps/new', { manifest, state: 'st8', confirm: '1', authenticity_token: csrfIn(shownManifest.body) }), 302, 'manifest confirmation');
  const manifestCode = new URL(confirmed.location!).searchParams.get('code')!;
  secrets.push({ kind: 'GitHub App manifest code', value: manifestCode, shown: [SHOWN_ONCE.manifestRedirect] });
  const app = await api.ok('POST', `/app-manifests/${manifestCode}/conversions`);
  secrets.push(
    { kind: 'GitHub App client secret', value: String(app.client_secret), login: String(app.client_id), shown: [SHOWN_ONCE.manifestConversion] },
    { kind: 'GitHub App webhook secret', value: String(app.webhook_secret), shown: [SHOWN_ONCE.manifestConversion] },
    { kind: 'GitHub App private key', value: String(app.pem), shown: [SHOWN_ONCE.manifestConversion] },
  );
  const installPage = await web.get(`/apps/${app.slug}/installations/new`);
  const installed = expect(await web.post(`/apps/${app.slug}/installations/new`, {
    authenticity_token: csrfIn(installPage.body), repository_selection: 'selected', [`repo_${repo.id}`]: '1',
  }), [200, 201], 'installation');
  const installationId = Number(/id="installation-id">(\d+)</.exec(installed.body)![1]);
  const jwt = appJwt(String(app.pem), Number(app.id));
  used('GitHub App private key', (await api.call('GET', '/app', { bearer: jwt })).status === 200, 'GET /app with a JWT signed by it');
  const instToken = String((await api.ok('POST', `/app/installations/${installationId}/access_tokens`, { bearer: jwt })).token);
  secrets.push({ kind: 'installation access token', value: instToken, login: 'x-access-token', shown: [SHOWN_ONCE.installationToken] });
  used('installation access token', (await api.call('GET', '/installation/repositories', { token: instToken })).status === 200, 'GET /installation/repositories');
  await api.ok('POST', `/repos/${LOGIN}/${REPO}/issues`, { token: instToken, body: { title: 'opened by the bot' } });
  used('GitHub App webhook secret', await until('the app delivery', async () => receiver.deliveries.find((d) => {
    const sig = d.headers.find(([k]) => k === 'x-hub-signature-256')?.[1];
    return d.body.includes('opened by the bot"') && sig === `sha256=${createHmac('sha256', String(app.webhook_secret)).update(d.body).digest('hex')}`;
  }), 20_000).then(() => true, () => false), 'an app delivery signed with it');
  // The app's webhook secret replaced through the API; the config shows no secret.
  const appHookSecret = fresh('ahs');
  secrets.push({ kind: 'GitHub App webhook secret (replaced)', value: appHookSecret, shown: [] });
  await api.ok('PATCH', '/app/hook/config', { bearer: jwt, body: { secret: appHookSecret } });
  await api.ok('GET', '/app/hook/config', { bearer: jwt });
  await api.ok('POST', `/repos/${LOGIN}/${REPO}/issues`, { token: instToken, body: { title: 'opened by the bot again' } });
  used('GitHub App webhook secret (replaced)', await until('the app delivery', async () => receiver.deliveries.find((d) => {
    const sig = d.headers.find(([k]) => k === 'x-hub-signature-256')?.[1];
    return d.body.includes('opened by the bot again') && sig === `sha256=${createHmac('sha256', appHookSecret).update(d.body).digest('hex')}`;
  }), 20_000).then(() => true, () => false), 'an app delivery signed with it');

  // The app's user-to-server token: the web flow, exchanged with the app's client secret.
  const appCode = await authorizeCode(web, String(app.client_id), { redirectUri: 'https://bot.example/cb' });
  secrets.push({ kind: 'OAuth authorization code (GitHub App)', value: appCode, shown: [SHOWN_ONCE.authorizeRedirect, SHOWN_ONCE.authorizeRedirectAgain] });
  const userToken = await api.ok('POST', '/login/oauth/access_token', { headers: { accept: 'application/json' }, body: { client_id: app.client_id, client_secret: app.client_secret, code: appCode } });
  used('GitHub App client secret', typeof userToken.access_token === 'string', 'the code exchange');
  secrets.push({ kind: 'GitHub App user access token', value: String(userToken.access_token), login: LOGIN, shown: [SHOWN_ONCE.codeExchange] });
  used('GitHub App user access token', (await api.call('GET', '/user', { token: String(userToken.access_token) })).status === 200, 'GET /user');
  if (typeof userToken.refresh_token === 'string') {
    secrets.push({ kind: 'GitHub App refresh token', value: userToken.refresh_token, shown: [SHOWN_ONCE.codeExchange] });
    const refreshed = await api.ok('POST', '/login/oauth/access_token', { headers: { accept: 'application/json' }, body: { client_id: app.client_id, client_secret: app.client_secret, grant_type: 'refresh_token', refresh_token: userToken.refresh_token } });
    used('GitHub App refresh token', typeof refreshed.access_token === 'string', 'refreshed');
    if (typeof refreshed.access_token === 'string') secrets.push({ kind: 'GitHub App user access token (refreshed)', value: refreshed.access_token, login: LOGIN, shown: [SHOWN_ONCE.codeExchange] });
    if (typeof refreshed.refresh_token === 'string') secrets.push({ kind: 'GitHub App refresh token (refreshed)', value: refreshed.refresh_token, shown: [SHOWN_ONCE.codeExchange] });
  }

  // The OAuth device flow of the OAuth app: device code, user code, the token.
  const device = await api.ok('POST', '/login/device/code', { headers: { accept: 'application/json' }, body: { client_id: clientId, scope: 'read:user' } });
  secrets.push(
    { kind: 'OAuth device code', value: String(device.device_code), shown: [SHOWN_ONCE.deviceCodes] },
    // The user code is shown to the user who typed it, on the pages that confirm it.
    { kind: 'OAuth device user code', value: String(device.user_code), shown: [SHOWN_ONCE.deviceCodes, SHOWN_ONCE.devicePage, SHOWN_ONCE.deviceAuthorize] },
  );
  const devicePage = await web.get('/login/device');
  const entered = expect(await web.post('/login/device', { authenticity_token: csrfIn(devicePage.body), user_code: String(device.user_code) }), 200, 'device code entry');
  expect(await web.post('/login/device/authorize', { authenticity_token: csrfIn(entered.body), user_code: String(device.user_code), authorize: '1' }), [200, 201, 302, 303], 'device approval');
  used('OAuth device user code', true, 'entered and approved');
  const polled = await api.ok('POST', '/login/oauth/access_token', { headers: { accept: 'application/json' }, body: { client_id: clientId, device_code: device.device_code, grant_type: 'urn:ietf:params:oauth:grant-type:device_code' } });
  used('OAuth device code', typeof polled.access_token === 'string', `polled: ${polled.error ?? 'a token'}`);
  if (typeof polled.access_token === 'string') {
    secrets.push({ kind: 'OAuth access token (device flow)', value: polled.access_token, login: LOGIN, shown: [SHOWN_ONCE.codeExchange] });
    used('OAuth access token (device flow)', (await api.call('GET', '/user', { token: polled.access_token })).status === 200, 'GET /user');
  }

  // A source import from a git server that asks for credentials: a wrong password first.
  const sourceRoot = path.join(work, 'sources');
  fs.mkdirSync(sourceRoot, { recursive: true });
  await run('git', ['clone', '-q', '--bare', clone, path.join(sourceRoot, 'private', 'src.git')]);
  const importUser = fresh('importer');
  const importPassword = fresh('ip');
  const importWrong = fresh('ipw');
  secrets.push(
    { kind: 'import password', value: importPassword, login: importUser, shown: [] },
    { kind: 'import password (wrong)', value: importWrong, login: importUser, shown: [] },
  );
  const source = await new GitSourceServer(sourceRoot, { prefix: '/private/', user: importUser, password: importPassword }).start();
  try {
    await api.ok('POST', '/user/repos', { token: pat, body: { name: 'imported' } });
    await api.ok('PUT', `/repos/${LOGIN}/imported/import`, { token: pat, body: { vcs: 'git', vcs_url: source.url('private/src.git'), vcs_username: importUser, vcs_password: importWrong } });
    const failed = await until('the import to ask for credentials', async () => {
      const s = await api.ok('GET', `/repos/${LOGIN}/imported/import`, { token: pat });
      return /auth_failed|detection_needs_auth|error/.test(s.status) ? s : null;
    });
    used('import password (wrong)', failed.status === 'auth_failed', `import: ${failed.status}`);
    await api.ok('PATCH', `/repos/${LOGIN}/imported/import`, { token: pat, body: { vcs_username: importUser, vcs_password: importPassword } });
    const done = await until('the import to finish', async () => {
      const s = await api.ok('GET', `/repos/${LOGIN}/imported/import`, { token: pat });
      return /^(complete|error|auth_failed)$/.test(s.status) ? s : null;
    }, 60_000);
    used('import password', done.status === 'complete', `import: ${done.status}`);
  } finally {
    await source.stop();
  }

  // A runner: registration token, credential, remove token.
  const reg = String((await api.ok('POST', `/repos/${LOGIN}/${REPO}/actions/runners/registration-token`, { token: pat })).token);
  secrets.push({ kind: 'runner registration token', value: reg, shown: [SHOWN_ONCE.runnerToken] });
  const registered = await api.ok('POST', '/actions/runner/register', { body: { token: reg, name: 'r1', os: 'Linux', labels: ['suite'] } });
  const credential = String(registered.credential);
  secrets.push({ kind: 'runner credential', value: credential, shown: [SHOWN_ONCE.runnerRegistration] });
  used('runner registration token', true, 'registered a runner');
  used('runner credential', (await api.call('POST', '/actions/runner/heartbeat', { headers: { 'x-runner-token': credential }, body: { busy: false } })).status === 200, 'heartbeat');
  const remove = String((await api.ok('POST', `/repos/${LOGIN}/${REPO}/actions/runners/remove-token`, { token: pat })).token);
  secrets.push({ kind: 'runner remove token', value: remove, shown: [SHOWN_ONCE.runnerToken] });
  const removed = await api.call('POST', '/actions/runner/remove', { headers: { 'x-runner-token': credential }, body: { token: remove } });
  used('runner remove token', removed.status === 204, `runner removed: ${removed.status}`);

  // Tokens revoked: the revocation paths may log too.
  await api.call('DELETE', `/applications/${clientId}/token`, { basic: [clientId, clientSecret], body: { access_token: accessToken } });
  progress(`${SUITE}: ${secrets.length} secrets made and used`);
  return { secrets, usages };
}

// ---------------------------------------------------------------- the search

interface Hit { secret: Secret; form: string; where: string }

function shownOnce(s: Secret, r: RecordedResponse, where: Where): boolean {
  return s.shown.some((e) => e.where === where && e.method === r.method && e.path.test(r.path.split('?')[0]!));
}

function sample(items: string[], max = 6): string {
  return items.slice(0, max).join('\n') + (items.length > max ? `\n… and ${items.length - max} more` : '');
}

/** A line with each secret in it replaced by its kind, so the report shows no secret. */
function redact(text: string, secrets: Secret[]): string {
  let out = text;
  for (const s of secrets) for (const v of variants(s)) out = out.split(v.text).join(`«${s.kind}»`);
  return out.length > 240 ? `${out.slice(0, 240)}…` : out;
}

export async function runSecrets(o: SecretsOptions): Promise<SecretsResult> {
  const progress = o.progress ?? (() => {});
  const started = Date.now();
  const suite = `${SUITE} (${o.dialect})`;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-secrets-run-'));
  const receiver = new DeliveryReceiver();
  await receiver.start();
  const proxy = new RecordingProxy();
  let w: Wharf | null = null;
  try {
    w = await startWharf({
      serverArgs: o.serverArgs, cwd: o.cwd, dialect: o.dialect, databaseUrl: o.databaseUrl, name: 'secrets',
      env: {
        LOG_LEVEL: 'trace',
        WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
        WHARF_WEBHOOK_POLL_MS: '100',
        WHARF_IMPORT_POLL_MS: '100',
      },
    });
    await proxy.start(Number(new URL(w.base).port));
    const api = new Api(proxy.base);
    progress(`${suite}: Wharf up on ${w.base} (recorded through ${proxy.base})`);
    const { secrets, usages } = await makeAndUse(api, w, receiver, work, progress);
    await sleep(500); // the last log lines
    const lines = w.lines();
    const cells = await databaseCells(o.dialect, w.dataDir, w.databaseUrl, w.schema);

    const inResponses: Hit[] = [];
    const inHeaders: Hit[] = [];
    const allowed: string[] = [];
    const inLogs: Hit[] = [];
    const inDatabase: Hit[] = [];
    const inDeliveries: Hit[] = [];
    const inFiles: Hit[] = [];
    const files = dataFiles(w.dataDir);
    for (const s of secrets) {
      for (const v of variants(s)) {
        for (const r of proxy.responses) {
          // The path may hold a secret itself (a manifest code): the report names none.
          const at = redact(`${r.method} ${r.path.split('?')[0]} → ${r.status}`, secrets);
          if (r.body.includes(v.text)) {
            if (shownOnce(s, r, 'body')) allowed.push(`${s.kind}: body of ${at}`);
            else inResponses.push({ secret: s, form: v.form, where: `body of ${at}` });
          }
          for (const [name, value] of r.headers) {
            if (!value.includes(v.text)) continue;
            const where: Where | null = name === 'location' ? 'location' : name === 'set-cookie' ? 'set-cookie' : null;
            if (where && shownOnce(s, r, where)) allowed.push(`${s.kind}: ${name} of ${at}`);
            else inHeaders.push({ secret: s, form: v.form, where: `${name} header of ${at}` });
          }
        }
        for (const line of lines) if (line.includes(v.text)) inLogs.push({ secret: s, form: v.form, where: redact(line, secrets) });
        for (const c of cells) if (c.text.includes(v.text)) inDatabase.push({ secret: s, form: v.form, where: `${c.table}.${c.column}` });
        for (const d of receiver.deliveries) {
          if (d.body.includes(v.text) || d.headers.some(([, value]) => value.includes(v.text))) inDeliveries.push({ secret: s, form: v.form, where: `delivery ${d.headers.find(([k]) => k === 'x-github-event')?.[1] ?? '?'}` });
        }
        for (const f of files) if (f.text.includes(v.text)) inFiles.push({ secret: s, form: v.form, where: f.name });
      }
    }
    const control = {
      responses: proxy.responses.filter((r) => r.body.includes(CONTROL)).length,
      deliveries: receiver.deliveries.filter((d) => d.body.includes(CONTROL)).length,
      logs: lines.filter((l) => l.includes(REPO)).length,
      database: cells.filter((c) => c.text.includes(CONTROL)).length,
    };
    const describe = (hits: Hit[]) => sample([...new Set(hits.map((h) => `${h.secret.kind} (${h.form}) in ${h.where}`))]);
    const kinds = [...new Set(secrets.map((s) => s.kind.replace(/ \(.*\)$/, '')))];
    const unused = usages.filter((u) => !u.ok);
    const figures: Figure[] = [
      {
        suite, name: 'control: plain data found in responses / deliveries / log lines / database',
        value: `${control.responses} / ${control.deliveries} / ${control.logs} / ${control.database}`,
        pass: Object.values(control).every((n) => n > 0),
        detail: 'an issue title (the repository name in log lines) each search must find, or the search is blind',
      },
      { suite, name: 'secrets made (kinds)', value: `${secrets.length} (${kinds.length})`, pass: null, detail: kinds.join(', ') },
      {
        suite, name: 'secrets used and working', value: `${usages.length - unused.length} of ${usages.length} uses`, pass: unused.length === 0,
        detail: sample(unused.map((u) => `${u.kind}: ${u.detail}`)),
      },
      { suite, name: `secrets in response bodies (of ${proxy.responses.length} responses)`, value: String(inResponses.length), pass: inResponses.length === 0, detail: describe(inResponses) },
      { suite, name: 'secrets in response headers', value: String(inHeaders.length), pass: inHeaders.length === 0, detail: describe(inHeaders) },
      { suite, name: 'secrets shown once at creation (allowed)', value: String(allowed.length), pass: null, detail: sample(allowed, 30) },
      { suite, name: `secrets in webhook deliveries (of ${receiver.deliveries.length})`, value: String(inDeliveries.length), pass: inDeliveries.length === 0, detail: describe(inDeliveries) },
      { suite, name: `secrets in log lines (of ${lines.length}, LOG_LEVEL=trace)`, value: String(inLogs.length), pass: inLogs.length === 0, detail: describe(inLogs) },
      { suite, name: `secrets in the database (${cells.length} text cells)`, value: String(inDatabase.length), pass: inDatabase.length === 0, detail: describe(inDatabase) },
      { suite, name: `secrets in other files of the data dir (${files.length})`, value: String(inFiles.length), pass: inFiles.length === 0, detail: describe(inFiles) },
    ];
    return { figures, secrets: secrets.length, responses: proxy.responses.length, logLines: lines.length, cells: cells.length, seconds: (Date.now() - started) / 1000 };
  } finally {
    await proxy.close();
    await receiver.close();
    await w?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Every file of the data dir but the database's own (searched as cells) and the secret key. */
function dataFiles(dir: string): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && !/^wharf\.sqlite/.test(e.name) && fs.statSync(p).size < 50 * 1024 * 1024) {
        out.push({ name: path.relative(dir, p), text: fs.readFileSync(p).toString('latin1') });
      }
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}
