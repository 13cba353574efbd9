// An app manages its user-to-server tokens with its client id and secret (Basic), through
// the same /applications/{client_id}/token routes OAuth apps use, as
// @octokit/oauth-methods calls them for clientType 'github-app': check, reset (new value,
// old one dead at once), delete and revoke the grant (every token of that user for the app).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkToken, deleteAuthorization, deleteToken, resetToken } from '@octokit/oauth-methods';
import { request as octokitRequest } from '@octokit/request';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo } from './factories/repos.ts';
import { signedInAs, WebClient } from './helpers/web.ts';
import { authorizeCode, installOn, manifestOf, registerAppByManifest, type ConvertedApp } from './helpers/apps.ts';

const PASSWORD = 'correct horse battery';
const CALLBACK = 'https://keeper.example/callback';

describe('apps: managing user-to-server tokens', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let web: WebClient;
  let app: ConvertedApp;
  let other: ConvertedApp;
  let request: typeof octokitRequest;

  before(async () => {
    t = await startTestServer();
    request = octokitRequest.defaults({ baseUrl: t.baseUrl });
    alice = await createUser(t);
    web = await signedInAs(t, alice.login, PASSWORD);
    const repo = await createRepo(t, alice, { private: true });
    app = await registerAppByManifest(t, web, manifestOf('Token Keeper', { callback_urls: [CALLBACK] }));
    other = await registerAppByManifest(t, web, manifestOf('Other Keeper', { callback_urls: [CALLBACK] }));
    await installOn(web, app.slug, [repo.id]);
  });
  after(async () => { await t.close(); });

  async function userToken(of = app): Promise<string> {
    const res = await t.request('/login/oauth/access_token', {
      method: 'POST', headers: { accept: 'application/json' },
      json: { client_id: of.client_id, client_secret: of.client_secret, code: await authorizeCode(web, of.client_id, CALLBACK) },
    });
    return ((await res.json()) as { access_token: string }).access_token;
  }
  const works = async (token: string) => (await t.request('/user', { token })).status === 200;
  const creds = (of = app) => ({ clientType: 'github-app' as const, clientId: of.client_id, clientSecret: of.client_secret, request });
  const basic = (of: ConvertedApp) => `Basic ${Buffer.from(`${of.client_id}:${of.client_secret}`).toString('base64')}`;
  const raw = (method: string, path: string, token: string, of = app) =>
    t.request(`/applications/${of.client_id}/${path}`, { method, headers: { authorization: basic(of) }, json: { access_token: token } });

  test('check: 200 with the record of the token; unknown, foreign and revoked tokens are 404', async () => {
    const token = await userToken();
    const { data } = await checkToken({ ...creds(), token });
    assert.equal(data.token, token);
    assert.equal(data.token_last_eight, token.slice(-8));
    assert.deepEqual(data.scopes, []);
    assert.equal(data.user?.login, alice.login);
    assert.deepEqual(data.app, { client_id: app.client_id, name: 'Token Keeper', url: 'https://bot.example' });
    assert.ok(data.expires_at, 'the app expires its user tokens');
    assertMatchesOpenApi('POST', '/applications/{client_id}/token', 200, data);

    assert.equal((await raw('POST', 'token', 'whu_unknown0000000000000000000000000000')).status, 404);
    assert.equal((await raw('POST', 'token', token, other)).status, 404, 'another app may not check it');
    assert.equal((await raw('DELETE', 'token', token)).status, 204);
    assert.equal((await raw('POST', 'token', token)).status, 404, 'a revoked token');
  });

  test('reset: a new token for the same user; the old one stops working', async () => {
    const token = await userToken();
    const { data, authentication } = await resetToken({ ...creds(), token });
    assert.notEqual(authentication.token, token);
    assert.match(authentication.token, /^whu_/);
    assert.equal(data.user?.login, alice.login);
    assert.equal(await works(token), false);
    assert.equal(await works(authentication.token), true);
    assert.equal((await raw('PATCH', 'token', token)).status, 404, 'the old value cannot be reset again');
  });

  test('delete: 204 and the token is dead; the other tokens of the user live on', async () => {
    const token = await userToken();
    const kept = await userToken();
    const res = await deleteToken({ ...creds(), token });
    assert.equal(res.status, 204);
    assert.equal(await works(token), false);
    assert.equal(await works(kept), true);
    assert.equal((await raw('DELETE', 'token', token)).status, 404);
  });

  test('grant: revokes every token of the user for the app, not another app\'s', async () => {
    const one = await userToken();
    const two = await userToken();
    const foreign = await userToken(other);
    const res = await deleteAuthorization({ ...creds(), token: one });
    assert.equal(res.status, 204);
    assert.equal(await works(one), false);
    assert.equal(await works(two), false);
    assert.equal(await works(foreign), true);
    assert.equal((await raw('DELETE', 'grant', two)).status, 404);
  });

  test('without the app\'s secret: 401; with another app\'s credentials: 404', async () => {
    const token = await userToken();
    const wrong = `Basic ${Buffer.from(`${app.client_id}:nope`).toString('base64')}`;
    const res = await t.request(`/applications/${app.client_id}/token`, { method: 'POST', headers: { authorization: wrong }, json: { access_token: token } });
    assert.equal(res.status, 401);
    const cross = await t.request(`/applications/${app.client_id}/token`, { method: 'POST', headers: { authorization: basic(other) }, json: { access_token: token } });
    assert.equal(cross.status, 404);
    assert.equal(await works(token), true);
  });
});
