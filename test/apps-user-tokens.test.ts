// Apps acting for users: the app's web flow (/login/oauth/authorize with the app's client
// id, the code exchanged by @octokit/auth-oauth-user unchanged) gives a user-to-server
// token that acts as the user within the app's installations (the intersection of the
// user's access and the installation's permissions), expires after 8 hours and is
// refreshed with a rotating refresh token; an app may opt out of expiry.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createOAuthUserAuth } from '@octokit/auth-oauth-user';
import { refreshToken } from '@octokit/oauth-methods';
import { request as octokitRequest } from '@octokit/request';
import { startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo, type CreatedRepo } from './factories/repos.ts';
import { csrfIn, setPassword, WebClient } from './helpers/web.ts';
import { authorizeCode, installOn, manifestOf, registerAppByManifest, type ConvertedApp } from './helpers/apps.ts';

const PASSWORD = 'correct horse battery';
const CALLBACK = 'https://clerk.example/callback';
const HOUR = 60 * 60 * 1000;

describe('apps: user-to-server tokens', () => {
  const clock = new TestClock(Date.now());
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  let app: ConvertedApp;
  let inside: CreatedRepo;
  let outside: CreatedRepo;
  let installationId: number;
  let request: typeof octokitRequest;

  before(async () => {
    t = await startTestServer({ clock });
    request = octokitRequest.defaults({ baseUrl: t.baseUrl });
    alice = await createUser(t);
    bob = await createUser(t);
    await setPassword(t, alice.login, PASSWORD);
    await setPassword(t, bob.login, PASSWORD);
    aliceWeb = new WebClient(t);
    await aliceWeb.signIn(alice.login, PASSWORD);
    bobWeb = new WebClient(t);
    await bobWeb.signIn(bob.login, PASSWORD);
    inside = await createRepo(t, alice, { private: true });
    outside = await createRepo(t, alice, { private: true });
    app = await registerAppByManifest(t, aliceWeb, manifestOf('Ferry Clerk', {
      callback_urls: [CALLBACK], public: true, default_permissions: { issues: 'write', contents: 'read' },
    }));
    installationId = await installOn(aliceWeb, app.slug, [inside.id]);
  });
  after(async () => { await t.close(); });

  const codeFor = (web: WebClient) => authorizeCode(web, app.client_id, CALLBACK);

  async function tokenEndpoint(fields: Record<string, string>): Promise<Record<string, string | number>> {
    const res = await t.request('/login/oauth/access_token', { method: 'POST', headers: { accept: 'application/json' }, json: fields });
    assert.equal(res.status, 200);
    return (await res.json()) as Record<string, string | number>;
  }

  const call = (token: string, path: string, init: { method?: string; json?: unknown } = {}) => t.request(path, { token, ...init });

  test('the web flow gives an expiring token that acts as the user, within the installation', async () => {
    const auth = createOAuthUserAuth({ clientType: 'github-app', clientId: app.client_id, clientSecret: app.client_secret, code: await codeFor(aliceWeb), request });
    const a = await auth();
    assert.equal(a.tokenType, 'oauth');
    assert.match(a.token, /^whu_/);
    assert.ok('refreshToken' in a && /^whr_/.test(a.refreshToken!), 'an expiring token comes with a refresh token');
    assert.ok('expiresAt' in a && a.expiresAt);
    const token = a.token;

    const me = await call(token, '/user');
    assert.equal(me.status, 200);
    assert.equal(((await me.json()) as { login: string }).login, alice.login);
    assert.ok(!me.headers.get('x-oauth-scopes'), 'a user-to-server token holds no OAuth scopes');

    assert.equal((await call(token, `/repos/${alice.login}/${inside.repo}`)).status, 200);
    // Alice may read her other private repository, the app may not: not there for the token.
    assert.equal((await call(token, `/repos/${alice.login}/${outside.repo}`)).status, 404);
    const issue = await call(token, `/repos/${alice.login}/${inside.repo}/issues`, { method: 'POST', json: { title: 'filed for alice' } });
    assert.equal(issue.status, 201);
    assert.equal(((await issue.json()) as { user: { login: string } }).user.login, alice.login, 'the user is the author, not the bot');
    // Alice administers the repository; the app was not given administration.
    const patch = await call(token, `/repos/${alice.login}/${inside.repo}`, { method: 'PATCH', json: { description: 'no' } });
    assert.equal(patch.status, 403);
    assert.equal(((await patch.json()) as { message: string }).message, 'Resource not accessible by integration');

    const list = (await (await call(token, '/user/installations')).json()) as { total_count: number; installations: { id: number; app_id: number }[] };
    assert.equal(list.total_count, 1);
    assert.deepEqual(list.installations.map((i) => [i.id, i.app_id]), [[installationId, app.id]]);
    const repos = (await (await call(token, `/user/installations/${installationId}/repositories`)).json()) as { repositories: { name: string }[] };
    assert.deepEqual(repos.repositories.map((r) => r.name), [inside.repo]);

    // Approved once: the next authorization goes straight back with a code.
    const again = await aliceWeb.get(`/login/oauth/authorize?client_id=${app.client_id}&redirect_uri=${encodeURIComponent(CALLBACK)}`);
    assert.equal(again.status, 302);
  });

  test("another user's token reaches only what that user may read, and sees no installation of its own", async () => {
    const fields = { client_id: app.client_id, client_secret: app.client_secret, code: await codeFor(bobWeb) };
    const issued = await tokenEndpoint(fields);
    const token = String(issued.access_token);
    assert.match(token, /^whu_/);
    assert.equal(issued.scope, '');
    assert.equal(issued.expires_in, 8 * 60 * 60);
    // The code was used up.
    assert.equal((await tokenEndpoint(fields)).error, 'bad_verification_code');
    assert.equal((await tokenEndpoint({ ...fields, code: await codeFor(bobWeb), client_secret: 'wrong' })).error, 'incorrect_client_credentials');
    // The app is installed on alice's repository, bob has no access to it.
    assert.equal((await call(token, `/repos/${alice.login}/${inside.repo}`)).status, 404);
    const list = (await (await call(token, '/user/installations')).json()) as { total_count: number };
    assert.equal(list.total_count, 0);
    assert.equal((await call(token, `/user/installations/${installationId}/repositories`)).status, 404);
  });

  test('after 8 hours the token is refused; the refresh token buys a new pair once; after ~6 months it is refused too', async () => {
    const auth = createOAuthUserAuth({ clientType: 'github-app', clientId: app.client_id, clientSecret: app.client_secret, code: await codeFor(aliceWeb), request });
    const first = await auth() as { token: string; refreshToken: string };
    clock.advance(8 * HOUR + 1000);
    assert.equal((await call(first.token, '/user')).status, 401);

    const refreshed = await auth({ type: 'refresh' }) as { token: string; refreshToken: string; expiresAt: string };
    assert.notEqual(refreshed.token, first.token);
    assert.notEqual(refreshed.refreshToken, first.refreshToken);
    assert.equal((await call(refreshed.token, '/user')).status, 200);
    // The old refresh token was used up.
    await assert.rejects(refreshToken({ clientType: 'github-app', clientId: app.client_id, clientSecret: app.client_secret, refreshToken: first.refreshToken, request }),
      (e: Error) => /bad_refresh_token/.test(e.message));
    const wrongSecret = await tokenEndpoint({ grant_type: 'refresh_token', client_id: app.client_id, client_secret: 'nope', refresh_token: refreshed.refreshToken });
    assert.equal(wrongSecret.error, 'incorrect_client_credentials');

    clock.advance(200 * 24 * HOUR);
    const late = await tokenEndpoint({ grant_type: 'refresh_token', client_id: app.client_id, client_secret: app.client_secret, refresh_token: refreshed.refreshToken });
    assert.equal(late.error, 'bad_refresh_token');
  });

  test('an app that opts out of expiry gets tokens without refresh tokens', async () => {
    await aliceWeb.signIn(alice.login, PASSWORD); // the clock moved past the session's life
    const page = await aliceWeb.get(`/settings/apps/${app.slug}`);
    const saved = await aliceWeb.post(`/settings/apps/${app.slug}`, {
      authenticity_token: csrfIn(page.body), url: 'https://bot.example', callback_url: CALLBACK, public: '1',
      permissions: 'issues: write\ncontents: read\nmetadata: read', events: '', webhook_url: '', user_tokens_expire: '0',
    });
    assert.ok(saved.status < 400, saved.body.slice(0, 500));
    assert.match((await aliceWeb.get(`/settings/apps/${app.slug}`)).body, /<option value="0" selected>Never expire/);
    const issued = await tokenEndpoint({ client_id: app.client_id, client_secret: app.client_secret, code: await codeFor(aliceWeb) });
    assert.match(String(issued.access_token), /^whu_/);
    assert.equal(issued.expires_in, undefined);
    assert.equal(issued.refresh_token, undefined);
    clock.advance(30 * 24 * HOUR);
    assert.equal((await call(String(issued.access_token), '/user')).status, 200);
  });
});
