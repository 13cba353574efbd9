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

describe('gh pr view', () => {
  test('the document gh sends: reviews with reactions, the status check rollup, mergeStateStatus', async () => {
    const f = await repoWithFeature(t, alice);
    const repo = { owner: alice.login, repo: f.clone.repo };
    const kit = t.octokit(alice.token);
    const { data: pr } = await kit.rest.pulls.create({ ...repo, title: 'Feature', head: 'feature', base: 'main' });
    const view = () => gql(t, alice.token)<Json>(fixture('pr-view'), { owner: repo.owner, repo: repo.repo, pr_number: pr.number }).then((d) => d.repository.pullRequest);
    const state = `query($owner: String!, $repo: String!, $n: Int!) { repository(owner: $owner, name: $repo) { pullRequest(number: $n) { mergeStateStatus } } }`;
    const mergeState = async () => (await gql(t, alice.token)<Json>(state, { owner: repo.owner, repo: repo.repo, n: pr.number })).repository.pullRequest.mergeStateStatus;

    // Nothing reported on the head yet: no rollup, a clean merge.
    let got = await view();
    assert.equal(got.state, 'OPEN');
    assert.equal(got.mergeable, 'MERGEABLE');
    assert.deepEqual(got.statusCheckRollup.nodes, [{ commit: { statusCheckRollup: null } }]);
    assert.deepEqual(got.projectCards, { nodes: [], totalCount: 0 });
    assert.equal(await mergeState(), 'CLEAN');

    // CI reports: the rollup lists the latest status of each context; pending and failing ones make the merge unstable.
    await kit.rest.repos.createCommitStatus({ ...repo, sha: f.featureSha, state: 'pending', context: 'ci/build' });
    await kit.rest.repos.createCommitStatus({ ...repo, sha: f.featureSha, state: 'success', context: 'ci/build', target_url: 'https://ci.example/1' });
    await kit.rest.repos.createCommitStatus({ ...repo, sha: f.featureSha, state: 'failure', context: 'ci/lint', description: 'lint failed' });
    got = await view();
    const rollup = got.statusCheckRollup.nodes[0].commit.statusCheckRollup;
    assert.deepEqual(rollup.contexts.nodes.map((c: Json) => [c.__typename, c.context, c.state, c.targetUrl]),
      [['StatusContext', 'ci/build', 'SUCCESS', 'https://ci.example/1'], ['StatusContext', 'ci/lint', 'FAILURE', null]]);
    assert.equal(await mergeState(), 'UNSTABLE');
    const rolled = await gql(t, alice.token)<Json>(`query($owner: String!, $repo: String!, $oid: GitObjectID!) { repository(owner: $owner, name: $repo) {
      object(oid: $oid) { ... on Commit { statusCheckRollup { id state contexts(first: 1) { totalCount statusContextCount checkRunCount nodes { ... on StatusContext { id } } } } } } } }`,
    { owner: repo.owner, repo: repo.repo, oid: f.featureSha });
    const r = rolled.repository.object.statusCheckRollup;
    assert.equal(r.state, 'FAILURE');
    assert.deepEqual([r.contexts.totalCount, r.contexts.statusContextCount, r.contexts.checkRunCount, r.contexts.nodes.length], [2, 2, 0, 1]);
    // Both are nodes: found again by id.
    const again = await gql(t, alice.token)<Json>(`query($a: ID!, $b: ID!) { a: node(id: $a) { ... on StatusCheckRollup { state } } b: node(id: $b) { ... on StatusContext { context } } }`,
      { a: r.id, b: r.contexts.nodes[0].id });
    assert.deepEqual(again, { a: { state: 'FAILURE' }, b: { context: 'ci/build' } });
    // The failing context passes: the latest status of each context counts.
    await kit.rest.repos.createCommitStatus({ ...repo, sha: f.featureSha, state: 'success', context: 'ci/lint' });
    assert.equal(await mergeState(), 'CLEAN');

    // A submitted review, and a reaction on it through addReaction.
    const { data: review } = await t.octokit(bob.token).rest.pulls.createReview({ ...repo, pull_number: pr.number, event: 'COMMENT', body: 'Looks fine' });
    await gql(t, alice.token)(`mutation($id: ID!) { addReaction(input: { subjectId: $id, content: HEART }) { reaction { content } } }`, { id: review.node_id });
    got = await view();
    assert.deepEqual(got.reviews.nodes.map((n: Json) => [n.author.login, n.state, n.body]), [[bob.login, 'COMMENTED', 'Looks fine']]);
    const heart = got.reviews.nodes[0].reactionGroups.find((g: Json) => g.content === 'HEART');
    assert.equal(heart.users.totalCount, 1);

    // A draft is blocked.
    await gql(t, alice.token)(`mutation($id: ID!) { convertPullRequestToDraft(input: { pullRequestId: $id }) { pullRequest { isDraft } } }`, { id: pr.node_id });
    assert.equal(await mergeState(), 'BLOCKED');
  });

  test('a pending review takes no reaction; an unknown review id is NOT_FOUND', async () => {
    const f = await repoWithFeature(t, alice);
    const repo = { owner: alice.login, repo: f.clone.repo };
    const { data: pr } = await t.octokit(alice.token).rest.pulls.create({ ...repo, title: 'x', head: 'feature', base: 'main' });
    const { data: pending } = await t.octokit(bob.token).rest.pulls.createReview({ ...repo, pull_number: pr.number, body: 'draft' });
    const react = `mutation($id: ID!) { addReaction(input: { subjectId: $id, content: HEART }) { reaction { content } } }`;
    for (const [token, id] of [[bob.token, pending.node_id], [alice.token, 'PRR_nothing']] as const) {
      const { errors } = await graphqlErrors(gql(t, token)(react, { id }));
      assert.equal(errors[0]!.type, 'NOT_FOUND', id);
    }
  });
});
