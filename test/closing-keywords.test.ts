// Closing keywords: commits pushed to the default branch (git over HTTP, the contents
// API) and pull requests merged into it close the issues they name, as a manual close
// would; other branches, pull request numbers, closed issues and repositories the actor
// may not write to are left alone.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { gitOk } from './helpers/git.ts';
import { gql } from './helpers/graphql.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { checkout, commitFiles, push, repoWithFeature, uniqueName } from './factories/pulls.ts';
import { listEvents } from '../src/events/outbox.ts';

let t: TestServer;
let alice: CreatedUser;
let bob: CreatedUser;

before(async () => {
  t = await startTestServer();
  alice = await createUser(t);
  bob = await createUser(t);
});
after(async () => { await t.close(); });

async function openIssue(user: CreatedUser, owner: string, repo: string, title: string) {
  return (await t.octokit(user.token).rest.issues.create({ owner, repo, title })).data;
}

async function issueOf(owner: string, repo: string, number: number) {
  return (await t.octokit(alice.token).rest.issues.get({ owner, repo, issue_number: number })).data;
}

async function closedEvent(owner: string, repo: string, number: number) {
  const { data } = await t.octokit(alice.token).rest.issues.listEvents({ owner, repo, issue_number: number });
  return data.filter((e) => e.event === 'closed');
}

async function issueHooks(repositoryId: number) {
  return (await listEvents(t.server.ctx, { event: 'issues', repositoryId })).filter((e) => e.action === 'closed')
    .map((e) => (e.payload.issue as { number: number }).number);
}

describe('closing keywords in pushed commits', () => {
  test('a push to the default branch closes the named issues with the commit; others stay', async () => {
    const r = await repoWithFeature(t, alice);
    const repo = r.clone.repo;
    const one = await openIssue(alice, alice.login, repo, 'one');
    const two = await openIssue(alice, alice.login, repo, 'two');
    const pr = (await t.octokit(alice.token).rest.pulls.create({ owner: alice.login, repo, title: 'pr', head: 'feature', base: 'main' })).data;
    const done = await openIssue(alice, alice.login, repo, 'already closed');
    await t.octokit(alice.token).rest.issues.update({ owner: alice.login, repo, issue_number: done.number, state: 'closed', state_reason: 'not_planned' });
    const onBranch = await openIssue(alice, alice.login, repo, 'named on a branch');
    const mentioned = await openIssue(alice, alice.login, repo, 'only mentioned');

    // A branch other than the default: nothing closes.
    await checkout(r.clone, 'side', true);
    await commitFiles(r.clone, { 'side.txt': 'x\n' }, `Fixes #${onBranch.number}`);
    await push(r.clone, 'side');
    assert.equal((await issueOf(alice.login, repo, onBranch.number)).state, 'open');

    await checkout(r.clone, 'main');
    const sha = await commitFiles(r.clone, { 'a.txt': 'a\n' },
      `Fixes #${one.number}, CLOSES: ${alice.login}/${repo}#${two.number}\n\nresolves #${pr.number}, fixed #${done.number}, see #${mentioned.number}`);
    await push(r.clone, 'main');

    for (const n of [one.number, two.number]) {
      const issue = await issueOf(alice.login, repo, n);
      assert.equal(issue.state, 'closed');
      assert.equal(issue.state_reason, 'completed');
      assert.equal(issue.closed_by?.login, alice.login);
      assert.ok(issue.closed_at);
      const [event] = await closedEvent(alice.login, repo, n);
      assert.equal(event?.commit_id, sha);
      assert.equal(event?.commit_url, `${t.baseUrl}/repos/${alice.login}/${repo}/commits/${sha}`);
      assert.equal(event?.actor?.login, alice.login);
    }
    // A pull request number is no issue; a closed issue keeps its reason and its one event.
    assert.equal((await t.octokit(alice.token).rest.pulls.get({ owner: alice.login, repo, pull_number: pr.number })).data.state, 'open');
    const closedBefore = await issueOf(alice.login, repo, done.number);
    assert.equal(closedBefore.state_reason, 'not_planned');
    assert.equal((await closedEvent(alice.login, repo, done.number)).length, 1);
    assert.equal((await issueOf(alice.login, repo, mentioned.number)).state, 'open');
    assert.deepEqual((await issueHooks(r.id)).sort(), [done.number, one.number, two.number].sort());

    // The branch's commit reaching the default branch closes its issue then.
    await gitMerge(r.clone.dir, 'side');
    await push(r.clone, 'main');
    assert.equal((await issueOf(alice.login, repo, onBranch.number)).state, 'closed');
  });

  test('a commit made through the contents API closes the issue it names', async () => {
    const name = uniqueName();
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name, auto_init: true });
    const issue = await openIssue(alice, alice.login, name, 'api');
    const res = await t.octokit(alice.token).rest.repos.createOrUpdateFileContents({
      owner: alice.login, repo: name, path: 'x.txt', message: `close ${t.baseUrl}/${alice.login}/${name}/issues/${issue.number}`,
      content: Buffer.from('x\n').toString('base64'),
    });
    const after = await issueOf(alice.login, name, issue.number);
    assert.equal(after.state, 'closed');
    assert.equal((await closedEvent(alice.login, name, issue.number))[0]?.commit_id, res.data.commit.sha);
  });
});

async function gitMerge(dir: string, branch: string): Promise<void> {
  await gitOk(['merge', '-q', '--no-edit', branch], { cwd: dir });
}

describe('closing keywords in merged pull requests', () => {
  test('merging into the default branch closes what the body and commits name, where the merger may write', async () => {
    const r = await repoWithFeature(t, alice);
    const repo = r.clone.repo;
    const kit = t.octokit(alice.token);
    const byBody = await openIssue(alice, alice.login, repo, 'by body');
    const byCommit = await openIssue(alice, alice.login, repo, 'by commit');
    // Another repository of alice's, and one of bob's that alice may not write to.
    const otherName = uniqueName();
    await kit.rest.repos.createForAuthenticatedUser({ name: otherName });
    const elsewhere = await openIssue(alice, alice.login, otherName, 'elsewhere');
    const bobsName = uniqueName();
    await t.octokit(bob.token).rest.repos.createForAuthenticatedUser({ name: bobsName });
    const bobs = await openIssue(bob, bob.login, bobsName, 'not alice\'s');

    await checkout(r.clone, 'feature');
    await commitFiles(r.clone, { 'b.txt': 'b\n' }, `Work\n\nFixes #${byCommit.number}`);
    await push(r.clone, 'feature');
    await checkout(r.clone, 'main');
    const pr = (await kit.rest.pulls.create({
      owner: alice.login, repo, title: 'pr', head: 'feature', base: 'main',
      body: `Resolves #${byBody.number}\nCloses ${alice.login}/${otherName}#${elsewhere.number}\nfixes ${bob.login}/${bobsName}#${bobs.number}`,
    })).data;
    assert.equal((await issueOf(alice.login, repo, byBody.number)).state, 'open', 'opening a pull request closes nothing');

    const merged = await kit.rest.pulls.merge({ owner: alice.login, repo, pull_number: pr.number, merge_method: 'squash', commit_message: 'squashed' });
    for (const [owner, name, n] of [[alice.login, repo, byBody.number], [alice.login, repo, byCommit.number], [alice.login, otherName, elsewhere.number]] as const) {
      const issue = await issueOf(owner, name, n);
      assert.equal(issue.state, 'closed', `${owner}/${name}#${n}`);
      assert.equal(issue.closed_by?.login, alice.login);
      assert.equal((await closedEvent(owner, name, n))[0]?.commit_id, merged.data.sha);
    }
    assert.equal((await t.octokit(bob.token).rest.issues.get({ owner: bob.login, repo: bobsName, issue_number: bobs.number })).data.state, 'open');
  });

  test('merging into another branch closes nothing', async () => {
    const r = await repoWithFeature(t, alice);
    const repo = r.clone.repo;
    const kit = t.octokit(alice.token);
    const issue = await openIssue(alice, alice.login, repo, 'stays');
    await checkout(r.clone, 'release', true, 'main');
    await push(r.clone, 'release');
    const pr = (await kit.rest.pulls.create({ owner: alice.login, repo, title: 'pr', head: 'feature', base: 'release', body: `fixes #${issue.number}` })).data;
    await kit.rest.pulls.merge({ owner: alice.login, repo, pull_number: pr.number });
    assert.equal((await issueOf(alice.login, repo, issue.number)).state, 'open');
  });
});

describe('GraphQL closingIssuesReferences', () => {
  test('lists what the body and commits name, readable by the viewer, for the default branch only', async () => {
    const r = await repoWithFeature(t, alice);
    const repo = r.clone.repo;
    const kit = t.octokit(alice.token);
    const byBody = await openIssue(alice, alice.login, repo, 'by body');
    const byCommit = await openIssue(alice, alice.login, repo, 'by commit');
    const privateName = uniqueName();
    await kit.rest.repos.createForAuthenticatedUser({ name: privateName, private: true });
    const hidden = await openIssue(alice, alice.login, privateName, 'hidden from bob');
    await checkout(r.clone, 'feature');
    await commitFiles(r.clone, { 'c.txt': 'c\n' }, `fix #${byCommit.number}`);
    await push(r.clone, 'feature');
    await checkout(r.clone, 'main');
    const pr = (await kit.rest.pulls.create({
      owner: alice.login, repo, title: 'pr', head: 'feature', base: 'main',
      body: `closes #${byBody.number} and closes ${alice.login}/${privateName}#${hidden.number}, see #${byCommit.number}`,
    })).data;
    const query = `{ repository(owner: "${alice.login}", name: "${repo}") { pullRequest(number: ${pr.number}) {
      closingIssuesReferences(first: 10) { totalCount nodes { number repository { name } } } } } }`;
    type Result = { repository: { pullRequest: { closingIssuesReferences: { totalCount: number; nodes: { number: number; repository: { name: string } }[] } } } };
    const asAlice = (await gql(t, alice.token)<Result>(query)).repository.pullRequest.closingIssuesReferences;
    assert.deepEqual(asAlice.nodes.map((n) => `${n.repository.name}#${n.number}`),
      [`${repo}#${byBody.number}`, `${privateName}#${hidden.number}`, `${repo}#${byCommit.number}`]);
    assert.equal(asAlice.totalCount, 3);
    const asBob = (await gql(t, bob.token)<Result>(query)).repository.pullRequest.closingIssuesReferences;
    assert.deepEqual(asBob.nodes.map((n) => n.number), [byBody.number, byCommit.number]);

    // The reverse: the issue lists the open pull request that would close it.
    const reverse = `{ repository(owner: "${alice.login}", name: "${repo}") {
      named: issue(number: ${byBody.number}) { closedByPullRequestsReferences(first: 5) { totalCount nodes { number } } } } }`;
    type Reverse = { repository: { named: { closedByPullRequestsReferences: { totalCount: number; nodes: { number: number }[] } } } };
    assert.deepEqual((await gql(t, bob.token)<Reverse>(reverse)).repository.named.closedByPullRequestsReferences.nodes.map((n) => n.number), [pr.number]);

    // Retargeted at another branch, the keywords link nothing.
    await checkout(r.clone, 'other', true, 'main');
    await push(r.clone, 'other');
    await kit.rest.pulls.update({ owner: alice.login, repo, pull_number: pr.number, base: 'other' });
    assert.equal((await gql(t, alice.token)<Result>(query)).repository.pullRequest.closingIssuesReferences.totalCount, 0);
    assert.equal((await gql(t, bob.token)<Reverse>(reverse)).repository.named.closedByPullRequestsReferences.totalCount, 0);
  });
});
