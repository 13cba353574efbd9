// The device flow with a GitHub App's client id: the device asks for codes, the user
// approves on /login/device, and the poll answers a user-to-server token (expiring, with
// a refresh token, no scopes) exactly as the flow answers OAuth apps' tokens;
// @octokit/auth-oauth-device (clientType 'github-app') runs it unchanged.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createOAuthDeviceAuth } from '@octokit/auth-oauth-device';
import { startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo, type CreatedRepo } from './factories/repos.ts';
import { csrfIn, signedInAs, WebClient } from './helpers/web.ts';
import { installOn, manifestOf, registerAppByManifest, type ConvertedApp } from './helpers/apps.ts';

const PASSWORD = 'correct horse battery';
const GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

describe('apps: the device flow', () => {
  const clock = new TestClock(Date.now());
  let t: TestServer;
  let alice: CreatedUser;
  let web: WebClient;
  let app: ConvertedApp;
  let other: ConvertedApp;
  let inside: CreatedRepo;
  let outside: CreatedRepo;

  before(async () => {
    t = await startTestServer({ clock });
    alice = await createUser(t);
    web = await signedInAs(t, alice.login, PASSWORD);
    inside = await createRepo(t, alice, { private: true });
    outside = await createRepo(t, alice, { private: true });
    app = await registerAppByManifest(t, web, manifestOf('Pocket Terminal', { callback_urls: ['https://pocket.example/cb'] }));
    other = await registerAppByManifest(t, web, manifestOf('Other Terminal', { callback_urls: ['https://pocket.example/cb'] }));
    await installOn(web, app.slug, [inside.id]);
  });
  after(async () => { await t.close(); });

  async function post(path: string, fields: Record<string, string>): Promise<Record<string, string | number>> {
    const res = await t.request(path, { method: 'POST', headers: { accept: 'application/json' }, json: fields });
    assert.equal(res.status, 200);
    return (await res.json()) as Record<string, string | number>;
  }

  async function approve(userCode: string): Promise<void> {
    const page = await web.get('/login/device');
    const entered = await web.post('/login/device', { authenticity_token: csrfIn(page.body), user_code: userCode });
    assert.equal(entered.status, 200, entered.body.slice(0, 500));
    assert.match(entered.body, /Pocket Terminal/);
    const res = await web.post('/login/device/authorize', { authenticity_token: csrfIn(entered.body), user_code: userCode, authorize: '1' });
    assert.equal(res.status, 200);
  }

  test('@octokit/auth-oauth-device gets a user-to-server token that acts within the installation', async () => {
    const auth = createOAuthDeviceAuth({
      clientType: 'github-app', clientId: app.client_id, request: t.octokit().request,
      async onVerification(v) { await approve(v.user_code); },
    });
    const authentication = await auth({ type: 'oauth' });
    assert.equal(authentication.clientType, 'github-app');
    assert.match(authentication.token, /^whu_/);
    assert.ok('refreshToken' in authentication && authentication.refreshToken, 'the app expires its tokens: a refresh token comes along');
    const me = await t.request('/user', { token: authentication.token });
    assert.equal(((await me.json()) as { login: string }).login, alice.login);
    assert.equal((await t.request(`/repos/${alice.login}/${inside.repo}`, { token: authentication.token })).status, 200);
    assert.equal((await t.request(`/repos/${alice.login}/${outside.repo}`, { token: authentication.token })).status, 404);
  });

  test('codes hold no scopes; pending until approved; another app cannot redeem them; the authorization is remembered', async () => {
    const codes = await post('/login/device/code', { client_id: app.client_id, scope: 'repo' });
    assert.match(String(codes.user_code), /^[A-Z]{4}-[A-Z]{4}$/);
    const poll = (clientId: string) => post('/login/oauth/access_token', { client_id: clientId, device_code: String(codes.device_code), grant_type: GRANT });
    assert.equal((await poll(app.client_id)).error, 'authorization_pending');
    await approve(String(codes.user_code));
    assert.equal((await poll(other.client_id)).error, 'incorrect_device_code');
    clock.advance(6_000);
    const token = await poll(app.client_id);
    assert.match(String(token.access_token), /^whu_/);
    assert.equal(token.scope, '');
    assert.equal(token.token_type, 'bearer');
    assert.equal(token.expires_in, 8 * 60 * 60);
    assert.ok(token.refresh_token);
    // Approved once: the web flow sends the user straight back without asking again.
    const again = await web.get(`/login/oauth/authorize?${new URLSearchParams({ client_id: app.client_id, redirect_uri: 'https://pocket.example/cb' })}`);
    assert.equal(again.status, 302);
    assert.ok(new URL(again.location!).searchParams.get('code'));
  });

  test('an unknown client id is refused as for OAuth apps', async () => {
    assert.equal((await post('/login/device/code', { client_id: 'Iv1.nobody00000000' })).error, 'incorrect_client_credentials');
  });
});
