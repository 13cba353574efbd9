// Token management by the app that obtained the tokens (client id and secret over
// Basic): check, reset, delete, revoke the grant; and the user's authorized-apps page.
// Revocation is seen by the very next request, in this process and in another one.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser } from 'playwright-core';
import { OAuthApp } from '@octokit/oauth-app';
import { Octokit } from '@octokit/rest';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { CHROMIUM, chromiumMissing, csrfIn, obtainToken, registerApp, type RegisteredApp, setPassword, signedInAs, WebClient } from './helpers/web.ts';

const PASSWORD = 'correct horse battery';

function basic(app: RegisteredApp, secret = app.secret): string {
  return `Basic ${Buffer.from(`${app.clientId}:${secret}`).toString('base64')}`;
}

describe('OAuth app token management', () => {
  let t: TestServer;
  let second: TestServer;
  let alice: CreatedUser;
  let web: WebClient;
  let app: RegisteredApp;
  let other: RegisteredApp;
  let octokitApp: OAuthApp;

  before(async () => {
    t = await startTestServer();
    second = await startTestServer({ shareWith: t });
    alice = await createUser(t);
    web = await signedInAs(t, alice.login, PASSWORD);
    const fields = { url: 'https://tools.example', callback_url: 'https://tools.example/cb' };
    app = await registerApp(web, { name: 'Toolbox', ...fields });
    other = await registerApp(web, { name: 'Other tool', ...fields });
    octokitApp = new OAuthApp({ clientType: 'oauth-app', clientId: app.clientId, clientSecret: app.secret, Octokit: Octokit.defaults({ baseUrl: t.baseUrl }) });
  });
  after(async () => {
    await second.close();
    await t.close();
  });

  async function status(server: TestServer, token: string): Promise<number> {
    return (await server.request('/user', { token })).status;
  }

  test('check: the authorization record with its user and app; unknown and foreign tokens are 404', async () => {
    const token = await obtainToken(t, web, app, 'read:user gist');
    const { data } = await octokitApp.checkToken({ token });
    assert.equal(data.token, token);
    assert.deepEqual(data.scopes, ['read:user', 'gist']);
    assert.equal(data.user!.login, alice.login);
    assert.deepEqual(data.app, { client_id: app.clientId, name: 'Toolbox', url: 'https://tools.example' });
    assertMatchesOpenApi('POST', '/applications/{client_id}/token', 200, data);

    const check = (creds: string | null, body: unknown, clientId = app.clientId) => t.request(`/applications/${clientId}/token`, {
      method: 'POST', json: body, ...(creds ? { headers: { authorization: creds } } : {}),
    });
    assert.equal((await check(basic(app), { access_token: 'whp_nothing' })).status, 404);
    assert.equal((await check(basic(app), { access_token: alice.token })).status, 404, 'a personal token is not the app\'s');
    assert.equal((await check(basic(other), { access_token: token }, other.clientId)).status, 404, "another app's token");
    assert.equal((await check(basic(other), { access_token: token })).status, 404, 'credentials of another app than the path');
    assert.equal((await check(null, { access_token: token })).status, 404);
    assert.equal((await check(`token ${alice.token}`, { access_token: token })).status, 404, 'a user token is not the app');
    assert.equal((await check(basic(app, 'f'.repeat(40)), { access_token: token })).status, 401);
    for (const body of [{}, { access_token: 5 }, { access_token: '' }, { access_token: 'x'.repeat(300) }]) {
      assert.equal((await check(basic(app), body)).status, 422, JSON.stringify(body).slice(0, 40));
    }
    assert.equal(await status(t, token), 200, 'checking changed nothing');
  });

  test('reset: a new token with the same scopes; the old one is dead at once, in every process', async () => {
    const token = await obtainToken(t, web, app, 'read:user');
    assert.equal(await status(second, token), 200);
    const { data } = await octokitApp.resetToken({ token });
    assert.notEqual(data.token, token);
    assert.deepEqual(data.scopes, ['read:user']);
    assertMatchesOpenApi('PATCH', '/applications/{client_id}/token', 200, data);
    assert.equal(await status(t, token), 401);
    assert.equal(await status(second, token), 401);
    assert.equal(await status(second, data.token), 200);
    const again = await t.request(`/applications/${app.clientId}/token`, { method: 'PATCH', headers: { authorization: basic(app) }, json: { access_token: token } });
    assert.equal(again.status, 404, 'the old token cannot be reset twice');
    assert.equal((await t.request(`/applications/${app.clientId}/token`, { method: 'PATCH', headers: { authorization: basic(app) }, json: {} })).status, 422);
  });

  test('delete: the token is dead at once, in every process; others stay', async () => {
    const token = await obtainToken(t, web, app, 'read:user');
    const keep = await obtainToken(t, web, app, 'read:user');
    assert.equal(await status(second, token), 200);
    await octokitApp.deleteToken({ token });
    assert.equal(await status(t, token), 401);
    assert.equal(await status(second, token), 401);
    assert.equal(await status(t, keep), 200);
    const gone = await t.request(`/applications/${app.clientId}/token`, { method: 'DELETE', headers: { authorization: basic(app) }, json: { access_token: token } });
    assert.equal(gone.status, 404);
    const noBody = await t.request(`/applications/${app.clientId}/token`, { method: 'DELETE', headers: { authorization: basic(app) } });
    assert.equal(noBody.status, 422);
  });

  test("grant: every token of the user for this app dies, the approval is forgotten; other apps' and personal tokens live", async () => {
    const a1 = await obtainToken(t, web, app, 'read:user');
    const a2 = await obtainToken(t, web, app, 'read:user');
    const o1 = await obtainToken(t, web, other, 'read:user');
    await octokitApp.deleteAuthorization({ token: a1 });
    for (const token of [a1, a2]) {
      assert.equal(await status(t, token), 401);
      assert.equal(await status(second, token), 401);
    }
    assert.equal(await status(t, o1), 200);
    assert.equal(await status(t, alice.token), 200);
    const ask = await web.get(`/login/oauth/authorize?${new URLSearchParams({ client_id: app.clientId, scope: 'read:user' })}`);
    assert.equal(ask.status, 200, 'the user is asked again');
    assert.match(ask.body, /id="approve"/);
  });

  test('the authorized-apps page lists each app with its scopes; revoking needs CSRF and kills its tokens', async () => {
    const token = await obtainToken(t, web, app, 'read:user gist');
    const page = await web.get('/settings/applications');
    assert.equal(page.status, 200);
    assert.match(page.body, new RegExp(`data-client-id="${app.clientId.replace('.', '\\.')}"><td>Toolbox</td><td>${alice.login}</td><td>read:user, gist</td>`));
    const path = `/settings/connections/applications/${app.clientId}/revoke`;
    assert.equal((await web.post(path, {})).status, 403);
    assert.equal(await status(t, token), 200, 'a refused post changed nothing');
    const mallory = await createUser(t);
    await setPassword(t, mallory.login, PASSWORD);
    const mWeb = new WebClient(t);
    await mWeb.signIn(mallory.login, PASSWORD);
    const mPage = await mWeb.get('/settings/applications');
    assert.match(mPage.body, /id="no-authorized-apps"/);
    assert.equal((await mWeb.post(path, { authenticity_token: csrfIn(mPage.body) })).status, 404, "no grant of mallory's to revoke");
    assert.equal(await status(t, token), 200);
    const res = await web.post(path, { authenticity_token: csrfIn(page.body) });
    assert.equal(res.status, 200);
    assert.match(res.body, /Revoked Toolbox/);
    assert.equal(await status(t, token), 401);
    assert.equal(await status(second, token), 401);
    assert.doesNotMatch(res.body, new RegExp(`data-client-id="${app.clientId.replace('.', '\\.')}"`));
  });

  describe('in headless Chromium', { skip: chromiumMissing ? 'chromium is not installed' : false }, () => {
    let browser: Browser;
    before(async () => { browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }); });
    after(async () => { await browser?.close(); });

    test('revoke an app from the settings page', async () => {
      const token = await obtainToken(t, web, other, 'read:user');
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${t.baseUrl}/settings/applications`);
      await page.fill('#login_field', alice.login);
      await page.fill('#password', PASSWORD);
      await page.click('#sign-in');
      await page.waitForSelector('#authorized-apps');
      await page.click(`tr[data-client-id="${other.clientId}"] button`);
      await page.waitForSelector('text=Revoked Other tool');
      assert.equal(await status(t, token), 401);
      await context.close();
    });
  });
});
