// GraphQL on a full disk (issue #22): a call that failed for want of space answered 200
// with "Something went wrong" (a bug to report) and null data, where REST answers 507.
// Now GraphQL answers as REST does — 507 with the same error body — unless a mutation's
// field already did its work, which the 200 then reports (as for the database outage,
// test/db-unavailable-channels.test.ts).
//   - the database refusing writes as each driver reports a full disk (SQLite's
//     SQLITE_FULL, PostgreSQL's disk_full 53100), on both dialects;
//   - a real full disk: the data directory on a small tmpfs, filled up, a commit
//     written by createCommitOnBranch and by PUT …/contents (needs root, as
//     test/git-storage-full.test.ts does).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import type { Executor } from '../src/db/database.ts';
import { startTestServer, testDialect, type TestServer } from './helpers/server.ts';
import { postGraphQL } from './helpers/graphql.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo, createRepoWithHead } from './factories/repos.ts';

/** The table a statement writes, or null for a read. */
function written(node: RootOperationNode): string | null {
  const name = (x: unknown) => JSON.stringify(x ?? null).match(/"name":"([^"]+)"/)?.[1] ?? '';
  if (node.kind === 'InsertQueryNode') return name(node.into);
  if (node.kind === 'UpdateQueryNode') return name(node.table);
  if (node.kind === 'DeleteQueryNode') return name(node.from);
  return null;
}

/** The error each driver gives a write on a full disk. */
function diskFull(): Error {
  return testDialect() === 'postgres'
    ? Object.assign(new Error('could not extend file "base/16384/16385": No space left on device'), { code: '53100' })
    : Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
}

/** Writes to `table` fail as on a full disk. */
class Full implements KyselyPlugin {
  constructor(private readonly table: string) {}
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (written(args.node) === this.table) throw diskFull();
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

describe('the database out of space under GraphQL', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let original: Executor;
  const full = (table: string) => { t.server.ctx.db = original.withPlugin(new Full(table)) as Executor; };
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

  test('a mutation refused for want of space answers 507 with REST\'s error body, and writes nothing', async () => {
    const r = await createRepo(t, alice);
    const { data: repo } = await t.octokit(alice.token).rest.repos.get({ owner: r.owner, repo: r.repo });
    full('issues');
    let gql;
    let rest;
    try {
      gql = await postGraphQL(t, alice.token, {
        query: 'mutation($repo: ID!) { createIssue(input: { repositoryId: $repo, title: "lost?" }) { issue { number } } }',
        variables: { repo: repo.node_id },
      });
      // Reads go on answering meanwhile.
      const read = await postGraphQL<{ repository: { name: string } }>(t, alice.token, { query: `{ repository(owner: "${r.owner}", name: "${r.repo}") { name } }` });
      assert.equal(read.status, 200);
      assert.equal(read.body.data?.repository.name, r.repo);
      const res = await t.request(`/repos/${r.owner}/${r.repo}/issues`, { method: 'POST', token: alice.token, json: { title: 'lost too?' } });
      rest = { status: res.status, body: await res.json() };
    } finally {
      restore();
    }
    assert.equal(rest.status, 507, JSON.stringify(rest.body));
    assert.equal(gql.status, 507, JSON.stringify(gql.body));
    assert.deepEqual(gql.body, rest.body);
    assert.equal(gql.body.message, 'Insufficient Storage');
    const { data: issues } = await t.octokit(alice.token).rest.issues.listForRepo({ owner: r.owner, repo: r.repo });
    assert.deepEqual(issues, []);
  });

  test('a mutation whose first field did its work before space ran out reports it: 200, its data, the other field\'s error', async () => {
    const r = await createRepo(t, alice);
    const kit = t.octokit(alice.token);
    const { data: issue } = await kit.rest.issues.create({ owner: r.owner, repo: r.repo, title: 'half' });
    const { data: repo } = await kit.rest.repos.get({ owner: r.owner, repo: r.repo });
    full('issue_comments');
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
    assert.equal(typeof res.body.data?.a?.issue.number, 'number');
    assert.equal(res.body.data?.b, null);
    assert.deepEqual(res.body.errors?.map((e) => [e.path, e.message]), [[['b'], 'No space was left to store this; this field was not resolved. Try again later.']]);
  });
});

const root = process.getuid?.() === 0;

test('on a real full disk, createCommitOnBranch answers 507 as PUT …/contents does', { skip: root ? false : 'mounting a small tmpfs needs root' }, async () => {
  const mount = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-gql-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mount]);
  let t: TestServer | null = null;
  const filler = path.join(mount, 'filler');
  try {
    const dataDir = path.join(mount, 'data');
    fs.mkdirSync(dataDir);
    t = await startTestServer({ env: { WHARF_DATA_DIR: dataDir } });
    const alice = await createUser(t, ['repo', 'user']);
    const r = await createRepoWithHead(t, alice);
    const { data: repo } = await t.octokit(alice.token).rest.repos.get({ owner: r.owner, repo: r.repo });
    const big = Buffer.alloc(2 * 1024 * 1024, 'x').toString('base64');
    const commit = (head: string) => postGraphQL(t!, alice.token, {
      query: 'mutation($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) { commit { oid } } }',
      variables: {
        input: {
          branch: { repositoryNameWithOwner: `${r.owner}/${r.repo}`, branchName: repo.default_branch },
          expectedHeadOid: head, message: { headline: 'big' },
          fileChanges: { additions: [{ path: 'big.txt', contents: big }] },
        },
      },
    });
    // Every free byte taken.
    const fd = fs.openSync(filler, 'w');
    try {
      for (;;) fs.writeSync(fd, Buffer.alloc(256 * 1024));
    } catch (err) {
      assert.equal((err as NodeJS.ErrnoException).code, 'ENOSPC');
    } finally {
      fs.closeSync(fd);
    }
    const gql = await commit(r.head);
    const put = await t.request(`/repos/${r.owner}/${r.repo}/contents/big-too.txt`, { method: 'PUT', token: alice.token, json: { message: 'big', content: big } });
    const rest = { status: put.status, body: await put.json() };
    assert.equal(rest.status, 507, JSON.stringify(rest.body));
    assert.equal(gql.status, 507, JSON.stringify(gql.body));
    assert.deepEqual(gql.body, rest.body);
    // Space back: the same mutation succeeds, no restart.
    fs.rmSync(filler);
    const again = await commit(r.head);
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.match(String((again.body.data as { createCommitOnBranch?: { commit?: { oid?: string } } })?.createCommitOnBranch?.commit?.oid), /^[0-9a-f]{40}$/);
  } finally {
    await t?.close();
    execFileSync('umount', ['-l', mount]);
    fs.rmSync(mount, { recursive: true, force: true });
  }
});
