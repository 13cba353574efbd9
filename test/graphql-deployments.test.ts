// Deployments through GraphQL: Repository.deployments with its order, environment
// filter and pagination both ways; Deployment and DeploymentStatus with the values REST
// shows for the same objects; node(id:) with REST's node_id; private repositories.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { gql, graphqlErrors } from './helpers/graphql.ts';

interface PageInfo { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null }

describe('GraphQL deployments', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  const repo = 'dock';
  let head: string;
  /** REST records of the deployments made in before(), oldest first. */
  const made: Record<string, any>[] = [];

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    bob = await createUser(t);
    const kit = t.octokit(alice.token);
    await kit.rest.repos.createForAuthenticatedUser({ name: repo, auto_init: true });
    head = (await kit.rest.git.getRef({ owner: alice.login, repo, ref: 'heads/main' })).data.object.sha;
    const specs = [
      { ref: 'main', environment: 'production', description: 'First', payload: { deploy: 'migrate', n: [1, 2] } },
      { ref: 'main', environment: 'staging', task: 'deploy:migrations' },
      { ref: head, environment: 'qa', payload: 'plain words' },
      { ref: 'main', environment: 'staging' },
      { ref: 'main', environment: 'production' },
    ];
    for (const s of specs) {
      const res = await kit.rest.repos.createDeployment({ owner: alice.login, repo, auto_merge: false, required_contexts: [], ...s });
      assert.equal(res.status, 201);
      made.push(res.data as Record<string, any>);
    }
  });
  after(() => t.close());

  type DeploymentsAnswer = { repository: { deployments: { totalCount: number; pageInfo: PageInfo; nodes: { databaseId: number; id: string; environment: string }[] } } };
  const list = (token: string, args: string) => gql(t, token)<DeploymentsAnswer>(`{ repository(owner: "${alice.login}", name: "${repo}") {
    deployments(${args}) { totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } nodes { databaseId id environment } } } }`);

  test('Repository.deployments: oldest first by default, newest first on DESC, as REST lists them reversed', async () => {
    const { data: rest } = await t.octokit(bob.token).rest.repos.listDeployments({ owner: alice.login, repo });
    const asc = await list(bob.token, 'first: 10');
    assert.equal(asc.repository.deployments.totalCount, 5);
    assert.deepEqual(asc.repository.deployments.nodes.map((n) => n.databaseId), made.map((d) => d.id));
    assert.deepEqual(asc.repository.deployments.nodes.map((n) => n.id), [...rest].reverse().map((d) => d.node_id));
    const desc = await list(bob.token, 'first: 10, orderBy: {field: CREATED_AT, direction: DESC}');
    assert.deepEqual(desc.repository.deployments.nodes.map((n) => n.databaseId), rest.map((d) => d.id));
  });

  test('environments filters on any of the given environments; an unknown one matches nothing', async () => {
    const staging = await list(bob.token, 'first: 10, environments: ["staging", "qa"]');
    assert.equal(staging.repository.deployments.totalCount, 3);
    assert.deepEqual(staging.repository.deployments.nodes.map((n) => n.environment), ['staging', 'qa', 'staging']);
    const none = await list(bob.token, 'first: 10, environments: ["nowhere"]');
    assert.deepEqual([none.repository.deployments.totalCount, none.repository.deployments.nodes], [0, []]);
    const empty = await list(bob.token, 'first: 10, environments: []');
    assert.equal(empty.repository.deployments.totalCount, 0);
  });

  test('pagination forwards with after and backwards with before, with page info', async () => {
    const ids = made.map((d) => d.id);
    const seen: number[] = [];
    let cursor: string | null = null;
    for (;;) {
      const page: DeploymentsAnswer = await list(bob.token, `first: 2${cursor ? `, after: "${cursor}"` : ''}`);
      const c = page.repository.deployments;
      seen.push(...c.nodes.map((n) => n.databaseId));
      assert.equal(c.pageInfo.hasPreviousPage, cursor !== null);
      if (!c.pageInfo.hasNextPage) break;
      cursor = c.pageInfo.endCursor;
    }
    assert.deepEqual(seen, ids);

    const back: number[] = [];
    cursor = null;
    for (;;) {
      const page: DeploymentsAnswer = await list(bob.token, `last: 2${cursor ? `, before: "${cursor}"` : ''}`);
      const c = page.repository.deployments;
      back.unshift(...c.nodes.map((n) => n.databaseId));
      assert.equal(c.pageInfo.hasNextPage, cursor !== null);
      if (!c.pageInfo.hasPreviousPage) break;
      cursor = c.pageInfo.startCursor;
    }
    assert.deepEqual(back, ids);

    const { errors } = await graphqlErrors(list(bob.token, 'environments: ["qa"]'));
    assert.deepEqual(errors.map((e) => e.type), ['MISSING_PAGINATION_BOUNDARIES']);
  });

  test('a deployment: the fields REST shows, its state following its statuses, latestStatus and statuses', async () => {
    const kit = t.octokit(alice.token);
    const target = made[0]!;
    const query = `query($id: ID!) { node(id: $id) { __typename ... on Deployment {
      id databaseId commitOid commit { oid } ref { name prefix } task payload description environment latestEnvironment originalEnvironment
      state createdAt updatedAt creator { login } repository { nameWithOwner }
      latestStatus { state } statuses(first: 10) { totalCount nodes { id state } } } } }`;
    type Answer = { node: Record<string, any> };
    const before = (await gql(t, bob.token)<Answer>(query, { id: target.node_id })).node;
    assert.deepEqual(before, {
      __typename: 'Deployment', id: target.node_id, databaseId: target.id, commitOid: head, commit: { oid: head },
      ref: { name: 'main', prefix: 'refs/heads/' }, task: 'deploy', payload: JSON.stringify(target.payload), description: 'First',
      environment: 'production', latestEnvironment: 'production', originalEnvironment: 'production', state: 'PENDING',
      createdAt: target.created_at, updatedAt: target.updated_at, creator: { login: alice.login },
      repository: { nameWithOwner: `${alice.login}/${repo}` }, latestStatus: null, statuses: { totalCount: 0, nodes: [] },
    });

    const queued = (await kit.rest.repos.createDeploymentStatus({ owner: alice.login, repo, deployment_id: target.id, state: 'queued' })).data;
    const success = (await kit.rest.repos.createDeploymentStatus({
      owner: alice.login, repo, deployment_id: target.id, state: 'success', description: 'Live', environment: 'prod-eu',
      log_url: 'https://ci.example.com/run/1', environment_url: 'https://eu.example.com',
    })).data;
    const { data: restNow } = await kit.rest.repos.getDeployment({ owner: alice.login, repo, deployment_id: target.id });
    const { data: restStatuses } = await kit.rest.repos.listDeploymentStatuses({ owner: alice.login, repo, deployment_id: target.id });
    const afterwards = (await gql(t, bob.token)<Answer>(query, { id: target.node_id })).node;
    assert.equal(afterwards.state, 'ACTIVE');
    assert.equal(afterwards.environment, 'prod-eu');
    assert.equal(afterwards.latestEnvironment, restNow.environment);
    assert.equal(afterwards.originalEnvironment, 'production');
    assert.equal(afterwards.updatedAt, restNow.updated_at);
    assert.deepEqual(afterwards.latestStatus, { state: 'SUCCESS' });
    assert.deepEqual(afterwards.statuses, {
      totalCount: 2, nodes: restStatuses.map((s) => ({ id: s.node_id, state: s.state.toUpperCase() })),
    });
    assert.deepEqual(afterwards.statuses.nodes.map((n: { id: string }) => n.id), [success.node_id, queued.node_id]);

    // A deployment by sha names no ref; a string payload is shown as given.
    const bySha = (await gql(t, bob.token)<Answer>(query, { id: made[2]!.node_id })).node;
    assert.equal(bySha.ref, null);
    assert.equal(bySha.payload, 'plain words');
    assert.equal(bySha.task, 'deploy');
    assert.equal((await gql(t, bob.token)<Answer>(query, { id: made[1]!.node_id })).node.task, 'deploy:migrations');
  });

  test('a deployment status: the fields REST shows, empty texts as null, reached by node(id:) with its node_id', async () => {
    const kit = t.octokit(alice.token);
    const target = made[3]!;
    const full = (await kit.rest.repos.createDeploymentStatus({
      owner: alice.login, repo, deployment_id: target.id, state: 'failure', description: 'Broke', log_url: 'https://ci.example.com/run/9', environment_url: 'https://staging.example.com',
    })).data;
    const bare = (await kit.rest.repos.createDeploymentStatus({ owner: alice.login, repo, deployment_id: target.id, state: 'in_progress' })).data;
    const query = `query($ids: [ID!]!) { nodes(ids: $ids) { __typename ... on DeploymentStatus {
      id state description environment environmentUrl logUrl createdAt updatedAt creator { login } deployment { id databaseId state } } } }`;
    const { nodes } = await gql(t, bob.token)<{ nodes: Record<string, unknown>[] }>(query, { ids: [full.node_id, bare.node_id] });
    assert.deepEqual(nodes, [
      {
        __typename: 'DeploymentStatus', id: full.node_id, state: 'FAILURE', description: 'Broke', environment: full.environment,
        environmentUrl: 'https://staging.example.com', logUrl: 'https://ci.example.com/run/9', createdAt: full.created_at, updatedAt: full.updated_at,
        creator: { login: alice.login }, deployment: { id: target.node_id, databaseId: target.id, state: 'IN_PROGRESS' },
      },
      {
        __typename: 'DeploymentStatus', id: bare.node_id, state: 'IN_PROGRESS', description: null, environment: 'staging',
        environmentUrl: null, logUrl: null, createdAt: bare.created_at, updatedAt: bare.updated_at,
        creator: { login: alice.login }, deployment: { id: target.node_id, databaseId: target.id, state: 'IN_PROGRESS' },
      },
    ]);
  });

  test('deployments of a private repository: its readers see them, others resolve nothing', async () => {
    const kit = t.octokit(alice.token);
    await kit.rest.repos.createForAuthenticatedUser({ name: 'vault', auto_init: true, private: true });
    const d = (await kit.rest.repos.createDeployment({ owner: alice.login, repo: 'vault', ref: 'main', auto_merge: false, required_contexts: [] })).data as Record<string, any>;
    const s = (await kit.rest.repos.createDeploymentStatus({ owner: alice.login, repo: 'vault', deployment_id: d.id, state: 'success' })).data;
    const q = `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`;
    assert.deepEqual(await gql(t, alice.token)(q, { ids: [d.node_id, s.node_id] }), { nodes: [{ id: d.node_id }, { id: s.node_id }] });
    const { errors, data } = await graphqlErrors(gql(t, bob.token)(q, { ids: [d.node_id, s.node_id] }));
    assert.deepEqual(errors.map((e) => [e.type, e.message]), [
      ['NOT_FOUND', `Could not resolve to a node with the global id of '${d.node_id}'.`],
      ['NOT_FOUND', `Could not resolve to a node with the global id of '${s.node_id}'.`],
    ]);
    assert.deepEqual(data, { nodes: [null, null] });
  });
});
