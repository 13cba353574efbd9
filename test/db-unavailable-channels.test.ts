// The database unreachable under GraphQL and git over HTTP (issue #22, the faults
// suite's PostgreSQL restart found both): statements on one table fail as pg fails them
// while PostgreSQL is down (ECONNREFUSED), everything else works, so the failure lands
// inside the GraphQL call or the push rather than in authentication.
//   - a GraphQL call the database failed under answered 200 with "Something went wrong"
//     (a bug to report) and null data; now 503 with Retry-After, as REST — unless a
//     mutation field already did its work, which the 200 then reports
//   - a push accepted by git whose recording the database refused waited for the push
//     reconciler's lease (minutes) before its push event and pushed_at; now recorded as
//     soon as the database answers again
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import type { Executor } from '../src/db/database.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { postGraphQL } from './helpers/graphql.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo } from './factories/repos.ts';
import { cloneAs, commitFiles } from './factories/pulls.ts';
import { git } from './helpers/git.ts';

/** The table a statement reads or writes, and whether it writes. */
function target(node: RootOperationNode): { table: string; write: boolean } {
  const name = (x: unknown) => JSON.stringify(x ?? null).match(/"name":"([^"]+)"/)?.[1] ?? '';
  if (node.kind === 'SelectQueryNode') return { table: name(node.from), write: false };
  if (node.kind === 'InsertQueryNode') return { table: name(node.into), write: true };
  if (node.kind === 'UpdateQueryNode' || node.kind === 'DeleteQueryNode') return { table: name(node.kind === 'UpdateQueryNode' ? node.table : node.from), write: true };
  return { table: '', write: false };
}

type Statement = ReturnType<typeof target>;

/** Fails the statements `fails` picks as pg fails every one while PostgreSQL is down. */
class Unreachable implements KyselyPlugin {
  constructor(private readonly fails: (s: Statement) => boolean) {}
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.fails(target(args.node))) {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    }
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

describe('the database unreachable under GraphQL and git over HTTP', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let original: Executor;
  /** The statements `fails` picks fail until `restore()`. */
  const unreachable = (fails: (s: Statement) => boolean) => {
    t.server.ctx.db = original.withPlugin(new Unreachable(fails)) as Executor;
  };
  const restore = () => { t.server.ctx.db = original; };

  before(async () => {
    t = await startTestServer();
    original = t.server.ctx.db;
    alice = await createUser(t, ['repo', 'user']);
  });
  after(async () => {
    restore();
    await t?.close();
  });

  test('a query the database fails under answers 503 with Retry-After in the error body, not a 200 with null data', async () => {
    const r = await createRepo(t, alice);
    await t.octokit(alice.token).rest.issues.create({ owner: r.owner, repo: r.repo, title: 'before' });
    const query = { query: 'query($o: String!, $n: String!) { repository(owner: $o, name: $n) { name issues(first: 5) { totalCount nodes { title } } } }', variables: { o: r.owner, n: r.repo } };
    unreachable((s) => s.table === 'issues');
    try {
      const res = await postGraphQL(t, alice.token, query);
      assert.equal(res.status, 503, JSON.stringify(res.body));
      assert.equal(res.headers.get('retry-after'), '5');
      assert.equal(res.body.message, 'Service Unavailable');
      assert.equal(typeof res.body.documentation_url, 'string');
    } finally {
      restore();
    }
    const ok = await postGraphQL<{ repository: { issues: { totalCount: number } } }>(t, alice.token, query);
    assert.equal(ok.status, 200);
    assert.equal(ok.body.data?.repository.issues.totalCount, 1);
  });

  test('a mutation the database refuses answers 503 and writes nothing', async () => {
    const r = await createRepo(t, alice);
    const { data: issue } = await t.octokit(alice.token).rest.issues.create({ owner: r.owner, repo: r.repo, title: 'commented' });
    unreachable((s) => s.table === 'issue_comments' && s.write);
    try {
      const res = await postGraphQL(t, alice.token, {
        query: 'mutation($id: ID!) { addComment(input: { subjectId: $id, body: "lost?" }) { commentEdge { node { id } } } }',
        variables: { id: issue.node_id },
      });
      assert.equal(res.status, 503, JSON.stringify(res.body));
      assert.equal(res.headers.get('retry-after'), '5');
      assert.equal(res.body.message, 'Service Unavailable');
    } finally {
      restore();
    }
    const { data: comments } = await t.octokit(alice.token).rest.issues.listComments({ owner: r.owner, repo: r.repo, issue_number: issue.number });
    assert.deepEqual(comments, []);
  });

  test('a mutation whose first field did its work before the database went away reports it: 200, its data, the other field\'s error', async () => {
    const r = await createRepo(t, alice);
    const kit = t.octokit(alice.token);
    const { data: issue } = await kit.rest.issues.create({ owner: r.owner, repo: r.repo, title: 'half' });
    const { data: repo } = await kit.rest.repos.get({ owner: r.owner, repo: r.repo });
    unreachable((s) => s.table === 'issue_comments' && s.write);
    let res;
    try {
      res = await postGraphQL<{ a: { issue: { number: number } } | null; b: unknown }>(t, alice.token, {
        query: 'mutation($repo: ID!, $id: ID!) { a: createIssue(input: { repositoryId: $repo, title: "done" }) { issue { number } } b: addComment(input: { subjectId: $id, body: "not done" }) { commentEdge { node { id } } } }',
        variables: { repo: repo.node_id, id: issue.node_id },
      });
    } finally {
      restore();
    }
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const number = res.body.data?.a?.issue.number;
    assert.equal(typeof number, 'number');
    assert.equal(res.body.data?.b, null);
    assert.equal(res.body.errors?.length, 1);
    assert.deepEqual(res.body.errors?.[0]?.path, ['b']);
    assert.equal(res.body.errors?.[0]?.message, 'The database could not be reached; this field was not resolved. Try again later.');
    assert.equal((await kit.rest.issues.get({ owner: r.owner, repo: r.repo, issue_number: number! })).data.title, 'done');
  });

  test('a push git accepted while the database could not record it is recorded once the database answers again', async () => {
    const r = await createRepo(t, alice);
    const clone = await cloneAs(t, r.owner, r.repo, alice);
    const sha = await commitFiles(clone, { 'late.txt': 'recorded late\n' }, 'pushed while the database was away');
    const pushEvents = async () => {
      const { data } = await t.octokit(alice.token).request('GET /repos/{owner}/{repo}/events', { owner: r.owner, repo: r.repo });
      return (data as { type: string; payload: { head?: string } }[]).filter((e) => e.type === 'PushEvent').map((e) => e.payload.head);
    };
    // Journaled (an insert) before git runs; reading the row back to record the push fails.
    unreachable((s) => s.table === 'push_journal' && !s.write);
    try {
      const pushed = await git(['push', '-q', 'origin', 'HEAD:refs/heads/late'], { cwd: clone.dir });
      assert.equal(pushed.code, 0, pushed.stderr);
      // git has its answer; the push is on the branch (git's refs) but not yet recorded.
      assert.deepEqual(await pushEvents(), []);
    } finally {
      restore();
    }
    // Recorded by the retry within seconds (the reconciler's lease is minutes away).
    const deadline = Date.now() + 10_000;
    let heads = await pushEvents();
    while (!heads.includes(sha) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      heads = await pushEvents();
    }
    assert.deepEqual(heads, [sha]);
    const { data: branch } = await t.octokit(alice.token).rest.repos.getBranch({ owner: r.owner, repo: r.repo, branch: 'late' });
    assert.equal(branch.commit.sha, sha);
    const journal = await original.selectFrom('push_journal').select('id').execute();
    assert.deepEqual(journal, [], 'the journal row closed');
  });
});
