// Site administration (enterprise admin API paths) and the first-start bootstrap.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Octokit } from '@octokit/rest';
import { ADMIN_TOKEN, startTestServer, USER_AGENT, type TestServer } from './helpers/server.ts';
import { createUser, uniqueLogin } from './factories/accounts.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';

describe('site admin API', () => {
  let t: TestServer;
  let admin: Octokit;

  before(async () => {
    t = await startTestServer();
    admin = t.octokit(ADMIN_TOKEN);
  });
  after(() => t.close());

  test('an unmodified Octokit client, from the admin token: user, organization, token, /user', async () => {
    const octokit = new Octokit({ baseUrl: t.baseUrl, auth: ADMIN_TOKEN, userAgent: USER_AGENT });
    const login = uniqueLogin('dock');
    const created = await octokit.request('POST /admin/users', { login, email: `${login}@example.com` });
    assert.equal(created.status, 201);
    assert.equal(created.data.login, login);
    assert.equal(created.data.site_admin, false);
    assertMatchesOpenApi('POST', '/admin/users', 201, created.data, 'ghes-3.19');
    const org = await octokit.request('POST /admin/organizations', { login: uniqueLogin('harbour'), admin: login, profile_name: 'Harbour Inc' });
    assert.equal(org.status, 201);
    assertMatchesOpenApi('POST', '/admin/organizations', 201, org.data, 'ghes-3.19');
    const auth = await octokit.request('POST /admin/users/{username}/authorizations', { username: login, scopes: ['repo', 'user'] });
    assert.equal(auth.status, 201);
    assert.match(auth.data.token, /^whp_/);
    assertMatchesOpenApi('POST', '/admin/users/{username}/authorizations', 201, auth.data, 'ghes-3.19');
    assert.deepEqual(auth.data.scopes, ['repo', 'user']);
    assert.equal(auth.data.token_last_eight, auth.data.token.slice(-8));
    const me = await new Octokit({ baseUrl: t.baseUrl, auth: auth.data.token, userAgent: USER_AGENT }).rest.users.getAuthenticated();
    assert.equal(me.data.login, login);
    assert.equal(me.headers['x-oauth-scopes'], 'repo, user');
    const orgAccount = await octokit.rest.users.getByUsername({ username: org.data.login });
    assert.equal(orgAccount.data.type, 'Organization');
    assert.equal(orgAccount.data.name, 'Harbour Inc');
  });

  test('only site admins holding the site_admin scope may use it', async () => {
    const plain = await createUser(t, ['repo', 'user']);
    const res = await t.request('/admin/users', { method: 'POST', token: plain.token, json: { login: uniqueLogin() } });
    assert.equal(res.status, 403);
    // A site admin whose token lacks site_admin is told which scope is missing.
    const promoted = await createUser(t, ['user']);
    await admin.request('PUT /users/{username}/site_admin', { username: promoted.login });
    const scoped = await t.request('/admin/users', { method: 'POST', token: promoted.token, json: { login: uniqueLogin() } });
    assert.equal(scoped.status, 403);
    assert.match((await scoped.json()).message, /site_admin/);
    assert.equal((await t.request('/admin/users', { method: 'POST', json: { login: uniqueLogin() } })).status, 401);
  });

  test('logins are validated: duplicates are already_exists, bad names invalid', async () => {
    const login = uniqueLogin();
    await admin.request('POST /admin/users', { login });
    const cases: [string, string][] = [[login, 'already_exists'], [login.toUpperCase(), 'already_exists'], ['-bad', 'invalid'], ['bad--name', 'invalid'], ['x'.repeat(40), 'invalid'], ['api', 'invalid'], ['with space', 'invalid']];
    for (const [name, code] of cases) {
      const res = await t.request('/admin/users', { method: 'POST', token: ADMIN_TOKEN, json: { login: name } });
      assert.equal(res.status, 422, name);
      const body = await res.json();
      assert.equal(body.errors[0].code, code, name);
      assert.equal(body.errors[0].field, 'login');
    }
  });

  test('DELETE /admin/users/{username} removes the account and its tokens', async () => {
    const u = await createUser(t, ['user']);
    const res = await admin.request('DELETE /admin/users/{username}', { username: u.login });
    assert.equal(res.status, 204);
    assert.equal((await t.request(`/users/${u.login}`)).status, 404);
    assert.equal((await t.request('/user', { token: u.token })).status, 401);
    assert.equal((await t.request(`/admin/users/${u.login}`, { method: 'DELETE', token: ADMIN_TOKEN })).status, 404);
    const self = await t.request('/admin/users/admin', { method: 'DELETE', token: ADMIN_TOKEN });
    assert.equal(self.status, 422);
  });

  test('DELETE …/authorizations revokes the impersonation tokens', async () => {
    const u = await createUser(t, ['user']);
    assert.equal((await t.request('/user', { token: u.token })).status, 200);
    const res = await admin.request('DELETE /admin/users/{username}/authorizations', { username: u.login });
    assert.equal(res.status, 204);
    assert.equal((await t.request('/user', { token: u.token })).status, 401);
  });

  test('an unknown scope is refused', async () => {
    const u = await createUser(t, []);
    const res = await t.request(`/admin/users/${u.login}/authorizations`, { method: 'POST', token: ADMIN_TOKEN, json: { scopes: ['repo', 'everything'] } });
    assert.equal(res.status, 422);
    assert.equal((await res.json()).errors[0].field, 'scopes');
  });

  test('renaming a user answers 202; the account answers at its new login only', async () => {
    const u = await createUser(t, ['user']);
    const to = uniqueLogin('renamed');
    const res = await admin.request('PATCH /admin/users/{username}', { username: u.login, login: to });
    assert.equal(res.status, 202);
    assert.equal(res.data.url, `${t.baseUrl}/users/${to}`);
    assertMatchesOpenApi('PATCH', '/admin/users/{username}', 202, res.data, 'ghes-3.19');
    assert.equal((await t.request(`/users/${u.login}`)).status, 404);
    const me = await (await t.request('/user', { token: u.token })).json();
    assert.equal(me.login, to);
  });

  test('promote and demote site administrators', async () => {
    const u = await createUser(t, []);
    await admin.request('PUT /users/{username}/site_admin', { username: u.login });
    assert.equal((await admin.rest.users.getByUsername({ username: u.login })).data.site_admin, true);
    await admin.request('DELETE /users/{username}/site_admin', { username: u.login });
    assert.equal((await admin.rest.users.getByUsername({ username: u.login })).data.site_admin, false);
  });

  test('an organization needs an existing user as its admin and a free login', async () => {
    const bad = await t.request('/admin/organizations', { method: 'POST', token: ADMIN_TOKEN, json: { login: uniqueLogin('org'), admin: 'no-such-user' } });
    assert.equal(bad.status, 422);
    assert.equal((await bad.json()).errors[0].field, 'admin');
    const missing = await t.request('/admin/organizations', { method: 'POST', token: ADMIN_TOKEN, json: { login: uniqueLogin('org') } });
    assert.equal(missing.status, 422);
    const taken = await t.request('/admin/organizations', { method: 'POST', token: ADMIN_TOKEN, json: { login: 'admin', admin: 'admin' } });
    assert.equal(taken.status, 422);
    assert.equal((await taken.json()).errors[0].code, 'already_exists');
    const orgs = await t.server.ctx.db.selectFrom('organizations').select('id').execute();
    const accounts = await t.server.ctx.db.selectFrom('users').select('id').where('type', '=', 'Organization').execute();
    assert.equal(orgs.length, accounts.length, 'a rejected request writes nothing');
  });
});

describe('bootstrap', () => {
  test('WHARF_ADMIN_TOKEN on an empty data dir makes site admin "admin" holding it with every scope', async () => {
    const t = await startTestServer();
    try {
      const res = await t.request('/user', { token: ADMIN_TOKEN });
      const me = await res.json();
      assert.equal(me.login, 'admin');
      assert.equal(me.site_admin, true);
      const scopes = (res.headers.get('x-oauth-scopes') ?? '').split(', ');
      for (const s of ['repo', 'user', 'admin:org', 'site_admin', 'workflow', 'notifications', 'write:discussion']) assert.ok(scopes.includes(s), s);
      // On a data dir that already has accounts, a different token is not adopted.
      const second = await startTestServer({ shareWith: t, env: { WHARF_ADMIN_TOKEN: 'whp_another_token_value_0000000000000000' } });
      try {
        assert.equal((await second.request('/user', { token: 'whp_another_token_value_0000000000000000' })).status, 401);
        assert.equal((await second.request('/user', { token: ADMIN_TOKEN })).status, 200);
      } finally {
        await second.close();
      }
    } finally {
      await t.close();
    }
  });
});
