// Authentication: Basic, token and Bearer; OAuth app credentials; scopes; lockout.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ADMIN_TOKEN, startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { registerOauthApp } from '../src/modules/auth/auth.service.ts';

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

describe('authentication', () => {
  let t: TestServer;
  let alice: CreatedUser;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t, ['repo']);
  });
  after(() => t.close());

  test('Basic (login + token), "token X" and "Bearer X" all identify the user', async () => {
    for (const authorization of [basic(alice.login, alice.token), `token ${alice.token}`, `Bearer ${alice.token}`, `bearer ${alice.token}`]) {
      const res = await t.request('/user', { headers: { authorization } });
      assert.equal(res.status, 200, authorization);
      assert.equal((await res.json()).login, alice.login);
    }
  });

  test('invalid credentials are 401 "Bad credentials"', async () => {
    for (const authorization of ['token whp_nope', 'Bearer nope', basic(alice.login, 'whp_wrong'), 'Digest abc', basic('admin', 'whp_nope')]) {
      const res = await t.request('/users/admin', { headers: { authorization } });
      assert.equal(res.status, 401, authorization);
      const body = await res.json();
      assert.equal(body.message, 'Bad credentials');
      assert.equal(typeof body.documentation_url, 'string');
    }
  });

  test('an anonymous call to /user is 401 "Requires authentication"', async () => {
    const res = await t.request('/user');
    assert.equal(res.status, 401);
    assert.equal((await res.json()).message, 'Requires authentication');
  });

  test('X-OAuth-Scopes lists the token scopes; X-Accepted-OAuth-Scopes what the route accepts', async () => {
    const res = await t.request('/user', { method: 'PATCH', token: alice.token, json: {} });
    assert.equal(res.headers.get('x-oauth-scopes'), 'repo');
    assert.equal(res.headers.get('x-accepted-oauth-scopes'), 'user');
  });

  test('a missing scope is a 403 that names it, and changes nothing', async () => {
    const res = await t.request('/user', { method: 'PATCH', token: alice.token, json: { name: 'Alice' } });
    assert.equal(res.status, 403);
    assert.match((await res.json()).message, /"user"/);
    const me = await (await t.request('/user', { token: alice.token })).json();
    assert.equal(me.name, null);
  });

  test('private profile fields only through Basic or the user scope', async () => {
    const token = await (await t.request('/user', { token: alice.token })).json();
    assert.equal(token.plan, undefined);
    assert.equal(token.total_private_repos, undefined);
    const viaBasic = await (await t.request('/user', { headers: { authorization: basic(alice.login, alice.token) } })).json();
    assert.equal(typeof viaBasic.plan, 'object');
    assert.equal(typeof viaBasic.total_private_repos, 'number');
    const withUser = await createUser(t, ['user']);
    const scoped = await (await t.request('/user', { token: withUser.token })).json();
    assert.equal(typeof scoped.plan, 'object');
    assert.equal(scoped.two_factor_authentication, false);
  });

  test('tokens are stored as SHA-256 hashes, never in plain text', async () => {
    const rows = await t.server.ctx.db.selectFrom('tokens').select(['token_hash', 'token_last_eight']).execute();
    const hash = createHash('sha256').update(alice.token).digest('hex');
    assert.ok(rows.some((r) => r.token_hash === hash));
    assert.ok(!rows.some((r) => r.token_hash === alice.token));
  });

  test('OAuth app client id + secret over Basic: public data only, the app budget', async () => {
    const { app, clientSecret } = await registerOauthApp(t.server.ctx, alice.id, 'ci-bot', null, null);
    const authorization = basic(app.client_id, clientSecret);
    const res = await t.request(`/users/${alice.login}`, { headers: { authorization } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-ratelimit-limit'), '5000');
    const me = await t.request('/user', { headers: { authorization } });
    assert.equal(me.status, 401);
    const wrong = await t.request(`/users/${alice.login}`, { headers: { authorization: basic(app.client_id, 'nope') } });
    assert.equal(wrong.status, 401);
  });

  test('a suspended user is refused', async () => {
    const bob = await createUser(t, ['user']);
    await t.octokit(ADMIN_TOKEN).request('PUT /users/{username}/suspended', { username: bob.login });
    const res = await t.request('/user', { token: bob.token });
    assert.equal(res.status, 403);
    assert.match((await res.json()).message, /suspended/);
    await t.octokit(ADMIN_TOKEN).request('DELETE /users/{username}/suspended', { username: bob.login });
    assert.equal((await t.request('/user', { token: bob.token })).status, 200);
  });
});

describe('login lockout', () => {
  test('after N failed logins every attempt, valid or not, is 403 until the window passes', async () => {
    const clock = new TestClock(Date.now());
    const t = await startTestServer({ clock, env: { WHARF_LOGIN_MAX_FAILURES: '3', WHARF_LOGIN_WINDOW_SECONDS: '300' } });
    try {
      const carol = await createUser(t, ['user']);
      for (let i = 0; i < 3; i++) {
        const res = await t.request('/user', { headers: { authorization: basic(carol.login, `wrong-${i}`) } });
        assert.equal(res.status, 401);
      }
      const locked = await t.request('/user', { headers: { authorization: basic(carol.login, carol.token) } });
      assert.equal(locked.status, 403);
      assert.match((await locked.json()).message, /Maximum number of login attempts exceeded/);
      // Another login is unaffected; the token header form has no login to lock.
      assert.equal((await t.request('/user', { token: carol.token })).status, 200);
      clock.advance(301_000);
      const again = await t.request('/user', { headers: { authorization: basic(carol.login, carol.token) } });
      assert.equal(again.status, 200);
    } finally {
      await t.close();
    }
  });
});
