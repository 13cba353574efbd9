// Pull requests through GraphQL: PullRequest with the values REST shows for the same
// pull request (branches, git figures, commits, files, labels, reviews …), the lists of
// repositories and users with their filters and pagination both ways, node ids shared
// with REST, and the mutations, which go through the same services as REST (so the
// merge is real git, and events follow), with their scopes and error shapes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { listEvents } from '../src/events/outbox.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addMember, createOrgWithOwner, createTeam } from './factories/orgs.ts';
import { checkout, commitFiles, log, push, repoWithFeature, revParse, uniqueName, type Clone } from './factories/pulls.ts';
import { countStatements, gql, graphqlErrors, postGraphQL } from './helpers/graphql.ts';

type Json = Record<string, any>;

let t: TestServer;
let alice: CreatedUser;
let bob: CreatedUser;
let carol: CreatedUser;
let stranger: CreatedUser;

before(async () => {
  t = await startTestServer();
  [alice, bob, carol, stranger] = await Promise.all([createUser(t), createUser(t), createUser(t), createUser(t)]);
});
after(async () => { await t.close(); });

async function collaborate(owner: CreatedUser, repo: string, users: CreatedUser[]): Promise<void> {
  for (const u of users) {
    const inv = await t.octokit(owner.token).rest.repos.addCollaborator({ owner: owner.login, repo, username: u.login, permission: 'push' });
    if (inv.status === 201) await t.octokit(u.token).rest.repos.acceptInvitationForAuthenticatedUser({ invitation_id: inv.data.id });
  }
}

/** A branch off main with one commit of its own, pushed. */
async function branch(c: Clone, name: string, files: Record<string, string>, from = 'main'): Promise<string> {
  await checkout(c, name, true, from);
  const sha = await commitFiles(c, files, `Work on ${name}`);
  await push(c, name);
  await checkout(c, 'main');
  return sha;
}

async function repoId(owner: string, name: string): Promise<string> {
  const r = await gql(t, alice.token)<{ repository: { id: string } }>(`{ repository(owner: "${owner}", name: "${name}") { id } }`);
  return r.repository.id;
}

async function pullId(owner: string, repo: string, number: number): Promise<string> {
  return (await t.octokit(alice.token).rest.pulls.get({ owner, repo, pull_number: number })).data.node_id;
}

const PULL_FIELDS = `__typename id databaseId number title body bodyHTML bodyText state isDraft closed closedAt merged mergedAt mergedBy { login } mergeable
  headRefName headRefOid headRef { name prefix target { oid } } headRepository { nameWithOwner } headRepositoryOwner { login } isCrossRepository
  baseRefName baseRefOid baseRef { name } baseRepository { nameWithOwner }
  author { login } authorAssociation maintainerCanModify locked activeLockReason additions deletions changedFiles
  commits(first: 10) { totalCount nodes { id commit { oid messageHeadline } pullRequest { number } url resourcePath } }
  files(first: 10) { totalCount nodes { path additions deletions changeType } }
  labels(first: 5) { nodes { name } } assignees(first: 5) { nodes { login } } milestone { title }
  comments(first: 5) { totalCount nodes { body } } reactionGroups { content reactors { totalCount } }
  url resourcePath permalink createdAt updatedAt repository { nameWithOwner } potentialMergeCommit { oid } mergeCommit { oid }
  viewerDidAuthor viewerCanUpdate viewerCanClose viewerCanReopen reviewDecision`;

describe('reading a pull request', () => {
  test('PullRequest shows what REST shows for the same pull request', async () => {
    const r = await repoWithFeature(t, alice);
    const repo = r.clone.repo;
    const kit = t.octokit(alice.token);
    await collaborate(alice, repo, [bob]);
    const body = 'Fixes the **second** line.\n\nSee #1.';
    await kit.rest.pulls.create({ owner: alice.login, repo, title: 'Shout the second line', head: 'feature', base: 'main', body });
    const { data: ms } = await kit.rest.issues.createMilestone({ owner: alice.login, repo, title: 'v1' });
    await kit.rest.issues.update({ owner: alice.login, repo, issue_number: 1, labels: ['bug'], assignees: [alice.login], milestone: ms.number });
    await t.octokit(bob.token).rest.issues.createComment({ owner: alice.login, repo, issue_number: 1, body: 'Looks right' });
    await t.octokit(bob.token).rest.reactions.createForIssue({ owner: alice.login, repo, issue_number: 1, content: 'hooray' });

    const { data: rest } = await kit.rest.pulls.get({ owner: alice.login, repo, pull_number: 1, mediaType: { format: 'full' } });
    const { data: commits } = await kit.rest.pulls.listCommits({ owner: alice.login, repo, pull_number: 1 });
    const { data: files } = await kit.rest.pulls.listFiles({ owner: alice.login, repo, pull_number: 1 });
    const { repository: { pullRequest: p } } = await gql(t, bob.token)<{ repository: { pullRequest: Json } }>(
      `{ repository(owner: "${alice.login}", name: "${repo}") { pullRequest(number: 1) { ${PULL_FIELDS} } } }`);

    assert.equal(p.__typename, 'PullRequest');
    assert.equal(p.id, rest.node_id);
    assert.equal(p.databaseId, rest.id);
    assert.equal(p.number, 1);
    assert.equal(p.title, rest.title);
    assert.equal(p.body, body);
    assert.equal(p.bodyHTML, (rest as Json).body_html);
    assert.equal(p.bodyText, (rest as Json).body_text);
    assert.deepEqual([p.state, p.isDraft, p.closed, p.closedAt, p.merged, p.mergedAt, p.mergedBy], ['OPEN', false, false, null, false, null, null]);
    assert.equal(p.mergeable, rest.mergeable ? 'MERGEABLE' : 'CONFLICTING');
    assert.equal(p.mergeable, 'MERGEABLE');
    assert.equal(p.headRefName, rest.head.ref);
    assert.equal(p.headRefOid, rest.head.sha);
    assert.deepEqual(p.headRef, { name: 'feature', prefix: 'refs/heads/', target: { oid: r.featureSha } });
    assert.deepEqual(p.headRepository, { nameWithOwner: rest.head.repo!.full_name });
    assert.deepEqual(p.headRepositoryOwner, { login: alice.login });
    assert.equal(p.isCrossRepository, false);
    assert.equal(p.baseRefName, rest.base.ref);
    assert.equal(p.baseRefOid, rest.base.sha);
    assert.deepEqual(p.baseRef, { name: 'main' });
    assert.deepEqual(p.baseRepository, { nameWithOwner: rest.base.repo.full_name });
    assert.deepEqual(p.author, { login: alice.login });
    assert.equal(p.authorAssociation, rest.author_association);
    assert.equal(p.maintainerCanModify, rest.maintainer_can_modify);
    assert.deepEqual([p.locked, p.activeLockReason], [false, null]);
    assert.deepEqual([p.additions, p.deletions, p.changedFiles], [rest.additions, rest.deletions, rest.changed_files]);
    assert.equal(p.commits.totalCount, rest.commits);
    assert.deepEqual(p.commits.nodes.map((c: Json) => c.commit.oid), commits.map((c) => c.sha));
    assert.equal(p.commits.nodes[0].commit.messageHeadline, 'Feature work');
    assert.deepEqual(p.commits.nodes[0].pullRequest, { number: 1 });
    assert.equal(p.commits.nodes[0].resourcePath, `/${alice.login}/${repo}/pull/1/commits/${r.featureSha}`);
    assert.equal(p.commits.nodes[0].url, `${rest.html_url}/commits/${r.featureSha}`);
    assert.equal(p.files.totalCount, files.length);
    assert.deepEqual(p.files.nodes, files.map((f) => ({
      path: f.filename, additions: f.additions, deletions: f.deletions, changeType: f.status === 'added' ? 'ADDED' : 'MODIFIED',
    })));
    assert.deepEqual(p.files.nodes.map((f: Json) => f.changeType).sort(), ['ADDED', 'MODIFIED']);
    assert.deepEqual(p.labels.nodes, rest.labels.map((l) => ({ name: l.name })));
    assert.deepEqual(p.assignees.nodes, [{ login: alice.login }]);
    assert.deepEqual(p.milestone, { title: 'v1' });
    assert.deepEqual(p.comments, { totalCount: 1, nodes: [{ body: 'Looks right' }] });
    const hooray = p.reactionGroups.find((g: Json) => g.content === 'HOORAY');
    assert.deepEqual(hooray, { content: 'HOORAY', reactors: { totalCount: 1 } });
    assert.equal(p.url, rest.html_url);
    assert.equal(p.permalink, rest.html_url);
    assert.equal(p.resourcePath, `/${alice.login}/${repo}/pull/1`);
    assert.equal(p.createdAt, rest.created_at);
    assert.equal(p.updatedAt, rest.updated_at);
    assert.deepEqual(p.repository, { nameWithOwner: `${alice.login}/${repo}` });
    // REST's merge_commit_sha of an open pull request is its test merge.
    assert.deepEqual(p.potentialMergeCommit, { oid: rest.merge_commit_sha });
    assert.equal(p.mergeCommit, null);
    // bob may push: he may update and close what alice opened, not reopen an open one.
    assert.deepEqual([p.viewerDidAuthor, p.viewerCanUpdate, p.viewerCanClose, p.viewerCanReopen, p.reviewDecision], [false, true, true, false, null]);

    // A reader without rights sees the same pull request, with the viewer fields of a reader.
    const seen = await gql(t, stranger.token)<{ repository: { pullRequest: Json } }>(
      `{ repository(owner: "${alice.login}", name: "${repo}") { pullRequest(number: 1) { id viewerCanUpdate viewerCanClose viewerDidAuthor } } }`);
    assert.deepEqual(seen.repository.pullRequest, { id: rest.node_id, viewerCanUpdate: false, viewerCanClose: false, viewerDidAuthor: false });
  });

  test('a conflicting pull request is CONFLICTING; a number that is not a pull request resolves to nothing', async () => {
    const r = await repoWithFeature(t, alice);
    const repo = r.clone.repo;
    const kit = t.octokit(alice.token);
    await commitFiles(r.clone, { 'app.txt': 'one\n2\nthree\n' }, 'Change the same line on main');
    await push(r.clone, 'main');
    await kit.rest.pulls.create({ owner: alice.login, repo, title: 'Conflicts', head: 'feature', base: 'main' });
    await kit.rest.issues.create({ owner: alice.login, repo, title: 'An issue' });
    const { data: rest } = await kit.rest.pulls.get({ owner: alice.login, repo, pull_number: 1 });
    const q = (n: number) => `{ repository(owner: "${alice.login}", name: "${repo}") { pullRequest(number: ${n}) { mergeable canBeRebased potentialMergeCommit { oid } } } }`;
    const { repository } = await gql(t, alice.token)<{ repository: { pullRequest: Json } }>(q(1));
    assert.equal(rest.mergeable, false);
    assert.deepEqual(repository.pullRequest, { mergeable: 'CONFLICTING', canBeRebased: false, potentialMergeCommit: null });
    for (const n of [2, 99]) {
      const { errors, data } = await graphqlErrors(gql(t, alice.token)(q(n)));
      assert.deepEqual(errors.map((e) => [e.type, e.path, e.message]), [
        ['NOT_FOUND', ['repository', 'pullRequest'], `Could not resolve to a PullRequest with the number of ${n}.`],
      ]);
      assert.deepEqual(data, { repository: { pullRequest: null } });
    }
  });
});

describe('lists of pull requests', () => {
  let repo: string;
  let clone: Clone;

  before(async () => {
    const r = await repoWithFeature(t, alice);
    repo = r.clone.repo;
    clone = r.clone;
    const kit = t.octokit(alice.token);
    await collaborate(alice, repo, [bob]);
    for (const n of [1, 2, 3, 4]) await branch(clone, `f${n}`, { [`f${n}.txt`]: `${n}\n` });
    await branch(clone, 'dev', { 'dev.txt': 'dev\n' });
    await branch(clone, 'f5', { 'f5.txt': '5\n' }, 'dev');
    await kit.rest.pulls.create({ owner: alice.login, repo, title: 'One', head: 'f1', base: 'main' });
    await t.octokit(bob.token).rest.pulls.create({ owner: alice.login, repo, title: 'Two', head: 'f2', base: 'main' });
    await kit.rest.pulls.create({ owner: alice.login, repo, title: 'Three', head: 'f3', base: 'main' });
    await t.octokit(bob.token).rest.pulls.create({ owner: alice.login, repo, title: 'Four', head: 'f4', base: 'main' });
    await kit.rest.pulls.create({ owner: alice.login, repo, title: 'Five', head: 'f5', base: 'dev' });
    await kit.rest.pulls.update({ owner: alice.login, repo, pull_number: 2, state: 'closed' });
    await kit.rest.pulls.merge({ owner: alice.login, repo, pull_number: 3 });
    await kit.rest.issues.addLabels({ owner: alice.login, repo, issue_number: 4, labels: ['bug'] });
    await kit.rest.issues.addLabels({ owner: alice.login, repo, issue_number: 5, labels: ['docs'] });
    await t.octokit(bob.token).rest.issues.createComment({ owner: alice.login, repo, issue_number: 5, body: 'first' });
    await t.octokit(bob.token).rest.issues.createComment({ owner: alice.login, repo, issue_number: 5, body: 'second' });
    await t.octokit(bob.token).rest.issues.createComment({ owner: alice.login, repo, issue_number: 1, body: 'only' });
    await kit.rest.issues.create({ owner: alice.login, repo, title: 'Not a pull request' });
  });

  type Conn = { totalCount: number; pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null }; nodes: { number: number; state: string }[] };
  const list = async (args: string, token = bob.token): Promise<Conn> => (await gql(t, token)<{ repository: { pullRequests: Conn } }>(
    `{ repository(owner: "${alice.login}", name: "${repo}") { pullRequests(${args}) {
      totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } nodes { number state } } } }`)).repository.pullRequests;
  const numbers = (c: Conn) => c.nodes.map((n) => n.number);

  test('every pull request, oldest first, issues left out; the same ones REST lists', async () => {
    const all = await list('first: 10');
    assert.equal(all.totalCount, 5);
    assert.deepEqual(all.nodes, [
      { number: 1, state: 'OPEN' }, { number: 2, state: 'CLOSED' }, { number: 3, state: 'MERGED' }, { number: 4, state: 'OPEN' }, { number: 5, state: 'OPEN' },
    ]);
    const { data: rest } = await t.octokit(bob.token).rest.pulls.list({ owner: alice.login, repo, state: 'all' });
    assert.deepEqual(numbers(await list('first: 10, orderBy: {field: CREATED_AT, direction: DESC}')), rest.map((p) => p.number));
  });

  test('states tell merged from closed; labels, head and base branches filter', async () => {
    assert.deepEqual(numbers(await list('first: 10, states: [OPEN]')), [1, 4, 5]);
    assert.deepEqual(numbers(await list('first: 10, states: [CLOSED]')), [2]);
    assert.deepEqual(numbers(await list('first: 10, states: [MERGED]')), [3]);
    assert.deepEqual(numbers(await list('first: 10, states: [CLOSED, MERGED]')), [2, 3]);
    assert.equal((await list('first: 10, states: [MERGED, OPEN]')).totalCount, 4);
    assert.deepEqual(numbers(await list('first: 10, labels: ["bug"]')), [4]);
    assert.deepEqual(numbers(await list('first: 10, labels: ["bug", "docs"]')), [4, 5]);
    assert.deepEqual(numbers(await list('first: 10, labels: ["nothing-like-this"]')), []);
    assert.deepEqual(numbers(await list('first: 10, headRefName: "f2"')), [2]);
    assert.deepEqual(numbers(await list('first: 10, baseRefName: "dev"')), [5]);
    assert.deepEqual(numbers(await list('first: 10, baseRefName: "main", states: [OPEN]')), [1, 4]);
    assert.deepEqual(numbers(await list('first: 10, orderBy: {field: COMMENTS, direction: DESC}')), [5, 1, 4, 3, 2]);
  });

  test('pagination forwards and backwards with opaque cursors', async () => {
    const forward: number[] = [];
    let cursor: string | null = null;
    for (;;) {
      const page: Conn = await list(`first: 2${cursor ? `, after: "${cursor}"` : ''}`);
      forward.push(...numbers(page));
      assert.equal(page.pageInfo.hasPreviousPage, cursor !== null);
      assert.equal(page.totalCount, 5);
      if (!page.pageInfo.hasNextPage) break;
      cursor = page.pageInfo.endCursor;
    }
    assert.deepEqual(forward, [1, 2, 3, 4, 5]);
    const backward: number[] = [];
    cursor = null;
    for (;;) {
      const page: Conn = await list(`last: 2${cursor ? `, before: "${cursor}"` : ''}`);
      backward.unshift(...numbers(page));
      assert.equal(page.pageInfo.hasNextPage, cursor !== null);
      if (!page.pageInfo.hasPreviousPage) break;
      cursor = page.pageInfo.startCursor;
    }
    assert.deepEqual(backward, [1, 2, 3, 4, 5]);

    const missing = await graphqlErrors(list('states: [OPEN]'));
    assert.deepEqual(missing.errors.map((e) => [e.type, e.message]), [
      ['MISSING_PAGINATION_BOUNDARIES', 'You must provide a `first` or `last` value to properly paginate the `pullRequests` connection.'],
    ]);
    const tooMany = await graphqlErrors(list('first: 101'));
    assert.equal(tooMany.errors[0]!.type, 'EXCESSIVE_PAGINATION');
  });

  test('a page of pull requests with their relations runs as many SQL statements whatever its size', async () => {
    const query = `query($n: Int!) { repository(owner: "${alice.login}", name: "${repo}") { pullRequests(first: $n) { totalCount nodes {
      number title state headRefName author { login } authorAssociation labels(first: 5) { nodes { name } } assignees(first: 5) { nodes { login } }
      milestone { title } reactionGroups { content } comments { totalCount } reviewDecision
      reviews(first: 5) { totalCount nodes { state author { login } } } reviewRequests(first: 5) { nodes { requestedReviewer { ... on User { login } } } }
      mergedBy { login } repository { name } } } } }`;
    const statementsOf = async (n: number) => {
      await gql(t, bob.token)(query, { n });
      const counter = countStatements(t.server.ctx);
      try {
        await gql(t, bob.token)(query, { n });
        return { count: counter.count, statements: [...counter.statements] };
      } finally {
        counter.stop();
      }
    };
    // Both pages hold pull requests of alice (the owner) and of bob (a collaborator): the same lookups.
    const small = await statementsOf(2);
    const large = await statementsOf(5);
    assert.ok(small.count > 0);
    assert.equal(large.count, small.count, `1: ${small.statements.join('; ')}\n5: ${large.statements.join('; ')}`);
  });

  test('User.pullRequests: the pull requests a user opened, private ones only for those who may read them', async () => {
    const priv = uniqueName('vault');
    const r = await repoWithFeature(t, alice, { private: true }, priv);
    assert.ok(r.id);
    await t.octokit(alice.token).rest.pulls.create({ owner: alice.login, repo: priv, title: 'Secret', head: 'feature', base: 'main' });
    const q = (login: string, args = 'first: 20') => `{ user(login: "${login}") { pullRequests(${args}) { totalCount nodes { title repository { name } } } } }`;
    const mine = await gql(t, alice.token)<{ user: { pullRequests: { totalCount: number; nodes: { title: string; repository: { name: string } }[] } } }>(q(alice.login));
    const titles = mine.user.pullRequests.nodes.filter((n) => n.repository.name === repo || n.repository.name === priv).map((n) => n.title);
    assert.deepEqual(titles, ['One', 'Three', 'Five', 'Secret']);
    const seenByBob = await gql(t, bob.token)<{ user: { pullRequests: { nodes: { title: string }[] } } }>(q(alice.login));
    assert.ok(!seenByBob.user.pullRequests.nodes.some((n) => n.title === 'Secret'));
    const bobs = await gql(t, stranger.token)<{ user: { pullRequests: { totalCount: number; nodes: { title: string }[] } } }>(q(bob.login, 'first: 5, states: [OPEN]'));
    assert.deepEqual(bobs.user.pullRequests, { totalCount: 1, nodes: [{ title: 'Four', repository: { name: repo } }] });
  });
});

describe('node ids', () => {
  test('pull requests, reviews, review comments, review requests and commits resolve by id; ids are REST node_ids', async () => {
    const r = await repoWithFeature(t, alice);
    const repo = r.clone.repo;
    await collaborate(alice, repo, [bob, carol]);
    const kit = t.octokit(alice.token);
    const { data: pull } = await kit.rest.pulls.create({ owner: alice.login, repo, title: 'Ids', head: 'feature', base: 'main' });
    await kit.rest.pulls.requestReviewers({ owner: alice.login, repo, pull_number: 1, reviewers: [carol.login] });
    const { data: review } = await t.octokit(bob.token).rest.pulls.createReview({
      owner: alice.login, repo, pull_number: 1, event: 'COMMENT', body: 'A note', comments: [{ path: 'app.txt', line: 2, body: 'This line' }],
    });
    const { data: comments } = await kit.rest.pulls.listReviewComments({ owner: alice.login, repo, pull_number: 1 });

    const { repository: { pullRequest: p } } = await gql(t, alice.token)<{ repository: { pullRequest: Json } }>(`{ repository(owner: "${alice.login}", name: "${repo}") {
      pullRequest(number: 1) { id reviews(first: 5) { nodes { id comments(first: 5) { nodes { id } } } } reviewRequests(first: 5) { nodes { id } } commits(first: 5) { nodes { id } } } } }`);
    assert.equal(p.id, pull.node_id);
    assert.equal(p.reviews.nodes[0].id, review.node_id);
    assert.equal(p.reviews.nodes[0].comments.nodes[0].id, comments[0]!.node_id);

    const ids = [pull.node_id, review.node_id, comments[0]!.node_id, p.reviewRequests.nodes[0].id, p.commits.nodes[0].id];
    const { nodes } = await gql(t, bob.token)<{ nodes: Json[] }>(`query($ids: [ID!]!) { nodes(ids: $ids) { __typename id
      ... on PullRequest { number } ... on PullRequestReview { state } ... on PullRequestReviewComment { path }
      ... on ReviewRequest { requestedReviewer { ... on User { login } } } ... on PullRequestCommit { commit { oid } } } }`, { ids });
    assert.deepEqual(nodes, [
      { __typename: 'PullRequest', id: pull.node_id, number: 1 },
      { __typename: 'PullRequestReview', id: review.node_id, state: 'COMMENTED' },
      { __typename: 'PullRequestReviewComment', id: comments[0]!.node_id, path: 'app.txt' },
      { __typename: 'ReviewRequest', id: ids[3], requestedReviewer: { login: carol.login } },
      { __typename: 'PullRequestCommit', id: ids[4], commit: { oid: r.featureSha } },
    ]);

    // Pull requests of a private repository are not there for outsiders.
    const priv = uniqueName('vault');
    await repoWithFeature(t, alice, { private: true }, priv);
    const { data: secret } = await kit.rest.pulls.create({ owner: alice.login, repo: priv, title: 'Secret', head: 'feature', base: 'main' });
    const { errors, data } = await graphqlErrors(gql(t, stranger.token)(`query($id: ID!) { node(id: $id) { id } }`, { id: secret.node_id }));
    assert.deepEqual(errors.map((e) => [e.type, e.message]), [['NOT_FOUND', `Could not resolve to a node with the global id of '${secret.node_id}'.`]]);
    assert.deepEqual(data, { node: null });
  });
});

describe('mutations', () => {
  test('createPullRequest opens what REST then shows, with the opened event', async () => {
    const r = await repoWithFeature(t, alice);
    const repo = r.clone.repo;
    const id = await repoId(alice.login, repo);
    const res = await gql(t, alice.token)<{ createPullRequest: { clientMutationId: string; pullRequest: Json } }>(`mutation($input: CreatePullRequestInput!) {
      createPullRequest(input: $input) { clientMutationId pullRequest { id number title body isDraft state headRefName baseRefName maintainerCanModify author { login } } } }`, {
      input: { clientMutationId: 'c-1', repositoryId: id, baseRefName: 'main', headRefName: 'feature', title: 'Through GraphQL', body: 'Made by a mutation', draft: true },
    });
    const { data: rest } = await t.octokit(alice.token).rest.pulls.get({ owner: alice.login, repo, pull_number: 1 });
    assert.equal(res.createPullRequest.clientMutationId, 'c-1');
    assert.deepEqual(res.createPullRequest.pullRequest, {
      id: rest.node_id, number: 1, title: 'Through GraphQL', body: 'Made by a mutation', isDraft: true, state: 'OPEN',
      headRefName: 'feature', baseRefName: 'main', maintainerCanModify: true, author: { login: alice.login },
    });
    assert.deepEqual([rest.title, rest.body, rest.draft, rest.head.sha, rest.maintainer_can_modify], ['Through GraphQL', 'Made by a mutation', true, r.featureSha, true]);
    const events = await listEvents(t.server.ctx, { event: 'pull_request', repositoryId: r.id });
    assert.deepEqual(events.map((e) => e.action), ['opened']);
    assert.equal((events[0]!.payload as Json).pull_request.node_id, rest.node_id);

    // The same head and base again: upstream's message, as UNPROCESSABLE; nothing opened.
    const again = await graphqlErrors(gql(t, alice.token)(`mutation($input: CreatePullRequestInput!) { createPullRequest(input: $input) { pullRequest { number } } }`, {
      input: { repositoryId: id, baseRefName: 'main', headRefName: 'feature', title: 'Again' },
    }));
    assert.deepEqual(again.errors.map((e) => [e.type, e.path, e.message]), [
      ['UNPROCESSABLE', ['createPullRequest'], `A pull request already exists for ${alice.login}:feature.`],
    ]);
    const noBranch = await graphqlErrors(gql(t, alice.token)(`mutation($input: CreatePullRequestInput!) { createPullRequest(input: $input) { pullRequest { number } } }`, {
      input: { repositoryId: id, baseRefName: 'main', headRefName: 'no-such-branch', title: 'Nothing' },
    }));
    assert.equal(noBranch.errors[0]!.type, 'UNPROCESSABLE');
    const { data: listed } = await t.octokit(alice.token).rest.pulls.list({ owner: alice.login, repo, state: 'all' });
    assert.equal(listed.length, 1);
  });

  test('updatePullRequest, closePullRequest, reopenPullRequest and the draft mutations change what REST shows', async () => {
    const r = await repoWithFeature(t, alice);
    const repo = r.clone.repo;
    const kit = t.octokit(alice.token);
    await collaborate(alice, repo, [bob]);
    await branch(r.clone, 'release', { 'release.txt': 'r\n' });
    await kit.rest.pulls.create({ owner: alice.login, repo, title: 'Before', head: 'feature', base: 'main' });
    const { data: label } = await kit.rest.issues.createLabel({ owner: alice.login, repo, name: 'ready' });
    const { data: ms } = await kit.rest.issues.createMilestone({ owner: alice.login, repo, title: 'v2' });
    const ids = await gql(t, alice.token)<{ repository: { milestone: { id: string }; label: { id: string } }; user: { id: string } }>(
      `{ repository(owner: "${alice.login}", name: "${repo}") { milestone(number: ${ms.number}) { id } label(name: "ready") { id } } user(login: "${bob.login}") { id } }`);
    assert.equal(ids.repository.label.id, label.node_id);
    const id = await pullId(alice.login, repo, 1);

    const updated = await gql(t, alice.token)<{ updatePullRequest: { actor: { login: string }; pullRequest: Json } }>(`mutation($input: UpdatePullRequestInput!) {
      updatePullRequest(input: $input) { actor { login } pullRequest { title body baseRefName maintainerCanModify labels(first: 5) { nodes { name } } assignees(first: 5) { nodes { login } } milestone { title } } } }`, {
      input: {
        pullRequestId: id, title: 'After', body: 'New body', baseRefName: 'release', maintainerCanModify: false,
        labelIds: [ids.repository.label.id], assigneeIds: [ids.user.id], milestoneId: ids.repository.milestone.id,
      },
    });
    assert.deepEqual(updated.updatePullRequest, {
      actor: { login: alice.login },
      pullRequest: {
        title: 'After', body: 'New body', baseRefName: 'release', maintainerCanModify: false,
        labels: { nodes: [{ name: 'ready' }] }, assignees: { nodes: [{ login: bob.login }] }, milestone: { title: 'v2' },
      },
    });
    const { data: rest } = await kit.rest.pulls.get({ owner: alice.login, repo, pull_number: 1 });
    assert.deepEqual([rest.title, rest.body, rest.base.ref, rest.maintainer_can_modify, rest.labels.map((l) => l.name), rest.assignees?.map((a) => a.login), rest.milestone?.title],
      ['After', 'New body', 'release', false, ['ready'], [bob.login], 'v2']);

    const mutate = (name: string) => gql(t, alice.token)<Record<string, { clientMutationId: string | null; pullRequest: { state: string; isDraft: boolean; closed: boolean } }>>(
      `mutation($input: ${name[0]!.toUpperCase()}${name.slice(1)}Input!) { ${name}(input: $input) { clientMutationId pullRequest { state isDraft closed } } }`,
      { input: { pullRequestId: id, clientMutationId: name } });
    assert.deepEqual((await mutate('convertPullRequestToDraft')).convertPullRequestToDraft, { clientMutationId: 'convertPullRequestToDraft', pullRequest: { state: 'OPEN', isDraft: true, closed: false } });
    assert.equal((await kit.rest.pulls.get({ owner: alice.login, repo, pull_number: 1 })).data.draft, true);
    assert.equal((await mutate('markPullRequestReadyForReview')).markPullRequestReadyForReview.pullRequest.isDraft, false);
    assert.equal((await kit.rest.pulls.get({ owner: alice.login, repo, pull_number: 1 })).data.draft, false);
    assert.deepEqual((await mutate('closePullRequest')).closePullRequest.pullRequest, { state: 'CLOSED', isDraft: false, closed: true });
    assert.equal((await kit.rest.pulls.get({ owner: alice.login, repo, pull_number: 1 })).data.state, 'closed');
    assert.deepEqual((await mutate('reopenPullRequest')).reopenPullRequest.pullRequest, { state: 'OPEN', isDraft: false, closed: false });
    assert.equal((await kit.rest.pulls.get({ owner: alice.login, repo, pull_number: 1 })).data.state, 'open');

    const actions = (await listEvents(t.server.ctx, { event: 'pull_request', repositoryId: r.id })).map((e) => e.action);
    const wanted = ['opened', 'edited', 'converted_to_draft', 'ready_for_review', 'closed', 'reopened'];
    assert.deepEqual(actions.filter((a) => wanted.includes(a ?? '')), wanted);
    const events = await listEvents(t.server.ctx, { event: 'pull_request', repositoryId: r.id });
    const edited = events.find((e) => e.action === 'edited')!.payload as Json;
    assert.deepEqual(edited.changes.title, { from: 'Before' });

    // A reader may not edit: upstream's FORBIDDEN, and nothing changes.
    const refused = await graphqlErrors(gql(t, stranger.token)(`mutation($input: UpdatePullRequestInput!) { updatePullRequest(input: $input) { pullRequest { title } } }`,
      { input: { pullRequestId: id, title: 'Hijacked' } }));
    assert.deepEqual(refused.errors.map((e) => [e.type, e.path, e.message]), [
      ['FORBIDDEN', ['updatePullRequest'], `${stranger.login} does not have the correct permissions to execute \`UpdatePullRequest\``],
    ]);
    assert.equal((await kit.rest.pulls.get({ owner: alice.login, repo, pull_number: 1 })).data.title, 'After');
  });

  test('requestReviews asks users and teams; without union it replaces the requests', async () => {
    const org = await createOrgWithOwner(t);
    const member = await addMember(t, org);
    const other = await addMember(t, org);
    const team = await createTeam(t, org.owner.token, org.login);
    const name = uniqueName('fleet');
    const okit = t.octokit(org.owner.token);
    // Creating the repository with team_id grants that team access to it.
    await okit.rest.repos.createInOrg({ org: org.login, name, auto_init: true, team_id: team.id });
    for (const u of [member, other]) {
      const inv = await okit.rest.repos.addCollaborator({ owner: org.login, repo: name, username: u.login, permission: 'push' });
      if (inv.status === 201) await t.octokit(u.token).rest.repos.acceptInvitationForAuthenticatedUser({ invitation_id: inv.data.id });
    }
    const { data: main } = await okit.rest.git.getRef({ owner: org.login, repo: name, ref: 'heads/main' });
    await okit.rest.git.createRef({ owner: org.login, repo: name, ref: 'refs/heads/topic', sha: main.object.sha });
    await okit.rest.repos.createOrUpdateFileContents({ owner: org.login, repo: name, path: 'topic.txt', message: 'Topic', content: Buffer.from('t\n').toString('base64'), branch: 'topic' });
    await okit.rest.pulls.create({ owner: org.login, repo: name, title: 'Review me', head: 'topic', base: 'main' });
    const found = await gql(t, org.owner.token)<{ repository: { pullRequest: { id: string } }; member: { id: string }; other: { id: string }; organization: { team: { id: string } } }>(`{
      repository(owner: "${org.login}", name: "${name}") { pullRequest(number: 1) { id } }
      member: user(login: "${member.login}") { id } other: user(login: "${other.login}") { id } organization(login: "${org.login}") { team(slug: "${team.slug}") { id } } }`);
    const request = (input: Json) => gql(t, org.owner.token)<{ requestReviews: { actor: { login: string }; pullRequest: { reviewRequests: Json } } }>(`mutation($input: RequestReviewsInput!) {
      requestReviews(input: $input) { actor { login } pullRequest { reviewRequests(first: 10) { totalCount nodes { asCodeOwner requestedReviewer { __typename ... on User { login } ... on Team { slug } } } } } } }`,
    { input: { pullRequestId: found.repository.pullRequest.id, ...input } });

    const first = await request({ userIds: [found.member.id], teamIds: [found.organization.team.id] });
    assert.deepEqual(first.requestReviews.pullRequest.reviewRequests.nodes, [
      { asCodeOwner: false, requestedReviewer: { __typename: 'User', login: member.login } },
      { asCodeOwner: false, requestedReviewer: { __typename: 'Team', slug: team.slug } },
    ]);
    let { data: rest } = await okit.rest.pulls.listRequestedReviewers({ owner: org.login, repo: name, pull_number: 1 });
    assert.deepEqual([rest.users.map((u) => u.login), rest.teams.map((x) => x.slug)], [[member.login], [team.slug]]);

    const union = await request({ userIds: [found.other.id], union: true });
    assert.equal(union.requestReviews.pullRequest.reviewRequests.totalCount, 3);
    const replaced = await request({ userIds: [found.other.id] });
    assert.deepEqual(replaced.requestReviews.pullRequest.reviewRequests.nodes, [{ asCodeOwner: false, requestedReviewer: { __typename: 'User', login: other.login } }]);
    ({ data: rest } = await okit.rest.pulls.listRequestedReviewers({ owner: org.login, repo: name, pull_number: 1 }));
    assert.deepEqual([rest.users.map((u) => u.login), rest.teams], [[other.login], []]);
    const events = (await listEvents(t.server.ctx, { event: 'pull_request' })).filter((e) => (e.payload as Json).pull_request.base.repo.name === name);
    assert.deepEqual(events.map((e) => e.action), ['opened', 'review_requested', 'review_requested', 'review_requested', 'review_request_removed', 'review_request_removed']);

    // Someone who is no collaborator: the service's refusal, and nothing changes.
    const outsider = await gql(t, org.owner.token)<{ user: { id: string } }>(`{ user(login: "${stranger.login}") { id } }`);
    const refused = await graphqlErrors(request({ userIds: [outsider.user.id] }));
    assert.equal(refused.errors[0]!.type, 'UNPROCESSABLE');
    assert.match(refused.errors[0]!.message, /Reviews may only be requested from collaborators/);
    ({ data: rest } = await okit.rest.pulls.listRequestedReviewers({ owner: org.login, repo: name, pull_number: 1 }));
    assert.deepEqual(rest.users.map((u) => u.login), [other.login]);
  });

  test('addPullRequestReview and submitPullRequestReview: reviews, their comments and the decision, as REST shows them', async () => {
    const r = await repoWithFeature(t, alice);
    const repo = r.clone.repo;
    const kit = t.octokit(alice.token);
    await collaborate(alice, repo, [bob, carol]);
    await kit.rest.pulls.create({ owner: alice.login, repo, title: 'Review me', head: 'feature', base: 'main' });
    await kit.rest.pulls.requestReviewers({ owner: alice.login, repo, pull_number: 1, reviewers: [bob.login, carol.login] });
    const id = await pullId(alice.login, repo, 1);
    const add = (token: string, input: Json) => gql(t, token)<{ addPullRequestReview: { clientMutationId: string | null; pullRequestReview: Json; reviewEdge: { cursor: string; node: { id: string } } } }>(
      `mutation($input: AddPullRequestReviewInput!) { addPullRequestReview(input: $input) { clientMutationId reviewEdge { cursor node { id } }
        pullRequestReview { id databaseId state body author { login } submittedAt commit { oid } pullRequest { number } url viewerDidAuthor
          comments(first: 5) { totalCount nodes { id path line startLine diffHunk body state subjectType outdated author { login } commit { oid } pullRequestReview { state } replyTo { id } } } } } }`,
      { input: { pullRequestId: id, ...input } });

    const changes = await add(bob.token, {
      clientMutationId: 'r-1', event: 'REQUEST_CHANGES', body: 'Not yet',
      threads: [{ path: 'app.txt', line: 2, body: 'Why shout?' }, { path: 'feature.txt', line: 1, side: 'RIGHT', body: 'New file' }],
    });
    const review = changes.addPullRequestReview.pullRequestReview;
    assert.equal(changes.addPullRequestReview.clientMutationId, 'r-1');
    assert.equal(changes.addPullRequestReview.reviewEdge.node.id, review.id);
    const { data: restReviews } = await kit.rest.pulls.listReviews({ owner: alice.login, repo, pull_number: 1 });
    const { data: restComments } = await kit.rest.pulls.listReviewComments({ owner: alice.login, repo, pull_number: 1 });
    assert.deepEqual(review, {
      id: restReviews[0]!.node_id, databaseId: restReviews[0]!.id, state: 'CHANGES_REQUESTED', body: 'Not yet', author: { login: bob.login },
      submittedAt: restReviews[0]!.submitted_at, commit: { oid: r.featureSha }, pullRequest: { number: 1 }, url: restReviews[0]!.html_url, viewerDidAuthor: true,
      comments: {
        totalCount: 2,
        nodes: restComments.map((c) => ({
          id: c.node_id, path: c.path, line: c.line, startLine: null, diffHunk: c.diff_hunk, body: c.body, state: 'SUBMITTED', subjectType: 'LINE', outdated: false,
          author: { login: bob.login }, commit: { oid: c.commit_id }, pullRequestReview: { state: 'CHANGES_REQUESTED' }, replyTo: null,
        })),
      },
    });

    // A pending review is carol's alone until she submits it.
    const pending = await add(carol.token, { body: 'Thinking', comments: [{ path: 'app.txt', position: 1, body: 'Context' }] });
    assert.equal(pending.addPullRequestReview.pullRequestReview.state, 'PENDING');
    assert.equal(pending.addPullRequestReview.pullRequestReview.submittedAt, null);
    const q = `{ repository(owner: "${alice.login}", name: "${repo}") { pullRequest(number: 1) { reviewDecision
      reviews(first: 10) { totalCount nodes { state author { login } } } approved: reviews(first: 10, states: [APPROVED]) { totalCount }
      byBob: reviews(first: 10, author: "${bob.login}") { nodes { state } } latestReviews(first: 10) { nodes { state } }
      viewerLatestReview { state } reviewRequests(first: 5) { nodes { requestedReviewer { ... on User { login } } } } } } }`;
    type Reviews = { repository: { pullRequest: Json } };
    let seen = (await gql(t, alice.token)<Reviews>(q)).repository.pullRequest;
    assert.equal(seen.reviews.totalCount, 1);
    assert.equal(seen.reviewDecision, 'CHANGES_REQUESTED');
    // bob's review answered his request; carol's is still asked for.
    assert.deepEqual(seen.reviewRequests.nodes, [{ requestedReviewer: { login: carol.login } }]);
    assert.equal((await gql(t, carol.token)<Reviews>(q)).repository.pullRequest.reviews.totalCount, 2);

    const submitted = await gql(t, carol.token)<{ submitPullRequestReview: { clientMutationId: string; pullRequestReview: { id: string; state: string; body: string } } }>(
      `mutation($input: SubmitPullRequestReviewInput!) { submitPullRequestReview(input: $input) { clientMutationId pullRequestReview { id state body } } }`,
      { input: { clientMutationId: 's-1', pullRequestId: id, event: 'APPROVE', body: 'Fine by me' } });
    assert.deepEqual(submitted.submitPullRequestReview, {
      clientMutationId: 's-1', pullRequestReview: { id: pending.addPullRequestReview.pullRequestReview.id, state: 'APPROVED', body: 'Fine by me' },
    });
    seen = (await gql(t, bob.token)<Reviews>(q)).repository.pullRequest;
    assert.deepEqual(seen.reviews.nodes, [{ state: 'CHANGES_REQUESTED', author: { login: bob.login } }, { state: 'APPROVED', author: { login: carol.login } }]);
    assert.equal(seen.approved.totalCount, 1);
    assert.deepEqual(seen.byBob.nodes, [{ state: 'CHANGES_REQUESTED' }]);
    assert.deepEqual(seen.latestReviews.nodes, [{ state: 'CHANGES_REQUESTED' }, { state: 'APPROVED' }]);
    assert.deepEqual(seen.viewerLatestReview, { state: 'CHANGES_REQUESTED' });
    assert.equal(seen.reviewDecision, 'CHANGES_REQUESTED');
    assert.deepEqual(seen.reviewRequests.nodes, []);
    const restAfter = (await kit.rest.pulls.listReviews({ owner: alice.login, repo, pull_number: 1 })).data;
    assert.deepEqual(restAfter.map((x) => [x.node_id, x.state, x.body]), [
      [review.id, 'CHANGES_REQUESTED', 'Not yet'], [submitted.submitPullRequestReview.pullRequestReview.id, 'APPROVED', 'Fine by me'],
    ]);

    // bob approves after all: the decision follows each reviewer's latest review.
    const approval = await add(bob.token, { event: 'APPROVE', body: 'Now yes' });
    const approvalId = approval.addPullRequestReview.pullRequestReview.id;
    assert.equal((await gql(t, bob.token)<Reviews>(q)).repository.pullRequest.reviewDecision, 'APPROVED');
    const events = await listEvents(t.server.ctx, { event: 'pull_request_review', repositoryId: r.id });
    assert.deepEqual(events.map((e) => [e.action, (e.payload as Json).review.node_id]), [
      ['submitted', review.id], ['submitted', submitted.submitPullRequestReview.pullRequestReview.id], ['submitted', approvalId],
    ]);
    const commentEvents = await listEvents(t.server.ctx, { event: 'pull_request_review_comment', repositoryId: r.id });
    assert.equal(commentEvents.length, 3);

    // The author cannot approve their own pull request; DISMISS is no review event.
    const own = await graphqlErrors(add(alice.token, { event: 'APPROVE' }));
    assert.deepEqual(own.errors.map((e) => [e.type, e.message]), [['UNPROCESSABLE', 'Can not approve your own pull request']]);
    const dismiss = await graphqlErrors(add(bob.token, { event: 'DISMISS' }));
    assert.equal(dismiss.errors[0]!.type, 'UNPROCESSABLE');
    const none = await graphqlErrors(gql(t, bob.token)(`mutation($input: SubmitPullRequestReviewInput!) { submitPullRequestReview(input: $input) { pullRequestReview { id } } }`,
      { input: { pullRequestId: id, event: 'COMMENT', body: 'x' } }));
    assert.equal(none.errors[0]!.type, 'NOT_FOUND');
  });
});

describe('merging through GraphQL', () => {
  const MERGE = `mutation($input: MergePullRequestInput!) { mergePullRequest(input: $input) { clientMutationId actor { login }
    pullRequest { state merged closed mergedAt mergedBy { login } mergeCommit { oid messageHeadline messageBody parents(first: 2) { totalCount } } viewerCanReopen } } }`;
  type Merged = { mergePullRequest: { clientMutationId: string | null; actor: { login: string }; pullRequest: Json } };

  test('a merge commit with the headline and body given: REST, git and the events agree', async () => {
    const r = await repoWithFeature(t, alice);
    const repo = r.clone.repo;
    const kit = t.octokit(alice.token);
    await kit.rest.pulls.create({ owner: alice.login, repo, title: 'Merge me', head: 'feature', base: 'main' });
    const id = await pullId(alice.login, repo, 1);

    // A head that moved meanwhile: refused, and nothing merged.
    const stale = await graphqlErrors(gql(t, alice.token)(MERGE, { input: { pullRequestId: id, expectedHeadOid: r.mainSha } }));
    assert.deepEqual(stale.errors.map((e) => [e.type, e.path, e.message]), [['UNPROCESSABLE', ['mergePullRequest'], 'Head branch was modified. Review and try the merge again.']]);
    assert.equal((await kit.rest.pulls.get({ owner: alice.login, repo, pull_number: 1 })).data.merged, false);

    const res = await gql(t, alice.token)<Merged>(MERGE, {
      input: { clientMutationId: 'm-1', pullRequestId: id, expectedHeadOid: r.featureSha, mergeMethod: 'MERGE', commitHeadline: 'Ship it', commitBody: 'With care.' },
    });
    const p = res.mergePullRequest.pullRequest;
    const { data: rest } = await kit.rest.pulls.get({ owner: alice.login, repo, pull_number: 1 });
    assert.equal(res.mergePullRequest.clientMutationId, 'm-1');
    assert.deepEqual(res.mergePullRequest.actor, { login: alice.login });
    assert.deepEqual([p.state, p.merged, p.closed, p.mergedAt, p.mergedBy, p.viewerCanReopen], ['MERGED', true, true, rest.merged_at, { login: alice.login }, false]);
    assert.deepEqual([rest.merged, rest.state, rest.merge_commit_sha], [true, 'closed', p.mergeCommit.oid]);
    assert.deepEqual([p.mergeCommit.messageHeadline, p.mergeCommit.messageBody, p.mergeCommit.parents.totalCount], ['Ship it', 'With care.', 2]);
    assert.deepEqual((await log(r.clone, 'origin/main', '%H %P %s'))[0], `${p.mergeCommit.oid} ${r.mainSha} ${r.featureSha} Ship it`);
    await kit.rest.pulls.checkIfMerged({ owner: alice.login, repo, pull_number: 1 });
    const events = await listEvents(t.server.ctx, { event: 'pull_request', repositoryId: r.id });
    const closed = events.find((e) => e.action === 'closed')!.payload as Json;
    assert.equal(closed.pull_request.merged, true);
    assert.ok((await listEvents(t.server.ctx, { event: 'push', repositoryId: r.id })).length >= 1);

    // Merged is final: merging again and reopening are refused.
    const again = await graphqlErrors(gql(t, alice.token)(MERGE, { input: { pullRequestId: id } }));
    assert.deepEqual(again.errors.map((e) => [e.type, e.message]), [['UNPROCESSABLE', 'Pull Request is not mergeable']]);
    const reopen = await graphqlErrors(gql(t, alice.token)(`mutation($input: ReopenPullRequestInput!) { reopenPullRequest(input: $input) { pullRequest { state } } }`, { input: { pullRequestId: id } }));
    assert.equal(reopen.errors[0]!.type, 'UNPROCESSABLE');
  });

  test('squash and rebase merges, as the repository allows them', async () => {
    const r = await repoWithFeature(t, alice);
    const repo = r.clone.repo;
    const kit = t.octokit(alice.token);
    await branch(r.clone, 'second', { 'second.txt': 'two\n' });
    await kit.rest.pulls.create({ owner: alice.login, repo, title: 'Squash me', head: 'feature', base: 'main' });
    await kit.rest.pulls.create({ owner: alice.login, repo, title: 'Rebase me', head: 'second', base: 'main' });

    const squashed = await gql(t, alice.token)<Merged>(MERGE, { input: { pullRequestId: await pullId(alice.login, repo, 1), mergeMethod: 'SQUASH' } });
    const s = squashed.mergePullRequest.pullRequest.mergeCommit;
    assert.deepEqual([s.messageHeadline, s.parents.totalCount], ['Squash me (#1)', 1]);
    assert.equal((await kit.rest.pulls.get({ owner: alice.login, repo, pull_number: 1 })).data.merge_commit_sha, s.oid);

    const rebased = await gql(t, alice.token)<Merged>(MERGE, { input: { pullRequestId: await pullId(alice.login, repo, 2), mergeMethod: 'REBASE' } });
    const b = rebased.mergePullRequest.pullRequest.mergeCommit;
    assert.deepEqual([b.messageHeadline, b.parents.totalCount], ['Work on second', 1]);
    const main = await log(r.clone, 'origin/main', '%H %s');
    assert.deepEqual(main.slice(0, 2), [`${b.oid} Work on second`, `${s.oid} Squash me (#1)`]);
    assert.equal(await revParse(r.clone, 'origin/main'), b.oid);

    // A method the repository does not allow is refused.
    await kit.rest.repos.update({ owner: alice.login, repo, allow_rebase_merge: false });
    await branch(r.clone, 'third', { 'third.txt': '3\n' });
    await kit.rest.pulls.create({ owner: alice.login, repo, title: 'Not this way', head: 'third', base: 'main' });
    const refused = await graphqlErrors(gql(t, alice.token)(MERGE, { input: { pullRequestId: await pullId(alice.login, repo, 3), mergeMethod: 'REBASE' } }));
    assert.deepEqual(refused.errors.map((e) => [e.type, e.message]), [['UNPROCESSABLE', 'Rebase merges are not allowed on this repository.']]);
  });

  test('without push access: FORBIDDEN in upstream\'s words, and nothing merged', async () => {
    const r = await repoWithFeature(t, alice);
    const repo = r.clone.repo;
    await t.octokit(alice.token).rest.pulls.create({ owner: alice.login, repo, title: 'Not yours', head: 'feature', base: 'main' });
    const id = await pullId(alice.login, repo, 1);
    // stranger reads the public repository but may not push to it.
    const { errors, data } = await graphqlErrors(gql(t, stranger.token)(MERGE, { input: { pullRequestId: id } }));
    assert.deepEqual(errors.map((e) => ({ type: e.type, path: e.path, message: e.message, located: Array.isArray(e.locations) })), [
      { type: 'FORBIDDEN', path: ['mergePullRequest'], message: `${stranger.login} does not have the correct permissions to execute \`MergePullRequest\``, located: true },
    ]);
    assert.deepEqual(data, { mergePullRequest: null });
    assert.equal((await t.octokit(alice.token).rest.pulls.get({ owner: alice.login, repo, pull_number: 1 })).data.merged, false);
  });
});

describe('scopes and ids', () => {
  test('a token without repo scopes may not run the mutations; the error names the field and scopes', async () => {
    const r = await repoWithFeature(t, alice);
    await t.octokit(alice.token).rest.pulls.create({ owner: alice.login, repo: r.clone.repo, title: 'Scoped', head: 'feature', base: 'main' });
    const id = await pullId(alice.login, r.clone.repo, 1);
    const { data: auth } = await t.octokit(ADMIN_TOKEN).request('POST /admin/users/{username}/authorizations', { username: alice.login, scopes: ['read:user'] });
    const narrow = (auth as { token: string }).token;
    for (const [mutation, input] of [['closePullRequest', 'ClosePullRequestInput'], ['mergePullRequest', 'MergePullRequestInput'], ['convertPullRequestToDraft', 'ConvertPullRequestToDraftInput']] as const) {
      const res = await postGraphQL(t, narrow, { query: `mutation($input: ${input}!) { ${mutation}(input: $input) { pullRequest { state } } }`, variables: { input: { pullRequestId: id } } });
      assert.equal(res.status, 200);
      // Refused before anything runs: no data at all.
      assert.equal('data' in res.body, false);
      assert.deepEqual(res.body.errors!.map((e) => e.type), ['INSUFFICIENT_SCOPES']);
      assert.equal(res.body.errors![0]!.message,
        `Your token has not been granted the required scopes to execute this query. The '${mutation}' field requires one of the following scopes: ['public_repo', 'repo'], but your token has only been granted the: ['read:user'] scopes. Please modify your token's scopes at: ${t.baseUrl}/settings/tokens.`);
    }
    assert.equal((await t.octokit(alice.token).rest.pulls.get({ owner: alice.login, repo: r.clone.repo, pull_number: 1 })).data.state, 'open');
  });

  test('ids that name nothing, or something else, are NOT_FOUND', async () => {
    const r = await repoWithFeature(t, alice);
    const repoGlobalId = await repoId(alice.login, r.clone.repo);
    for (const bad of ['not-an-id', repoGlobalId, Buffer.from('011:PullRequest999999').toString('base64')]) {
      const { errors } = await graphqlErrors(gql(t, alice.token)(`mutation($input: ClosePullRequestInput!) { closePullRequest(input: $input) { pullRequest { state } } }`, { input: { pullRequestId: bad } }));
      assert.deepEqual(errors.map((e) => [e.type, e.message]), [['NOT_FOUND', `Could not resolve to a node with the global id of '${bad}'.`]]);
    }
    const { errors } = await graphqlErrors(gql(t, alice.token)(`mutation($input: CreatePullRequestInput!) { createPullRequest(input: $input) { pullRequest { number } } }`, {
      input: { repositoryId: 'nope', baseRefName: 'main', headRefName: 'feature', title: 'x' },
    }));
    assert.equal(errors[0]!.type, 'NOT_FOUND');
  });
});

describe('where issues and pull requests meet', () => {
  test('issueOrPullRequest, search and reactions reach the PullRequest; reactions land on its issue row, as in REST', async () => {
    const r = await repoWithFeature(t, alice);
    const repo = r.clone.repo;
    await collaborate(alice, repo, [bob]);
    const kit = t.octokit(alice.token);
    const { data: pull } = await kit.rest.pulls.create({ owner: alice.login, repo, title: 'Findable walrus', head: 'feature', base: 'main' });
    await t.octokit(bob.token).rest.pulls.createReview({ owner: alice.login, repo, pull_number: 1, event: 'COMMENT', comments: [{ path: 'app.txt', line: 2, body: 'Hm' }] });
    const [comment] = (await kit.rest.pulls.listReviewComments({ owner: alice.login, repo, pull_number: 1 })).data;

    const found = await gql(t, bob.token)<{ repository: { issueOrPullRequest: Json }; search: { issueCount: number; nodes: Json[] } }>(`{
      repository(owner: "${alice.login}", name: "${repo}") { issueOrPullRequest(number: 1) { __typename ... on PullRequest { id headRefName } } }
      search(type: ISSUE, query: "walrus repo:${alice.login}/${repo}", first: 5) { issueCount nodes { __typename ... on PullRequest { number } } } }`);
    assert.deepEqual(found.repository.issueOrPullRequest, { __typename: 'PullRequest', id: pull.node_id, headRefName: 'feature' });
    assert.deepEqual(found.search, { issueCount: 1, nodes: [{ __typename: 'PullRequest', number: 1 }] });

    const react = (subjectId: string) => gql(t, bob.token)<{ addReaction: { reaction: { content: string }; subject: Json } }>(`mutation($input: AddReactionInput!) {
      addReaction(input: $input) { reaction { content } subject { __typename id reactionGroups { content viewerHasReacted reactors { totalCount } } } } }`,
    { input: { subjectId, content: 'EYES' } });
    const onPull = await react(pull.node_id);
    assert.deepEqual([onPull.addReaction.subject.__typename, onPull.addReaction.subject.id], ['PullRequest', pull.node_id]);
    assert.deepEqual(onPull.addReaction.subject.reactionGroups.find((g: Json) => g.content === 'EYES'), { content: 'EYES', viewerHasReacted: true, reactors: { totalCount: 1 } });
    const { data: restIssueReactions } = await kit.rest.reactions.listForIssue({ owner: alice.login, repo, issue_number: 1 });
    assert.deepEqual(restIssueReactions.map((x) => [x.content, x.user?.login]), [['eyes', bob.login]]);

    const onComment = await react(comment!.node_id);
    assert.deepEqual([onComment.addReaction.subject.__typename, onComment.addReaction.subject.id], ['PullRequestReviewComment', comment!.node_id]);
    const { data: restCommentReactions } = await kit.rest.reactions.listForPullRequestReviewComment({ owner: alice.login, repo, comment_id: comment!.id });
    assert.deepEqual(restCommentReactions.map((x) => [x.content, x.user?.login]), [['eyes', bob.login]]);
    const { nodes } = await gql(t, alice.token)<{ nodes: Json[] }>(`query($ids: [ID!]!) { nodes(ids: $ids) { ... on Reactable { reactions(first: 5) { totalCount nodes { content reactable { __typename } } } } } }`,
      { ids: [pull.node_id, comment!.node_id] });
    assert.deepEqual(nodes, [
      { reactions: { totalCount: 1, nodes: [{ content: 'EYES', reactable: { __typename: 'PullRequest' } }] } },
      { reactions: { totalCount: 1, nodes: [{ content: 'EYES', reactable: { __typename: 'PullRequestReviewComment' } }] } },
    ]);
  });
});

describe('the ghes address', () => {
  test('/api/graphql answers the same pull request', async () => {
    const r = await repoWithFeature(t, alice);
    await t.octokit(alice.token).rest.pulls.create({ owner: alice.login, repo: r.clone.repo, title: 'Enterprise', head: 'feature', base: 'main' });
    const res = await gql(t, alice.token, { ghes: true })<{ repository: { pullRequest: { title: string } } }>(
      `{ repository(owner: "${alice.login}", name: "${r.clone.repo}") { pullRequest(number: 1) { title } } }`);
    assert.deepEqual(res.repository.pullRequest, { title: 'Enterprise' });
  });
});
