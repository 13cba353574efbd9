// Scoped user-to-server tokens: the app, with its client id and secret (Basic, as
// @octokit/oauth-methods' scopeToken sends them), narrows a user token to one account,
// some repositories and some permissions; the scoped token acts within those only,
// and every refusal of the spec's list (401, 404, 422) changes nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { scopeToken } from '@octokit/oauth-methods';
import { request as octokitRequest } from '@octokit/request';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo, type CreatedRepo } from './factories/repos.ts';
import { signedInAs } from './helpers/web.ts';
import { authorizeCode, installOn, manifestOf, registerAppByManifest, type ConvertedApp } from './helpers/apps.ts';

const PASSWORD = 'correct horse battery';
const CALLBACK = 'https://scope.example/callback';

describe('apps: scoped tokens', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let app: ConvertedApp;
  let one: CreatedRepo;
  let two: CreatedRepo;
  let bobs: CreatedRepo;
  let userToken: string;
  let installationId: number;
  let request: typeof octokitRequest;

  before(async () => {
    t = await startTestServer();
    request = octokitRequest.defaults({ baseUrl: t.baseUrl });
    alice = await createUser(t);
    bob = await createUser(t);
    const web = await signedInAs(t, alice.login, PASSWORD);
    one = await createRepo(t, alice, { private: true });
    two = await createRepo(t, alice, { private: true });
    bobs = await createRepo(t, bob, { private: true });
    app = await registerAppByManifest(t, web, manifestOf('Scope Warden', {
      callback_urls: [CALLBACK], default_permissions: { issues: 'write', contents: 'read', team_discussions: 'read' },
    }));
    installationId = await installOn(web, app.slug, [one.id, two.id]);
    const res = await t.request('/login/oauth/access_token', {
      method: 'POST', headers: { accept: 'application/json' },
      json: { client_id: app.client_id, client_secret: app.client_secret, code: await authorizeCode(web, app.client_id, CALLBACK) },
    });
    userToken = ((await res.json()) as { access_token: string }).access_token;
  });
  after(async () => { await t.close(); });

  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  const scoped = (body: Record<string, unknown>, auth = basic(app.client_id, app.client_secret), clientId = app.client_id) =>
    t.request(`/applications/${clientId}/token/scoped`, { method: 'POST', headers: { authorization: auth }, json: body });
  const call = (token: string, path: string, init: { method?: string; json?: unknown } = {}) => t.request(path, { token, ...init });

  test('@octokit/oauth-methods scopes a token to one repository and issues: read; it acts within those', async () => {
    const { data, authentication } = await scopeToken({
      clientType: 'github-app', clientId: app.client_id, clientSecret: app.client_secret, token: userToken,
      target: alice.login, repositories: [one.repo], permissions: { issues: 'read' }, request,
    });
    const token = authentication.token;
    assert.match(token, /^whu_/);
    assert.notEqual(token, userToken);
    assert.equal(data.token, token);
    assert.equal(data.token_last_eight, token.slice(-8));
    assert.deepEqual(data.scopes, []);
    assert.equal(data.user?.login, alice.login);
    assert.deepEqual(data.app, { client_id: app.client_id, name: 'Scope Warden', url: 'https://bot.example' });
    assert.deepEqual(data.installation?.permissions, { metadata: 'read', issues: 'read' });
    assert.equal(data.installation?.repository_selection, 'selected');
    assert.equal(data.installation?.account?.login, alice.login);
    assert.ok(data.expires_at, 'as the token it was made from, it expires');

    assert.equal((await call(token, `/repos/${alice.login}/${one.repo}/issues`)).status, 200);
    const write = await call(token, `/repos/${alice.login}/${one.repo}/issues`, { method: 'POST', json: { title: 'no' } });
    assert.equal(write.status, 403);
    assert.equal(((await write.json()) as { message: string }).message, 'Resource not accessible by integration');
    assert.equal((await call(token, `/repos/${alice.login}/${two.repo}`)).status, 404);
    // The token it was made from keeps its whole reach.
    assert.equal((await call(userToken, `/repos/${alice.login}/${two.repo}`)).status, 200);
    assert.equal((await call(userToken, `/repos/${alice.login}/${one.repo}/issues`, { method: 'POST', json: { title: 'yes' } })).status, 201);
  });

  test('target_id alone: the installation whole; the target of another account than the installation is refused', async () => {
    const res = await scoped({ access_token: userToken, target_id: alice.id, repository_ids: [two.id] });
    assert.equal(res.status, 200, await res.clone().text());
    const body = (await res.json()) as { token: string; installation: { permissions: Record<string, string>; repositories_url: string } };
    assert.deepEqual(body.installation.permissions, { issues: 'write', contents: 'read', team_discussions: 'read', metadata: 'read' });
    assert.match(body.installation.repositories_url, new RegExp(`/user/installations/${installationId}/repositories$`));
    assert.equal((await call(body.token, `/repos/${alice.login}/${two.repo}/issues`, { method: 'POST', json: { title: 'scoped' } })).status, 201);
    assert.equal((await call(body.token, `/repos/${alice.login}/${one.repo}`)).status, 404);
  });

  test('team_discussions, the permission the spec names: read as the installation grants it; write is beyond it (422)', async () => {
    const res = await scoped({ access_token: userToken, target: alice.login, permissions: { team_discussions: 'read' } });
    assert.equal(res.status, 200, await res.clone().text());
    const body = (await res.json()) as { token: string; installation: { permissions: Record<string, string> } };
    assert.deepEqual(body.installation.permissions, { metadata: 'read', team_discussions: 'read' });
    // Upstream refuses a scope wider than the installation with 422 and this message.
    const wider = await scoped({ access_token: userToken, target: alice.login, permissions: { team_discussions: 'write' } });
    assert.equal(wider.status, 422);
    assert.equal(((await wider.json()) as { message: string }).message, 'The permissions requested are not granted to this installation.');
    // The narrowed token has no issues permission at all.
    const read = await call(body.token, `/repos/${alice.login}/${one.repo}/issues`);
    assert.equal(read.status, 403);
  });

  test('refusals: 401 without the app\'s credentials, 404 for another app or a bad token, 422 for what the installation cannot give', async () => {
    assert.equal((await t.request(`/applications/${app.client_id}/token/scoped`, { method: 'POST', json: { access_token: userToken, target: alice.login } })).status, 401);
    assert.equal((await scoped({ access_token: userToken, target: alice.login }, basic(app.client_id, 'wrong'))).status, 401);
    assert.equal((await scoped({ access_token: userToken, target: alice.login }, undefined, 'Iv1.0000000000000000')).status, 404);
    assert.equal((await scoped({ access_token: 'whu_notatoken', target: alice.login })).status, 404);
    // A personal token is no token of the app.
    assert.equal((await scoped({ access_token: alice.token, target: alice.login })).status, 404);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /target/],
      [{ target: bob.login }, /installed/],
      [{ target: alice.login, target_id: bob.id }, /installed/],
      [{ target: alice.login, repositories: [bobs.repo] }, /not accessible to the parent installation/],
      [{ target: alice.login, repository_ids: [bobs.id] }, /not accessible to the parent installation/],
      [{ target: alice.login, repositories: [one.repo], repository_ids: [one.id] }, /may not be specified/],
      [{ target: alice.login, permissions: { administration: 'write' } }, /not granted/],
      [{ target: alice.login, permissions: { nonsense: 'read' } }, /not a known permission/],
    ];
    for (const [extra, message] of cases) {
      const res = await scoped({ access_token: userToken, ...extra });
      assert.equal(res.status, 422, JSON.stringify(extra));
      assert.match(JSON.stringify(await res.json()), message, JSON.stringify(extra));
    }
    // A scoped token cannot be scoped again.
    const first = (await (await scoped({ access_token: userToken, target: alice.login })).json()) as { token: string };
    assert.equal((await scoped({ access_token: first.token, target: alice.login })).status, 422);
  });
});
