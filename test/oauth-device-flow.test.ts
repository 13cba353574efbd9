// The device flow: a device asks for codes, the user enters the short one on
// /login/device (headless Chromium) and approves, the device polls for its token;
// @octokit/auth-oauth-device runs it unchanged. Polling rules (pending, slow_down,
// expiry, denial) are checked on a TestClock, without waiting. gh's public app is on
// every instance.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser } from 'playwright-core';
import { createOAuthDeviceAuth } from '@octokit/auth-oauth-device';
import { ADMIN_TOKEN, startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { CHROMIUM, chromiumMissing, csrfIn, registerApp, type RegisteredApp, setPassword, signedInAs, WebClient } from './helpers/web.ts';

const PASSWORD = 'correct horse battery';
const GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const GH_CLIENT_ID = '178c6fc778ccc68e1d6a';

interface Codes { device_code: string; user_code: string; verification_uri: string; expires_in: number; interval: number }

describe('OAuth device flow', () => {
  const clock = new TestClock(Date.now());
  let t: TestServer;
  let alice: CreatedUser;
  let web: WebClient;
  let app: RegisteredApp;

  before(async () => {
    t = await startTestServer({ clock });
    alice = await createUser(t);
    web = await signedInAs(t, alice.login, PASSWORD);
    app = await registerApp(web, { name: 'Terminal tool', url: 'https://term.example', callback_url: 'https://term.example/cb' });
  });
  after(async () => { await t.close(); });

  async function form(path: string, fields: Record<string, string>, accept?: string): Promise<{ status: number; type: string; fields: Record<string, string> }> {
    const res = await fetch(`${t.baseUrl}${path}`, {
      method: 'POST', body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Go-http-client/1.1', ...(accept ? { accept } : {}) },
    });
    const type = res.headers.get('content-type') ?? '';
    const text = await res.text();
    return { status: res.status, type, fields: type.startsWith('application/json') ? JSON.parse(text) as Record<string, string> : Object.fromEntries(new URLSearchParams(text)) };
  }

  async function codes(clientId = app.clientId, scope = 'read:user'): Promise<Codes> {
    const res = await form('/login/device/code', { client_id: clientId, scope }, 'application/json');
    assert.equal(res.status, 200);
    return res.fields as unknown as Codes;
  }

  const poll = (c: Codes, clientId = app.clientId) => form('/login/oauth/access_token', { client_id: clientId, device_code: c.device_code, grant_type: GRANT }).then((r) => r.fields);

  /** Enters the code and approves (or denies) as a signed-in client. */
  async function decide(userCode: string, approve: boolean): Promise<number> {
    const page = await web.get('/login/device');
    const entered = await web.post('/login/device', { authenticity_token: csrfIn(page.body), user_code: userCode });
    if (entered.status !== 200) return entered.status;
    return (await web.post('/login/device/authorize', { authenticity_token: csrfIn(entered.body), user_code: userCode, authorize: approve ? '1' : '0' })).status;
  }

  test('codes: form-urlencoded by default (as gh reads them), a XXXX-XXXX user code, 900 s, every 5 s', async () => {
    const res = await form('/login/device/code', { client_id: app.clientId, scope: 'repo gist' });
    assert.equal(res.status, 200);
    assert.match(res.type, /^application\/x-www-form-urlencoded/);
    assert.match(res.fields.device_code!, /^[0-9a-f]{40}$/);
    assert.match(res.fields.user_code!, /^[A-Z]{4}-[A-Z]{4}$/);
    assert.equal(res.fields.verification_uri, `${t.baseUrl}/login/device`);
    assert.equal(res.fields.expires_in, '900');
    assert.equal(res.fields.interval, '5');
    const unknown = await form('/login/device/code', { client_id: 'Iv1.nope' }, 'application/json');
    assert.equal(unknown.fields.error, 'incorrect_client_credentials');
    assert.equal(unknown.fields.verification_uri, undefined);
  });

  test('polling: pending, slow_down raising the interval by 5, then the token once', async () => {
    const c = await codes();
    const first = await poll(c);
    assert.equal(first.error, 'authorization_pending');
    assert.equal(first.error_description, 'The authorization request is still pending.');
    const fast = await poll(c);
    assert.equal(fast.error, 'slow_down');
    assert.equal(fast.interval, '10');
    clock.advance(6_000);
    assert.equal((await poll(c)).error, 'slow_down', '6 s is faster than the raised 10 s');
    clock.advance(15_000);
    assert.equal((await poll(c)).error, 'authorization_pending');
    assert.equal(await decide(c.user_code.toLowerCase().replace('-', ' '), true), 200, 'the code is accepted however it is typed');
    clock.advance(15_000);
    const granted = await poll(c);
    assert.match(granted.access_token!, /^whp_/);
    assert.equal(granted.scope, 'read:user');
    assert.equal(granted.token_type, 'bearer');
    const me = await t.request('/user', { token: granted.access_token });
    assert.equal(me.status, 200);
    assert.equal(me.headers.get('x-oauth-scopes'), 'read:user');
    assert.equal((await t.request('/user/repos', { method: 'POST', token: granted.access_token, json: { name: 'nope' } })).status, 403);
    clock.advance(15_000);
    assert.equal((await poll(c)).error, 'incorrect_device_code', 'a device code gives one token');
  });

  test('denied, expired, and foreign codes', async () => {
    const denied = await codes();
    assert.equal(await decide(denied.user_code, false), 200);
    clock.advance(6_000);
    assert.equal((await poll(denied)).error, 'access_denied');

    const late = await codes();
    clock.advance(901_000);
    assert.equal(await decide(late.user_code, true), 404, 'an expired code cannot be approved');
    assert.equal((await poll(late)).error, 'expired_token');

    const other = await registerApp(web, { name: 'Other', url: 'https://o.example', callback_url: 'https://o.example/cb' });
    const mine = await codes();
    assert.equal((await poll(mine, other.clientId)).error, 'incorrect_device_code');
    assert.equal((await poll(mine, 'Iv1.unknown')).error, 'incorrect_client_credentials');
    assert.equal((await poll({ ...mine, device_code: 'f'.repeat(40) })).error, 'incorrect_device_code');
    assert.equal(await decide('BCDF-GHJK', true), 404);
    assert.equal(await decide('not a code', true), 404);
  });

  test('entering and approving a code needs a signed-in user and the CSRF token; a refused post decides nothing', async () => {
    const c = await codes();
    const anonymous = await new WebClient(t).get('/login/device');
    assert.equal(anonymous.status, 302);
    assert.equal(anonymous.location, '/login?return_to=%2Flogin%2Fdevice');
    assert.equal((await web.post('/login/device', { user_code: c.user_code })).status, 403);
    assert.equal((await web.post('/login/device/authorize', { user_code: c.user_code, authorize: '1' })).status, 403);
    clock.advance(6_000);
    assert.equal((await poll(c)).error, 'authorization_pending');
    const mallory = await createUser(t);
    await setPassword(t, mallory.login, PASSWORD);
    const mWeb = new WebClient(t);
    await mWeb.signIn(mallory.login, PASSWORD);
    // Alice's page token is no good in Mallory's session.
    const alicePage = await web.get('/login/device');
    assert.equal((await mWeb.post('/login/device/authorize', { authenticity_token: csrfIn(alicePage.body), user_code: c.user_code, authorize: '1' })).status, 403);
    clock.advance(6_000);
    assert.equal((await poll(c)).error, 'authorization_pending');
  });

  test("gh's public app is on every instance, once, owned by the first site admin, and needs no secret", async () => {
    const list = (await (await t.request('/admin/oauth-apps?per_page=100', { token: ADMIN_TOKEN })).json()) as { client_id: string; name: string; owner: { login: string } }[];
    const gh = list.filter((a) => a.client_id === GH_CLIENT_ID);
    assert.equal(gh.length, 1);
    assert.equal(gh[0]!.name, 'GitHub CLI');
    assert.equal(gh[0]!.owner.login, 'admin');
    const restarted = await startTestServer({ shareWith: t, clock });
    try {
      const again = (await (await restarted.request('/admin/oauth-apps?per_page=100', { token: ADMIN_TOKEN })).json()) as { client_id: string }[];
      assert.equal(again.filter((a) => a.client_id === GH_CLIENT_ID).length, 1);
    } finally {
      await restarted.close();
    }
    const c = await codes(GH_CLIENT_ID, 'repo read:org gist');
    const page = await web.get('/login/device');
    const entered = await web.post('/login/device', { authenticity_token: csrfIn(page.body), user_code: c.user_code });
    assert.match(entered.body, /<span id="app-name">GitHub CLI<\/span>/);
    assert.match(entered.body, /<span id="app-owner">admin<\/span>/);
    await web.post('/login/device/authorize', { authenticity_token: csrfIn(entered.body), user_code: c.user_code, authorize: '1' });
    const granted = await poll(c, GH_CLIENT_ID);
    assert.equal(granted.scope, 'repo,read:org,gist');
  });

  test('bad input to the device endpoints is a 4xx, never a 5xx', async () => {
    const cases: [string, string, string][] = [
      ['/login/device/code', 'application/json', '{'],
      ['/login/device/code', 'application/json', '{"client_id": 7}'],
      ['/login/device/code', 'application/x-www-form-urlencoded', 'client_id=%00&scope=%ZZ'],
      ['/login/device/code', 'application/x-www-form-urlencoded', `client_id=${app.clientId}&scope=${'repo,'.repeat(500)}`],
      ['/login/oauth/access_token', 'application/x-www-form-urlencoded', `client_id=${app.clientId}&grant_type=${GRANT}`],
      ['/login/oauth/access_token', 'application/x-www-form-urlencoded', `client_id=${app.clientId}&grant_type=${GRANT}&device_code=${'x'.repeat(4000)}`],
      ['/login/device', 'application/x-www-form-urlencoded', 'user_code=%00'],
      ['/login/device/authorize', 'application/json', '[1]'],
    ];
    for (const [path, type, body] of cases) {
      const res = await fetch(`${t.baseUrl}${path}`, { method: 'POST', body, redirect: 'manual', headers: { 'content-type': type, 'user-agent': 'x' } });
      assert.ok(res.status < 500, `${path} ${body.slice(0, 40)} → ${res.status}`);
    }
  });

  describe('in headless Chromium, with @octokit/auth-oauth-device', { skip: chromiumMissing ? 'chromium is not installed' : false }, () => {
    let browser: Browser;
    before(async () => { browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }); });
    after(async () => { await browser?.close(); });

    test('the device shows the code, the user enters it in the browser and approves, the device gets its token', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      let shown = '';
      const auth = createOAuthDeviceAuth({
        clientType: 'oauth-app',
        clientId: app.clientId,
        scopes: ['public_repo', 'read:org'],
        request: t.octokit().request,
        async onVerification(verification) {
          shown = verification.user_code;
          await page.goto(verification.verification_uri);
          await page.fill('#login_field', alice.login);
          await page.fill('#password', PASSWORD);
          await page.click('#sign-in');
          await page.fill('#user-code', verification.user_code);
          await page.click('#continue');
          assert.equal(await page.textContent('#app-name'), 'Terminal tool');
          assert.equal(await page.textContent('#device-user-code'), verification.user_code);
          const scopes = await page.$$eval('#scopes li', (lis) => lis.map((li) => li.getAttribute('data-scope')));
          assert.deepEqual(scopes, ['public_repo', 'read:org']);
          await page.click('#approve');
          await page.waitForSelector('#device-done');
        },
      });
      const authentication = await auth({ type: 'oauth' });
      assert.match(shown, /^[A-Z]{4}-[A-Z]{4}$/);
      assert.equal(authentication.tokenType, 'oauth');
      const me = await t.request('/user', { token: authentication.token });
      assert.equal(((await me.json()) as { login: string }).login, alice.login);
      assert.equal(me.headers.get('x-oauth-scopes'), 'public_repo, read:org');
      await context.close();
    });
  });
});
