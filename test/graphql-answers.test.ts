// GraphQL query answers kept until the database or a ref changes (src/graphql/answers.ts):
// the same query from the same credential is sent again from memory, still charged to the
// caller's budget; a write or a push, another credential, a mutation, an answer with
// errors and one that read the clock or the rate figures are never answered from memory.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { postGraphQL } from './helpers/graphql.ts';
import { startTestServer, testDialect, type TestServer } from './helpers/server.ts';
import { eventually } from './helpers/webhook-receiver.ts';
import { createToken, createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepoWithHead, type CreatedRepo } from './factories/repos.ts';

const sqlite = testDialect() === 'sqlite';

const ISSUES = `query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) {
  issues(first: 10) { totalCount nodes { number title labels(first: 5) { nodes { name } } } } } }`;
const HEAD = `query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { defaultBranchRef { target { oid } } } }`;

describe('GraphQL answers kept until the database changes', () => {
  let t: TestServer;
  let owner: CreatedUser;
  let outsider: CreatedUser;
  let repo: CreatedRepo & { head: string };
  const hits = () => t.server.app.answers!.hits;
  const vars = () => ({ owner: repo.owner, name: repo.repo });
  const call = (token: string, query: string, variables: Record<string, unknown> = vars()) => postGraphQL(t, token, { query, variables });
  /** Once background work of an earlier write has stopped, the second of two calls is a kept answer: its body. */
  const kept = (token: string, query: string) => eventually(async () => {
    await call(token, query);
    const before = hits();
    const second = await call(token, query);
    return hits() === before + 1 ? second : undefined;
  }, 10_000, 'a kept answer');

  before(async () => {
    t = await startTestServer();
    owner = await createUser(t);
    outsider = await createUser(t);
    repo = await createRepoWithHead(t, owner, { private: true });
    await t.octokit(owner.token).rest.issues.create({ owner: repo.owner, repo: repo.repo, title: 'first' });
  });
  after(() => t.close());

  test('on PostgreSQL nothing is kept', { skip: sqlite && 'PostgreSQL only' }, async () => {
    assert.equal(t.server.app.answers, null);
    const a = await call(owner.token, ISSUES);
    assert.equal((a.body.data as { repository: { issues: { totalCount: number } } }).repository.issues.totalCount, 1);
  });

  test('a second call is the first answer, and is charged as the first was', { skip: !sqlite && 'SQLite only' }, async () => {
    const first = await call(owner.token, ISSUES);
    const second = await kept(owner.token, ISSUES);
    assert.equal(second.status, 200);
    assert.deepEqual(second.body, first.body);
    const used = Number(second.headers.get('x-ratelimit-used'));
    const third = await kept(owner.token, ISSUES);
    // kept() made two calls; each costs one point however it was answered.
    assert.equal(Number(third.headers.get('x-ratelimit-used')), used + 2);
    assert.equal(third.headers.get('x-ratelimit-resource'), 'graphql');
  });

  test('a write forgets: the next call shows it', { skip: !sqlite && 'SQLite only' }, async () => {
    await kept(owner.token, ISSUES);
    await t.octokit(owner.token).rest.issues.create({ owner: repo.owner, repo: repo.repo, title: 'second', labels: [] });
    const after = await call(owner.token, ISSUES);
    const issues = (after.body.data as { repository: { issues: { totalCount: number; nodes: { title: string }[] } } }).repository.issues;
    assert.equal(issues.totalCount, 2);
    assert.deepEqual(issues.nodes.map((n) => n.title).sort(), ['first', 'second']);
  });

  test('a ref moved: the next call shows the new commit', { skip: !sqlite && 'SQLite only' }, async () => {
    const before = await kept(owner.token, HEAD);
    const oidOf = (a: typeof before) => (a.body.data as { repository: { defaultBranchRef: { target: { oid: string } } } }).repository.defaultBranchRef.target.oid;
    assert.equal(oidOf(before), repo.head);
    const { data } = await t.octokit(owner.token).rest.repos.createOrUpdateFileContents({
      owner: repo.owner, repo: repo.repo, path: 'new.txt', message: 'add', content: Buffer.from('new\n').toString('base64'),
    });
    assert.equal(oidOf(await call(owner.token, HEAD)), data.commit.sha);
  });

  test('each credential its own answer: the outsider, another token of the owner', { skip: !sqlite && 'SQLite only' }, async () => {
    await kept(owner.token, ISSUES);
    let before = hits();
    const outside = await call(outsider.token, ISSUES);
    assert.equal(hits(), before);
    assert.equal((outside.body.data as { repository: unknown }).repository, null);
    assert.equal(outside.body.errors?.[0]?.type, 'NOT_FOUND');
    const other = await createToken(t, owner.login, ['read:org']);
    before = hits();
    const scopeless = await call(other, ISSUES);
    assert.equal(hits(), before, 'a token without repo scope is not the owner\'s other token');
    assert.equal((scopeless.body.data as { repository: unknown } | null)?.repository ?? null, null);
  });

  test('not kept: an answer with errors, a mutation, one that read the rate figures or the clock', { skip: !sqlite && 'SQLite only' }, async () => {
    const missing = `query { repository(owner: "${repo.owner}", name: "no-such-repo") { id } }`;
    const rate = 'query { rateLimit { remaining used } viewer { login } }';
    const search = `query { search(query: "first repo:${repo.owner}/${repo.repo}", type: ISSUE, first: 5) { issueCount } }`;
    const { data: issue } = await t.octokit(owner.token).rest.issues.get({ owner: repo.owner, repo: repo.repo, issue_number: 1 });
    const mutation = `mutation { addReaction(input: {subjectId: "${issue.node_id}", content: HEART}) { reaction { content } } }`;
    for (const query of [missing, rate, search, mutation]) {
      await call(owner.token, query, {});
      const before = hits();
      const again = await call(owner.token, query, {});
      assert.equal(hits(), before, `answered afresh: ${query}`);
      if (query === rate) assert.ok(again.body.data, 'rateLimit answered');
    }
    const a = await call(owner.token, rate, {});
    const b = await call(owner.token, rate, {});
    const used = (x: typeof a) => (x.body.data as { rateLimit: { used: number } }).rateLimit.used;
    assert.equal(used(b), used(a) + 1, 'the rate figures are each call\'s own');
  });
});
