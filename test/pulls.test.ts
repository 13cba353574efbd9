// Pull requests through Octokit and the git binary: opening from a branch and from a
// fork, reading (mergeability, figures, diff and patch), lists, editing, commits and
// files, merging with each method, update-branch, pushes that move a pull request.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failsWith } from './helpers/failures.ts';
import { gitOk } from './helpers/git.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { checkout, cloneAs, commitFiles, log, push, repoWithFeature, revParse, uniqueName } from './factories/pulls.ts';
import { listEvents } from '../src/events/outbox.ts';

type Json = Record<string, any>;

let t: TestServer;
let alice: CreatedUser;
let bob: CreatedUser;

before(async () => {
  t = await startTestServer();
  alice = await createUser(t);
  bob = await createUser(t);
});
after(async () => { await t.close(); });

async function events(repositoryId: number, event = 'pull_request') {
  return listEvents(t.server.ctx, { event, repositoryId });
}

describe('opening a pull request', () => {
  test('from a branch: 201, the full record with head/base, figures and mergeability from git', async () => {
    const r = await repoWithFeature(t, alice);
    const kit = t.octokit(alice.token);
    // An issue first: issue and pull request numbers share one sequence, ids do not.
    await kit.rest.issues.create({ owner: alice.login, repo: r.clone.repo, title: 'an issue' });
    const res = await kit.rest.pulls.create({ owner: alice.login, repo: r.clone.repo, title: 'Make it loud', body: 'Please', head: 'feature', base: 'main' });
    assert.equal(res.status, 201);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/pulls', 201, res.data);
    const pr = res.data;
    const api = `${t.baseUrl}/repos/${alice.login}/${r.clone.repo}`;
    assert.equal(res.headers.location, `${api}/pulls/${pr.number}`);
    assert.equal(pr.number, 2);
    assert.equal(pr.state, 'open');
    assert.equal(pr.title, 'Make it loud');
    assert.equal(pr.body, 'Please');
    assert.equal(pr.user.login, alice.login);
    assert.equal(pr.node_id, Buffer.from(`011:PullRequest${pr.id}`).toString('base64'));
    assert.equal(pr.url, `${api}/pulls/2`);
    assert.equal(pr.issue_url, `${api}/issues/2`);
    assert.equal(pr.commits_url, `${api}/pulls/2/commits`);
    assert.equal(pr.review_comments_url, `${api}/pulls/2/comments`);
    assert.equal(pr.review_comment_url, `${api}/pulls/comments{/number}`);
    assert.equal(pr.comments_url, `${api}/issues/2/comments`);
    assert.equal(pr.statuses_url, `${api}/statuses/${r.featureSha}`);
    assert.equal(pr.diff_url, `${pr.html_url}.diff`);
    assert.equal(pr.patch_url, `${pr.html_url}.patch`);
    assert.deepEqual(Object.keys(pr._links).sort(), ['comments', 'commits', 'html', 'issue', 'review_comment', 'review_comments', 'self', 'statuses']);
    assert.equal(pr._links.statuses.href, pr.statuses_url);
    assert.equal(pr.head.label, `${alice.login}:feature`);
    assert.equal(pr.head.ref, 'feature');
    assert.equal(pr.head.sha, r.featureSha);
    assert.equal(pr.head.user.login, alice.login);
    assert.equal(pr.head.repo?.full_name, `${alice.login}/${r.clone.repo}`);
    assert.equal(pr.base.label, `${alice.login}:main`);
    assert.equal(pr.base.sha, r.mainSha);
    assert.equal(pr.merged, false);
    assert.equal(pr.mergeable, true);
    assert.equal(pr.rebaseable, true);
    assert.equal(pr.mergeable_state, 'clean');
    assert.equal(pr.commits, 1);
    assert.equal(pr.additions, 2);
    assert.equal(pr.deletions, 1);
    assert.equal(pr.changed_files, 2);
    assert.equal(pr.comments, 0);
    assert.equal(pr.review_comments, 0);
    assert.equal(pr.draft, false);
    assert.equal(pr.maintainer_can_modify, false);
    assert.equal(pr.merged_by, null);
    assert.deepEqual(pr.requested_reviewers, []);
    assert.equal(pr.author_association, 'OWNER');
    assert.match(pr.merge_commit_sha ?? '', /^[0-9a-f]{40}$/, 'the test merge commit');

    // The head is pinned in the base repository, the test merge too.
    const refs = await gitOk(['ls-remote', `${t.baseUrl}/${alice.login}/${r.clone.repo}.git`]);
    assert.match(refs, new RegExp(`${r.featureSha}\trefs/pull/2/head`));
    assert.match(refs, new RegExp(`${pr.merge_commit_sha}\trefs/pull/2/merge`));

    // Seen as an issue through the issue endpoints, with the issue's own id.
    const issue = await kit.rest.issues.get({ owner: alice.login, repo: r.clone.repo, issue_number: 2 });
    assert.equal(issue.data.title, 'Make it loud');
    assert.notEqual(issue.data.id, pr.id);
    assert.equal(issue.data.pull_request?.url, pr.url);
    assert.equal(issue.data.pull_request?.merged_at, null);

    const opened = await events(r.id);
    assert.equal(opened.length, 1);
    assert.equal(opened[0]!.action, 'opened');
    assert.equal((opened[0]!.payload as Json).number, 2);
    assert.equal((opened[0]!.payload as Json).pull_request.body, 'Please');
    assert.equal((opened[0]!.payload as Json).pull_request.head.sha, r.featureSha);
  });

  test('GET one answers the same record; draft PRs say so', async () => {
    const r = await repoWithFeature(t, alice);
    const kit = t.octokit(alice.token);
    await kit.rest.pulls.create({ owner: alice.login, repo: r.clone.repo, title: 'Draft', head: 'feature', base: 'main', draft: true });
    const got = await kit.rest.pulls.get({ owner: alice.login, repo: r.clone.repo, pull_number: 1 });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/pulls/{pull_number}', 200, got.data);
    assert.equal(got.data.draft, true);
    assert.equal(got.data.mergeable, true);
    assert.equal(got.data.mergeable_state, 'draft');
    await failsWith(kit.rest.pulls.get({ owner: alice.login, repo: r.clone.repo, pull_number: 2 }), 404);
    await kit.rest.pulls.update({ owner: alice.login, repo: r.clone.repo, pull_number: 1, body: 'Some **bold** words' });
    const full = await t.request(`/repos/${alice.login}/${r.clone.repo}/pulls/1`, { token: alice.token, headers: { accept: 'application/vnd.github.full+json' } });
    const fullBody = await full.json() as Json;
    assert.equal(fullBody.body, 'Some **bold** words');
    assert.equal(fullBody.body_text, 'Some bold words');
    assert.match(fullBody.body_html, /<strong>bold<\/strong>/);
    const html = await t.request(`/repos/${alice.login}/${r.clone.repo}/pulls`, { token: alice.token, headers: { accept: 'application/vnd.github.html+json' } });
    const [item] = await html.json() as Json[];
    assert.equal(item!.body, undefined);
    assert.match(item!.body_html, /<strong>bold<\/strong>/);
  });

  test('422s: missing head or base, no commits between, an open one already exists, no title', async () => {
    const r = await repoWithFeature(t, alice);
    const kit = t.octokit(alice.token);
    const repo = r.clone.repo;
    let body = await failsWith(kit.rest.pulls.create({ owner: alice.login, repo, title: 'x', head: 'nope', base: 'main' }), 422);
    assert.deepEqual(body.errors, [{ resource: 'PullRequest', field: 'head', code: 'invalid' }]);
    body = await failsWith(kit.rest.pulls.create({ owner: alice.login, repo, title: 'x', head: 'feature', base: 'nope' }), 422);
    assert.deepEqual(body.errors, [{ resource: 'PullRequest', field: 'base', code: 'invalid' }]);
    body = await failsWith(kit.rest.pulls.create({ owner: alice.login, repo, title: 'x', head: 'main', base: 'feature' }), 422);
    assert.equal(body.errors?.[0]?.message, 'No commits between feature and main');
    body = await failsWith(kit.rest.pulls.create({ owner: alice.login, repo, head: 'feature', base: 'main' }), 422);
    assert.deepEqual(body.errors, [{ resource: 'PullRequest', field: 'title', code: 'missing_field' }]);
    await kit.rest.pulls.create({ owner: alice.login, repo, title: 'first', head: 'feature', base: 'main' });
    body = await failsWith(kit.rest.pulls.create({ owner: alice.login, repo, title: 'again', head: `${alice.login}:feature`, base: 'main' }), 422);
    assert.equal(body.errors?.[0]?.message, `A pull request already exists for ${alice.login}:feature.`);
    assert.equal(body.errors?.[0]?.code, 'custom');
    // Nothing was written by the refusals: the next number is 2.
    const issue = await kit.rest.issues.create({ owner: alice.login, repo, title: 'next' });
    assert.equal(issue.data.number, 2);
  });

  test('from a fork of the network (owner:branch); anyone who can read the base may open it', async () => {
    const r = await repoWithFeature(t, alice);
    const fork = await t.octokit(bob.token).rest.repos.createFork({ owner: alice.login, repo: r.clone.repo });
    const clone = await cloneAs(t, bob.login, fork.data.name, bob);
    await checkout(clone, 'fix', true);
    const fixSha = await commitFiles(clone, { 'fix.txt': 'fixed\n' }, 'Fix it');
    await push(clone, 'fix');
    const res = await t.octokit(bob.token).rest.pulls.create({ owner: alice.login, repo: r.clone.repo, title: 'Fix', head: `${bob.login}:fix`, base: 'main', maintainer_can_modify: true });
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/pulls', 201, res.data);
    assert.equal(res.data.head.label, `${bob.login}:fix`);
    assert.equal(res.data.head.repo?.full_name, `${bob.login}/${fork.data.name}`);
    assert.equal(res.data.head.user.login, bob.login);
    assert.equal(res.data.head.sha, fixSha);
    assert.equal(res.data.maintainer_can_modify, true);
    assert.equal(res.data.commits, 1);
    assert.equal(res.data.author_association, 'FIRST_TIME_CONTRIBUTOR', 'a pull request here, none merged yet');
    // The fork's commit now lives in the base repository.
    const refs = await gitOk(['ls-remote', `${t.baseUrl}/${alice.login}/${r.clone.repo}.git`, 'refs/pull/1/head']);
    assert.match(refs, new RegExp(`^${fixSha}`));
    const files = await t.octokit(bob.token).rest.pulls.listFiles({ owner: alice.login, repo: r.clone.repo, pull_number: 1 });
    assert.deepEqual(files.data.map((f) => f.filename), ['fix.txt']);
    // An account without a repository in the network is no head.
    const carol = await createUser(t);
    const body = await failsWith(t.octokit(bob.token).rest.pulls.create({ owner: alice.login, repo: r.clone.repo, title: 'x', head: `${carol.login}:fix`, base: 'main' }), 422);
    assert.deepEqual(body.errors, [{ resource: 'PullRequest', field: 'head', code: 'invalid' }]);
  });

  test('from an existing issue: the issue becomes the pull request, number and title kept', async () => {
    const r = await repoWithFeature(t, alice);
    const kit = t.octokit(alice.token);
    const issue = await kit.rest.issues.create({ owner: alice.login, repo: r.clone.repo, title: 'Needs a feature', body: 'the body' });
    const res = await kit.rest.pulls.create({ owner: alice.login, repo: r.clone.repo, issue: issue.data.number, head: 'feature', base: 'main' });
    assert.equal(res.data.number, issue.data.number);
    assert.equal(res.data.title, 'Needs a feature');
    assert.equal(res.data.body, 'the body');
    const again = await kit.rest.issues.get({ owner: alice.login, repo: r.clone.repo, issue_number: issue.data.number });
    assert.equal(again.data.pull_request?.url, res.data.url);
    const body = await failsWith(kit.rest.pulls.create({ owner: alice.login, repo: r.clone.repo, issue: 99, head: 'feature', base: 'main' }), 422);
    assert.equal(body.errors?.[0]?.field, 'issue');
  });

  test('interaction limits refuse restricted users; private repositories hide themselves', async () => {
    const r = await repoWithFeature(t, alice);
    await t.octokit(alice.token).request('PUT /repos/{owner}/{repo}/interaction-limits', { owner: alice.login, repo: r.clone.repo, limit: 'collaborators_only' });
    const fork = await t.octokit(bob.token).rest.repos.createFork({ owner: alice.login, repo: r.clone.repo });
    const clone = await cloneAs(t, bob.login, fork.data.name, bob);
    await checkout(clone, 'fix', true);
    await commitFiles(clone, { 'fix.txt': 'fixed\n' }, 'Fix it');
    await push(clone, 'fix');
    const body = await failsWith(t.octokit(bob.token).rest.pulls.create({ owner: alice.login, repo: r.clone.repo, title: 'Fix', head: `${bob.login}:fix`, base: 'main' }), 403);
    assert.match(body.message, /limited the ability to open pull requests to collaborators/);

    const p = await repoWithFeature(t, alice, { private: true });
    await failsWith(t.octokit(bob.token).rest.pulls.create({ owner: alice.login, repo: p.clone.repo, title: 'x', head: 'feature', base: 'main' }), 404);
    await failsWith(t.octokit(bob.token).rest.pulls.list({ owner: alice.login, repo: p.clone.repo }), 404);
  });
});

describe('lists', () => {
  test('state, head, base, sort and the direction default; Link pages', async () => {
    const r = await repoWithFeature(t, alice);
    const kit = t.octokit(alice.token);
    const repo = r.clone.repo;
    for (const name of ['b1', 'b2', 'b3']) {
      await checkout(r.clone, name, true, 'main');
      await commitFiles(r.clone, { [`${name}.txt`]: name }, name);
      await push(r.clone, name);
    }
    await checkout(r.clone, 'develop', true, 'main');
    await push(r.clone, 'develop');
    const one = await kit.rest.pulls.create({ owner: alice.login, repo, title: 'one', head: 'b1', base: 'main' });
    const two = await kit.rest.pulls.create({ owner: alice.login, repo, title: 'two', head: 'b2', base: 'main' });
    const three = await kit.rest.pulls.create({ owner: alice.login, repo, title: 'three', head: 'b3', base: 'develop' });
    await kit.rest.pulls.update({ owner: alice.login, repo, pull_number: two.data.number, state: 'closed' });
    await kit.rest.issues.createComment({ owner: alice.login, repo, issue_number: three.data.number, body: 'busy' });

    const open = await kit.rest.pulls.list({ owner: alice.login, repo });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/pulls', 200, open.data);
    assert.deepEqual(open.data.map((p) => p.title), ['three', 'one'], 'created, newest first by default');
    assert.equal((open.data[0] as Json).mergeable, undefined, 'list items are the simple record');
    const all = await kit.rest.pulls.list({ owner: alice.login, repo, state: 'all', sort: 'created' });
    assert.deepEqual(all.data.map((p) => p.title), ['three', 'two', 'one']);
    const closed = await kit.rest.pulls.list({ owner: alice.login, repo, state: 'closed' });
    assert.deepEqual(closed.data.map((p) => p.title), ['two']);
    const popular = await kit.rest.pulls.list({ owner: alice.login, repo, sort: 'popularity', direction: 'desc' });
    assert.deepEqual(popular.data.map((p) => p.title), ['three', 'one']);
    const popularAsc = await kit.rest.pulls.list({ owner: alice.login, repo, sort: 'popularity' });
    assert.deepEqual(popularAsc.data.map((p) => p.title), ['one', 'three'], 'ascending unless sorting by creation');
    const base = await kit.rest.pulls.list({ owner: alice.login, repo, base: 'develop' });
    assert.deepEqual(base.data.map((p) => p.title), ['three']);
    const head = await kit.rest.pulls.list({ owner: alice.login, repo, head: `${alice.login}:b1` });
    assert.deepEqual(head.data.map((p) => p.number), [one.data.number]);
    const nobody = await kit.rest.pulls.list({ owner: alice.login, repo, head: `${bob.login}:b1` });
    assert.deepEqual(nobody.data, []);
    const page = await kit.rest.pulls.list({ owner: alice.login, repo, state: 'all', per_page: 2 });
    assert.equal(page.data.length, 2);
    assert.match(page.headers.link ?? '', /page=2>; rel="next"/);
    assert.match(page.headers.link ?? '', /rel="last"/);
  });

  test('sort=long-running: open for more than a month and active within the past month', async () => {
    const clock = new TestClock();
    const timed = await startTestServer({ clock });
    try {
      const owner = await createUser(timed);
      const r = await repoWithFeature(timed, owner);
      const kit = timed.octokit(owner.token);
      const repo = r.clone.repo;
      for (const name of ['quiet', 'busy']) {
        await checkout(r.clone, name, true, 'main');
        await commitFiles(r.clone, { [`${name}.txt`]: name }, name);
        await push(r.clone, name);
      }
      const quiet = await kit.rest.pulls.create({ owner: owner.login, repo, title: 'old and quiet', head: 'quiet', base: 'main' });
      const busy = await kit.rest.pulls.create({ owner: owner.login, repo, title: 'old and busy', head: 'busy', base: 'main' });
      clock.advance(40 * 24 * 60 * 60 * 1000);
      await kit.rest.issues.createComment({ owner: owner.login, repo, issue_number: busy.data.number, body: 'still on it' });
      const young = await kit.rest.pulls.create({ owner: owner.login, repo, title: 'young', head: 'feature', base: 'main' });
      const listed = await kit.rest.pulls.list({ owner: owner.login, repo, sort: 'long-running' });
      assert.deepEqual(listed.data.map((p) => p.number), [busy.data.number]);
      assert.ok(![quiet.data.number, young.data.number].some((n) => listed.data.some((p) => p.number === n)));
    } finally {
      await timed.close();
    }
  });

  test('an open pull request shows its base branch as it is now; a closed one the base it had', async () => {
    const r = await repoWithFeature(t, alice);
    const kit = t.octokit(alice.token);
    const repo = r.clone.repo;
    const open = await kit.rest.pulls.create({ owner: alice.login, repo, title: 'open', head: 'feature', base: 'main' });
    await checkout(r.clone, 'other', true, 'main');
    await commitFiles(r.clone, { 'other.txt': 'other\n' }, 'Other work');
    await push(r.clone, 'other');
    const closed = await kit.rest.pulls.create({ owner: alice.login, repo, title: 'closed', head: 'other', base: 'main' });
    await kit.rest.pulls.update({ owner: alice.login, repo, pull_number: closed.data.number, state: 'closed' });
    await checkout(r.clone, 'main');
    const moved = await commitFiles(r.clone, { 'later.txt': 'later\n' }, 'Later on main');
    await push(r.clone, 'main');
    const listed = await kit.rest.pulls.list({ owner: alice.login, repo, state: 'all' });
    const byTitle = new Map(listed.data.map((p) => [p.title, p]));
    assert.equal(byTitle.get('open')?.base.sha, moved);
    assert.equal(byTitle.get('closed')?.base.sha, r.mainSha);
    assert.notEqual(open.data.base.sha, moved);
  });
});

describe('editing', () => {
  test('title, body, base, state: events edited (with changes), closed, reopened', async () => {
    const r = await repoWithFeature(t, alice);
    const kit = t.octokit(alice.token);
    const repo = r.clone.repo;
    await checkout(r.clone, 'release', true, 'main');
    await push(r.clone, 'release');
    await kit.rest.pulls.create({ owner: alice.login, repo, title: 'Old', body: 'old body', head: 'feature', base: 'main' });
    const edited = await kit.rest.pulls.update({ owner: alice.login, repo, pull_number: 1, title: 'New', body: 'new body', base: 'release' });
    assertMatchesOpenApi('PATCH', '/repos/{owner}/{repo}/pulls/{pull_number}', 200, edited.data);
    assert.equal(edited.data.title, 'New');
    assert.equal(edited.data.body, 'new body');
    assert.equal(edited.data.base.ref, 'release');
    const closed = await kit.rest.pulls.update({ owner: alice.login, repo, pull_number: 1, state: 'closed' });
    assert.equal(closed.data.state, 'closed');
    assert.equal(closed.data.merged, false);
    assert.ok(closed.data.closed_at);
    const reopened = await kit.rest.pulls.update({ owner: alice.login, repo, pull_number: 1, state: 'open' });
    assert.equal(reopened.data.state, 'open');
    const list = await events(r.id);
    assert.deepEqual(list.map((e) => e.action), ['opened', 'edited', 'closed', 'reopened']);
    const changes = (list[1]!.payload as Json).changes;
    assert.deepEqual(changes.title, { from: 'Old' });
    assert.deepEqual(changes.body, { from: 'old body' });
    assert.deepEqual(changes.base.ref, { from: 'main' });
    assert.equal((list[2]!.payload as Json).pull_request.merged, false);

    const body = await failsWith(kit.rest.pulls.update({ owner: alice.login, repo, pull_number: 1, base: 'missing' }), 422);
    assert.equal(body.errors?.[0]?.field, 'base');
    // Others without triage access may not edit.
    await failsWith(t.octokit(bob.token).rest.pulls.update({ owner: alice.login, repo, pull_number: 1, title: 'mine' }), 403);
  });
});

describe('editing through the issue endpoints', () => {
  test('PATCH /issues/{n} on a pull request records pull_request events; a merged one cannot be reopened', async () => {
    const r = await repoWithFeature(t, alice);
    const kit = t.octokit(alice.token);
    const repo = r.clone.repo;
    await kit.rest.pulls.create({ owner: alice.login, repo, title: 'Old', head: 'feature', base: 'main' });
    const closed = await kit.rest.issues.update({ owner: alice.login, repo, issue_number: 1, state: 'closed', title: 'New', labels: ['bug'] });
    assert.equal(closed.data.state, 'closed');
    assert.equal(closed.data.title, 'New');
    assert.deepEqual(closed.data.labels.map((l) => (typeof l === 'string' ? l : l.name)), ['bug']);
    assert.deepEqual((await events(r.id)).map((e) => e.action), ['opened', 'edited', 'closed']);
    assert.equal((await listEvents(t.server.ctx, { event: 'issues', repositoryId: r.id })).length, 0);

    await kit.rest.issues.update({ owner: alice.login, repo, issue_number: 1, state: 'open' });
    await kit.rest.pulls.merge({ owner: alice.login, repo, pull_number: 1 });
    await failsWith(kit.rest.issues.update({ owner: alice.login, repo, issue_number: 1, state: 'open' }), 422);
    const pr = await kit.rest.pulls.get({ owner: alice.login, repo, pull_number: 1 });
    assert.equal(pr.data.state, 'closed');
    assert.equal(pr.data.merged, true);
  });
});

describe('commits, files, diff and patch', () => {
  test('commits oldest first, files with patches, the diff and patch media types', async () => {
    const r = await repoWithFeature(t, alice);
    const kit = t.octokit(alice.token);
    const repo = r.clone.repo;
    await checkout(r.clone, 'feature');
    const second = await commitFiles(r.clone, { 'feature.txt': null, 'notes.md': '# Notes\n' }, 'Second step');
    await push(r.clone, 'feature');
    await kit.rest.pulls.create({ owner: alice.login, repo, title: 'Two commits', head: 'feature', base: 'main' });

    const commits = await kit.rest.pulls.listCommits({ owner: alice.login, repo, pull_number: 1 });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/pulls/{pull_number}/commits', 200, commits.data);
    assert.deepEqual(commits.data.map((c) => c.sha), [r.featureSha, second]);
    assert.equal(commits.data[0]!.commit.message, 'Feature work');

    const files = await kit.rest.pulls.listFiles({ owner: alice.login, repo, pull_number: 1 });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/pulls/{pull_number}/files', 200, files.data);
    const byName = new Map(files.data.map((f) => [f.filename, f]));
    assert.deepEqual([...byName.keys()].sort(), ['app.txt', 'notes.md']);
    const app = byName.get('app.txt')!;
    assert.equal(app.status, 'modified');
    assert.equal(app.additions, 1);
    assert.equal(app.deletions, 1);
    assert.equal(app.changes, 2);
    assert.match(app.patch ?? '', /^@@ -1,3 \+1,3 @@\n one\n-two\n\+TWO\n three/);
    assert.equal(app.blob_url, `${t.baseUrl}/${alice.login}/${repo}/blob/${second}/app.txt`);
    assert.equal(app.raw_url, `${t.baseUrl}/${alice.login}/${repo}/raw/${second}/app.txt`);
    assert.equal(app.contents_url, `${t.baseUrl}/repos/${alice.login}/${repo}/contents/app.txt?ref=${second}`);
    assert.equal(byName.get('notes.md')!.status, 'added');

    const diff = await t.request(`/repos/${alice.login}/${repo}/pulls/1`, { token: alice.token, headers: { accept: 'application/vnd.service.v3.diff' } });
    assert.equal(diff.status, 200);
    assert.match(diff.headers.get('content-type') ?? '', /^application\/vnd\.service\.diff/);
    const diffText = await diff.text();
    assert.match(diffText, /^diff --git a\/app.txt b\/app.txt/m);
    assert.match(diffText, /^\+TWO$/m);
    assert.match(diffText, /^diff --git a\/notes.md b\/notes.md/m);
    assert.doesNotMatch(diffText, /feature.txt/, 'a three-dot diff: what the head changes against the merge base');

    const patch = await t.request(`/repos/${alice.login}/${repo}/pulls/1`, { token: alice.token, headers: { accept: 'application/vnd.github.patch' } });
    assert.equal(patch.status, 200);
    assert.match(patch.headers.get('content-type') ?? '', /^application\/vnd\.service\.patch/);
    const patchText = await patch.text();
    assert.match(patchText, new RegExp(`^From ${r.featureSha}`, 'm'));
    assert.match(patchText, /Subject: \[PATCH 1\/2\] Feature work/);
    assert.match(patchText, /Subject: \[PATCH 2\/2\] Second step/);
  });
});

describe('merging', () => {
  async function openPr(settings: Record<string, unknown> = {}) {
    const r = await repoWithFeature(t, alice, settings);
    // main moves on (a file the feature does not touch) so that a merge is a real merge.
    await checkout(r.clone, 'main');
    const mainSha = await commitFiles(r.clone, { 'other.txt': 'other\n' }, 'Main moves on');
    await push(r.clone, 'main');
    const pr = await t.octokit(alice.token).rest.pulls.create({ owner: alice.login, repo: r.clone.repo, title: 'Ship the feature', head: 'feature', base: 'main' });
    return { ...r, mainSha, pr: pr.data };
  }

  test('merge commit: two parents, the default message, merged record, push and closed events', async () => {
    const r = await openPr();
    const kit = t.octokit(alice.token);
    const res = await kit.rest.pulls.merge({ owner: alice.login, repo: r.clone.repo, pull_number: 1, sha: r.featureSha });
    assertMatchesOpenApi('PUT', '/repos/{owner}/{repo}/pulls/{pull_number}/merge', 200, res.data);
    assert.equal(res.data.merged, true);
    assert.equal(res.data.message, 'Pull Request successfully merged');
    assert.equal(await revParse(r.clone, 'origin/main').catch(() => ''), r.mainSha, 'not fetched yet');
    const [parents] = await log(r.clone, 'origin/main', '%P');
    assert.equal(parents, `${r.mainSha} ${r.featureSha}`);
    const [subject] = await log(r.clone, 'origin/main', '%s');
    assert.equal(subject, `Merge pull request #1 from ${alice.login}/feature`);
    const [bodyText] = await log(r.clone, 'origin/main^!', '%b');
    assert.equal(bodyText, 'Ship the feature');
    assert.equal(await revParse(r.clone, 'origin/main'), res.data.sha);

    const pr = await kit.rest.pulls.get({ owner: alice.login, repo: r.clone.repo, pull_number: 1 });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/pulls/{pull_number}', 200, pr.data);
    assert.equal(pr.data.merged, true);
    assert.equal(pr.data.state, 'closed');
    assert.equal(pr.data.merged_by?.login, alice.login);
    assert.equal(pr.data.merge_commit_sha, res.data.sha);
    assert.ok(pr.data.merged_at);
    assert.equal(pr.data.mergeable, null);
    assert.equal(pr.data.commits, 1, 'what was merged stays listed');
    const check = await kit.rest.pulls.checkIfMerged({ owner: alice.login, repo: r.clone.repo, pull_number: 1 });
    assert.equal(check.status, 204);
    const issue = await kit.rest.issues.get({ owner: alice.login, repo: r.clone.repo, issue_number: 1 });
    assert.equal(issue.data.state, 'closed');
    assert.equal(issue.data.pull_request?.merged_at, pr.data.merged_at);

    const closed = (await events(r.id)).filter((e) => e.action === 'closed');
    assert.equal(closed.length, 1);
    assert.equal((closed[0]!.payload as Json).pull_request.merged, true);
    const pushes = await events(r.id, 'push');
    const last = pushes[pushes.length - 1]!.payload as Json;
    assert.equal(last.ref, 'refs/heads/main');
    assert.equal(last.after, res.data.sha);

    // Merging again is refused.
    const again = await failsWith(kit.rest.pulls.merge({ owner: alice.login, repo: r.clone.repo, pull_number: 1 }), 405);
    assert.equal(again.message, 'Pull Request is not mergeable');
    // A merged pull request stays closed.
    const reopen = await failsWith(kit.rest.pulls.update({ owner: alice.login, repo: r.clone.repo, pull_number: 1, state: 'open' }), 422);
    assert.equal(reopen.errors?.[0]?.field, 'state');
  });

  test('squash: one commit with the base as only parent, authored by the pull request author', async () => {
    const r = await openPr();
    const res = await t.octokit(alice.token).rest.pulls.merge({ owner: alice.login, repo: r.clone.repo, pull_number: 1, merge_method: 'squash', commit_title: 'Squashed!' });
    const [line] = await log(r.clone, 'origin/main', '%P|%s|%an');
    const [parents, subject] = line!.split('|');
    assert.equal(parents, r.mainSha);
    assert.equal(subject, 'Squashed!');
    assert.equal(await revParse(r.clone, 'origin/main'), res.data.sha);
    const tree = await gitOk(['ls-tree', '--name-only', 'origin/main'], { cwd: r.clone.dir });
    assert.deepEqual(tree.split('\n').filter(Boolean).sort(), ['README.md', 'app.txt', 'feature.txt', 'other.txt']);
    const app = await gitOk(['show', 'origin/main:app.txt'], { cwd: r.clone.dir });
    assert.equal(app, 'one\nTWO\nthree\n');
  });

  test('rebase: the commits replayed on the base, authors and messages kept, new shas', async () => {
    const r = await openPr();
    const res = await t.octokit(alice.token).rest.pulls.merge({ owner: alice.login, repo: r.clone.repo, pull_number: 1, merge_method: 'rebase' });
    const lines = await log(r.clone, 'origin/main', '%H|%P|%s|%an');
    const [head, second] = lines;
    const [sha, parent, subject, author] = head!.split('|');
    assert.equal(sha, res.data.sha);
    assert.equal(parent, r.mainSha, 'replayed onto the base');
    assert.equal(subject, 'Feature work');
    assert.equal(author, 'Test Author');
    assert.notEqual(sha, r.featureSha);
    assert.equal(second!.split('|')[0], r.mainSha);
    const pr = await t.octokit(alice.token).rest.pulls.get({ owner: alice.login, repo: r.clone.repo, pull_number: 1 });
    assert.equal(pr.data.merge_commit_sha, res.data.sha);
  });

  test('allow_* settings (405 with upstream\'s words), a stale sha (409), conflicts (405), no rights (403)', async () => {
    const r = await openPr({});
    const kit = t.octokit(alice.token);
    const repo = r.clone.repo;
    await kit.rest.repos.update({ owner: alice.login, repo, allow_merge_commit: false, allow_squash_merge: false, allow_rebase_merge: true });
    let body = await failsWith(kit.rest.pulls.merge({ owner: alice.login, repo, pull_number: 1 }), 405);
    assert.equal(body.message, 'Merge commits are not allowed on this repository.');
    body = await failsWith(kit.rest.pulls.merge({ owner: alice.login, repo, pull_number: 1, merge_method: 'squash' }), 405);
    assert.equal(body.message, 'Squash merges are not allowed on this repository.');
    await kit.rest.repos.update({ owner: alice.login, repo, allow_merge_commit: true, allow_rebase_merge: false });
    body = await failsWith(kit.rest.pulls.merge({ owner: alice.login, repo, pull_number: 1, merge_method: 'rebase' }), 405);
    assert.equal(body.message, 'Rebase merges are not allowed on this repository.');
    body = await failsWith(kit.rest.pulls.merge({ owner: alice.login, repo, pull_number: 1, sha: r.mainSha }), 409);
    assert.equal(body.message, 'Head branch was modified. Review and try the merge again.');
    await failsWith(t.octokit(bob.token).rest.pulls.merge({ owner: alice.login, repo, pull_number: 1 }), 403);

    // A conflicting change on main: mergeable false, dirty, 405 on merge; main unchanged.
    await checkout(r.clone, 'main');
    const conflictSha = await commitFiles(r.clone, { 'app.txt': 'one\nzwei\nthree\n' }, 'Conflicting change');
    await push(r.clone, 'main');
    const pr = await kit.rest.pulls.get({ owner: alice.login, repo, pull_number: 1 });
    assert.equal(pr.data.mergeable, false);
    assert.equal(pr.data.mergeable_state, 'dirty');
    assert.equal(pr.data.rebaseable, false);
    assert.equal(pr.data.base.sha, conflictSha);
    body = await failsWith(kit.rest.pulls.merge({ owner: alice.login, repo, pull_number: 1 }), 405);
    assert.equal(body.message, 'Pull Request is not mergeable');
    assert.equal(await revParse(r.clone, 'origin/main'), conflictSha);
    await failsWith(kit.rest.pulls.checkIfMerged({ owner: alice.login, repo, pull_number: 1 }), 404);
  });

  test('delete_branch_on_merge deletes the head branch of the same repository', async () => {
    const r = await openPr({ delete_branch_on_merge: true });
    await t.octokit(alice.token).rest.pulls.merge({ owner: alice.login, repo: r.clone.repo, pull_number: 1 });
    const refs = await gitOk(['ls-remote', '--heads', `${t.baseUrl}/${alice.login}/${r.clone.repo}.git`]);
    assert.doesNotMatch(refs, /refs\/heads\/feature/);
    assert.match(refs, /refs\/heads\/main/);
    const deletes = await events(r.id, 'delete');
    assert.equal((deletes[deletes.length - 1]!.payload as Json).ref, 'feature');
  });
});

describe('pushes and update-branch', () => {
  test('a push to the head records synchronize and moves head.sha; a push to the base changes mergeability', async () => {
    const r = await repoWithFeature(t, alice);
    const kit = t.octokit(alice.token);
    const repo = r.clone.repo;
    await kit.rest.pulls.create({ owner: alice.login, repo, title: 'Moving', head: 'feature', base: 'main' });
    await checkout(r.clone, 'feature');
    const next = await commitFiles(r.clone, { 'more.txt': 'more\n' }, 'More work');
    await push(r.clone, 'feature');
    const pr = await kit.rest.pulls.get({ owner: alice.login, repo, pull_number: 1 });
    assert.equal(pr.data.head.sha, next);
    assert.equal(pr.data.commits, 2);
    const sync = (await events(r.id)).filter((e) => e.action === 'synchronize');
    assert.equal(sync.length, 1);
    assert.equal((sync[0]!.payload as Json).before, r.featureSha);
    assert.equal((sync[0]!.payload as Json).after, next);
    assert.equal((sync[0]!.payload as Json).pull_request.head.sha, next);
    const refs = await gitOk(['ls-remote', `${t.baseUrl}/${alice.login}/${repo}.git`, 'refs/pull/1/head']);
    assert.match(refs, new RegExp(`^${next}`));

    await checkout(r.clone, 'main');
    await commitFiles(r.clone, { 'more.txt': 'clash\n' }, 'Clash');
    await push(r.clone, 'main');
    const after = await kit.rest.pulls.get({ owner: alice.login, repo, pull_number: 1 });
    assert.equal(after.data.mergeable, false);
  });

  test('a push to a fork\'s head branch moves the pull request too', async () => {
    const r = await repoWithFeature(t, alice);
    const fork = await t.octokit(bob.token).rest.repos.createFork({ owner: alice.login, repo: r.clone.repo });
    const clone = await cloneAs(t, bob.login, fork.data.name, bob);
    await checkout(clone, 'fix', true);
    await commitFiles(clone, { 'fix.txt': 'fixed\n' }, 'Fix it');
    await push(clone, 'fix');
    await t.octokit(bob.token).rest.pulls.create({ owner: alice.login, repo: r.clone.repo, title: 'Fix', head: `${bob.login}:fix`, base: 'main' });
    const next = await commitFiles(clone, { 'fix.txt': 'fixed again\n' }, 'Fix again');
    await push(clone, 'fix');
    const pr = await t.octokit(alice.token).rest.pulls.get({ owner: alice.login, repo: r.clone.repo, pull_number: 1 });
    assert.equal(pr.data.head.sha, next);
    assert.equal(pr.data.commits, 2);
    assert.equal((await events(r.id)).filter((e) => e.action === 'synchronize').length, 1);
  });

  test('update-branch merges the base into the head: 202, the head moves, synchronize', async () => {
    const r = await repoWithFeature(t, alice);
    const kit = t.octokit(alice.token);
    const repo = r.clone.repo;
    await kit.rest.pulls.create({ owner: alice.login, repo, title: 'Behind', head: 'feature', base: 'main' });
    let body = await failsWith(kit.rest.pulls.updateBranch({ owner: alice.login, repo, pull_number: 1 }), 422);
    assert.equal(body.message, 'There are no new commits on the base branch.');
    await checkout(r.clone, 'main');
    const mainSha = await commitFiles(r.clone, { 'base.txt': 'base\n' }, 'Base moves');
    await push(r.clone, 'main');
    body = await failsWith(kit.rest.pulls.updateBranch({ owner: alice.login, repo, pull_number: 1, expected_head_sha: mainSha }), 422);
    assert.match(body.message, /expected head sha didn.t match current head ref/);
    await failsWith(t.octokit(bob.token).rest.pulls.updateBranch({ owner: alice.login, repo, pull_number: 1 }), 403);
    const res = await kit.rest.pulls.updateBranch({ owner: alice.login, repo, pull_number: 1, expected_head_sha: r.featureSha });
    assert.equal(res.status, 202);
    assertMatchesOpenApi('PUT', '/repos/{owner}/{repo}/pulls/{pull_number}/update-branch', 202, res.data);
    assert.equal(res.data.message, 'Updating pull request branch.');
    const [parents] = await log(r.clone, 'origin/feature', '%P');
    assert.equal(parents, `${r.featureSha} ${mainSha}`);
    const [subject] = await log(r.clone, 'origin/feature', '%s');
    assert.equal(subject, 'Merge branch \'main\' into feature');
    const pr = await kit.rest.pulls.get({ owner: alice.login, repo, pull_number: 1 });
    assert.equal(pr.data.head.sha, await revParse(r.clone, 'origin/feature'));
    assert.equal((await events(r.id)).filter((e) => e.action === 'synchronize').length, 1);
  });
});

describe('unknown names', () => {
  test('a number that is an issue is not a pull request', async () => {
    const name = uniqueName();
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name, auto_init: true });
    await t.octokit(alice.token).rest.issues.create({ owner: alice.login, repo: name, title: 'just an issue' });
    await failsWith(t.octokit(alice.token).rest.pulls.get({ owner: alice.login, repo: name, pull_number: 1 }), 404);
    await failsWith(t.octokit(alice.token).rest.pulls.listFiles({ owner: alice.login, repo: name, pull_number: 1 }), 404);
  });
});
