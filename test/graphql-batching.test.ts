// Lists batch: a query over a page of records runs the same number of SQL statements
// whatever the page size, because every relation goes through a per-request loader.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addMember, createOrgWithOwner, createTeam, type CreatedOrg } from './factories/orgs.ts';
import { countStatements, gql } from './helpers/graphql.ts';

describe('GraphQL batching', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let org: CreatedOrg;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    bob = await createUser(t);
    org = await createOrgWithOwner(t);
    await addMember(t, org, 'member');
    for (let i = 0; i < 12; i++) {
      await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: `boat-${i}`, auto_init: i % 2 === 0, license_template: i % 3 === 0 ? 'mit' : undefined });
      if (i % 2 === 0) await t.octokit(bob.token).rest.activity.starRepoForAuthenticatedUser({ owner: alice.login, repo: `boat-${i}` });
      if (i % 4 === 0) await t.octokit(bob.token).rest.repos.createFork({ owner: alice.login, repo: `boat-${i}`, name: `fork-${i}` });
    }
    for (let i = 0; i < 12; i++) await t.octokit(org.owner.token).rest.repos.createInOrg({ org: org.login, name: `ship-${i}`, private: i % 2 === 1 });
    for (let i = 0; i < 6; i++) await createTeam(t, org.owner.token, org.login, { name: `watch-${i}`, privacy: 'closed' });
  });
  after(() => t.close());

  /** Statements one query runs (after the same query once, so that per-token bookkeeping is done). */
  async function statementsOf(token: string, query: string, variables: Record<string, unknown>): Promise<{ count: number; statements: readonly string[] }> {
    await gql(t, token)(query, variables);
    const counter = countStatements(t.server.ctx);
    try {
      await gql(t, token)(query, variables);
      return { count: counter.count, statements: [...counter.statements] };
    } finally {
      counter.stop();
    }
  }

  async function assertConstant(token: string, query: string, sizes: [number, number]): Promise<void> {
    const small = await statementsOf(token, query, { n: sizes[0] });
    const large = await statementsOf(token, query, { n: sizes[1] });
    assert.ok(small.count > 0);
    assert.equal(large.count, small.count, `page of ${sizes[0]}: ${small.statements.join('; ')}\npage of ${sizes[1]}: ${large.statements.join('; ')}`);
  }

  test('repositories with their owners, counts, the viewer\'s role, stars and subscriptions, licenses and parents', async () => {
    await assertConstant(bob.token, `query($n: Int!) { user(login: "${alice.login}") { repositories(first: $n) { totalCount nodes {
      name nameWithOwner owner { login avatarUrl } stargazerCount forkCount viewerPermission viewerCanAdminister viewerHasStarred viewerSubscription
      licenseInfo { key } parent { name } isPrivate } } } }`, [2, 12]);
    await assertConstant(bob.token, `query($n: Int!) { viewer { repositories(first: $n) { nodes { name parent { nameWithOwner owner { login } stargazerCount } } } } }`, [1, 3]);
  });

  test('an organization\'s repositories, members and teams', async () => {
    await assertConstant(org.owner.token, `query($n: Int!) { organization(login: "${org.login}") {
      repositories(first: $n) { nodes { name owner { login } viewerPermission stargazerCount viewerHasStarred } }
      membersWithRole(first: $n) { nodes { login } }
      teams(first: $n) { nodes { name slug organization { login } } } } }`, [2, 12]);
  });

  test('stars and search results', async () => {
    await assertConstant(bob.token, `query($n: Int!) { viewer { starredRepositories(first: $n) { edges { starredAt node { nameWithOwner owner { login } stargazerCount viewerHasStarred } } } } }`, [1, 6]);
    await assertConstant(bob.token, `query($n: Int!) { search(query: "boat user:${alice.login}", type: REPOSITORY, first: $n) { repositoryCount nodes { ... on Repository { name owner { login } stargazerCount viewerPermission } } } }`, [2, 12]);
  });

  test('the counter sees every statement: a mutation runs more than a read', async () => {
    const read = await statementsOf(alice.token, 'query($n: Int!) { viewer { repositories(first: $n) { totalCount } } }', { n: 1 });
    const counter = countStatements(t.server.ctx);
    try {
      await gql(t, alice.token)('mutation { createRepository(input: {name: "counted", visibility: PUBLIC}) { repository { name } } }');
      assert.ok(counter.count > read.count, `${counter.count} statements`);
    } finally {
      counter.stop();
    }
  });
});
