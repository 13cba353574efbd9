// The GraphQL documents gh 2.23 sends (test/fixtures/gh-2.23), run through
// @octokit/graphql: issue view (with and without comments) on an issue and on a pull
// request, the close and reopen lookups and mutations, issue create with projectIds;
// and what they need of Wharf: fields of the same name but different types on
// mutually exclusive object types (upstream's server accepts them), hidden comments
// (minimizeComment / unminimizeComment, isMinimized, minimizedReason), projectCards.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { gql, graphqlErrors } from './helpers/graphql.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addCollaborator, createIssue, createRepo, type CreatedRepo } from './factories/issues.ts';
import { repoWithFeature } from './factories/pulls.ts';

type Json = Record<string, any>;

const fixture = (name: string) => fs.readFileSync(new URL(`./fixtures/gh-2.23/${name}.graphql`, import.meta.url), 'utf8');

let t: TestServer;
let alice: CreatedUser;
let bob: CreatedUser;
/** A collaborator (push access on a personal repository: more than the triage access minimizing takes). */
let triager: CreatedUser;
let r: CreatedRepo;

before(async () => {
  t = await startTestServer();
  [alice, bob, triager] = [await createUser(t), await createUser(t), await createUser(t)];
  r = await createRepo(t, alice);
  await addCollaborator(t, alice.token, r, triager);
});
after(async () => { await t.close(); });

const vars = (number: number, repo: CreatedRepo = r) => ({ owner: repo.owner, repo: repo.repo, number });

describe('gh issue view', () => {
  test('an issue: state, author, labels, an empty projectCards, the last comment with isMinimized', async () => {
    const issue = await createIssue(t, alice.token, r, { title: 'Crash on start', body: 'It crashes.', labels: ['bug'] });
    await t.octokit(bob.token).rest.issues.createComment({ ...r, issue_number: issue.number, body: 'Me too' });
    const data = await gql(t, bob.token)<Json>(fixture('issue-view'), vars(issue.number));
    const got = data.repository.issue;
    assert.equal(data.repository.hasIssuesEnabled, true);
    assert.equal(got.__typename, 'Issue');
    assert.equal(got.number, issue.number);
    assert.equal(got.state, 'OPEN');
    assert.equal(got.title, 'Crash on start');
    assert.equal(got.author.login, alice.login);
    assert.deepEqual(got.labels.nodes.map((l: Json) => l.name), ['bug']);
    assert.deepEqual(got.projectCards, { nodes: [], totalCount: 0 });
    assert.equal(got.comments.totalCount, 1);
    assert.deepEqual(got.comments.nodes.map((c: Json) => [c.body, c.author.login, c.isMinimized, c.minimizedReason]), [['Me too', bob.login, false, null]]);
    assert.equal(got.stateReason, null);
  });

  test('a pull request answers the same document (state of type PullRequestState beside IssueState)', async () => {
    const pr = await repoWithFeature(t, alice);
    const repo = { owner: alice.login, repo: pr.clone.repo, id: pr.id };
    const { data: made } = await t.octokit(alice.token).rest.pulls.create({ ...repo, title: 'Feature', head: 'feature', base: 'main' });
    for (const doc of ['issue-view', 'issue-view-comments', 'issue-lookup']) {
      const data = await gql(t, alice.token)<Json>(fixture(doc), vars(made.number, repo));
      assert.equal(data.repository.issue.__typename, 'PullRequest', doc);
      assert.equal(data.repository.issue.state, 'OPEN', doc);
      assert.equal(data.repository.issue.number, made.number, doc);
    }
  });

  test('fields that really conflict are still refused: one response name for two fields of one type', async () => {
    const { errors } = await graphqlErrors(gql(t, alice.token)(`query($owner: String!, $repo: String!) {
      repository(owner: $owner, name: $repo) { issue(number: 1) { x: title x: body } } }`, { owner: r.owner, repo: r.repo }));
    assert.match(errors[0]!.message, /Fields "x" conflict because "title" and "body" are different fields/);
    // … and on an interface and an object type that may be the same object.
    const second = await graphqlErrors(gql(t, alice.token)(`query($owner: String!, $repo: String!) {
      repository(owner: $owner, name: $repo) { issueOrPullRequest(number: 1) { ... on Issue { n: number } ... on Issue { n: title } } } }`, { owner: r.owner, repo: r.repo }));
    assert.match(second.errors[0]!.message, /Fields "n" conflict/);
  });
});

describe('gh issue close and reopen', () => {
  test('the lookup and the mutations gh sends close and reopen the issue', async () => {
    const issue = await createIssue(t, alice.token, r, { title: 'To close' });
    const looked = await gql(t, alice.token)<Json>(fixture('issue-lookup'), vars(issue.number));
    assert.deepEqual(looked.repository.issue, { __typename: 'Issue', id: issue.node_id, number: issue.number, title: 'To close', state: 'OPEN' });
    const closed = await gql(t, alice.token)<Json>(fixture('issue-close'), { input: { issueId: issue.node_id, stateReason: 'NOT_PLANNED' } });
    assert.equal(closed.closeIssue.issue.id, issue.node_id);
    const after = (await t.octokit(alice.token).rest.issues.get({ ...r, issue_number: issue.number })).data;
    assert.equal(after.state, 'closed');
    assert.equal(after.state_reason, 'not_planned');
    await gql(t, alice.token)(fixture('issue-reopen'), { input: { issueId: issue.node_id } });
    assert.equal((await t.octokit(alice.token).rest.issues.get({ ...r, issue_number: issue.number })).data.state, 'open');
  });
});

describe('gh issue create', () => {
  test('projectIds: an empty list is accepted; an id of no project is NOT_FOUND and creates nothing', async () => {
    const repoId = (await t.octokit(alice.token).rest.repos.get({ owner: r.owner, repo: r.repo })).data.node_id;
    const made = await gql(t, alice.token)<Json>(fixture('issue-create'), { input: { repositoryId: repoId, title: 'From gh', body: 'b', projectIds: [] } });
    assert.match(made.createIssue.issue.url, /\/issues\/\d+$/);
    const before = (await t.octokit(alice.token).rest.issues.listForRepo({ ...r, state: 'all', per_page: 100 })).data.length;
    const { errors } = await graphqlErrors(gql(t, alice.token)(fixture('issue-create'), { input: { repositoryId: repoId, title: 'Nope', projectIds: ['PRO_kwDOnope'] } }));
    assert.equal(errors[0]!.type, 'NOT_FOUND');
    assert.match(errors[0]!.message, /Could not resolve to a node with the global id of 'PRO_kwDOnope'/);
    const after = (await t.octokit(alice.token).rest.issues.listForRepo({ ...r, state: 'all', per_page: 100 })).data.length;
    assert.equal(after, before);
    // updateIssue takes them too, with the same answer and no change.
    const issueId = made.createIssue.issue.id;
    const upd = await graphqlErrors(gql(t, alice.token)(`mutation($input: UpdateIssueInput!) { updateIssue(input: $input) { issue { title } } }`,
      { input: { id: issueId, title: 'Changed', projectIds: ['PRO_kwDOnope'] } }));
    assert.equal(upd.errors[0]!.type, 'NOT_FOUND');
    const data = await gql(t, alice.token)<Json>(`query($id: ID!) { node(id: $id) { ... on Issue { title } } }`, { id: issueId });
    assert.equal(data.node.title, 'From gh');
  });
});

describe('hidden comments', () => {
  const minimize = `mutation($input: MinimizeCommentInput!) { minimizeComment(input: $input) { clientMutationId minimizedComment { isMinimized minimizedReason viewerCanMinimize ... on IssueComment { body } } } }`;
  const unminimize = `mutation($input: UnminimizeCommentInput!) { unminimizeComment(input: $input) { unminimizedComment { isMinimized minimizedReason } } }`;
  const state = `query($id: ID!) { node(id: $id) { ... on IssueComment { isMinimized minimizedReason viewerCanMinimize } } }`;

  test('triage access hides a comment with a reason in upstream\'s words and shows it again; others may not', async () => {
    const issue = await createIssue(t, alice.token, r);
    const { data: comment } = await t.octokit(bob.token).rest.issues.createComment({ ...r, issue_number: issue.number, body: 'buy now' });
    assert.deepEqual((await gql(t, bob.token)<Json>(state, { id: comment.node_id })).node, { isMinimized: false, minimizedReason: null, viewerCanMinimize: false });
    assert.equal((await gql(t, triager.token)<Json>(state, { id: comment.node_id })).node.viewerCanMinimize, true);

    // The author without triage access may not hide it, and nothing changes.
    const refused = await graphqlErrors(gql(t, bob.token)(minimize, { input: { subjectId: comment.node_id, classifier: 'SPAM' } }));
    assert.equal(refused.errors[0]!.type, 'FORBIDDEN');
    assert.equal((await gql(t, alice.token)<Json>(state, { id: comment.node_id })).node.isMinimized, false);

    const hidden = await gql(t, triager.token)<Json>(minimize, { input: { subjectId: comment.node_id, classifier: 'OFF_TOPIC', clientMutationId: 'm1' } });
    assert.deepEqual(hidden.minimizeComment, {
      clientMutationId: 'm1', minimizedComment: { isMinimized: true, minimizedReason: 'off-topic', viewerCanMinimize: true, body: 'buy now' },
    });
    const viewed = await gql(t, bob.token)<Json>(fixture('issue-view-comments'), vars(issue.number));
    assert.deepEqual(viewed.repository.issue.comments.nodes.map((c: Json) => [c.isMinimized, c.minimizedReason]), [[true, 'off-topic']]);

    const shown = await gql(t, alice.token)<Json>(unminimize, { input: { subjectId: comment.node_id } });
    assert.deepEqual(shown.unminimizeComment.unminimizedComment, { isMinimized: false, minimizedReason: null });
  });

  test('bad input: an unknown classifier, an id of no comment, an issue id', async () => {
    const issue = await createIssue(t, alice.token, r);
    const { data: comment } = await t.octokit(alice.token).rest.issues.createComment({ ...r, issue_number: issue.number, body: 'x' });
    const bad = await graphqlErrors(gql(t, alice.token)(minimize, { input: { subjectId: comment.node_id, classifier: 'RUDE' } }));
    assert.match(bad.errors[0]!.message, /RUDE/);
    for (const id of ['IC_nothing', issue.node_id]) {
      const { errors } = await graphqlErrors(gql(t, alice.token)(minimize, { input: { subjectId: id, classifier: 'SPAM' } }));
      assert.equal(errors[0]!.type, 'NOT_FOUND', id);
    }
    assert.equal((await gql(t, alice.token)<Json>(state, { id: comment.node_id })).node.isMinimized, false);
  });
});
