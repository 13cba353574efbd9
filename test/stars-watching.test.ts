// Stars and watching: the activity endpoints, the counts on repositories, the events.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createOrg, createUser, type CreatedUser } from './factories/accounts.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { cloneUrl, gitOk, tempDir } from './helpers/git.ts';
import { rawRequest } from './helpers/raw-http.ts';
import { listEvents } from '../src/events/outbox.ts';

type Json = Record<string, any>;
const STAR = { accept: 'application/vnd.github.star+json' };

describe('stars', () => {
  let t: TestServer;
  let clock: TestClock;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let carol: CreatedUser;
  let org: { login: string; id: number };

  before(async () => {
    clock = new TestClock();
    t = await startTestServer({ clock });
    alice = await createUser(t);
    bob = await createUser(t);
    carol = await createUser(t);
    org = await createOrg(t, alice.login);
    const octokit = t.octokit(alice.token);
    for (const name of ['one', 'two', 'three']) {
      await octokit.rest.repos.createForAuthenticatedUser({ name, auto_init: true });
      clock.advance(1000);
    }
    await octokit.rest.repos.createForAuthenticatedUser({ name: 'hidden', private: true });
    await octokit.rest.repos.createInOrg({ org: org.login, name: 'members-only', private: true });
  });
  after(() => t.close());

  test('PUT/GET/DELETE /user/starred/{owner}/{repo}: 204s, counts, star and watch events', async () => {
    const octokit = t.octokit(bob.token);
    const starred = await octokit.rest.activity.starRepoForAuthenticatedUser({ owner: alice.login, repo: 'one' });
    assert.equal(starred.status, 204);
    const check = await octokit.rest.activity.checkRepoIsStarredByAuthenticatedUser({ owner: alice.login, repo: 'one' });
    assert.equal(check.status, 204);
    const repo = await octokit.rest.repos.get({ owner: alice.login, repo: 'one' });
    assert.equal(repo.data.stargazers_count, 1);
    assert.equal(repo.data.watchers_count, 1);
    assert.equal(repo.data.watchers, 1);
    const events = async () => (await listEvents(t.server.ctx, { repositoryId: repo.data.id }))
      .filter((e) => e.event === 'star' || e.event === 'watch').map((e) => `${e.event}.${e.action}:${e.actorId}`);
    assert.deepEqual(await events(), [`star.created:${bob.id}`, `watch.started:${bob.id}`]);

    // Starring twice changes nothing.
    const raw = await rawRequest(t.baseUrl, 'PUT', `/user/starred/${alice.login}/one`, {
      'user-agent': 'wharf-tests', authorization: `token ${bob.token}`, 'content-length': '0',
    });
    assert.equal(raw.status, 204);
    assert.equal(raw.body, '');
    assert.equal((await octokit.rest.repos.get({ owner: alice.login, repo: 'one' })).data.stargazers_count, 1);
    assert.equal((await events()).length, 2);

    const unstarred = await octokit.rest.activity.unstarRepoForAuthenticatedUser({ owner: alice.login, repo: 'one' });
    assert.equal(unstarred.status, 204);
    assert.equal((await t.request(`/user/starred/${alice.login}/one`, { token: bob.token })).status, 404);
    assert.equal((await octokit.rest.repos.get({ owner: alice.login, repo: 'one' })).data.stargazers_count, 0);
    assert.equal((await t.request(`/user/starred/${alice.login}/one`, { method: 'DELETE', token: bob.token })).status, 204);
    assert.deepEqual(await events(), [`star.created:${bob.id}`, `watch.started:${bob.id}`, `star.deleted:${bob.id}`]);
  });

  test('a private repository the caller may not see is 404, and nothing is starred', async () => {
    for (const method of ['PUT', 'GET', 'DELETE']) {
      assert.equal((await t.request(`/user/starred/${alice.login}/hidden`, { method, token: bob.token })).status, 404, method);
    }
    assert.equal((await t.request(`/user/starred/${alice.login}/no-such-repo`, { method: 'PUT', token: bob.token })).status, 404);
    const gazers = await t.octokit(alice.token).rest.activity.listStargazersForRepo({ owner: alice.login, repo: 'hidden' });
    assert.deepEqual(gazers.data, []);
  });

  test('authentication and scopes', async () => {
    assert.equal((await t.request(`/user/starred/${alice.login}/two`, { method: 'PUT' })).status, 401);
    assert.equal((await t.request('/user/starred')).status, 401);
    const weak = await createUser(t, ['user']);
    const res = await t.request(`/user/starred/${alice.login}/two`, { method: 'PUT', token: weak.token });
    assert.equal(res.status, 403);
    assert.equal(res.headers.get('x-accepted-oauth-scopes'), 'public_repo, repo');
    assert.equal((await t.octokit(alice.token).rest.repos.get({ owner: alice.login, repo: 'two' })).data.stargazers_count, 0);
  });

  test('GET /user/starred and /users/{username}/starred: sort, direction, star media type, visibility, Link', async () => {
    const octokit = t.octokit(carol.token);
    for (const name of ['two', 'one', 'three']) {
      await octokit.rest.activity.starRepoForAuthenticatedUser({ owner: alice.login, repo: name });
      clock.advance(1000);
    }
    // A push makes `one` the most recently pushed.
    const work = tempDir();
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, alice.login, 'one', alice.login, alice.token), work]);
    await gitOk(['commit', '-q', '--allow-empty', '-m', 'Touch'], { cwd: work });
    await gitOk(['push', '-q', 'origin', 'HEAD:main'], { cwd: work });

    const mine = await octokit.rest.activity.listReposStarredByAuthenticatedUser();
    assertMatchesOpenApi('GET', '/user/starred', 200, mine.data);
    assert.deepEqual(mine.data.map((r: Json) => r.name), ['three', 'one', 'two'], 'most recently starred first');
    const asc = await octokit.rest.activity.listReposStarredByAuthenticatedUser({ direction: 'asc' });
    assert.deepEqual(asc.data.map((r: Json) => r.name), ['two', 'one', 'three']);
    const updated = await octokit.rest.activity.listReposStarredByAuthenticatedUser({ sort: 'updated' });
    assert.equal((updated.data[0] as Json).name, 'one', 'sort=updated follows the last push');

    const dated = await (await t.request('/user/starred', { token: carol.token, headers: STAR })).json();
    assertMatchesOpenApi('GET', '/users/{username}/starred', 200, dated);
    assert.deepEqual(dated.map((s: Json) => s.repo.name), ['three', 'one', 'two']);
    assert.ok(dated.every((s: Json) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(s.starred_at)));
    assert.ok(dated[0].starred_at > dated[2].starred_at);

    const page = await t.request('/user/starred?per_page=2', { token: carol.token });
    assert.match(page.headers.get('link') ?? '', /rel="next".*rel="last"/);
    assert.equal((await page.json()).length, 2);

    // A private repository shows in the list of its stargazer, not in others' view of it.
    await t.octokit(alice.token).rest.orgs.setMembershipForUser({ org: org.login, username: carol.login, role: 'member' });
    await octokit.rest.activity.starRepoForAuthenticatedUser({ owner: org.login, repo: 'members-only' });
    const own = await octokit.rest.activity.listReposStarredByUser({ username: carol.login });
    assert.ok(own.data.some((r: Json) => r.name === 'members-only'));
    const theirs = await t.octokit(bob.token).rest.activity.listReposStarredByUser({ username: carol.login });
    assertMatchesOpenApi('GET', '/users/{username}/starred', 200, theirs.data);
    assert.deepEqual(theirs.data.map((r: Json) => r.name), ['three', 'one', 'two']);
    const anonymous = await (await t.request(`/users/${carol.login}/starred`)).json();
    assert.equal(anonymous.length, 3);
    assert.equal((await t.request('/users/no-such-user-here/starred')).status, 404);
    assert.equal((await t.request('/user/starred?sort=sideways', { token: carol.token })).status, 422);
  });

  test('GET /repos/{owner}/{repo}/stargazers: users, or {starred_at, user} with the star media type', async () => {
    await t.octokit(bob.token).rest.activity.starRepoForAuthenticatedUser({ owner: alice.login, repo: 'three' });
    const plain = await t.octokit(bob.token).rest.activity.listStargazersForRepo({ owner: alice.login, repo: 'three' });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/stargazers', 200, plain.data);
    assert.deepEqual(plain.data.map((u: Json) => u.login), [carol.login, bob.login], 'earliest first');
    const dated = await (await t.request(`/repos/${alice.login}/three/stargazers`, { headers: { accept: 'application/vnd.service.star+json' } })).json();
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/stargazers', 200, dated);
    assert.deepEqual(dated.map((s: Json) => s.user.login), [carol.login, bob.login]);
    assert.ok(dated.every((s: Json) => typeof s.starred_at === 'string'));
    const page = await t.request(`/repos/${alice.login}/three/stargazers?per_page=1`);
    assert.match(page.headers.get('link') ?? '', /rel="next"/);
    assert.equal((await t.request(`/repos/${alice.login}/hidden/stargazers`, { token: bob.token })).status, 404);
  });
});

describe('watching', () => {
  let t: TestServer;
  let clock: TestClock;
  let alice: CreatedUser;
  let bob: CreatedUser;

  before(async () => {
    clock = new TestClock();
    t = await startTestServer({ clock });
    alice = await createUser(t);
    bob = await createUser(t);
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'lighthouse' });
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'cellar', private: true });
  });
  after(() => t.close());

  test('creating a repository makes its creator watch it', async () => {
    const { data } = await t.octokit(alice.token).rest.repos.get({ owner: alice.login, repo: 'lighthouse' });
    assert.equal(data.subscribers_count, 1);
    const sub = await t.octokit(alice.token).rest.activity.getRepoSubscription({ owner: alice.login, repo: 'lighthouse' });
    assert.equal(sub.data.subscribed, true);
    const watchers = await t.octokit(bob.token).rest.activity.listWatchersForRepo({ owner: alice.login, repo: 'lighthouse' });
    assert.deepEqual(watchers.data.map((u) => u.login), [alice.login]);
  });

  test('PUT, GET, DELETE /repos/{owner}/{repo}/subscription and subscribers_count', async () => {
    const octokit = t.octokit(bob.token);
    assert.equal((await t.request(`/repos/${alice.login}/lighthouse/subscription`, { token: bob.token })).status, 404);
    const set = await octokit.rest.activity.setRepoSubscription({ owner: alice.login, repo: 'lighthouse', subscribed: true });
    assert.equal(set.status, 200);
    assertMatchesOpenApi('PUT', '/repos/{owner}/{repo}/subscription', 200, set.data);
    assert.deepEqual(
      { ...set.data, created_at: undefined },
      {
        subscribed: true, ignored: false, reason: null, created_at: undefined,
        url: `${t.baseUrl}/repos/${alice.login}/lighthouse/subscription`, repository_url: `${t.baseUrl}/repos/${alice.login}/lighthouse`,
      },
    );
    const got = await octokit.rest.activity.getRepoSubscription({ owner: alice.login, repo: 'lighthouse' });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/subscription', 200, got.data);
    assert.deepEqual(got.data, set.data);
    assert.equal((await octokit.rest.repos.get({ owner: alice.login, repo: 'lighthouse' })).data.subscribers_count, 2);

    clock.advance(5000);
    const ignored = await octokit.rest.activity.setRepoSubscription({ owner: alice.login, repo: 'lighthouse', ignored: true });
    assert.equal(ignored.data.subscribed, false);
    assert.equal(ignored.data.ignored, true);
    assert.equal(ignored.data.created_at, set.data.created_at, 'a changed subscription keeps its created_at');
    assert.equal((await octokit.rest.repos.get({ owner: alice.login, repo: 'lighthouse' })).data.subscribers_count, 1);
    const watchers = await octokit.rest.activity.listWatchersForRepo({ owner: alice.login, repo: 'lighthouse' });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/subscribers', 200, watchers.data);
    assert.deepEqual(watchers.data.map((u) => u.login), [alice.login]);

    const deleted = await octokit.rest.activity.deleteRepoSubscription({ owner: alice.login, repo: 'lighthouse' });
    assert.equal(deleted.status, 204);
    assert.equal((await t.request(`/repos/${alice.login}/lighthouse/subscription`, { token: bob.token })).status, 404);
    // Watching is not starring: no watch event comes from subscriptions.
    const repoId = (await octokit.rest.repos.get({ owner: alice.login, repo: 'lighthouse' })).data.id;
    assert.deepEqual(await listEvents(t.server.ctx, { event: 'watch', repositoryId: repoId }), []);
  });

  test('bad input is a 422 and changes nothing; scopes, authentication and private repositories', async () => {
    const octokit = t.octokit(bob.token);
    await octokit.rest.activity.setRepoSubscription({ owner: alice.login, repo: 'lighthouse', subscribed: true });
    for (const body of [{ subscribed: 'yes' }, { ignored: 1 }]) {
      const res = await t.request(`/repos/${alice.login}/lighthouse/subscription`, { method: 'PUT', token: bob.token, json: body });
      assert.equal(res.status, 422, JSON.stringify(body));
      const err = await res.json();
      assert.equal(err.message, 'Validation Failed');
      assert.equal(err.errors[0].code, 'invalid');
    }
    assert.equal((await octokit.rest.activity.getRepoSubscription({ owner: alice.login, repo: 'lighthouse' })).data.subscribed, true);

    assert.equal((await t.request(`/repos/${alice.login}/lighthouse/subscription`, { method: 'PUT', json: { subscribed: true } })).status, 401);
    const weak = await createUser(t, ['user']);
    assert.equal((await t.request(`/repos/${alice.login}/lighthouse/subscription`, { method: 'PUT', token: weak.token, json: { subscribed: true } })).status, 403);
    const notifications = await createUser(t, ['notifications']);
    assert.equal((await t.request(`/repos/${alice.login}/lighthouse/subscription`, { method: 'PUT', token: notifications.token, json: { subscribed: true } })).status, 200);

    assert.equal((await t.request(`/repos/${alice.login}/cellar/subscription`, { method: 'PUT', token: bob.token, json: { subscribed: true } })).status, 404);
    assert.equal((await t.request(`/repos/${alice.login}/cellar/subscribers`, { token: bob.token })).status, 404);
    const cellar = await t.octokit(alice.token).rest.repos.get({ owner: alice.login, repo: 'cellar' });
    assert.equal(cellar.data.subscribers_count, 1);
  });

  test('GET /user/subscriptions and /users/{username}/subscriptions: watched repositories the caller may see', async () => {
    const mine = await t.octokit(alice.token).rest.activity.listWatchedReposForAuthenticatedUser();
    assertMatchesOpenApi('GET', '/user/subscriptions', 200, mine.data);
    assert.deepEqual(mine.data.map((r) => r.name).sort(), ['cellar', 'lighthouse']);
    const theirs = await t.octokit(bob.token).rest.activity.listReposWatchedByUser({ username: alice.login });
    assertMatchesOpenApi('GET', '/users/{username}/subscriptions', 200, theirs.data);
    assert.deepEqual(theirs.data.map((r) => r.name), ['lighthouse']);
    await t.octokit(alice.token).rest.activity.deleteRepoSubscription({ owner: alice.login, repo: 'cellar' });
    const after = await t.octokit(alice.token).rest.activity.listWatchedReposForAuthenticatedUser();
    assert.deepEqual(after.data.map((r) => r.name), ['lighthouse']);
    const page = await t.request('/user/subscriptions?per_page=1', { token: bob.token });
    assert.equal(page.status, 200);
    assert.equal((await t.request('/user/subscriptions')).status, 401);
  });
});
