// GraphQL with an app's tokens: an installation token and a user-to-server token may
// query and mutate what their permissions allow (per field, src/graphql/app-permissions.ts)
// and are refused the rest with upstream's FORBIDDEN "Resource not accessible by
// integration"; repositories outside the installation stay out of reach.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { wharfSchema } from '../src/graphql/schema.ts';
import { GRAPHQL_MUTATION_NEEDS } from '../src/graphql/app-permissions.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepoWithHead, createRepo, type CreatedRepo } from './factories/repos.ts';
import { signedInAs } from './helpers/web.ts';
import { appJwt, authorizeCode, installOn, manifestOf, registerAppByManifest, type ConvertedApp } from './helpers/apps.ts';
import { postGraphQL } from './helpers/graphql.ts';

const PASSWORD = 'correct horse battery';
const CALLBACK = 'https://graph.example/callback';

describe('apps: GraphQL with installation and user-to-server tokens', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let app: ConvertedApp;
  let inside: CreatedRepo & { head: string };
  let outside: CreatedRepo;
  let installationToken: string;
  let userToken: string;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    const web = await signedInAs(t, alice.login, PASSWORD);
    inside = await createRepoWithHead(t, alice, { private: true });
    outside = await createRepo(t, alice, { private: true });
    app = await registerAppByManifest(t, web, manifestOf('Graph Pilot', { callback_urls: [CALLBACK], default_permissions: { issues: 'write', contents: 'read' } }));
    const installationId = await installOn(web, app.slug, [inside.id]);
    const res = await t.request(`/app/installations/${installationId}/access_tokens`, {
      method: 'POST', headers: { authorization: `Bearer ${appJwt(app.pem, app.id, Date.now())}` },
    });
    installationToken = ((await res.json()) as { token: string }).token;
    const issued = await t.request('/login/oauth/access_token', {
      method: 'POST', headers: { accept: 'application/json' },
      json: { client_id: app.client_id, client_secret: app.client_secret, code: await authorizeCode(web, app.client_id, CALLBACK) },
    });
    userToken = ((await issued.json()) as { access_token: string }).access_token;
  });
  after(async () => { await t.close(); });

  const REPO = 'query($o: String!, $n: String!) { repository(owner: $o, name: $n) { id name issues(first: 5) { totalCount nodes { title } } } }';

  for (const kind of ['installation', 'user-to-server'] as const) {
    test(`${kind} token: reads and writes within its permissions, FORBIDDEN beyond them`, async () => {
      const token = kind === 'installation' ? installationToken : userToken;
      const read = await postGraphQL<{ repository: { id: string; name: string } }>(t, token, { query: REPO, variables: { o: alice.login, n: inside.repo } });
      assert.equal(read.status, 200);
      assert.equal(read.body.errors, undefined, JSON.stringify(read.body.errors));
      assert.equal(read.body.data?.repository.name, inside.repo);

      const created = await postGraphQL<{ createIssue: { issue: { title: string; author: { login: string } } } }>(t, token, {
        query: 'mutation($r: ID!, $t: String!) { createIssue(input: {repositoryId: $r, title: $t}) { issue { title author { login } } } }',
        variables: { r: read.body.data!.repository.id, t: `by ${kind}` },
      });
      assert.equal(created.body.errors, undefined, JSON.stringify(created.body.errors));
      assert.equal(created.body.data?.createIssue.issue.author.login, kind === 'installation' ? `${app.slug}[bot]` : alice.login);

      // Pull requests and writing refs are permissions the app was not given.
      const pulls = await postGraphQL(t, token, { query: `{ repository(owner: "${alice.login}", name: "${inside.repo}") { pullRequests(first: 1) { nodes { title } } } }` });
      assert.equal(pulls.status, 200);
      assert.deepEqual(pulls.body.errors?.map((e) => [e.type, e.message]), [['FORBIDDEN', 'Resource not accessible by integration']]);
      const ref = await postGraphQL(t, token, {
        query: 'mutation($r: ID!, $o: GitObjectID!) { createRef(input: {repositoryId: $r, name: "refs/heads/app", oid: $o}) { ref { name } } }',
        variables: { r: read.body.data!.repository.id, o: inside.head },
      });
      assert.deepEqual(ref.body.errors?.map((e) => e.type), ['FORBIDDEN']);
      assert.equal((await t.request(`/repos/${alice.login}/${inside.repo}/branches/app`, { token: alice.token })).status, 404, 'nothing was written');

      // A private repository outside the installation is not there for the token.
      const hidden = await postGraphQL<{ repository: unknown }>(t, token, { query: REPO, variables: { o: alice.login, n: outside.repo } });
      assert.equal(hidden.body.data?.repository ?? null, null);
      assert.equal(hidden.body.errors?.[0]?.type, 'NOT_FOUND');
    });
  }

  test('every mutation of the schema declares the app permission it needs', () => {
    const mutations = Object.keys(wharfSchema().schema.getMutationType()!.getFields());
    assert.deepEqual(mutations.filter((m) => !(m in GRAPHQL_MUTATION_NEEDS)), []);
  });
});
