// Basic authentication as upstream does it: a token is accepted under any user name
// (gh's credential helper sends `x-access-token`, others `oauth2`), for git and for the
// API; the lockout counts by the named login when such an account exists and never
// locks a token's owner out because of somebody else's name.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Octokit } from '@octokit/rest';
import { startTestServer, USER_AGENT, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { git, gitOk, tempDir, cloneUrl } from './helpers/git.ts';
import { registerOauthApp } from '../src/modules/auth/auth.service.ts';

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

describe('Basic authentication under any user name', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;

  before(async () => {
    t = await startTestServer({ env: { WHARF_LOGIN_MAX_FAILURES: '3', WHARF_LOGIN_WINDOW_SECONDS: '300' } });
    alice = await createUser(t, ['repo', 'user']);
    bob = await createUser(t, ['repo', 'user']);
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'private-dock', private: true, auto_init: true });
  });
  after(() => t.close());

  test('git clones and pushes a private repository with x-access-token:<token>@ in the URL', async () => {
    const work = tempDir();
    try {
      await gitOk(['clone', '-q', cloneUrl(t.baseUrl, alice.login, 'private-dock', 'x-access-token', alice.token), work]);
      assert.ok(fs.existsSync(path.join(work, 'README.md')));
      fs.writeFileSync(path.join(work, 'notes.txt'), 'through x-access-token\n');
      await gitOk(['add', 'notes.txt'], { cwd: work });
      await gitOk(['commit', '-q', '-m', 'notes'], { cwd: work });
      await gitOk(['push', '-q', 'origin', 'HEAD'], { cwd: work });
      const { data } = await t.octokit(alice.token).rest.repos.getContent({ owner: alice.login, repo: 'private-dock', path: 'notes.txt' });
      assert.equal(Buffer.from((data as { content: string }).content, 'base64').toString(), 'through x-access-token\n');
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
    // oauth2 as GitLab-style tools send it works too; a wrong token under any name does not.
    assert.equal((await git(['ls-remote', cloneUrl(t.baseUrl, alice.login, 'private-dock', 'oauth2', alice.token)])).code, 0);
    const wrong = await git(['ls-remote', cloneUrl(t.baseUrl, alice.login, 'private-dock', 'x-access-token', 'whp_wrong')]);
    assert.notEqual(wrong.code, 0);
    // Another user's token under alice's name is bob, who cannot see alice's private repository.
    const asBob = await git(['ls-remote', cloneUrl(t.baseUrl, alice.login, 'private-dock', alice.login, bob.token)]);
    assert.notEqual(asBob.code, 0);
  });

  test('the API takes the token under any name, through Octokit and plain fetch', async () => {
    for (const name of ['x-access-token', 'oauth2', alice.login, 'anything at all', bob.login]) {
      const res = await fetch(`${t.baseUrl}/user`, { headers: { authorization: basic(name, alice.token), 'user-agent': USER_AGENT } });
      assert.equal(res.status, 200, name);
      assert.equal((await res.json()).login, alice.login, name);
    }
    const octokit = new Octokit({ baseUrl: t.baseUrl, userAgent: USER_AGENT, request: {
      fetch: (url: string, init: RequestInit) => fetch(url, { ...init, headers: { ...init.headers as Record<string, string>, authorization: basic('x-access-token', alice.token) } }),
    } });
    const { data } = await octokit.rest.repos.get({ owner: alice.login, repo: 'private-dock' });
    assert.equal(data.private, true);
    const res = await fetch(`${t.baseUrl}/user`, { headers: { authorization: basic('x-access-token', 'whp_nope'), 'user-agent': USER_AGENT } });
    assert.equal(res.status, 401);
    assert.equal((await res.json()).message, 'Bad credentials');
  });

  test('failures count by the named login when it exists; the token owner under another name is never locked out', async () => {
    const carol = await createUser(t, ['user']);
    for (let i = 0; i < 3; i++) {
      assert.equal((await t.request('/user', { headers: { authorization: basic(carol.login, `wrong-${i}`) } })).status, 401);
    }
    // carol's name is locked: her own token under her own name is refused, as upstream does …
    const locked = await t.request('/user', { headers: { authorization: basic(carol.login, carol.token) } });
    assert.equal(locked.status, 403);
    assert.match((await locked.json()).message, /Maximum number of login attempts exceeded/);
    // … but a valid token under carol's name is its owner, who is not carol and not locked out,
    const asAlice = await t.request('/user', { headers: { authorization: basic(carol.login, alice.token) } });
    assert.equal(asAlice.status, 200);
    assert.equal((await asAlice.json()).login, alice.login);
    // and carol's token under x-access-token still works: a wrong name locks nobody out.
    const viaAlias = await t.request('/user', { headers: { authorization: basic('x-access-token', carol.token) } });
    assert.equal(viaAlias.status, 200);
    assert.equal((await viaAlias.json()).login, carol.login);
  });

  test('failures under a name nobody has lock nobody out', async () => {
    const dave = await createUser(t, ['user']);
    for (let i = 0; i < 6; i++) {
      assert.equal((await t.request('/user', { headers: { authorization: basic('x-access-token', `wrong-${i}`) } })).status, 401);
    }
    for (const name of ['x-access-token', dave.login]) {
      const res = await t.request('/user', { headers: { authorization: basic(name, dave.token) } });
      assert.equal(res.status, 200, name);
    }
    const rows = await t.server.ctx.db.selectFrom('login_failures').select('login_lower').where('login_lower', '=', 'x-access-token').execute();
    assert.deepEqual(rows, []);
  });

  test('an OAuth app client id + secret over Basic keeps working, and its client id locks out like a login', async () => {
    const { app, clientSecret } = await registerOauthApp(t.server.ctx, alice.id, 'gh-basic-app', null, null);
    const ok = await t.request(`/users/${alice.login}`, { headers: { authorization: basic(app.client_id, clientSecret) } });
    assert.equal(ok.status, 200);
    assert.equal((await t.request('/user', { headers: { authorization: basic(app.client_id, clientSecret) } })).status, 401, 'an app is nobody');
    for (let i = 0; i < 3; i++) {
      assert.equal((await t.request(`/users/${alice.login}`, { headers: { authorization: basic(app.client_id, `nope-${i}`) } })).status, 401);
    }
    assert.equal((await t.request(`/users/${alice.login}`, { headers: { authorization: basic(app.client_id, clientSecret) } })).status, 403);
  });
});
