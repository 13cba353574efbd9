// Issue lists: a repository's (filters, sorting, Link) and across repositories
// (GET /issues, /user/issues, /orgs/{org}/issues) with the visibility rules.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addMember, createOrgWithOwner } from './factories/orgs.ts';
import { addCollaborator, createIssue, createRepo, type CreatedRepo } from './factories/issues.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failsWith } from './helpers/failures.ts';
import { inTransaction } from '../src/context.ts';
import { userActor } from '../src/domain/actor.ts';
import { reposByIds } from '../src/modules/repos/repos.service.ts';
import { createIssueRecord } from '../src/modules/issues/issues.service.ts';

const numbers = (items: { number: number }[]) => items.map((i) => i.number);

describe('issue lists', () => {
  let t: TestServer;
  let clock: TestClock;
  let alice: CreatedUser;
  let bob: CreatedUser;

  before(async () => {
    clock = new TestClock();
    t = await startTestServer({ clock });
    alice = await createUser(t);
    bob = await createUser(t);
  });
  after(() => t.close());

  /** A pull request row, made through the issues service as the pulls module does. */
  async function pullRequestRow(r: CreatedRepo, user: CreatedUser, title: string) {
    const [repo] = await reposByIds(t.server.ctx, [r.id]);
    const actor = userActor({ id: user.id, login: user.login, siteAdmin: false }, 'token', 0, ['repo'], '');
    return inTransaction(t.server.ctx, (tx) => createIssueRecord(tx, repo!, actor, { title }, { isPullRequest: true }));
  }

  test('repository list: state, labels, milestone, assignee, creator, mentioned; pull requests included', async () => {
    const r = await createRepo(t, alice);
    const kit = t.octokit(alice.token);
    await addCollaborator(t, alice.token, r, bob);
    await kit.rest.issues.createMilestone({ owner: r.owner, repo: r.repo, title: 'v1' });
    const i1 = await createIssue(t, alice.token, r, { title: 'bug one', labels: ['bug', 'ui'], milestone: 1, assignees: [bob.login] });
    const i2 = await createIssue(t, bob.token, r, { title: 'bug two', labels: ['bug'], body: `ping @${alice.login}` });
    const i3 = await createIssue(t, alice.token, r, { title: 'closed one' });
    await kit.rest.issues.update({ owner: r.owner, repo: r.repo, issue_number: i3.number, state: 'closed' });
    const pr = await pullRequestRow(r, bob, 'a pull request');
    assert.equal(pr.number, 4);

    const list = async (q: Record<string, string | number>) =>
      numbers((await kit.rest.issues.listForRepo({ owner: r.owner, repo: r.repo, ...q } as never)).data);
    const all = await kit.rest.issues.listForRepo({ owner: r.owner, repo: r.repo });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/issues', 200, all.data);
    assert.deepEqual(numbers(all.data), [4, 2, 1], 'open by default, newest first, pull requests included');
    const prView = all.data.find((i) => i.number === 4)!;
    assert.deepEqual(prView.pull_request, {
      url: `${t.baseUrl}/repos/${r.owner}/${r.repo}/pulls/4`, html_url: `${t.baseUrl}/${r.owner}/${r.repo}/pull/4`,
      diff_url: `${t.baseUrl}/${r.owner}/${r.repo}/pull/4.diff`, patch_url: `${t.baseUrl}/${r.owner}/${r.repo}/pull/4.patch`, merged_at: null,
    });
    assert.equal(prView.html_url, `${t.baseUrl}/${r.owner}/${r.repo}/pull/4`);
    assert.equal(prView.draft, false);
    assert.deepEqual(await list({ state: 'closed' }), [3]);
    assert.deepEqual(await list({ state: 'all', direction: 'asc' }), [1, 2, 3, 4]);
    assert.deepEqual(await list({ labels: 'bug' }), [2, 1]);
    assert.deepEqual(await list({ labels: 'BUG,ui' }), [1], 'every label must match, names without case');
    assert.deepEqual(await list({ milestone: 1 }), [1]);
    assert.deepEqual(await list({ milestone: '*' }), [1]);
    assert.deepEqual(await list({ milestone: 'none' }), [4, 2]);
    assert.deepEqual(await list({ milestone: 9 }), []);
    assert.deepEqual(await list({ assignee: bob.login }), [1]);
    assert.deepEqual(await list({ assignee: '*' }), [1]);
    assert.deepEqual(await list({ assignee: 'none' }), [4, 2]);
    assert.deepEqual(await list({ assignee: 'no-such-user-anywhere' }), []);
    assert.deepEqual(await list({ creator: bob.login }), [4, 2]);
    assert.deepEqual(await list({ mentioned: alice.login }), [2]);
    assert.deepEqual(await list({ mentioned: bob.login }), []);
    void i1; void i2;
    const bad = await t.request(`/repos/${r.owner}/${r.repo}/issues?state=maybe`, { token: alice.token });
    assert.equal(bad.status, 422);
    const badSince = await t.request(`/repos/${r.owner}/${r.repo}/issues?since=yesterday`, { token: alice.token });
    assert.equal(badSince.status, 422);
  });

  test('repository list: sort by updated and comments, since, Link pagination', async () => {
    const r = await createRepo(t, alice);
    const kit = t.octokit(alice.token);
    for (let i = 0; i < 5; i++) {
      await createIssue(t, alice.token, r, { title: `i${i + 1}` });
      clock.advance(60_000);
    }
    const since = new Date(clock.now().getTime()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    await kit.rest.issues.createComment({ owner: r.owner, repo: r.repo, issue_number: 2, body: 'one' });
    await kit.rest.issues.createComment({ owner: r.owner, repo: r.repo, issue_number: 2, body: 'two' });
    clock.advance(60_000);
    await kit.rest.issues.createComment({ owner: r.owner, repo: r.repo, issue_number: 4, body: 'three' });
    const list = async (q: Record<string, string | number>) =>
      numbers((await kit.rest.issues.listForRepo({ owner: r.owner, repo: r.repo, ...q } as never)).data);
    assert.deepEqual(await list({ sort: 'updated' }), [4, 2, 5, 3, 1]);
    assert.deepEqual(await list({ sort: 'comments' }), [2, 4, 5, 3, 1]);
    assert.deepEqual(await list({ sort: 'comments', direction: 'asc' }), [1, 3, 5, 4, 2]);
    assert.deepEqual(await list({ since }), [4, 2]);

    const page = await t.request(`/repos/${r.owner}/${r.repo}/issues?per_page=2&page=2`, { token: alice.token });
    const link = page.headers.get('link') ?? '';
    assert.match(link, /per_page=2&page=3>; rel="next"/);
    assert.match(link, /per_page=2&page=3>; rel="last"/);
    assert.match(link, /per_page=2&page=1>; rel="prev"/);
    assert.deepEqual(numbers((await page.json()) as { number: number }[]), [3, 2]);
  });

  test('GET /issues: assigned by default, created, mentioned, subscribed, all; private repositories only with access', async () => {
    const carol = await createUser(t);
    const dave = await createUser(t);
    const pub = await createRepo(t, carol);
    const priv = await createRepo(t, carol, { private: true });
    const other = await createRepo(t, dave, { private: true });
    await addCollaborator(t, carol.token, pub, dave);
    await addCollaborator(t, dave.token, other, carol);
    const a = await createIssue(t, carol.token, pub, { title: 'assigned to dave', assignees: [dave.login] });
    const b = await createIssue(t, dave.token, pub, { title: 'created by dave' });
    const c = await createIssue(t, carol.token, pub, { title: 'mentions dave', body: `hi @${dave.login}` });
    const d = await createIssue(t, carol.token, priv, { title: 'private, carol only', body: `hi @${dave.login}` });
    const e = await createIssue(t, carol.token, pub, { title: 'dave comments' });
    await t.octokit(dave.token).rest.issues.createComment({ owner: pub.owner, repo: pub.repo, issue_number: e.number, body: 'me too' });
    const f = await createIssue(t, dave.token, other, { title: 'in dave private' });

    const as = (user: CreatedUser, q: Record<string, unknown> = {}) =>
      t.octokit(user.token).rest.issues.list({ ...q, per_page: 100 } as never).then((res) => res.data.map((i) => i.id));
    const assigned = await t.octokit(dave.token).rest.issues.list();
    assertMatchesOpenApi('GET', '/issues', 200, assigned.data);
    assert.deepEqual(assigned.data.map((i) => i.id), [a.id]);
    assert.equal(assigned.data[0]!.repository?.full_name, `${pub.owner}/${pub.repo}`, 'lists across repositories carry the repository');
    assert.deepEqual(await as(dave, { filter: 'created' }), [f.id, b.id]);
    assert.deepEqual(await as(dave, { filter: 'mentioned' }), [c.id], 'a mention in a private repository dave cannot read does not show');
    assert.deepEqual((await as(dave, { filter: 'subscribed' })).sort(), [a.id, b.id, c.id, e.id, f.id].sort());
    assert.deepEqual((await as(dave, { filter: 'all' })).sort(), [a.id, b.id, c.id, e.id, f.id].sort());
    assert.deepEqual((await as(carol, { filter: 'all' })).sort(), [a.id, b.id, c.id, d.id, e.id, f.id].sort());
    assert.deepEqual((await as(carol, { filter: 'all', owned: true })).sort(), [a.id, b.id, c.id, d.id, e.id].sort());
    assert.deepEqual(await as(carol, { filter: 'all', collab: true }), [f.id]);
    assert.deepEqual(await as(carol, { filter: 'created', state: 'all', labels: 'nothing' }), []);
    // A token without the repo scope sees public repositories only.
    const publicOnly = await createUser(t, ['public_repo', 'repo:invite']);
    await addCollaborator(t, carol.token, priv, publicOnly);
    await createIssue(t, carol.token, priv, { title: 'assigned privately', assignees: [publicOnly.login] });
    assert.deepEqual(await as(publicOnly, { filter: 'all' }), []);
    // /user/issues: owned and member repositories.
    const mine = await t.octokit(dave.token).rest.issues.listForAuthenticatedUser({ filter: 'created' });
    assertMatchesOpenApi('GET', '/user/issues', 200, mine.data);
    assert.deepEqual(mine.data.map((i) => i.id), [f.id, b.id]);
    await failsWith(t.octokit().rest.issues.list(), 401);
  });

  test('GET /orgs/{org}/issues: the organization repositories the caller may read', async () => {
    const org = await createOrgWithOwner(t);
    const member = await addMember(t, org);
    const outsider = await createUser(t);
    const open = await createRepo(t, org.owner, { org: org.login });
    const closed = await createRepo(t, org.owner, { org: org.login, private: true });
    const x = await createIssue(t, org.owner.token, open, { title: 'x', assignees: [org.owner.login] });
    const y = await createIssue(t, org.owner.token, closed, { title: 'y', assignees: [org.owner.login] });
    const mine = await t.octokit(org.owner.token).rest.issues.listForOrg({ org: org.login });
    assertMatchesOpenApi('GET', '/orgs/{org}/issues', 200, mine.data);
    assert.deepEqual(mine.data.map((i) => i.id), [y.id, x.id]);
    const theirs = await t.octokit(outsider.token).rest.issues.listForOrg({ org: org.login, filter: 'all' });
    assert.deepEqual(theirs.data.map((i) => i.id), [x.id]);
    const members = await t.octokit(member.token).rest.issues.listForOrg({ org: org.login, filter: 'all' });
    assert.deepEqual(members.data.map((i) => i.id), [y.id, x.id], 'members read private repositories through the base permission');
    await failsWith(t.octokit(member.token).rest.issues.listForOrg({ org: 'no-such-org-anywhere' }), 404);
  });
});
