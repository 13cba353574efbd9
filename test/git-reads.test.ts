// Hot reads answer from the repository's long-running cat-file reader and from what
// is known about commits by id, without starting git processes (each costs Wharf
// milliseconds of its own thread): a file, a directory, a pull request and a page of
// history read a second time start none, and what they answer still follows pushes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { checkout, commitFiles, push, repoWithFeature } from './factories/pulls.ts';
import { gitProcessesStarted } from '../src/git/run.ts';
import { gql } from './helpers/graphql.ts';

let t: TestServer;
let alice: CreatedUser;

before(async () => {
  t = await startTestServer();
  alice = await createUser(t);
});
after(async () => { await t.close(); });

/** What `read` answers, and how many git processes it started. */
async function processesOf<T>(read: () => Promise<T>): Promise<{ value: T; started: number }> {
  // The search index worker reads pushes with git of its own: let it finish first.
  await t.server.searchIndex.idle();
  const before = gitProcessesStarted();
  const value = await read();
  return { value, started: gitProcessesStarted() - before };
}

describe('reads without git processes', () => {
  test('contents: a file, a directory, a nested path with spaces, a missing path', async () => {
    const r = await repoWithFeature(t, alice);
    await commitFiles(r.clone, { 'docs/a b/read me.md': '# hello\n', 'docs/z.txt': 'zz\n', 'tool.sh': '#!/bin/sh\n' }, 'docs');
    await push(r.clone, 'main');
    const kit = t.octokit(alice.token);
    const repo = { owner: alice.login, repo: r.clone.repo };
    await kit.rest.repos.getContent({ ...repo, path: 'app.txt' });

    const file = await processesOf(() => kit.rest.repos.getContent({ ...repo, path: 'docs/a b/read me.md' }));
    assert.equal(file.started, 0);
    const data = file.value.data as { type: string; path: string; size: number; content: string };
    assert.equal(data.type, 'file');
    assert.equal(data.path, 'docs/a b/read me.md');
    assert.equal(data.size, 8);
    assert.equal(Buffer.from(data.content, 'base64').toString(), '# hello\n');

    const dir = await processesOf(() => kit.rest.repos.getContent({ ...repo, path: 'docs' }));
    assert.equal(dir.started, 0);
    assert.deepEqual((dir.value.data as { path: string; type: string; size: number }[]).map((e) => [e.path, e.type, e.size]),
      [['docs/a b', 'dir', 0], ['docs/z.txt', 'file', 3]]);

    const root = await processesOf(() => kit.rest.repos.getContent({ ...repo, path: '' }));
    assert.equal(root.started, 0);
    assert.deepEqual((root.value.data as { name: string }[]).map((e) => e.name), ['README.md', 'app.txt', 'docs', 'tool.sh']);

    for (const path of ['docs/a b/nothing', 'app.txt/inside', 'docs/a b/read me.md/x']) {
      await assert.rejects(kit.rest.repos.getContent({ ...repo, path }), (err: { status: number }) => err.status === 404, path);
    }

    // A push is seen by the next read.
    await commitFiles(r.clone, { 'docs/z.txt': 'changed\n' }, 'change');
    await push(r.clone, 'main');
    const after = await kit.rest.repos.getContent({ ...repo, path: 'docs/z.txt' });
    assert.equal(Buffer.from((after.data as { content: string }).content, 'base64').toString(), 'changed\n');
  });

  test('a pull request read again starts no git process, and follows its base branch', async () => {
    const r = await repoWithFeature(t, alice);
    const kit = t.octokit(alice.token);
    const repo = { owner: alice.login, repo: r.clone.repo };
    const { data: pr } = await kit.rest.pulls.create({ ...repo, title: 'x', head: 'feature', base: 'main' });
    await kit.rest.pulls.get({ ...repo, pull_number: pr.number });
    const again = await processesOf(() => kit.rest.pulls.get({ ...repo, pull_number: pr.number }));
    assert.equal(again.started, 0);
    assert.equal(again.value.data.commits, 1);
    assert.equal(again.value.data.changed_files, 2);
    assert.equal(again.value.data.mergeable, true);

    // The base moves: the same figures are asked of new commits and are computed again.
    await checkout(r.clone, 'main');
    const newBase = await commitFiles(r.clone, { 'other.txt': 'o\n' }, 'base work');
    await push(r.clone, 'main');
    const moved = await kit.rest.pulls.get({ ...repo, pull_number: pr.number });
    assert.equal(moved.data.base.sha, newBase);
    assert.equal(moved.data.commits, 1);
    assert.equal(moved.data.changed_files, 2);
  });

  test('a page of history read again starts no git process; a push gives the next read the new commit', async () => {
    const r = await repoWithFeature(t, alice);
    const kit = t.octokit(alice.token);
    const repo = { owner: alice.login, repo: r.clone.repo };
    const first = await kit.rest.repos.listCommits({ ...repo, per_page: 1 });
    const again = await processesOf(() => kit.rest.repos.listCommits({ ...repo, per_page: 1 }));
    assert.equal(again.started, 0);
    assert.deepEqual(again.value.data.map((c) => c.sha), first.data.map((c) => c.sha));
    assert.equal(again.value.headers.link, first.headers.link);
    assert.match(first.headers.link ?? '', /page=2>; rel="last"/);

    const sha = await commitFiles(r.clone, { 'more.txt': 'more\n' }, 'more');
    await push(r.clone, 'main');
    const after = await kit.rest.repos.listCommits({ ...repo, per_page: 1 });
    assert.equal(after.data[0]!.sha, sha);
    assert.match(after.headers.link ?? '', /page=3>; rel="last"/);
  });

  test('GraphQL: history and the branch refs of pull requests read again start no git process', async () => {
    const r = await repoWithFeature(t, alice);
    const kit = t.octokit(alice.token);
    await kit.rest.pulls.create({ owner: alice.login, repo: r.clone.repo, title: 'x', head: 'feature', base: 'main' });
    const query = `query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) {
      defaultBranchRef { name target { ... on Commit { history(first: 10) { totalCount nodes { oid } } } } }
      ref(qualifiedName: "feature") { name prefix target { oid } }
      missing: ref(qualifiedName: "refs/heads/nothing") { name }
      pullRequests(first: 10) { nodes { headRefName headRef { name target { oid } } baseRef { name } baseRefOid } }
    } }`;
    const ask = () => gql(t, alice.token)<{ repository: any }>(query, { owner: alice.login, name: r.clone.repo });
    await ask();
    const again = await processesOf(ask);
    assert.equal(again.started, 0);
    const repo = again.value.repository;
    assert.equal(repo.defaultBranchRef.name, 'main');
    assert.equal(repo.defaultBranchRef.target.history.totalCount, 2);
    assert.equal(repo.defaultBranchRef.target.history.nodes[0].oid, r.mainSha);
    assert.deepEqual(repo.ref, { name: 'feature', prefix: 'refs/heads/', target: { oid: r.featureSha } });
    assert.equal(repo.missing, null);
    assert.deepEqual(repo.pullRequests.nodes, [{ headRefName: 'feature', headRef: { name: 'feature', target: { oid: r.featureSha } }, baseRef: { name: 'main' }, baseRefOid: r.mainSha }]);

    // The head branch deleted: its ref is gone at once.
    await kit.rest.git.deleteRef({ owner: alice.login, repo: r.clone.repo, ref: 'heads/feature' });
    const after = await ask();
    assert.equal(after.repository.ref, null);
    assert.equal(after.repository.pullRequests.nodes[0].headRef, null);
  });
});
