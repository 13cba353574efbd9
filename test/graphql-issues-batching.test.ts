// A page of issues with their authors, labels, assignees and reaction groups runs the
// same number of SQL statements whatever its size: every relation goes through a
// per-request loader that fetches for the whole page at once.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addCollaborator, createRepo, type CreatedRepo } from './factories/issues.ts';
import { countStatements, gql } from './helpers/graphql.ts';

describe('GraphQL issue batching', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let carol: CreatedUser;
  let dock: CreatedRepo;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    bob = await createUser(t);
    carol = await createUser(t);
    dock = await createRepo(t, alice, { name: 'dock' });
    await addCollaborator(t, alice.token, dock, carol, 'push');
    const kit = t.octokit(alice.token).rest;
    const { data: m } = await kit.issues.createMilestone({ owner: dock.owner, repo: dock.repo, title: 'M1' });
    const labels = ['bug', 'documentation', 'question', 'enhancement'];
    for (let i = 0; i < 100; i++) {
      const author = i % 3 === 0 ? carol : i % 3 === 1 ? alice : bob;
      const { data: issue } = await t.octokit(author.token).rest.issues.create({
        owner: dock.owner, repo: dock.repo, title: `Issue ${i}`, body: `Body ${i}`,
        ...(author !== bob ? { labels: labels.slice(0, i % 5), assignees: i % 2 ? [carol.login, alice.login] : [alice.login], milestone: i % 4 ? m.number : undefined } : {}),
      });
      if (i % 2 === 0) await t.octokit(bob.token).rest.reactions.createForIssue({ owner: dock.owner, repo: dock.repo, issue_number: issue.number, content: 'heart' });
      if (i % 3 === 0) await t.octokit(carol.token).rest.reactions.createForIssue({ owner: dock.owner, repo: dock.repo, issue_number: issue.number, content: '+1' });
      if (i % 10 === 0) await t.octokit(bob.token).rest.issues.createComment({ owner: dock.owner, repo: dock.repo, issue_number: issue.number, body: 'c' });
    }
  });
  after(() => t.close());

  /** Statements one query runs (after the same query once, so that per-token bookkeeping is done). */
  async function statementsOf(token: string, query: string, variables: Record<string, unknown>): Promise<{ count: number; statements: readonly string[]; data: unknown }> {
    await gql(t, token)(query, variables);
    const counter = countStatements(t.server.ctx);
    try {
      const data = await gql(t, token)(query, variables);
      return { count: counter.count, statements: [...counter.statements], data };
    } finally {
      counter.stop();
    }
  }

  async function assertConstant(token: string, query: string, sizes: [number, number]): Promise<unknown> {
    const small = await statementsOf(token, query, { n: sizes[0] });
    const large = await statementsOf(token, query, { n: sizes[1] });
    assert.ok(small.count > 0);
    assert.equal(large.count, small.count, `page of ${sizes[0]}: ${small.statements.join('; ')}\npage of ${sizes[1]}: ${large.statements.join('; ')}`);
    return large.data;
  }

  test('100 issues with author, labels(first: 10), assignees(first: 10) and reactionGroups: as many statements as 10', async () => {
    const data = await assertConstant(bob.token, `query($n: Int!) { repository(owner: "${dock.owner}", name: "${dock.repo}") { issues(first: $n) { nodes {
      number title author { login } labels(first: 10) { nodes { name color } } assignees(first: 10) { nodes { login } }
      reactionGroups { content viewerHasReacted users { totalCount } reactors { totalCount } } } } } }`, [10, 100]) as {
      repository: { issues: { nodes: { author: { login: string }; labels: { nodes: unknown[] }; assignees: { nodes: unknown[] }; reactionGroups: { content: string; viewerHasReacted: boolean; users: { totalCount: number } }[] }[] } };
    };
    const nodes = data.repository.issues.nodes;
    assert.equal(nodes.length, 100);
    // The data is there, not just cheap: issue 0 has a heart from bob and a +1 from carol.
    const first = nodes[0]!;
    assert.equal(first.author.login, carol.login);
    const heart = first.reactionGroups.find((g) => g.content === 'HEART')!;
    assert.deepEqual([heart.users.totalCount, heart.viewerHasReacted], [1, true]);
    assert.equal(first.reactionGroups.find((g) => g.content === 'THUMBS_UP')!.users.totalCount, 1);
    assert.equal(nodes[1]!.labels.nodes.length, 1);
    assert.equal(nodes[3]!.labels.nodes.length, 3);
    assert.equal(nodes[1]!.assignees.nodes.length, 2);
  });

  test('the other relations of an issue page batch too', async () => {
    await assertConstant(alice.token, `query($n: Int!) { repository(owner: "${dock.owner}", name: "${dock.repo}") { issues(first: $n, orderBy: {field: CREATED_AT, direction: DESC}) {
      totalCount edges { cursor node { id number authorAssociation viewerDidAuthor viewerCanUpdate viewerCanReact viewerCanClose state closed locked
        milestone { title number progressPercentage } comments { totalCount } repository { nameWithOwner }
        labels(first: 5, orderBy: {field: NAME, direction: ASC}) { totalCount nodes { id name repository { name } } }
        assignees(first: 5) { totalCount nodes { login avatarUrl } }
        reactions(first: 0) { totalCount viewerHasReacted } } } } } }`, [10, 100]);
    await assertConstant(bob.token, `query($n: Int!) { search(query: "issue repo:${dock.owner}/${dock.repo}", type: ISSUE, first: $n) { issueCount nodes {
      ... on Issue { number author { login } labels(first: 10) { nodes { name } } assignees(first: 10) { nodes { login } } reactionGroups { content users { totalCount } } } } } }`, [10, 100]);
  });
});
