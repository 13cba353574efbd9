// A repository's languages, computed from the blobs of its default branch (vendored,
// documentation and unknown paths not counted), through REST /languages, GraphQL
// `languages` and `primaryLanguage` (gh repo view --json languages's document), and
// the record's `language`; and gh repo list's document (test/fixtures/gh-2.23) with
// its filters (isFork, privacy, ownerAffiliations, orderBy) and upstream's others
// (isArchived, hasIssuesEnabled, isLocked).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { gql } from './helpers/graphql.ts';
import { createOrg, createUser, type CreatedUser } from './factories/accounts.ts';
import { gitOk, tempDir, cloneUrl } from './helpers/git.ts';

type Json = Record<string, any>;
const fixture = (name: string) => fs.readFileSync(new URL(`./fixtures/gh-2.23/${name}.graphql`, import.meta.url), 'utf8');

let t: TestServer;
let alice: CreatedUser;
let bob: CreatedUser;

before(async () => {
  t = await startTestServer();
  alice = await createUser(t, ['repo', 'user', 'admin:org', 'delete_repo']);
  bob = await createUser(t, ['repo', 'user']);
});
after(() => t.close());

/** Commits `files` (path → content) to the default branch of alice's `repo` over git. */
async function push(repo: string, files: Record<string, string | Buffer>, branch?: string): Promise<void> {
  const work = tempDir();
  try {
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, alice.login, repo, alice.login, alice.token), work]);
    if (branch) await gitOk(['checkout', '-q', '-b', branch], { cwd: work });
    for (const [p, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(work, p)), { recursive: true });
      fs.writeFileSync(path.join(work, p), content);
    }
    await gitOk(['add', '-A'], { cwd: work });
    await gitOk(['commit', '-q', '-m', 'files'], { cwd: work });
    await gitOk(['push', '-q', 'origin', 'HEAD'], { cwd: work });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

describe('languages', () => {
  test('bytes per language of the default branch; vendored, docs, binary and prose not counted', async () => {
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'polyglot', auto_init: true, private: true });
    const languages = (owner = alice.login, token = alice.token) => t.request(`/repos/${owner}/polyglot/languages`, { token });
    assert.deepEqual(await (await languages()).json(), {}, 'a README alone is no language');
    assert.equal((await t.octokit(alice.token).rest.repos.get({ owner: alice.login, repo: 'polyglot' })).data.language, null);

    await push('polyglot', {
      'src/a.ts': 'x'.repeat(300), 'src/b.tsx': 'y'.repeat(200), 'lib/c.js': 'z'.repeat(120), 'Makefile': 'all:\n',
      'node_modules/dep/index.js': 'v'.repeat(5000), 'vendor/lib.go': 'v'.repeat(5000), 'docs/conf.py': 'd'.repeat(5000),
      'dist/app.min.js': 'm'.repeat(5000), 'logo.png': Buffer.alloc(4000, 1), 'data.json': '{}'.padEnd(4000), 'NOTES.md': 'n'.repeat(4000),
    });
    const res = await languages();
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.deepEqual(body, { TypeScript: 500, JavaScript: 120, Makefile: 5 });
    assert.deepEqual(Object.keys(body), ['TypeScript', 'JavaScript', 'Makefile'], 'largest first');

    // The record's language is the largest one, in REST and GraphQL alike.
    assert.equal((await t.octokit(alice.token).rest.repos.get({ owner: alice.login, repo: 'polyglot' })).data.language, 'TypeScript');
    const data = await gql(t, alice.token)<Json>(fixture('repo-view-languages'), { owner: alice.login, name: 'polyglot' });
    assert.deepEqual(data.repository.languages.edges, [
      { size: 500, node: { name: 'TypeScript' } }, { size: 120, node: { name: 'JavaScript' } }, { size: 5, node: { name: 'Makefile' } },
    ]);
    assert.deepEqual(data.repository.primaryLanguage, { name: 'TypeScript' });
    const more = await gql(t, alice.token)<Json>(`query($o: String!) { repository(owner: $o, name: "polyglot") {
      languages(first: 2, orderBy: { field: SIZE, direction: ASC }) { totalCount totalSize nodes { name color } pageInfo { hasNextPage } } } }`, { o: alice.login });
    assert.deepEqual(more.repository.languages, {
      totalCount: 3, totalSize: 625, nodes: [{ name: 'Makefile', color: '#427819' }, { name: 'JavaScript', color: '#f1e05a' }], pageInfo: { hasNextPage: true },
    });

    // Another branch changes nothing; a push to the default branch changes the answer.
    await push('polyglot', { 'big.py': 'p'.repeat(9000) }, 'topic');
    assert.deepEqual(Object.keys(await (await languages()).json()), ['TypeScript', 'JavaScript', 'Makefile']);
    await push('polyglot', { 'tool.py': 'p'.repeat(1000) });
    assert.deepEqual(await (await languages()).json(), { Python: 1000, TypeScript: 500, JavaScript: 120, Makefile: 5 });
    assert.equal((await t.octokit(alice.token).rest.repos.get({ owner: alice.login, repo: 'polyglot' })).data.language, 'Python');

    // A private repository's languages are as hidden as the repository.
    assert.equal((await languages(alice.login, bob.token)).status, 404);
    assert.equal((await t.request(`/repos/${alice.login}/nothing-here/languages`, { token: alice.token })).status, 404);
  });
});

describe('gh repo list', () => {
  test('isFork, privacy, ownerAffiliations OWNER and orderBy PUSHED_AT as gh sends them, with real filtering', async () => {
    const owner = await createUser(t, ['repo', 'user', 'delete_repo']);
    const ok = t.octokit(owner.token);
    await ok.rest.repos.createForAuthenticatedUser({ name: 'source-public', auto_init: true });
    await ok.rest.repos.createForAuthenticatedUser({ name: 'source-private', auto_init: true, private: true });
    await t.octokit(bob.token).rest.repos.createForAuthenticatedUser({ name: 'upstream', auto_init: true });
    await ok.rest.repos.createFork({ owner: bob.login, repo: 'upstream' });
    await ok.rest.repos.createForAuthenticatedUser({ name: 'old-stuff', auto_init: true });
    await ok.rest.repos.update({ owner: owner.login, repo: 'old-stuff', archived: true });
    // A repository owner collaborates on is not listed with ownerAffiliations: OWNER.
    await t.octokit(bob.token).rest.repos.createForAuthenticatedUser({ name: 'shared', auto_init: true });
    await t.octokit(bob.token).rest.repos.addCollaborator({ owner: bob.login, repo: 'shared', username: owner.login });

    const list = async (variables: Json, token = owner.token) => {
      const data = await gql(t, token)<Json>(fixture('repo-list'), { perPage: 30, owner: owner.login, ...variables });
      return data.repositoryOwner.repositories;
    };
    const names = (r: Json) => r.nodes.map((n: Json) => n.nameWithOwner.split('/')[1]).sort();
    const all = await list({});
    assert.deepEqual(names(all), ['old-stuff', 'source-private', 'source-public', 'upstream']);
    assert.equal(all.totalCount, 4);
    assert.deepEqual(names(await list({ fork: true })), ['upstream']);
    assert.equal((await list({ fork: true })).nodes[0].isFork, true);
    assert.deepEqual(names(await list({ fork: false })), ['old-stuff', 'source-private', 'source-public']);
    assert.deepEqual(names(await list({ privacy: 'PRIVATE' })), ['source-private']);
    assert.deepEqual(names(await list({ privacy: 'PUBLIC', fork: false })), ['old-stuff', 'source-public']);
    assert.deepEqual(names(await list({}, bob.token)), ['old-stuff', 'source-public', 'upstream'], 'another user sees no private repository');
    // Paged as gh pages: perPage 2, then endCursor.
    const first = await list({ perPage: 2 });
    assert.equal(first.pageInfo.hasNextPage, true);
    const second = await list({ perPage: 2, endCursor: first.pageInfo.endCursor });
    assert.deepEqual([...names(first), ...names(second)].sort(), names(all));

    const traits = async (args: string, login = owner.login) => {
      const data = await gql(t, owner.token)<Json>(`query($l: String!) { repositoryOwner(login: $l) { repositories(first: 50, ${args}) { totalCount nodes { name } } } }`, { l: login });
      return data.repositoryOwner.repositories.nodes.map((n: Json) => n.name).sort();
    };
    assert.deepEqual(await traits('isArchived: true, ownerAffiliations: OWNER'), ['old-stuff']);
    assert.deepEqual(await traits('isArchived: false, isFork: false, ownerAffiliations: OWNER'), ['source-private', 'source-public']);
    assert.deepEqual(await traits('isLocked: true'), []);
    assert.deepEqual(await traits('isLocked: false, ownerAffiliations: OWNER'), names(all));
    await ok.rest.repos.update({ owner: owner.login, repo: 'source-public', has_issues: false });
    assert.deepEqual(await traits('hasIssuesEnabled: false, isFork: false, ownerAffiliations: OWNER'), ['source-public']);
    assert.deepEqual(await traits('hasIssuesEnabled: true, ownerAffiliations: OWNER'), ['old-stuff', 'source-private']);
    // An organization's repositories take the same arguments.
    const org = await createOrg(t, owner.login);
    await ok.rest.repos.createInOrg({ org: org.login, name: 'org-source', auto_init: true });
    await ok.rest.repos.createFork({ owner: bob.login, repo: 'upstream', organization: org.login });
    assert.deepEqual(await traits('isFork: true', org.login), ['upstream']);
    assert.deepEqual(await traits('isFork: false', org.login), ['org-source']);
  });
});
