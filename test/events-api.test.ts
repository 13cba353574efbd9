// The events API: timelines built from the outbox (push, create, issues, comments,
// stars …) in upstream's event shapes, with visibility, the 300-event window,
// X-Poll-Interval and conditional requests.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createOrg, createUser, type CreatedUser } from './factories/accounts.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failure } from './helpers/failures.ts';
import { gitOk, tempDir, cloneUrl } from './helpers/git.ts';

/**
 * The published event schema's payload is a oneOf whose public-event branch is `{}`,
 * which every payload matches besides its own: no payload can pass it. The envelope is
 * checked against it with payloads emptied; payloads are checked field by field.
 */
function envelopes(list: unknown[]): unknown[] {
  return list.map((e) => ({ ...(e as object), payload: {} }));
}

describe('events API', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let org: string;
  let head = '';

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t, ['repo', 'user', 'admin:org']);
    bob = await createUser(t, ['repo', 'user']);
    const a = t.octokit(alice.token);
    await a.rest.repos.createForAuthenticatedUser({ name: 'open-dock' });
    await a.rest.repos.createForAuthenticatedUser({ name: 'hidden-dock', private: true });
    const dir = tempDir();
    await gitOk(['init', '-q', '-b', 'main', dir]);
    fs.writeFileSync(path.join(dir, 'a.txt'), 'a\n');
    await gitOk(['add', '-A'], { cwd: dir });
    await gitOk(['commit', '-q', '-m', 'First cargo'], { cwd: dir, env: { GIT_AUTHOR_NAME: 'Alice', GIT_AUTHOR_EMAIL: `${alice.login}@example.com`, GIT_COMMITTER_NAME: 'Alice', GIT_COMMITTER_EMAIL: `${alice.login}@example.com` } });
    head = (await gitOk(['rev-parse', 'HEAD'], { cwd: dir })).trim();
    await gitOk(['push', '-q', cloneUrl(t.baseUrl, alice.login, 'open-dock', alice.login, alice.token), 'main'], { cwd: dir });
    await gitOk(['push', '-q', cloneUrl(t.baseUrl, alice.login, 'hidden-dock', alice.login, alice.token), 'main'], { cwd: dir });
    const issue = await a.rest.issues.create({ owner: alice.login, repo: 'open-dock', title: 'Leaky hull' });
    await t.octokit(bob.token).rest.issues.createComment({ owner: alice.login, repo: 'open-dock', issue_number: issue.data.number, body: 'Bail!' });
    await t.octokit(bob.token).rest.activity.starRepoForAuthenticatedUser({ owner: alice.login, repo: 'open-dock' });
    await a.rest.issues.create({ owner: alice.login, repo: 'hidden-dock', title: 'Secret cargo' });
    org = (await createOrg(t, alice.login)).login;
    await a.rest.repos.createInOrg({ org, name: 'fleet', auto_init: true });
    await a.rest.issues.create({ owner: org, repo: 'fleet', title: 'Muster' });
  });
  after(() => t.close());

  test('GET /repos/{o}/{r}/events: newest first, upstream shapes, X-Poll-Interval', async () => {
    const res = await t.octokit(bob.token).rest.activity.listRepoEvents({ owner: alice.login, repo: 'open-dock' });
    assert.equal(res.status, 200);
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/events', 200, envelopes(res.data));
    assert.equal(res.headers['x-poll-interval'], '60');
    assert.deepEqual(res.data.map((e) => e.type), ['WatchEvent', 'IssueCommentEvent', 'IssuesEvent', 'CreateEvent', 'PushEvent']);
    const [watch, comment, issue, create, push] = res.data as Record<string, any>[];
    assert.equal(watch!.actor.login, bob.login);
    assert.equal(watch!.payload.action, 'started');
    assert.deepEqual(watch!.repo, { id: push!.repo.id, name: `${alice.login}/open-dock`, url: `${t.baseUrl}/repos/${alice.login}/open-dock` });
    assert.equal(watch!.public, true);
    assert.equal(comment!.payload.comment.body, 'Bail!');
    assert.equal(comment!.payload.issue.title, 'Leaky hull');
    assert.equal(issue!.payload.action, 'opened');
    assert.equal(create!.payload.ref_type, 'branch');
    assert.equal(create!.payload.ref, 'main');
    assert.equal(push!.actor.login, alice.login);
    assert.equal(push!.payload.ref, 'refs/heads/main');
    assert.equal(push!.payload.head, head);
    assert.equal(push!.payload.size, 1);
    assert.equal(push!.payload.commits[0].sha, head);
    assert.equal(push!.payload.commits[0].message, 'First cargo');
    assert.equal(push!.payload.repository_id, push!.repo.id);
    assert.equal(push!.org, undefined, 'a user repository has no org');
    assert.equal(typeof push!.id, 'string');
    assert.match(push!.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  test('private repositories: their events only to those who may read them', async () => {
    assert.equal((await failure(() => t.octokit(bob.token).rest.activity.listRepoEvents({ owner: alice.login, repo: 'hidden-dock' }))).status, 404);
    const own = await t.octokit(alice.token).rest.activity.listRepoEvents({ owner: alice.login, repo: 'hidden-dock' });
    assert.deepEqual(own.data.map((e) => [e.type, e.public]), [['IssuesEvent', false], ['CreateEvent', false], ['PushEvent', false]]);
    const everyone = await t.octokit().rest.activity.listPublicEvents();
    assertMatchesOpenApi('GET', '/events', 200, envelopes(everyone.data));
    assert.ok(everyone.data.length > 0);
    assert.ok(everyone.data.every((e) => e.repo.name !== `${alice.login}/hidden-dock`), 'GET /events shows public repositories only');
    // A user's own timeline holds their private events; others (and /public) do not see them.
    const mine = await t.octokit(alice.token).rest.activity.listEventsForAuthenticatedUser({ username: alice.login });
    assert.ok(mine.data.some((e) => e.repo.name === `${alice.login}/hidden-dock`));
    assert.ok(mine.data.every((e) => e.actor.login === alice.login));
    const seen = await t.octokit(bob.token).rest.activity.listEventsForAuthenticatedUser({ username: alice.login });
    assert.ok(seen.data.length > 0 && seen.data.every((e) => e.public));
    const pub = await t.octokit(alice.token).rest.activity.listPublicEventsForUser({ username: alice.login });
    assertMatchesOpenApi('GET', '/users/{username}/events/public', 200, envelopes(pub.data));
    assert.ok(pub.data.length > 0 && pub.data.every((e) => e.public));
    assert.equal((await failure(() => t.octokit().rest.activity.listPublicEventsForUser({ username: 'no-such-user-here' }))).status, 404);
  });

  test('received events follow watched repositories; organization and network timelines', async () => {
    const carol = await createUser(t, ['repo', 'user']);
    const before = await t.octokit(carol.token).rest.activity.listReceivedEventsForUser({ username: carol.login });
    assert.deepEqual(before.data, []);
    await t.octokit(carol.token).rest.activity.setRepoSubscription({ owner: alice.login, repo: 'open-dock', subscribed: true });
    const after = await t.octokit(carol.token).rest.activity.listReceivedEventsForUser({ username: carol.login });
    assertMatchesOpenApi('GET', '/users/{username}/received_events', 200, envelopes(after.data));
    assert.ok(after.data.length >= 5);
    assert.ok(after.data.every((e) => e.repo.name === `${alice.login}/open-dock`));
    const pub = await t.octokit(carol.token).rest.activity.listReceivedPublicEventsForUser({ username: carol.login });
    assert.equal(pub.data.length, after.data.length);

    const orgEvents = await t.octokit(bob.token).rest.activity.listPublicOrgEvents({ org });
    assertMatchesOpenApi('GET', '/orgs/{org}/events', 200, envelopes(orgEvents.data));
    assert.ok(orgEvents.data.length > 0);
    assert.ok(orgEvents.data.every((e) => e.repo.name === `${org}/fleet` && e.org?.login === org));

    await t.octokit(bob.token).rest.repos.createFork({ owner: alice.login, repo: 'open-dock' });
    const network = await t.octokit(bob.token).rest.activity.listPublicEventsForRepoNetwork({ owner: alice.login, repo: 'open-dock' });
    const fork = network.data.find((e) => e.type === 'ForkEvent') as Record<string, any> | undefined;
    assert.equal(fork?.payload.forkee.full_name, `${bob.login}/open-dock`);
  });

  test('ETag and 304; pages with Link within the 300-event window', async () => {
    const url = `/repos/${alice.login}/open-dock/events`;
    const first = await t.request(url, { token: bob.token });
    const etag = first.headers.get('etag');
    assert.ok(etag);
    const again = await t.request(url, { token: bob.token, headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    const page1 = await t.octokit(bob.token).rest.activity.listRepoEvents({ owner: alice.login, repo: 'open-dock', per_page: 2 });
    assert.equal(page1.data.length, 2);
    assert.match(page1.headers.link ?? '', /rel="next"/);

    // 300 events at most: 305 issues make 305 IssuesEvents, the oldest fall out.
    const a = t.octokit(alice.token);
    await a.rest.repos.createForAuthenticatedUser({ name: 'busy-dock', has_issues: true });
    for (let i = 0; i < 305; i++) await a.rest.issues.create({ owner: alice.login, repo: 'busy-dock', title: `Crate ${i}` });
    const all = await a.paginate(a.rest.activity.listRepoEvents, { owner: alice.login, repo: 'busy-dock', per_page: 100 });
    assert.equal(all.length, 300);
    assert.equal((all[0] as Record<string, any>).payload.issue.title, 'Crate 304');
    assert.equal((all[299] as Record<string, any>).payload.issue.title, 'Crate 5');
  });
});
