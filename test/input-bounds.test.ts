// Regression tests for findings 7 and 8 of the reliability and security probe (issue #11):
// git failures caused by the input answer 4xx and git is never fed unbounded names (7);
// texts are bounded as upstream bounds them, answered with the spec's 422 and nothing
// written (8). They run on SQLite and on PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createIssue, createRepo, type CreatedRepo } from './factories/issues.ts';
import { createOrgWithOwner, createTeam, type CreatedOrg } from './factories/orgs.ts';
import { repoWithFeature, uniqueName } from './factories/pulls.ts';
import { postGraphQL } from './helpers/graphql.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';

let t: TestServer;
let alice: CreatedUser;
let repo: CreatedRepo;

before(async () => {
  t = await startTestServer();
  alice = await createUser(t);
  repo = await createRepo(t, alice);
});
after(async () => { await t.close(); });

interface Answer {
  status: number;
  headers: Headers;
  body: { message?: string; errors?: { resource: string; field: string; code: string; message?: string }[] } & Record<string, unknown>;
}

async function send(method: string, path: string, json?: unknown, token = alice.token, accept?: string): Promise<Answer> {
  const res = await t.request(path, { method, token, ...(accept ? { headers: { accept } } : {}), ...(json === undefined ? {} : { json }) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) as Answer['body'] : {} };
}

/** The spec's 422: Validation Failed with an `invalid` error on `field`, and no huge value echoed. */
function assertInvalid(a: Answer, field: string): void {
  assert.equal(a.status, 422, JSON.stringify(a.body).slice(0, 300));
  assert.ok(a.body.errors?.some((e) => e.field === field && e.code === 'invalid'), JSON.stringify(a.body).slice(0, 300));
  assert.ok(JSON.stringify(a.body).length < 2000, 'the error does not echo the value');
  assert.equal(a.headers.get('location'), null);
}

const base = () => `/repos/${repo.owner}/${repo.repo}`;

describe('finding 8: no length limits on text', () => {
  test('label name is at most 50 characters, description 100; a 100,000-character name writes nothing', async () => {
    const before = (await send('GET', `${base()}/labels?per_page=100`)).body as unknown as { name: string }[];
    assertInvalid(await send('POST', `${base()}/labels`, { name: 'n'.repeat(51), color: 'ffffff' }), 'name');
    assertInvalid(await send('POST', `${base()}/labels`, { name: 'x'.repeat(100_000), color: 'ffffff' }), 'name');
    assertInvalid(await send('POST', `${base()}/labels`, { name: 'fine', description: 'd'.repeat(101) }), 'description');
    // Adding a label by name to an issue would create it: the same bound holds.
    const issue = await createIssue(t, alice.token, repo);
    assert.equal((await send('POST', `${base()}/issues/${issue.number}/labels`, { labels: ['l'.repeat(51)] })).status, 422);
    const after = (await send('GET', `${base()}/labels?per_page=100`)).body as unknown as { name: string }[];
    assert.deepEqual(after.map((l) => l.name), before.map((l) => l.name));
    // At the bound, it is taken.
    const ok = await send('POST', `${base()}/labels`, { name: 'n'.repeat(50), color: 'ffffff', description: 'd'.repeat(100) });
    assert.equal(ok.status, 201);
  });

  test('issue title is at most 256 characters, body 65,536; nothing is written, by REST or GraphQL', async () => {
    const count = async () => ((await send('GET', `${base()}/issues?state=all&per_page=100`)).body as unknown as unknown[]).length;
    const n = await count();
    assertInvalid(await send('POST', `${base()}/issues`, { title: 't'.repeat(257) }), 'title');
    assertInvalid(await send('POST', `${base()}/issues`, { title: 't'.repeat(10 * 1024 * 1024 / 16) }), 'title');
    assertInvalid(await send('POST', `${base()}/issues`, { title: 'ok', body: 'b'.repeat(65_537) }), 'body');
    const issue = await createIssue(t, alice.token, repo, { title: 't'.repeat(256), body: 'b'.repeat(65_536) });
    assertInvalid(await send('PATCH', `${base()}/issues/${issue.number}`, { title: 'u'.repeat(257) }), 'title');
    assertInvalid(await send('PATCH', `${base()}/issues/${issue.number}`, { body: 'u'.repeat(65_537) }), 'body');
    const { data: node } = await t.octokit(alice.token).rest.repos.get({ owner: repo.owner, repo: repo.repo });
    const gql = await postGraphQL(t, alice.token, {
      query: 'mutation($r: ID!, $t: String!) { createIssue(input: { repositoryId: $r, title: $t }) { issue { number } } }',
      variables: { r: node.node_id, t: 'g'.repeat(257) },
    });
    assert.ok(gql.body.errors?.length, 'GraphQL refuses the title too');
    assert.equal(await count(), n + 1);
    const fresh = (await send('GET', `${base()}/issues/${issue.number}`)).body;
    assert.equal(fresh.title, 't'.repeat(256));
  });

  test('comment bodies are at most 65,536 characters, by REST and GraphQL', async () => {
    const issue = await createIssue(t, alice.token, repo);
    assertInvalid(await send('POST', `${base()}/issues/${issue.number}/comments`, { body: 'c'.repeat(65_537) }), 'body');
    const made = await send('POST', `${base()}/issues/${issue.number}/comments`, { body: 'short' });
    assert.equal(made.status, 201);
    assertInvalid(await send('PATCH', `${base()}/issues/comments/${made.body.id as number}`, { body: 'c'.repeat(65_537) }), 'body');
    const gql = await postGraphQL(t, alice.token, {
      query: 'mutation($s: ID!, $b: String!) { addComment(input: { subjectId: $s, body: $b }) { clientMutationId } }',
      variables: { s: issue.node_id, b: 'c'.repeat(65_537) },
    });
    assert.ok(gql.body.errors?.length);
    const list = (await send('GET', `${base()}/issues/${issue.number}/comments`)).body as unknown as { body: string }[];
    assert.deepEqual(list.map((c) => c.body), ['short']);
  });

  test('milestone title is at most 255 characters; repository description 350, by REST and GraphQL', async () => {
    assertInvalid(await send('POST', `${base()}/milestones`, { title: 'm'.repeat(256) }), 'title');
    assert.deepEqual((await send('GET', `${base()}/milestones?state=all`)).body, []);
    const name = uniqueName('bounded');
    assertInvalid(await send('POST', '/user/repos', { name, description: 'd'.repeat(351) }), 'description');
    const gql = await postGraphQL(t, alice.token, {
      query: 'mutation($n: String!, $d: String!) { createRepository(input: { name: $n, visibility: PUBLIC, description: $d }) { repository { name } } }',
      variables: { n: name, d: 'd'.repeat(351) },
    });
    assert.ok(gql.body.errors?.length);
    assert.equal((await send('GET', `/repos/${alice.login}/${name}`)).status, 404);
    assertInvalid(await send('PATCH', base(), { description: 'd'.repeat(351) }), 'description');
  });

  test('pull request title, body and review texts are bounded, and nothing is written', async () => {
    const { clone } = await repoWithFeature(t, alice);
    const at = `/repos/${clone.owner}/${clone.repo}`;
    assertInvalid(await send('POST', `${at}/pulls`, { title: 'p'.repeat(257), head: 'feature', base: 'main' }), 'title');
    assertInvalid(await send('POST', `${at}/pulls`, { title: 'ok', body: 'b'.repeat(65_537), head: 'feature', base: 'main' }), 'body');
    assert.deepEqual((await send('GET', `${at}/pulls?state=all`)).body, []);
    const pull = await send('POST', `${at}/pulls`, { title: 'ok', head: 'feature', base: 'main' });
    assert.equal(pull.status, 201);
    assertInvalid(await send('PATCH', `${at}/pulls/1`, { title: 'p'.repeat(257) }), 'title');
    assertInvalid(await send('POST', `${at}/pulls/1/reviews`, { body: 'r'.repeat(65_537), event: 'COMMENT' }), 'body');
    assert.deepEqual((await send('GET', `${at}/pulls/1/reviews`)).body, []);
    assert.equal((await send('GET', `${at}/pulls/1`)).body.title, 'ok');
  });

  test('team name, description and discussion texts are bounded', async () => {
    const org: CreatedOrg = await createOrgWithOwner(t, ['admin:org', 'write:discussion']);
    const owner = org.owner.token;
    assert.equal((await send('POST', `/orgs/${org.login}/teams`, { name: 'n'.repeat(256) }, owner)).status, 422);
    assertInvalid(await send('POST', `/orgs/${org.login}/teams`, { name: 'described', description: 'd'.repeat(1025) }, owner), 'description');
    assert.deepEqual((await send('GET', `/orgs/${org.login}/teams`, undefined, owner)).body, []);
    const team = await createTeam(t, owner, org.login);
    const discussions = `/orgs/${org.login}/teams/${team.slug}/discussions`;
    // Team discussions answer only under their preview media type.
    const preview = 'application/vnd.github.squirrel-girl-preview+json';
    assertInvalid(await send('POST', discussions, { title: 't'.repeat(257), body: 'b' }, owner, preview), 'title');
    assertInvalid(await send('POST', discussions, { title: 't', body: 'b'.repeat(65_537) }, owner, preview), 'body');
    assert.deepEqual((await send('GET', discussions, undefined, owner, preview)).body, []);
  });

  test('deployment environment, task and description are bounded', async () => {
    const deployments = `${base()}/deployments`;
    assertInvalid(await send('POST', deployments, { ref: 'main', environment: 'e'.repeat(256) }), 'environment');
    assertInvalid(await send('POST', deployments, { ref: 'main', task: 't'.repeat(256) }), 'task');
    assertInvalid(await send('POST', deployments, { ref: 'main', description: 'd'.repeat(1025) }), 'description');
    assert.deepEqual((await send('GET', deployments)).body, []);
  });

  test('commit status context and target_url are bounded', async () => {
    const { data: branch } = await t.octokit(alice.token).rest.repos.getBranch({ owner: repo.owner, repo: repo.repo, branch: 'main' });
    const statuses = `${base()}/statuses/${branch.commit.sha}`;
    assertInvalid(await send('POST', statuses, { state: 'success', context: 'c'.repeat(256) }), 'context');
    assertInvalid(await send('POST', statuses, { state: 'success', target_url: `https://example.com/${'u'.repeat(2048)}` }), 'target_url');
    assert.deepEqual((await send('GET', `${base()}/commits/${branch.commit.sha}/statuses`)).body, []);
  });
});

describe('finding 8: webhook configuration texts', () => {
  test('a hook url is at most 2,048 characters and its secret 255; nothing is written', async () => {
    const hooks = async () => ((await send('GET', `${base()}/hooks`)).body as unknown as unknown[]).length;
    const n = await hooks();
    assertInvalid(await send('POST', `${base()}/hooks`, { config: { url: `https://example.com/${'p'.repeat(2100)}` } }), 'url');
    assertInvalid(await send('POST', `${base()}/hooks`, { config: { url: 'https://example.com/hook', secret: 's'.repeat(256) } }), 'secret');
    assert.equal(await hooks(), n);
    const ok = await send('POST', `${base()}/hooks`, { config: { url: `https://example.com/${'p'.repeat(2000)}`, secret: 's'.repeat(255) } });
    assert.equal(ok.status, 201);
  });
});

describe('finding 7: git errors surface as 500', () => {
  test('a tree of no entries is the empty tree, as git mktree makes it', async () => {
    const res = await send('POST', `${base()}/git/trees`, { tree: [] });
    assert.equal(res.status, 201);
    assert.equal(res.body.sha, '4b825dc642cb6eb9a060e54bf8d69288fbee4904');
    assert.deepEqual(res.body.tree, []);
  });

  test('a pull request with a 100,000-character base or head is a 422', async () => {
    const { clone } = await repoWithFeature(t, alice);
    const at = `/repos/${clone.owner}/${clone.repo}`;
    assertInvalid(await send('POST', `${at}/pulls`, { title: 'x', head: 'feature', base: 'b'.repeat(100_000) }), 'base');
    assertInvalid(await send('POST', `${at}/pulls`, { title: 'x', head: 'h'.repeat(100_000), base: 'main' }), 'head');
    const pull = await send('POST', `${at}/pulls`, { title: 'x', head: 'feature', base: 'main' });
    assert.equal(pull.status, 201);
    assert.equal((await send('PATCH', `${at}/pulls/${pull.body.number as number}`, { base: 'b'.repeat(100_000) })).status, 422);
    assert.equal((await send('GET', `${at}/pulls/${pull.body.number as number}`)).body.state, 'open');
  });

  test('ref names breaking check-ref-format are a 422 on the refs, pulls and contents APIs', async () => {
    const { clone, mainSha } = await repoWithFeature(t, alice);
    const at = `/repos/${clone.owner}/${clone.repo}`;
    const bad = ['a..b', 'a.lock', '-x', 'a@{b', 'a\u0001b', 'a//b', 'a b', 'x/', '.hidden', 'a~1', 'a:b', 'c'.repeat(300)];
    for (const name of bad) {
      const ref = await send('POST', `${at}/git/refs`, { ref: `refs/heads/${name}`, sha: mainSha });
      assert.equal(ref.status, 422, `refs API: ${JSON.stringify(name)}`);
      const pullBase = await send('POST', `${at}/pulls`, { title: 'x', head: 'feature', base: name });
      assert.equal(pullBase.status, 422, `pulls base: ${JSON.stringify(name)}`);
      const pullHead = await send('POST', `${at}/pulls`, { title: 'x', head: name, base: 'main' });
      assert.equal(pullHead.status, 422, `pulls head: ${JSON.stringify(name)}`);
      const put = await send('PUT', `${at}/contents/new.txt`, { message: 'm', content: Buffer.from('x').toString('base64'), branch: name });
      assert.equal(put.status, 422, `contents branch: ${JSON.stringify(name)}`);
    }
    const refs = (await send('GET', `${at}/git/matching-refs/heads`)).body as unknown as { ref: string }[];
    assert.deepEqual(refs.map((r) => r.ref).sort(), ['refs/heads/feature', 'refs/heads/main']);
    assert.deepEqual((await send('GET', `${at}/pulls?state=all`)).body, []);
    assertInvalid(await send('PATCH', at, { default_branch: 'b'.repeat(100_000) }), 'default_branch');
    assertInvalid(await send('PATCH', at, { default_branch: 'a..b' }), 'default_branch');
    assert.equal((await send('GET', at)).body.default_branch, 'main');
  });

  test('a tree path beyond 4096 bytes is a 422', async () => {
    const res = await send('POST', `${base()}/git/trees`, { tree: [{ path: `${'d/'.repeat(2100)}f`, mode: '100644', type: 'blob', content: 'x' }] });
    assertInvalid(res, 'tree[0].path');
  });
});
