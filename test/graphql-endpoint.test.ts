// The GraphQL endpoint over HTTP: POST and GET, /api/graphql, authentication, one
// operation per call, validation before execution, upstream's error shape, scopes,
// pagination bounds, node limit and query cost against the graphql budget.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSchema } from 'graphql';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createOrgWithOwner, createTeam } from './factories/orgs.ts';
import { gql, graphqlErrors, postGraphQL } from './helpers/graphql.ts';

describe('GraphQL endpoint', () => {
  let t: TestServer;
  let alice: CreatedUser;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'dock', auto_init: true });
  });
  after(() => t.close());

  test('POST /graphql and /api/graphql answer the same query, with the v4 media type and the graphql budget in the headers', async () => {
    const viewer = await gql(t, alice.token)<{ viewer: { login: string } }>('{ viewer { login } }');
    assert.deepEqual(viewer, { viewer: { login: alice.login } });
    const ghes = await gql(t, alice.token, { ghes: true })<{ viewer: { login: string } }>('query { viewer { login } }');
    assert.deepEqual(ghes, viewer);

    const raw = await postGraphQL(t, alice.token, { query: '{ viewer { login } }' }, '/api/graphql');
    assert.equal(raw.status, 200);
    assert.equal(raw.headers.get('x-ratelimit-resource'), 'graphql');
    assert.equal(raw.headers.get('x-ratelimit-limit'), '5000');
    assert.equal(raw.headers.get('x-service-media-type'), 'service.v4; format=json');
    assert.match(raw.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(Object.keys(raw.body), ['data']);
  });

  test('no token is a 401 with upstream\'s message; a bad token is refused as on REST', async () => {
    const anon = await postGraphQL(t, null, { query: '{ viewer { login } }' });
    assert.equal(anon.status, 401);
    assert.equal(anon.body.message, 'This endpoint requires you to be authenticated.');
    assert.match(anon.body.documentation_url ?? '', /graphql/);
    const get = await t.request('/graphql');
    assert.equal(get.status, 401);
    const bad = await postGraphQL(t, 'whp_not_a_token', { query: '{ viewer { login } }' });
    assert.equal(bad.status, 401);
    assert.equal(bad.body.message, 'Bad credentials');
  });

  test('a body without a query is a 400 saying so; bad variables too', async () => {
    for (const body of [{}, { query: 42 }, { query: '' }, { variables: {} }]) {
      const res = await postGraphQL(t, alice.token, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.message, 'A query attribute must be specified and must be a string.');
    }
    const vars = await postGraphQL(t, alice.token, { query: '{ viewer { login } }', variables: '{not json' });
    assert.equal(vars.status, 400);
    assert.equal(vars.body.message, 'Variables are invalid JSON.');
    // Variables sent as a JSON string (some clients do) are read as the object they hold.
    const asString = await postGraphQL<{ user: { login: string } }>(t, alice.token, {
      query: 'query($login: String!) { user(login: $login) { login } }', variables: JSON.stringify({ login: alice.login }),
    });
    assert.equal(asString.body.data?.user.login, alice.login);
  });

  test('GET /graphql without a body is the introspection result; with the IDL media type, the schema as SDL', async () => {
    const res = await t.request('/graphql', { token: alice.token });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-ratelimit-resource'), 'graphql');
    const body = await res.json() as { data: { __schema: { queryType: { name: string }; types: { name: string; kind: string; description: string | null; fields: { name: string }[] | null }[] } } };
    assert.equal(body.data.__schema.queryType.name, 'Query');
    const repo = body.data.__schema.types.find((x) => x.name === 'Repository')!;
    assert.equal(repo.kind, 'OBJECT');
    assert.ok(repo.description);
    assert.ok(repo.fields!.some((f) => f.name === 'nameWithOwner'));

    for (const accept of ['application/vnd.service.v4.idl', 'application/vnd.github.v4.idl']) {
      const idl = await t.request('/graphql', { token: alice.token, headers: { accept } });
      assert.equal(idl.status, 200);
      const { data } = await idl.json() as { data: string };
      assert.match(data, /type Repository implements/);
      const schema = buildSchema(data);
      assert.ok(schema.getQueryType()!.getFields().repository);
      assert.ok(schema.getMutationType()!.getFields().createRef);
    }
    // __type works as an introspection root too.
    const type = await gql(t, alice.token)<{ __type: { name: string; kind: string } }>('{ __type(name: "Ref") { name kind } }');
    assert.deepEqual(type.__type, { name: 'Ref', kind: 'OBJECT' });
  });

  test('one operation per call: several operations need operationName; a query and a mutation are never run together', async () => {
    const doc = 'query A { viewer { login } } query B { viewer { id } } mutation C { createRepository(input: {name: "never", visibility: PUBLIC}) { clientMutationId } }';
    const none = await postGraphQL(t, alice.token, { query: doc });
    assert.equal(none.status, 200);
    assert.equal(none.body.data, undefined);
    assert.match(none.body.errors![0]!.message, /operation name is required/);
    const b = await postGraphQL<{ viewer: { id: string } }>(t, alice.token, { query: doc, operationName: 'B' });
    assert.deepEqual(Object.keys(b.body.data!), ['viewer']);
    assert.deepEqual(Object.keys(b.body.data!.viewer), ['id']);
    const unknown = await postGraphQL(t, alice.token, { query: doc, operationName: 'Z' });
    assert.match(unknown.body.errors![0]!.message, /No operation named "Z"/);
    // The mutation of the document never ran.
    const { data } = await t.octokit(alice.token).rest.repos.listForAuthenticatedUser();
    assert.ok(!data.some((r) => r.name === 'never'));
    // An unnamed operation is a query.
    const anonymous = await postGraphQL(t, alice.token, { query: '{ viewer { login } }' });
    assert.deepEqual(anonymous.body.data, { viewer: { login: alice.login } });
  });

  test('validation runs before anything: selections down to scalars, known fields, arguments and variables', async () => {
    const cases: [string, RegExp, Record<string, unknown>?][] = [
      ['{ viewer { repositories(first: 1) } }', /must have a selection of subfields/],
      ['{ viewer { login(first: 1) } }', /Unknown argument "first"/],
      ['{ viewer { nickname } }', /Cannot query field "nickname" on type "User"/],
      ['{ user { login } }', /argument "login" of type "String!" is required/],
      ['{ user(login: 12) { login } }', /String cannot represent a non string value/],
      ['query($login: String!) { user(login: $login) { login } }', /Variable "\$login" of required type "String!" was not provided/],
      ['query($n: Int) { viewer { repositories(first: $n) { totalCount } } }', /Int cannot represent non-integer value/, { n: 'ten' }],
      ['{ viewer { login }', /Syntax Error/],
    ];
    for (const [query, message, variables] of cases) {
      const res = await postGraphQL(t, alice.token, { query, ...(variables ? { variables } : {}) });
      assert.equal(res.status, 200, query);
      assert.equal(res.body.data, undefined, query);
      assert.match(res.body.errors![0]!.message, message, query);
      assert.ok(res.body.errors![0]!.locations?.length, query);
    }
    // Nothing was charged for a query refused before execution.
    const before = Number((await postGraphQL(t, alice.token, { query: '{ rateLimit(dryRun: true) { used } }' })).headers.get('x-ratelimit-used'));
    await postGraphQL(t, alice.token, { query: '{ viewer { nickname } }' });
    const after = Number((await postGraphQL(t, alice.token, { query: '{ rateLimit(dryRun: true) { used } }' })).headers.get('x-ratelimit-used'));
    assert.equal(after, before);
  });

  test('errors in upstream\'s shape: data with null where a resolver failed, and {type, path, locations, message}', async () => {
    const res = await postGraphQL<{ viewer: { login: string }; repository: null }>(t, alice.token, {
      query: '{ viewer { login }\n  repository(owner: "nobody-here", name: "nothing") { name } }',
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, { viewer: { login: alice.login }, repository: null });
    assert.deepEqual(res.body.errors, [{
      type: 'NOT_FOUND', path: ['repository'], locations: [{ line: 2, column: 3 }],
      message: "Could not resolve to a Repository with the name 'nobody-here/nothing'.",
    }]);
    assert.deepEqual(Object.keys(res.body.errors![0]!), ['type', 'path', 'locations', 'message']);
    // Octokit's client reports them as a GraphqlResponseError carrying both.
    const { errors, data } = await graphqlErrors(gql(t, alice.token)('{ user(login: "no-such-user") { login } }'));
    assert.deepEqual(data, { user: null });
    assert.equal(errors[0]!.type, 'NOT_FOUND');
    assert.equal(errors[0]!.message, "Could not resolve to a User with the login of 'no-such-user'.");
  });

  test('connections need first or last (at most 100) when they ask for records; totalCount alone needs neither', async () => {
    const missing = await postGraphQL(t, alice.token, { query: '{ viewer { repositories { nodes { name } } } }' });
    assert.equal(missing.body.data, undefined);
    assert.equal(missing.body.errors![0]!.type, 'MISSING_PAGINATION_BOUNDARIES');
    assert.equal(missing.body.errors![0]!.message, 'You must provide a `first` or `last` value to properly paginate the `repositories` connection.');
    const edges = await postGraphQL(t, alice.token, { query: '{ viewer { repositories { edges { cursor } } } }' });
    assert.equal(edges.body.errors![0]!.type, 'MISSING_PAGINATION_BOUNDARIES');
    const tooMany = await postGraphQL(t, alice.token, { query: '{ viewer { repositories(first: 101) { nodes { name } } } }' });
    assert.equal(tooMany.body.errors![0]!.type, 'EXCESSIVE_PAGINATION');
    assert.equal(tooMany.body.errors![0]!.message, 'Requesting 101 records on the `repositories` connection exceeds the `first` limit of 100 records.');
    const viaVariable = await postGraphQL(t, alice.token, { query: 'query($n: Int) { viewer { repositories(last: $n) { nodes { name } } } }', variables: { n: 500 } });
    assert.equal(viaVariable.body.errors![0]!.type, 'EXCESSIVE_PAGINATION');
    const count = await gql(t, alice.token)<{ viewer: { repositories: { totalCount: number } } }>('{ viewer { repositories { totalCount } } }');
    assert.equal(count.viewer.repositories.totalCount, 1);
  });

  test('the node limit refuses a query before it runs, and charges nothing', async () => {
    const used = async () => Number((await postGraphQL(t, alice.token, { query: '{ rateLimit(dryRun: true) { used } }' })).headers.get('x-ratelimit-used'));
    const before = await used();
    const query = '{ viewer { repositories(first: 100) { nodes { stargazers(first: 100) { nodes { repositories(first: 100) { nodes { name } } } } } } } }';
    const res = await postGraphQL(t, alice.token, { query });
    assert.equal(await used(), before);
    assert.equal(res.body.data, undefined);
    assert.deepEqual(res.body.errors!.map((e) => [e.type, e.message]), [[
      'MAX_NODE_LIMIT_EXCEEDED', 'This query requests up to 1,010,100 possible nodes which exceeds the maximum limit of 500,000.',
    ]]);
  });

  test('cost is upstream\'s: requests per connection, divided by 100, at least 1; rateLimit and the headers report it', async () => {
    const run = (query: string) => postGraphQL<{ rateLimit: { cost: number; nodeCount: number; limit: number; remaining: number; used: number; resetAt: string } }>(t, alice.token, { query });
    const small = await run('{ viewer { login } rateLimit { cost nodeCount limit remaining used resetAt } }');
    assert.deepEqual({ cost: small.body.data!.rateLimit.cost, nodeCount: small.body.data!.rateLimit.nodeCount }, { cost: 1, nodeCount: 0 });
    const used0 = small.body.data!.rateLimit.used;
    assert.equal(small.body.data!.rateLimit.limit, 5000);
    assert.equal(small.body.data!.rateLimit.remaining, 5000 - used0);
    assert.equal(small.headers.get('x-ratelimit-used'), String(used0));
    assert.match(small.body.data!.rateLimit.resetAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(Number(small.headers.get('x-ratelimit-reset')) * 1000, Date.parse(small.body.data!.rateLimit.resetAt));

    // 1 + 100 + 100×100 requests = 10,101 → 101 points; 100 + 10,000 + 400,000 nodes.
    const big = await run('{ viewer { repositories(first: 100) { nodes { stargazers(first: 100) { nodes { repositories(first: 40) { totalCount } } } } } } rateLimit { cost nodeCount used } }');
    assert.deepEqual({ cost: big.body.data!.rateLimit.cost, nodeCount: big.body.data!.rateLimit.nodeCount }, { cost: 101, nodeCount: 410100 });
    assert.equal(big.body.data!.rateLimit.used, used0 + 101);
    assert.equal(big.headers.get('x-ratelimit-used'), String(used0 + 101));

    // dryRun reports without charging.
    const dry = await run('{ rateLimit(dryRun: true) { cost used } }');
    assert.equal(dry.body.data!.rateLimit.used, used0 + 101);
    // GET /rate_limit reads the same budget.
    const { data: limits } = await t.octokit(alice.token).rest.rateLimit.get();
    assert.equal(limits.resources.graphql!.used, used0 + 101);
  });

  test('a missing scope is reported naming it, before execution for fields that always need it', async () => {
    const org = await createOrgWithOwner(t);
    await createTeam(t, org.owner.token, org.login, { name: 'crew' });
    const narrow = await createUser(t, ['public_repo']);
    const teams = await postGraphQL(t, narrow.token, { query: `{ organization(login: "${org.login}") { login teams(first: 5) { nodes { name } } } }` });
    assert.equal(teams.body.data, undefined);
    assert.equal(teams.body.errors![0]!.type, 'INSUFFICIENT_SCOPES');
    assert.equal(teams.body.errors![0]!.message,
      `Your token has not been granted the required scopes to execute this query. The 'teams' field requires one of the following scopes: ['read:org'], but your token has only been granted the: ['public_repo'] scopes. Please modify your token's scopes at: ${t.baseUrl}/settings/tokens.`);

    const readOrg = await createUser(t, ['read:org']);
    const repo = await gql(t, alice.token)<{ repository: { id: string; defaultBranchRef: { target: { oid: string } } } }>(
      `{ repository(owner: "${alice.login}", name: "dock") { id defaultBranchRef { target { oid } } } }`);
    const create = await postGraphQL(t, readOrg.token, {
      query: 'mutation($id: ID!, $oid: GitObjectID!) { createRef(input: {repositoryId: $id, name: "refs/heads/x", oid: $oid}) { ref { name } } }',
      variables: { id: repo.repository.id, oid: repo.repository.defaultBranchRef.target.oid },
    });
    assert.equal(create.body.errors![0]!.type, 'INSUFFICIENT_SCOPES');
    assert.match(create.body.errors![0]!.message, /The 'createRef' field requires one of the following scopes: \['public_repo', 'repo'\]/);

    // A private repository needs repo: the service says so at execution, naming the scope.
    const { errors } = await graphqlErrors(gql(t, narrow.token)('mutation { createRepository(input: {name: "secret", visibility: PRIVATE}) { repository { name } } }'));
    assert.equal(errors[0]!.type, 'INSUFFICIENT_SCOPES');
    assert.deepEqual(errors[0]!.path, ['createRepository']);
    assert.match(errors[0]!.message, /requires one of the following scopes: \['repo'\]/);
  });
});

describe('GraphQL budget', () => {
  let t: TestServer;

  before(async () => {
    t = await startTestServer({ env: { WHARF_RATE_LIMIT_AUTHENTICATED: '150' } });
  });
  after(() => t.close());

  test('points are spent per user per window; a query costing more than what is left is refused with RATE_LIMITED', async () => {
    const bob = await createUser(t);
    const costly = '{ viewer { repositories(first: 100) { nodes { stargazers(first: 100) { nodes { login } } } } } }';
    const first = await postGraphQL(t, bob.token, { query: costly });
    assert.ok(first.body.data);
    assert.equal(first.headers.get('x-ratelimit-used'), '1');
    for (let i = 0; i < 148; i++) await postGraphQL(t, bob.token, { query: '{ viewer { login } }' });
    const last = await postGraphQL(t, bob.token, { query: '{ viewer { login } }' });
    assert.equal(last.headers.get('x-ratelimit-remaining'), '0');
    const refused = await postGraphQL(t, bob.token, { query: '{ viewer { login } }' });
    assert.equal(refused.status, 200);
    assert.equal(refused.body.data, undefined);
    assert.equal(refused.body.errors![0]!.type, 'RATE_LIMITED');
    assert.equal(refused.body.errors![0]!.message, `API rate limit exceeded for user ID ${bob.id}.`);
    assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
    // Another user's budget is their own; REST's core budget is untouched.
    const carol = await createUser(t);
    assert.ok((await postGraphQL(t, carol.token, { query: '{ viewer { login } }' })).body.data);
    const rest = await t.request('/user', { token: bob.token });
    assert.equal(rest.status, 200);
    assert.equal(rest.headers.get('x-ratelimit-resource'), 'core');
  });
});
