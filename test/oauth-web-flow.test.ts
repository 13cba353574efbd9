// The OAuth web flow end to end: an app sends the user to /login/oauth/authorize, the
// user signs in and approves in headless Chromium, the browser lands on the app's
// callback (a local server), and @octokit/oauth-app exchanges the code for a token that
// holds exactly the approved scopes. Codes are single-use and expire (TestClock).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { chromium, type Browser } from 'playwright-core';
import { OAuthApp } from '@octokit/oauth-app';
import { Octokit } from '@octokit/rest';
import { startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { CHROMIUM, chromiumMissing, csrfIn, registerApp, type RegisteredApp, signedInAs, startCallbackServer, WebClient } from './helpers/web.ts';

const PASSWORD = 'correct horse battery';

type Callback = Awaited<ReturnType<typeof startCallbackServer>>;

describe('OAuth web flow', () => {
  const clock = new TestClock(Date.now());
  let t: TestServer;
  let alice: CreatedUser;
  let web: WebClient;
  let callback: Callback;
  let app: RegisteredApp;
  let octokitApp: OAuthApp;

  before(async () => {
    t = await startTestServer({ clock });
    alice = await createUser(t);
    web = await signedInAs(t, alice.login, PASSWORD);
    callback = await startCallbackServer();
    app = await registerApp(web, { name: 'Lighthouse <CI>', url: 'https://lighthouse.example', callback_url: callback.url, description: 'Keeps watch' });
    // Unchanged client, pointed at this Wharf the way it is pointed at an enterprise server.
    octokitApp = new OAuthApp({ clientType: 'oauth-app', clientId: app.clientId, clientSecret: app.secret, Octokit: Octokit.defaults({ baseUrl: t.baseUrl }) });
  });
  after(async () => {
    await callback.close();
    await t.close();
  });

  /** Approves through the form as a signed-in client and returns the code the callback got. */
  async function approveWith(client: WebClient, query: Record<string, string>): Promise<URL> {
    const page = await client.get(`/login/oauth/authorize?${new URLSearchParams({ client_id: app.clientId, ...query })}`);
    if (page.status === 302) return new URL(page.location!);
    assert.equal(page.status, 200, page.body);
    const fields: Record<string, string> = { authenticity_token: csrfIn(page.body), authorize: '1' };
    for (const m of page.body.matchAll(/<input type="hidden" name="([a-z_]+)" value="([^"]*)">/g)) {
      if (m[1] !== 'authenticity_token') fields[m[1]!] = m[2]!.replace(/&amp;/g, '&');
    }
    const res = await client.post('/login/oauth/authorize', fields);
    assert.equal(res.status, 303, res.body);
    return new URL(res.location!);
  }

  async function tokenRequest(fields: Record<string, string>, accept = 'application/json'): Promise<Record<string, string>> {
    const res = await t.request('/login/oauth/access_token', { method: 'POST', headers: { accept }, json: fields });
    assert.equal(res.status, 200, 'upstream answers the token endpoint with 200, errors included');
    return (await res.json()) as Record<string, string>;
  }

  describe('in headless Chromium', { skip: chromiumMissing ? 'chromium is not installed' : false }, () => {
    let browser: Browser;
    before(async () => { browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }); });
    after(async () => { await browser?.close(); });

    test('sign in, approve, come back with code and state; @octokit/oauth-app gets a token with exactly those scopes', async () => {
      const { url } = octokitApp.getWebFlowAuthorizationUrl({ state: 'st&te 1', scopes: ['read:user', 'public_repo', 'no-such-scope'], redirectUrl: callback.url });
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(url);
      assert.equal(new URL(page.url()).pathname, '/login');
      await page.fill('#login_field', alice.login);
      await page.fill('#password', PASSWORD);
      await page.click('#sign-in');
      await page.waitForSelector('#approve');
      assert.equal(await page.textContent('#app-name'), 'Lighthouse <CI>');
      assert.equal(await page.textContent('#app-owner'), alice.login);
      const scopes = await page.$$eval('#scopes li', (lis) => lis.map((li) => [li.getAttribute('data-scope'), li.querySelector('strong')!.textContent]));
      assert.deepEqual(scopes, [['read:user', 'Read all user profile data'], ['public_repo', 'Access public repositories']]);
      const landed = callback.next();
      await page.click('#approve');
      const hit = await landed;
      await page.waitForSelector('#callback-done');
      assert.equal(hit.pathname, '/callback');
      assert.equal(hit.searchParams.get('state'), 'st&te 1');
      const code = hit.searchParams.get('code')!;
      assert.match(code, /^[0-9a-f]{40}$/);

      const { authentication } = await octokitApp.createToken({ code, redirectUrl: callback.url });
      // Upstream's `scope` is comma-separated ("repo,gist"), which Octokit splits on spaces only.
      assert.deepEqual(authentication.scopes.flatMap((s) => s.split(',')), ['read:user', 'public_repo']);
      const me = await t.octokit(authentication.token).request('GET /user');
      assert.equal(me.data.login, alice.login);
      assert.equal(me.headers['x-oauth-scopes'], 'read:user, public_repo');
      // The token records the app that obtained it.
      const row = await t.server.ctx.db.selectFrom('tokens').select(['kind', 'oauth_app_id']).where('token_last_eight', '=', authentication.token.slice(-8)).executeTakeFirstOrThrow();
      assert.deepEqual(row, { kind: 'oauth', oauth_app_id: app.id });

      // Asked again for the same (or fewer) scopes, the user is sent back at once.
      const again = callback.next();
      await page.goto(octokitApp.getWebFlowAuthorizationUrl({ state: 'two', scopes: ['public_repo'], redirectUrl: callback.url }).url);
      const second = await again;
      assert.equal(second.searchParams.get('state'), 'two');
      assert.match(second.searchParams.get('code')!, /^[0-9a-f]{40}$/);

      // A wider request asks again; denying sends access_denied back with the state.
      await page.goto(octokitApp.getWebFlowAuthorizationUrl({ state: 'three', scopes: ['repo'], redirectUrl: callback.url }).url);
      await page.waitForSelector('#deny');
      const denied = callback.next();
      await page.click('#deny');
      const third = await denied;
      assert.equal(third.searchParams.get('error'), 'access_denied');
      assert.equal(third.searchParams.get('state'), 'three');
      assert.equal(third.searchParams.get('code'), null);
      await context.close();
    });
  });

  test('the token holds exactly the approved scopes, and they are enforced', async () => {
    const narrow = await approveWith(web, { scope: 'read:user', redirect_uri: callback.url });
    const { authentication } = await octokitApp.createToken({ code: narrow.searchParams.get('code')! });
    assert.deepEqual(authentication.scopes, ['read:user']);
    const octokit = t.octokit(authentication.token);
    assert.equal((await octokit.request('GET /user')).data.login, alice.login);
    await assert.rejects(octokit.request('POST /user/repos', { name: 'not-allowed' }), (err: { status: number }) => err.status === 403 || err.status === 404);
    await assert.rejects(t.octokit(alice.token).request('GET /repos/{owner}/{repo}', { owner: alice.login, repo: 'not-allowed' }), { status: 404 });

    const wide = await approveWith(web, { scope: 'repo', redirect_uri: callback.url });
    const repoToken = (await octokitApp.createToken({ code: wide.searchParams.get('code')! })).authentication.token;
    const created = await t.octokit(repoToken).request('POST /user/repos', { name: 'allowed', private: true });
    assert.equal(created.status, 201);
  });

  test('a code is good once, for its app and redirect URI, for ten minutes', async () => {
    const first = (await approveWith(web, { scope: 'read:user', redirect_uri: callback.url })).searchParams.get('code')!;
    const ok = await tokenRequest({ client_id: app.clientId, client_secret: app.secret, code: first, redirect_uri: callback.url });
    assert.match(ok.access_token!, /^whp_/);
    assert.equal(ok.token_type, 'bearer');
    const reused = await tokenRequest({ client_id: app.clientId, client_secret: app.secret, code: first });
    assert.equal(reused.error, 'bad_verification_code');
    assert.equal(reused.error_description, 'The code passed is incorrect or expired.');
    assert.match(reused.error_uri!, /^https:\/\/docs\.github\.com\//);
    await assert.rejects(octokitApp.createToken({ code: first }), /bad_verification_code/);

    const late = (await approveWith(web, { scope: 'read:user' })).searchParams.get('code')!;
    clock.advance(10 * 60 * 1000 + 1000);
    assert.equal((await tokenRequest({ client_id: app.clientId, client_secret: app.secret, code: late })).error, 'bad_verification_code');

    const inTime = (await approveWith(web, { scope: 'read:user' })).searchParams.get('code')!;
    clock.advance(9 * 60 * 1000);
    // Wrong client credentials do not use the code up.
    assert.equal((await tokenRequest({ client_id: app.clientId, client_secret: 'f'.repeat(40), code: inTime })).error, 'incorrect_client_credentials');
    assert.equal((await tokenRequest({ client_id: 'Iv1.0000000000000000', client_secret: app.secret, code: inTime })).error, 'incorrect_client_credentials');
    assert.equal((await tokenRequest({ client_id: app.clientId, code: inTime })).error, 'incorrect_client_credentials');
    const mismatch = await tokenRequest({ client_id: app.clientId, client_secret: app.secret, code: inTime, redirect_uri: 'http://127.0.0.1:1/elsewhere' });
    assert.equal(mismatch.error, 'redirect_uri_mismatch');
    // A failed exchange of the code itself used it up.
    assert.equal((await tokenRequest({ client_id: app.clientId, client_secret: app.secret, code: inTime })).error, 'bad_verification_code');

    // Another app cannot exchange this app's code.
    const other = await registerApp(web, { name: 'Other', url: 'https://other.example', callback_url: callback.url });
    const foreign = (await approveWith(web, { scope: 'read:user' })).searchParams.get('code')!;
    assert.equal((await tokenRequest({ client_id: other.clientId, client_secret: other.secret, code: foreign })).error, 'bad_verification_code');
    assert.match((await tokenRequest({ client_id: app.clientId, client_secret: app.secret, code: foreign })).access_token!, /^whp_/);
  });

  test('PKCE: the S256 challenge binds the code to its verifier', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const pkce = { code_challenge: challenge, code_challenge_method: 'S256' };
    const creds = { client_id: app.clientId, client_secret: app.secret };
    const c1 = (await approveWith(web, { scope: 'read:user', ...pkce })).searchParams.get('code')!;
    assert.equal((await tokenRequest({ ...creds, code: c1 })).error, 'bad_verification_code');
    const c2 = (await approveWith(web, { scope: 'read:user', ...pkce })).searchParams.get('code')!;
    assert.equal((await tokenRequest({ ...creds, code: c2, code_verifier: randomBytes(32).toString('base64url') })).error, 'bad_verification_code');
    const c3 = (await approveWith(web, { scope: 'read:user', ...pkce })).searchParams.get('code')!;
    assert.match((await tokenRequest({ ...creds, code: c3, code_verifier: verifier })).access_token!, /^whp_/);
    const bads: Record<string, string>[] = [{ code_challenge: challenge, code_challenge_method: 'plain' }, { code_challenge: 'short', code_challenge_method: 'S256' }, { code_challenge_method: 'S256' }];
    for (const bad of bads) {
      const res = await web.get(`/login/oauth/authorize?${new URLSearchParams({ client_id: app.clientId, ...bad })}`);
      assert.equal(res.status, 400, JSON.stringify(bad));
      assert.equal(res.location, null);
    }
  });

  test('the answer takes the form Accept asks for: form-urlencoded by default, JSON, XML', async () => {
    const code = () => approveWith(web, { scope: 'read:user' }).then((u) => u.searchParams.get('code')!);
    const creds = { client_id: app.clientId, client_secret: app.secret };
    const form = await t.request('/login/oauth/access_token', {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ ...creds, code: await code() }).toString(),
    });
    assert.equal(form.status, 200);
    assert.match(form.headers.get('content-type')!, /^application\/x-www-form-urlencoded/);
    const fields = new URLSearchParams(await form.text());
    assert.match(fields.get('access_token')!, /^whp_/);
    assert.equal(fields.get('scope'), 'read:user');
    assert.equal(fields.get('token_type'), 'bearer');

    const xml = await t.request('/login/oauth/access_token', { method: 'POST', headers: { accept: 'application/xml' }, json: { ...creds, code: await code() } });
    assert.match(xml.headers.get('content-type')!, /^application\/xml/);
    assert.match(await xml.text(), /^<OAuth><access_token>whp_[A-Za-z0-9]+<\/access_token><token_type>bearer<\/token_type><scope>read:user<\/scope><\/OAuth>$/);

    const formError = await t.request('/login/oauth/access_token', { method: 'POST', json: { ...creds, code: 'nope' } });
    assert.equal(formError.status, 200);
    const e = new URLSearchParams(await formError.text());
    assert.equal(e.get('error'), 'bad_verification_code');
    assert.equal(e.get('error_description'), 'The code passed is incorrect or expired.');
    const xmlError = await t.request('/login/oauth/access_token', { method: 'POST', headers: { accept: 'application/xml' }, json: { ...creds, code: 'nope' } });
    assert.match(await xmlError.text(), /^<OAuth><error>bad_verification_code<\/error><error_description>/);
    assert.equal((await tokenRequest({ ...creds, code: 'x', grant_type: 'refresh_token' })).error, 'unsupported_grant_type');
  });

  test('a bad client_id or a redirect_uri outside the callback is an error page that never redirects', async () => {
    const cb = new URL(callback.url);
    const cases: Record<string, string>[] = [
      { client_id: 'Iv1.doesnotexist0000' },
      {},
      { client_id: app.clientId, redirect_uri: 'https://evil.example/callback' },
      { client_id: app.clientId, redirect_uri: `http://127.0.0.1:${Number(cb.port) + 1}/callback`.replace('127.0.0.1', 'localhost') },
      { client_id: app.clientId, redirect_uri: `${callback.url}evil` },
      { client_id: app.clientId, redirect_uri: `${cb.origin}/other` },
      { client_id: app.clientId, redirect_uri: `${cb.protocol}//user:pw@${cb.host}/callback` },
      { client_id: app.clientId, redirect_uri: `${callback.url}/../admin` },
      { client_id: app.clientId, redirect_uri: 'not a url' },
      { client_id: app.clientId, redirect_uri: `https://${cb.host}/callback` },
    ];
    for (const q of cases) {
      for (const client of [web, new WebClient(t)]) {
        const res = await client.get(`/login/oauth/authorize?${new URLSearchParams(q)}`);
        assert.equal(res.status, 400, JSON.stringify(q));
        assert.equal(res.location, null);
        assert.match(res.body, /Application authorization failed/);
      }
    }
    // Below the callback's path is fine, with its own query kept.
    const deeper = await approveWith(web, { scope: 'read:user', redirect_uri: `${callback.url}/deeper?keep=1` });
    assert.equal(deeper.pathname, '/callback/deeper');
    assert.equal(deeper.searchParams.get('keep'), '1');
  });

  test('approving needs the CSRF token; without it nothing is granted and nobody is redirected', async () => {
    const page = await web.get(`/login/oauth/authorize?${new URLSearchParams({ client_id: app.clientId, scope: 'gist' })}`);
    assert.equal(page.status, 200);
    const forged = await web.post('/login/oauth/authorize', { client_id: app.clientId, scope: 'gist', authorize: '1', redirect_uri: callback.url });
    assert.equal(forged.status, 403);
    assert.equal(forged.location, null);
    const still = await web.get(`/login/oauth/authorize?${new URLSearchParams({ client_id: app.clientId, scope: 'gist' })}`);
    assert.equal(still.status, 200, 'still asks: nothing was granted');
    // Signed out, the app's `login` suggestion fills the sign-in form, and the request comes back after it.
    const suggested = await new WebClient(t).get(`/login/oauth/authorize?${new URLSearchParams({ client_id: app.clientId, login: alice.login, allow_signup: 'false' })}`);
    assert.equal(suggested.status, 302);
    const to = new URL(suggested.location!, t.baseUrl);
    assert.equal(to.pathname, '/login');
    assert.equal(to.searchParams.get('login'), alice.login);
    assert.match(to.searchParams.get('return_to')!, /^\/login\/oauth\/authorize\?/);
    const form = await new WebClient(t).get(`${to.pathname}${to.search}`);
    assert.match(form.body, new RegExp(`id="login_field" name="login" value="${alice.login}"`));
    // Signed out, a post goes to sign-in, not to the app.
    const anonymous = await new WebClient(t).post('/login/oauth/authorize', { client_id: app.clientId, authorize: '1' });
    assert.equal(anonymous.location, '/login');
  });

  test('bad input to the token endpoint is answered, never a 5xx', async () => {
    const bodies: [string, string][] = [
      ['application/json', '{'],
      ['application/json', '[]'],
      ['application/json', '{"code": 5, "client_id": []}'],
      ['application/json', JSON.stringify({ client_id: app.clientId, client_secret: app.secret, code: 'x'.repeat(5000) })],
      ['application/x-www-form-urlencoded', 'client_id=%ZZ&code=%00'],
      ['application/x-www-form-urlencoded', `client_id=${app.clientId}&client_secret=${app.secret}&code=${'%00'.repeat(3)}`],
      ['text/plain', 'hello'],
    ];
    for (const [type, body] of bodies) {
      const res = await fetch(`${t.baseUrl}/login/oauth/access_token`, { method: 'POST', body, headers: { 'content-type': type, 'user-agent': 'x' } });
      assert.ok(res.status < 500, `${type} ${body.slice(0, 50)} → ${res.status}`);
    }
    const get = await t.request('/login/oauth/access_token');
    assert.ok(get.status >= 400 && get.status < 500);
  });
});
