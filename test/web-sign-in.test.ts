// Browser sign-in: passwords set by the site admin and by the user, sessions in cookies
// (server-side, ended by sign-out and by a password change), CSRF on every form, the
// lockout shared with Basic logins, and neither password nor cookie ever opening the API.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chromium, type Browser } from 'playwright-core';
import { ADMIN_TOKEN, startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { CHROMIUM, chromiumMissing, csrfIn, setPassword, WebClient } from './helpers/web.ts';
import { programArgs } from './helpers/programs.ts';

const PASSWORD = 'correct horse battery';

describe('browser sign-in', () => {
  let t: TestServer;
  let alice: CreatedUser;

  before(async () => {
    t = await startTestServer({ env: { WHARF_LOGIN_MAX_FAILURES: '3' } });
    alice = await createUser(t);
    await setPassword(t, alice.login, PASSWORD);
  });
  after(async () => { await t.close(); });

  test('the site admin sets passwords; bad input is a 422 and changes nothing; others may not', async () => {
    const bob = await createUser(t);
    const short = await t.request(`/admin/users/${bob.login}/password`, { method: 'PUT', token: ADMIN_TOKEN, json: { password: 'short' } });
    assert.equal(short.status, 422);
    assert.equal(((await short.json()) as { errors: { field: string }[] }).errors[0]!.field, 'password');
    assert.equal((await new WebClient(t).signIn(bob.login, 'short')).status, 401, 'the refused password was not stored');
    for (const json of [{}, { password: 5 }, { password: ['x'] }]) {
      const res = await t.request(`/admin/users/${bob.login}/password`, { method: 'PUT', token: ADMIN_TOKEN, json });
      assert.equal(res.status, 422, JSON.stringify(json));
    }
    const notAdmin = await t.request(`/admin/users/${bob.login}/password`, { method: 'PUT', token: alice.token, json: { password: PASSWORD } });
    assert.equal(notAdmin.status, 403);
    assert.equal((await t.request('/admin/users/nobody-here/password', { method: 'PUT', token: ADMIN_TOKEN, json: { password: PASSWORD } })).status, 404);
    assert.equal((await new WebClient(t).signIn(bob.login, PASSWORD)).status, 401);
  });

  test('the CLI sets a password read from standard input; a refused one changes nothing', async () => {
    const frank = await createUser(t);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH, WHARF_DATA_DIR: t.dataDir, LOG_LEVEL: 'silent',
      ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
      ...(t.pgSchema ? { WHARF_DATABASE_SCHEMA: t.pgSchema } : {}),
    };
    const cli = (password: string) => new Promise<number>((resolve) => {
      const child = spawn(process.execPath, [...programArgs('cli/main.ts'), 'users', 'set-password', frank.login], { env, stdio: ['pipe', 'ignore', 'ignore'] });
      child.on('exit', (code) => resolve(code ?? -1));
      child.stdin.end(`${password}\n`);
    });
    assert.equal(await cli('short'), 1);
    assert.equal((await new WebClient(t).signIn(frank.login, 'short')).status, 401);
    assert.equal(await cli('from the command line'), 0);
    assert.equal((await new WebClient(t).signIn(frank.login, 'from the command line')).status, 303);
  });

  test('signing in sets an HttpOnly SameSite=Lax session cookie that opens the pages, not the API', async () => {
    const web = new WebClient(t);
    const form = await web.get('/login');
    assert.equal(form.status, 200);
    assert.match(form.headers.get('content-type') ?? '', /^text\/html/);
    const res = await web.post('/login', { authenticity_token: csrfIn(form.body), login: alice.login, password: PASSWORD });
    assert.equal(res.status, 303);
    assert.equal(res.location, '/settings');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('wharf_session='))!;
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
    assert.doesNotMatch(cookie, /Secure/, 'plain HTTP here');
    const settings = await web.get('/settings');
    assert.equal(settings.status, 200);
    assert.match(settings.body, new RegExp(`Signed in as <strong id="signed-in-as">${alice.login}</strong>`));

    // The cookie is not a credential for the API.
    const cookieHeader = `wharf_session=${web.cookies.get('wharf_session')}`;
    const user = await t.request('/user', { headers: { cookie: cookieHeader } });
    assert.equal(user.status, 401);
    const graphql = await t.request('/graphql', { method: 'POST', headers: { cookie: cookieHeader }, json: { query: '{ viewer { login } }' } });
    assert.equal(graphql.status, 401);
  });

  test('a password never authenticates the API, GraphQL or git, and /meta says so', async () => {
    // A user of its own: each refused attempt counts towards its lockout.
    const erin = await createUser(t);
    await setPassword(t, erin.login, PASSWORD);
    const basic = Buffer.from(`${erin.login}:${PASSWORD}`).toString('base64');
    assert.equal((await t.request('/user', { headers: { authorization: `Basic ${basic}` } })).status, 401);
    const graphql = await t.request('/graphql', { method: 'POST', headers: { authorization: `Basic ${basic}` }, json: { query: '{ viewer { login } }' } });
    assert.equal(graphql.status, 401);
    await t.octokit(erin.token).rest.repos.createForAuthenticatedUser({ name: 'private-dock', private: true, auto_init: true });
    const refs = `/${erin.login}/private-dock.git/info/refs?service=git-upload-pack`;
    assert.equal((await t.request(refs, { headers: { authorization: `Basic ${basic}` } })).status, 401);
    const withToken = Buffer.from(`${erin.login}:${erin.token}`).toString('base64');
    assert.equal((await t.request(refs, { headers: { authorization: `Basic ${withToken}` } })).status, 403, 'three failures: locked out, as with any Basic login');
    const meta = (await (await t.request('/meta')).json()) as { verifiable_password_authentication: boolean };
    assert.equal(meta.verifiable_password_authentication, false);
  });

  test('the login form without its CSRF token is refused and signs nobody in', async () => {
    const web = new WebClient(t);
    await web.get('/login');
    const forms: Record<string, string>[] = [{ login: alice.login, password: PASSWORD }, { login: alice.login, password: PASSWORD, authenticity_token: 'f'.repeat(64) }];
    for (const form of forms) {
      const res = await web.post('/login', form);
      assert.equal(res.status, 403);
      assert.equal(web.cookies.has('wharf_session'), false);
    }
    // A token from another browser does not do either.
    const other = new WebClient(t);
    const token = csrfIn((await other.get('/login')).body);
    assert.equal((await web.post('/login', { authenticity_token: token, login: alice.login, password: PASSWORD })).status, 403);
  });

  test('sign-out ends the session on the server: the old cookie is worthless afterwards', async () => {
    const web = new WebClient(t);
    await web.signIn(alice.login, PASSWORD);
    const stolen = web.cookies.get('wharf_session')!;
    const settings = await web.get('/settings');
    // Sign-out is a form too: without the token it changes nothing.
    assert.equal((await web.post('/logout', {})).status, 403);
    assert.equal((await web.get('/settings')).status, 200);
    const out = await web.post('/logout', { authenticity_token: csrfIn(settings.body) });
    assert.equal(out.status, 303);
    const replay = new WebClient(t);
    replay.cookies.set('wharf_session', stolen);
    const res = await replay.get('/settings');
    assert.equal(res.status, 302);
    assert.equal(res.location, '/login?return_to=%2Fsettings');
  });

  test('changing the password ends every other session; the old password stops working', async () => {
    const carol = await createUser(t);
    await setPassword(t, carol.login, PASSWORD);
    const here = new WebClient(t);
    const elsewhere = new WebClient(t);
    await here.signIn(carol.login, PASSWORD);
    await elsewhere.signIn(carol.login, PASSWORD);
    const page = await here.get('/settings/password');
    const csrf = csrfIn(page.body);
    const wrong = await here.post('/settings/password', { authenticity_token: csrf, current_password: 'not it at all', new_password: 'a new passphrase' });
    assert.equal(wrong.status, 422);
    assert.equal((await elsewhere.get('/settings')).status, 200, 'a refused change ends nothing');
    const noCsrf = await here.post('/settings/password', { current_password: PASSWORD, new_password: 'a new passphrase' });
    assert.equal(noCsrf.status, 403);
    const ok = await here.post('/settings/password', { authenticity_token: csrf, current_password: PASSWORD, new_password: 'a new passphrase' });
    assert.equal(ok.status, 200);
    assert.match(ok.body, /Password changed/);
    assert.equal((await here.get('/settings')).status, 200, 'this browser stays signed in');
    assert.equal((await elsewhere.get('/settings')).status, 302, 'the other one is out');
    assert.equal((await new WebClient(t).signIn(carol.login, PASSWORD)).status, 401);
    assert.equal((await new WebClient(t).signIn(carol.login, 'a new passphrase')).status, 303);
  });

  test('failed sign-ins and failed Basic logins count towards one lockout', async () => {
    const dave = await createUser(t);
    await setPassword(t, dave.login, PASSWORD);
    assert.equal((await new WebClient(t).signIn(dave.login, 'wrong one 1')).status, 401);
    assert.equal((await new WebClient(t).signIn(dave.login, 'wrong one 2')).status, 401);
    const basic = Buffer.from(`${dave.login}:whp_notatoken`).toString('base64');
    assert.equal((await t.request('/user', { headers: { authorization: `Basic ${basic}` } })).status, 401);
    // Locked: the right password and the right token are both refused now.
    const locked = await new WebClient(t).signIn(dave.login, PASSWORD);
    assert.equal(locked.status, 403);
    assert.match(locked.body, /Maximum number of login attempts exceeded/);
    const right = Buffer.from(`${dave.login}:${dave.token}`).toString('base64');
    assert.equal((await t.request('/user', { headers: { authorization: `Basic ${right}` } })).status, 403);
  });

  test('bad input to the pages is a 4xx, never a 5xx', async () => {
    const web = new WebClient(t);
    const csrf = csrfIn((await web.get('/login')).body);
    const cases: [string, string, string][] = [
      ['/login', 'application/x-www-form-urlencoded', 'login=%ZZ&password'],
      ['/login', 'application/x-www-form-urlencoded', `authenticity_token=${csrf}&login=${'x'.repeat(5000)}&password=y`],
      ['/login', 'application/json', '{"login": 5}'],
      ['/login', 'application/json', '{'],
      ['/logout', 'application/x-www-form-urlencoded', 'authenticity_token=%00'],
      ['/settings/password', 'application/x-www-form-urlencoded', ''],
    ];
    for (const [path, type, body] of cases) {
      const res = await fetch(`${t.baseUrl}${path}`, { method: 'POST', body, redirect: 'manual', headers: { 'content-type': type, 'user-agent': 'x', cookie: `wharf_csrf=${csrf}` } });
      assert.ok(res.status >= 300 && res.status < 500, `${path} ${body.slice(0, 40)} → ${res.status}`);
    }
    const unsafe = await web.get('/login?return_to=//evil.example/');
    assert.doesNotMatch(unsafe.body, /evil\.example/);
  });

  describe('in headless Chromium', { skip: chromiumMissing ? 'chromium is not installed' : false }, () => {
    let browser: Browser;
    before(async () => { browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }); });
    after(async () => { await browser?.close(); });

    test('sign in with the form, come back to the page asked for, sign out', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${t.baseUrl}/settings/password`);
      assert.equal(new URL(page.url()).pathname, '/login');
      await page.fill('#login_field', alice.login);
      await page.fill('#password', 'not the password');
      await page.click('#sign-in');
      assert.equal(await page.textContent('.flash.error'), 'Incorrect username or password.');
      await page.fill('#password', PASSWORD);
      await page.click('#sign-in');
      await page.waitForURL(`${t.baseUrl}/settings/password`);
      assert.equal(await page.textContent('#signed-in-as'), alice.login);
      const cookies = await context.cookies();
      const session = cookies.find((c) => c.name === 'wharf_session')!;
      assert.equal(session.httpOnly, true);
      assert.equal(session.sameSite, 'Lax');
      assert.equal(await page.evaluate(() => document.cookie.includes('wharf_session')), false);
      await page.click('#sign-out');
      await page.waitForURL(`${t.baseUrl}/login`);
      await page.goto(`${t.baseUrl}/settings`);
      assert.equal(new URL(page.url()).pathname, '/login');
      await context.close();
    });
  });
});

describe('browser sessions expire', () => {
  const clock = new TestClock(Date.now());
  let t: TestServer;
  before(async () => { t = await startTestServer({ clock }); });
  after(async () => { await t.close(); });

  test('a session ends 14 days after sign-in, on the injectable clock', async () => {
    const user = await createUser(t);
    await setPassword(t, user.login, PASSWORD);
    const web = new WebClient(t);
    assert.equal((await web.signIn(user.login, PASSWORD)).status, 303);
    clock.advance(14 * 24 * 3600 * 1000 - 1000);
    assert.equal((await web.get('/settings')).status, 200);
    clock.advance(2000);
    assert.equal((await web.get('/settings')).status, 302);
  });
});
