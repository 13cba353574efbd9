// Git data through GraphQL: refs, commits with their history, trees, blobs and tags
// (the same objects, ids and values REST shows), and the ref and commit mutations,
// which go through the same services as REST so that pushes are recorded.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { listEvents } from '../src/events/outbox.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { gql, graphqlErrors } from './helpers/graphql.ts';

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

interface RepoIds { id: string; databaseId: number; head: string; refId: string }

describe('GraphQL git data', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let hull: RepoIds;

  /** Commits one change to main through createCommitOnBranch; returns the new head. */
  async function commit(repo: string, expectedHeadOid: string, fileChanges: object, headline: string, body?: string): Promise<string> {
    const r = await gql(t, alice.token)<{ createCommitOnBranch: { commit: { oid: string } } }>(`
      mutation($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) { commit { oid } } }`, {
      input: { branch: { repositoryNameWithOwner: `${alice.login}/${repo}`, branchName: 'main' }, expectedHeadOid, fileChanges, message: { headline, ...(body ? { body } : {}) } },
    });
    return r.createCommitOnBranch.commit.oid;
  }

  async function ids(repo: string): Promise<RepoIds> {
    const r = await gql(t, alice.token)<{ repository: { id: string; databaseId: number; defaultBranchRef: { id: string; target: { oid: string } } } }>(
      `{ repository(owner: "${alice.login}", name: "${repo}") { id databaseId defaultBranchRef { id target { oid } } } }`);
    return { id: r.repository.id, databaseId: r.repository.databaseId, head: r.repository.defaultBranchRef.target.oid, refId: r.repository.defaultBranchRef.id };
  }

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    bob = await createUser(t);
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'hull', auto_init: true });
    let head = (await ids('hull')).head;
    head = await commit('hull', head, { additions: [{ path: 'docs/guide.md', contents: b64('# Guide\n') }, { path: 'bin/data.bin', contents: b64(Buffer.from([0, 1, 2, 255])) }] }, 'Add docs', 'With a guide.\n\nAnd data.');
    head = await commit('hull', head, { additions: [{ path: 'docs/guide.md', contents: b64('# Guide\n\nMore.\n') }] }, 'Extend the guide');
    head = await commit('hull', head, { deletions: [{ path: 'bin/data.bin' }] }, 'Drop data');
    hull = await ids('hull');
    assert.equal(hull.head, head);
  });
  after(() => t.close());

  test('refs, ref(qualifiedName:) and defaultBranchRef agree with the references API', async () => {
    const octokit = t.octokit(alice.token);
    await octokit.rest.git.createRef({ owner: alice.login, repo: 'hull', ref: 'refs/heads/feature/sail', sha: hull.head });
    await octokit.rest.git.createRef({ owner: alice.login, repo: 'hull', ref: 'refs/heads/aft', sha: hull.head });
    const { data: rest } = await octokit.rest.git.listMatchingRefs({ owner: alice.login, repo: 'hull', ref: 'heads/' });
    const { repository: r } = await gql(t, bob.token)<{ repository: {
      refs: { totalCount: number; nodes: { id: string; name: string; prefix: string; target: { oid: string; __typename: string } }[] };
      desc: { nodes: { name: string }[] }; filtered: { nodes: { name: string }[] };
      short: { name: string; prefix: string } | null; full: { name: string } | null; missing: null; defaultBranchRef: { name: string }; isEmpty: boolean;
    } }>(`{ repository(owner: "${alice.login}", name: "hull") {
      refs(refPrefix: "refs/heads/", first: 10) { totalCount nodes { id name prefix target { __typename oid } } }
      desc: refs(refPrefix: "refs/heads/", first: 10, orderBy: {field: ALPHABETICAL, direction: DESC}) { nodes { name } }
      filtered: refs(refPrefix: "refs/heads/", first: 10, query: "sail") { nodes { name } }
      short: ref(qualifiedName: "main") { name prefix } full: ref(qualifiedName: "refs/heads/aft") { name }
      missing: ref(qualifiedName: "no-such-branch") { name } defaultBranchRef { name } isEmpty
    } }`);
    assert.equal(r.refs.totalCount, rest.length);
    assert.deepEqual(r.refs.nodes.map((n) => ({ id: n.id, ref: `${n.prefix}${n.name}`, sha: n.target.oid })),
      rest.map((x) => ({ id: x.node_id, ref: x.ref, sha: x.object.sha })));
    assert.ok(r.refs.nodes.every((n) => n.target.__typename === 'Commit'));
    assert.deepEqual(r.desc.nodes.map((n) => n.name), ['main', 'feature/sail', 'aft']);
    assert.deepEqual(r.filtered.nodes, [{ name: 'feature/sail' }]);
    assert.deepEqual(r.short, { name: 'main', prefix: 'refs/heads/' });
    assert.deepEqual(r.full, { name: 'aft' });
    assert.equal(r.missing, null);
    assert.deepEqual(r.defaultBranchRef, { name: 'main' });
    assert.equal(r.isEmpty, false);

    await octokit.rest.repos.createForAuthenticatedUser({ name: 'empty-hold' });
    const empty = await gql(t, alice.token)<{ repository: { isEmpty: boolean; defaultBranchRef: null; refs: { totalCount: number } } }>(
      `{ repository(owner: "${alice.login}", name: "empty-hold") { isEmpty defaultBranchRef { name } refs(refPrefix: "refs/heads/", first: 5) { totalCount } } }`);
    assert.deepEqual(empty.repository, { isEmpty: true, defaultBranchRef: null, refs: { totalCount: 0 } });
  });

  test('a commit: the same values the commits API shows, its history both ways, its tree and blobs', async () => {
    const { data: rest } = await t.octokit(bob.token).rest.repos.getCommit({ owner: alice.login, repo: 'hull', ref: hull.head });
    const { data: gitCommit } = await t.octokit(bob.token).rest.git.getCommit({ owner: alice.login, repo: 'hull', commit_sha: hull.head });
    const { repository: { object: c } } = await gql(t, bob.token)<{ repository: { object: {
      __typename: string; id: string; oid: string; abbreviatedOid: string; message: string; messageHeadline: string; messageBody: string;
      author: { name: string; email: string; date: string; user: { login: string } | null }; committedDate: string; authoredDate: string;
      additions: number; deletions: number; changedFilesIfAvailable: number; url: string; commitUrl: string; treeUrl: string;
      parents: { totalCount: number; nodes: { oid: string }[] }; tree: { oid: string }; repository: { name: string };
    } } }>(`query($oid: GitObjectID!) { repository(owner: "${alice.login}", name: "hull") { object(oid: $oid) {
      __typename id oid ... on Commit { abbreviatedOid message messageHeadline messageBody author { name email date user { login } } committedDate authoredDate
      additions deletions changedFilesIfAvailable url commitUrl treeUrl parents(first: 5) { totalCount nodes { oid } } tree { oid } repository { name } } } } }`, { oid: hull.head });
    assert.equal(c.__typename, 'Commit');
    assert.equal(c.id, rest.node_id);
    assert.equal(c.oid, rest.sha);
    assert.equal(c.abbreviatedOid, rest.sha.slice(0, 7));
    assert.equal(c.message, rest.commit.message);
    assert.equal(c.messageHeadline, 'Drop data');
    assert.equal(c.messageBody, '');
    assert.equal(c.author.name, rest.commit.author!.name);
    assert.equal(c.author.email, rest.commit.author!.email);
    assert.equal(Date.parse(c.author.date), Date.parse(rest.commit.author!.date!));
    assert.equal(c.author.user?.login, alice.login);
    assert.equal(c.committedDate, rest.commit.committer!.date);
    assert.equal(c.authoredDate, gitCommit.author.date);
    assert.deepEqual([c.additions, c.deletions, c.changedFilesIfAvailable], [rest.stats!.additions, rest.stats!.deletions, rest.files!.length]);
    assert.equal(c.url, rest.html_url);
    assert.equal(c.commitUrl, rest.html_url);
    assert.deepEqual(c.parents.nodes.map((p) => p.oid), rest.parents.map((p) => p.sha));
    assert.equal(c.tree.oid, rest.commit.tree.sha);
    assert.deepEqual(c.repository, { name: 'hull' });

    // The message of a commit with a body splits into headline and body.
    const second = await gql(t, bob.token)<{ repository: { object: { messageHeadline: string; messageBody: string } } }>(
      `{ repository(owner: "${alice.login}", name: "hull") { object(expression: "main~2") { ... on Commit { messageHeadline messageBody } } } }`);
    assert.deepEqual(second.repository.object, { messageHeadline: 'Add docs', messageBody: 'With a guide.\n\nAnd data.' });

    // History: forwards page by page, then backwards, in git log order, as REST lists it.
    const { data: restHistory } = await t.octokit(bob.token).rest.repos.listCommits({ owner: alice.login, repo: 'hull' });
    type History = { repository: { defaultBranchRef: { target: { history: { totalCount: number; pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor: string; startCursor: string }; nodes: { oid: string }[] } } } } };
    const history = (args: string) => gql(t, bob.token)<History>(`{ repository(owner: "${alice.login}", name: "hull") { defaultBranchRef { target { ... on Commit {
      history(${args}) { totalCount pageInfo { hasNextPage hasPreviousPage endCursor startCursor } nodes { oid } } } } } } }`).then((h) => h.repository.defaultBranchRef.target.history);
    const p1 = await history('first: 3');
    assert.equal(p1.totalCount, restHistory.length);
    const p2 = await history(`first: 3, after: "${p1.pageInfo.endCursor}"`);
    assert.deepEqual([...p1.nodes, ...p2.nodes].map((n) => n.oid), restHistory.map((x) => x.sha));
    assert.equal(p2.pageInfo.hasNextPage, false);
    const tail = await history('last: 2');
    assert.deepEqual(tail.nodes.map((n) => n.oid), restHistory.slice(-2).map((x) => x.sha));
    const before = await history(`last: 2, before: "${tail.pageInfo.startCursor}"`);
    assert.deepEqual(before.nodes.map((n) => n.oid), restHistory.slice(-4, -2).map((x) => x.sha));
    // Filters: by path, and by the author's user id.
    const byPath = await history('first: 10, path: "bin"');
    assert.equal(byPath.totalCount, 2);
    const { viewer } = await gql(t, alice.token)<{ viewer: { id: string } }>('{ viewer { id } }');
    const byAuthor = await gql(t, bob.token)<History>(`query($id: ID!) { repository(owner: "${alice.login}", name: "hull") { defaultBranchRef { target { ... on Commit {
      history(first: 10, author: {id: $id}) { totalCount pageInfo { hasNextPage hasPreviousPage endCursor startCursor } nodes { oid } } } } } } }`, { id: viewer.id });
    assert.equal(byAuthor.repository.defaultBranchRef.target.history.totalCount, restHistory.length);
  });

  test('trees, tree entries and blobs; object(expression:) with rev:path', async () => {
    const { data: restTree } = await t.octokit(bob.token).rest.git.getTree({ owner: alice.login, repo: 'hull', tree_sha: 'main' });
    const docs = restTree.tree.find((e) => e.path === 'docs')!;
    const { data: docsTree } = await t.octokit(bob.token).rest.git.getTree({ owner: alice.login, repo: 'hull', tree_sha: docs.sha! });
    const guide = docsTree.tree.find((e) => e.path === 'guide.md')!;
    const { data: restBlob } = await t.octokit(bob.token).rest.git.getBlob({ owner: alice.login, repo: 'hull', file_sha: guide.sha! });
    const { repository: r } = await gql(t, bob.token)<{ repository: {
      root: { __typename: string; oid: string; entries: { name: string; path: string; mode: number; type: string; oid: string; size: number; extension: string | null }[] };
      dir: { entries: { name: string; path: string; nameRaw: string; object: { __typename: string; id: string; oid: string; byteSize: number; text: string; isBinary: boolean; isTruncated: boolean } }[] };
      file: { __typename: string; text: string }; none: null; bad: null;
    } }>(`{ repository(owner: "${alice.login}", name: "hull") {
      root: object(expression: "main^{tree}") { __typename oid ... on Tree { entries { name path mode type oid size extension } } }
      dir: object(expression: "main:docs") { ... on Tree { entries { name path nameRaw object { __typename id oid ... on Blob { byteSize text isBinary isTruncated } } } } }
      file: object(expression: "main:docs/guide.md") { __typename ... on Blob { text } }
      none: object(expression: "main:no/such/file") { oid }
      bad: object(oid: "0123456789012345678901234567890123456789") { oid }
    } }`);
    assert.equal(r.root.__typename, 'Tree');
    assert.equal(r.root.oid, restTree.sha);
    assert.deepEqual(r.root.entries.map((e) => ({ path: e.path, type: e.type, sha: e.oid })), restTree.tree.map((e) => ({ path: e.path, type: e.type, sha: e.sha })));
    const readme = r.root.entries.find((e) => e.name === 'README.md')!;
    assert.deepEqual([readme.mode, readme.size, readme.extension], [0o100644, restTree.tree.find((e) => e.path === 'README.md')!.size, '.md']);
    assert.equal(r.root.entries.find((e) => e.name === 'docs')!.mode, 0o40000);
    const entry = r.dir.entries[0]!;
    assert.deepEqual([entry.name, entry.path, entry.nameRaw], ['guide.md', 'docs/guide.md', b64('guide.md')]);
    assert.deepEqual(entry.object, {
      __typename: 'Blob', id: restBlob.node_id, oid: restBlob.sha, byteSize: restBlob.size,
      text: Buffer.from(restBlob.content, 'base64').toString('utf8'), isBinary: false, isTruncated: false,
    });
    assert.deepEqual(r.file, { __typename: 'Blob', text: '# Guide\n\nMore.\n' });
    assert.equal(r.none, null);
    assert.equal(r.bad, null);

    // A binary blob (from an older commit) has no text.
    const bin = await gql(t, bob.token)<{ repository: { object: { isBinary: boolean; text: null; byteSize: number } } }>(
      `{ repository(owner: "${alice.login}", name: "hull") { object(expression: "main~1:bin/data.bin") { ... on Blob { isBinary text byteSize } } } }`);
    assert.deepEqual(bin.repository.object, { isBinary: true, text: null, byteSize: 4 });
  });

  test('an annotated tag through a ref, with the node ids REST shows; node(id:) reaches refs and git objects', async () => {
    const octokit = t.octokit(alice.token);
    const { data: tag } = await octokit.rest.git.createTag({
      owner: alice.login, repo: 'hull', tag: 'v1.0', message: 'First release\n', object: hull.head, type: 'commit',
      tagger: { name: 'Tagger', email: 'tagger@example.com', date: '2024-05-01T10:00:00+02:00' },
    });
    const { data: ref } = await octokit.rest.git.createRef({ owner: alice.login, repo: 'hull', ref: 'refs/tags/v1.0', sha: tag.sha });
    const { repository: r } = await gql(t, bob.token)<{ repository: { ref: { id: string; name: string; prefix: string; target: { __typename: string; id: string; oid: string; name: string; message: string; tagger: { name: string; email: string; date: string; user: null }; target: { __typename: string; oid: string } } } } }>(`{
      repository(owner: "${alice.login}", name: "hull") { ref(qualifiedName: "v1.0") { id name prefix target { __typename id oid ... on Tag { name message tagger { name email date user { login } } target { __typename oid } } } } } }`);
    assert.deepEqual(r.ref, {
      id: ref.node_id, name: 'v1.0', prefix: 'refs/tags/',
      target: {
        __typename: 'Tag', id: tag.node_id, oid: tag.sha, name: 'v1.0', message: 'First release',
        tagger: { name: 'Tagger', email: 'tagger@example.com', date: '2024-05-01T10:00:00+02:00', user: null },
        target: { __typename: 'Commit', oid: hull.head },
      },
    });

    const { data: created } = await octokit.rest.git.createBlob({ owner: alice.login, repo: 'hull', content: 'loose', encoding: 'utf-8' });
    const { data: blob } = await octokit.rest.git.getBlob({ owner: alice.login, repo: 'hull', file_sha: created.sha });
    const { data: restCommit } = await octokit.rest.git.getCommit({ owner: alice.login, repo: 'hull', commit_sha: hull.head });
    const { nodes } = await gql(t, bob.token)<{ nodes: { __typename: string; oid?: string; name?: string }[] }>(
      'query($ids: [ID!]!) { nodes(ids: $ids) { __typename ... on GitObject { oid } ... on Ref { name } } }',
      { ids: [ref.node_id, tag.node_id, restCommit.node_id, blob.node_id] });
    assert.deepEqual(nodes, [
      { __typename: 'Ref', name: 'v1.0' }, { __typename: 'Tag', oid: tag.sha },
      { __typename: 'Commit', oid: hull.head }, { __typename: 'Blob', oid: blob.sha },
    ]);
  });

  test('createRef, updateRef and deleteRef: the references API sees the change and the push is recorded', async () => {
    const g = gql(t, alice.token);
    const before = (await listEvents(t.server.ctx, { repositoryId: hull.databaseId })).length;
    const created = await g<{ createRef: { clientMutationId: string; ref: { id: string; name: string; target: { oid: string } } } }>(
      'mutation($input: CreateRefInput!) { createRef(input: $input) { clientMutationId ref { id name target { oid } } } }',
      { input: { clientMutationId: 'c1', repositoryId: hull.id, name: 'refs/heads/topic', oid: hull.head } });
    assert.equal(created.createRef.clientMutationId, 'c1');
    assert.equal(created.createRef.ref.name, 'topic');
    const { data: rest } = await t.octokit(alice.token).rest.git.getRef({ owner: alice.login, repo: 'hull', ref: 'heads/topic' });
    assert.equal(rest.node_id, created.createRef.ref.id);
    assert.equal(rest.object.sha, hull.head);
    const events = (await listEvents(t.server.ctx, { repositoryId: hull.databaseId })).slice(before);
    assert.deepEqual(events.map((e) => e.event).sort(), ['create', 'push']);

    // Branching off, then moving it: forward is fine, backward needs force.
    const parent = (await t.octokit(alice.token).rest.git.getCommit({ owner: alice.login, repo: 'hull', commit_sha: hull.head })).data.parents[0]!.sha;
    const back = await graphqlErrors(g('mutation($id: ID!, $oid: GitObjectID!) { updateRef(input: {refId: $id, oid: $oid}) { ref { name } } }', { id: created.createRef.ref.id, oid: parent }));
    assert.equal(back.errors[0]!.type, 'UNPROCESSABLE');
    assert.match(back.errors[0]!.message, /not a fast forward/);
    const forced = await g<{ updateRef: { ref: { target: { oid: string } } } }>(
      'mutation($id: ID!, $oid: GitObjectID!) { updateRef(input: {refId: $id, oid: $oid, force: true}) { ref { target { oid } } } }', { id: created.createRef.ref.id, oid: parent });
    assert.equal(forced.updateRef.ref.target.oid, parent);
    assert.equal((await t.octokit(alice.token).rest.git.getRef({ owner: alice.login, repo: 'hull', ref: 'heads/topic' })).data.object.sha, parent);

    const deleted = await g<{ deleteRef: { clientMutationId: string } }>('mutation($id: ID!) { deleteRef(input: {refId: $id, clientMutationId: "d1"}) { clientMutationId } }', { id: created.createRef.ref.id });
    assert.deepEqual(deleted, { deleteRef: { clientMutationId: 'd1' } });
    await assert.rejects(t.octokit(alice.token).rest.git.getRef({ owner: alice.login, repo: 'hull', ref: 'heads/topic' }), { status: 404 });
    assert.ok((await listEvents(t.server.ctx, { event: 'delete', repositoryId: hull.databaseId })).length >= 1);

    // Someone who may only read the repository may not change its refs.
    const { errors } = await graphqlErrors(gql(t, bob.token)('mutation($id: ID!, $oid: GitObjectID!) { createRef(input: {repositoryId: $id, name: "refs/heads/bob", oid: $oid}) { ref { name } } }', { id: hull.id, oid: hull.head }));
    assert.equal(errors[0]!.type, 'FORBIDDEN');
    // A ref that is not there.
    const missing = await graphqlErrors(g('mutation { deleteRef(input: {refId: "bm9wZQ=="}) { clientMutationId } }'));
    assert.equal(missing.errors[0]!.type, 'NOT_FOUND');
  });

  test('createCommitOnBranch: the commit, the ref, the push; a stale head, bad content and missing rights are refused and change nothing', async () => {
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'keel', auto_init: true });
    const keel = await ids('keel');
    const before = (await listEvents(t.server.ctx, { event: 'push', repositoryId: keel.databaseId })).length;
    const r = await gql(t, alice.token)<{ createCommitOnBranch: { clientMutationId: string; ref: { name: string; target: { oid: string } }; commit: { oid: string; message: string; parents: { nodes: { oid: string }[] }; tree: { entries: { name: string }[] } } } }>(`
      mutation($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) {
        clientMutationId ref { name target { oid } } commit { oid message parents(first: 2) { nodes { oid } } tree { entries { name } } } } }`, {
      input: {
        clientMutationId: 'k1', branch: { id: keel.refId }, expectedHeadOid: keel.head,
        message: { headline: 'Plans', body: 'Two files, one gone.' },
        fileChanges: { additions: [{ path: 'plans/a.txt', contents: b64('a\n') }, { path: 'NOTES', contents: b64('n\n') }], deletions: [{ path: 'README.md' }] },
      },
    });
    const c = r.createCommitOnBranch;
    assert.equal(c.clientMutationId, 'k1');
    assert.equal(c.ref.name, 'main');
    assert.equal(c.ref.target.oid, c.commit.oid);
    assert.equal(c.commit.message, 'Plans\n\nTwo files, one gone.');
    assert.deepEqual(c.commit.parents.nodes, [{ oid: keel.head }]);
    assert.deepEqual(c.commit.tree.entries.map((e) => e.name).sort(), ['NOTES', 'plans']);
    const { data: content } = await t.octokit(alice.token).rest.repos.getContent({ owner: alice.login, repo: 'keel', path: 'plans/a.txt' });
    assert.equal(Buffer.from((content as { content: string }).content, 'base64').toString(), 'a\n');
    assert.equal((await listEvents(t.server.ctx, { event: 'push', repositoryId: keel.databaseId })).length, before + 1);

    const head = async () => (await t.octokit(alice.token).rest.git.getRef({ owner: alice.login, repo: 'keel', ref: 'heads/main' })).data.object.sha;
    const attempt = (token: string, input: object) => graphqlErrors(gql(t, token)('mutation($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) { commit { oid } } }', {
      input: { branch: { repositoryNameWithOwner: `${alice.login}/keel`, branchName: 'main' }, message: { headline: 'x' }, ...input },
    }));
    const stale = await attempt(alice.token, { expectedHeadOid: keel.head, fileChanges: { additions: [{ path: 'x', contents: b64('x') }] } });
    assert.equal(stale.errors[0]!.type, 'STALE_DATA');
    assert.equal(stale.errors[0]!.message, `Expected branch to point to "${keel.head}" but it did not. Pull and try again.`);
    const current = await head();
    const badPath = await attempt(alice.token, { expectedHeadOid: current, fileChanges: { deletions: [{ path: 'no/such/file' }] } });
    assert.equal(badPath.errors[0]!.type, 'UNPROCESSABLE');
    const badBase64 = await attempt(alice.token, { expectedHeadOid: current, fileChanges: { additions: [{ path: 'y', contents: '***' }] } });
    assert.equal(badBase64.errors[0]!.type, 'UNPROCESSABLE');
    const workflow = await attempt(alice.token, { expectedHeadOid: current, fileChanges: { additions: [{ path: '.github/workflows/ci.yml', contents: b64('on: push\n') }] } });
    assert.equal(workflow.errors[0]!.type, 'INSUFFICIENT_SCOPES');
    assert.match(workflow.errors[0]!.message, /\['workflow'\]/);
    const forbidden = await attempt(bob.token, { expectedHeadOid: current, fileChanges: { additions: [{ path: 'z', contents: b64('z') }] } });
    assert.equal(forbidden.errors[0]!.type, 'FORBIDDEN');
    const noBranch = await attempt(alice.token, { branch: { repositoryNameWithOwner: `${alice.login}/keel`, branchName: 'nope' }, expectedHeadOid: current });
    assert.equal(noBranch.errors[0]!.type, 'NOT_FOUND');
    assert.equal(await head(), current);
  });
});
