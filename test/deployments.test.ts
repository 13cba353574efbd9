// Deployments and deployment statuses: creation with its defaults and rules (ref
// resolution, auto-merge for real, required contexts), lists and filters, deletion,
// statuses with their fallbacks and auto_inactive, rights and scopes, events.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failsWith } from './helpers/failures.ts';
import { createToken, createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepoWithHead } from './factories/repos.ts';
import { requestJson } from './helpers/json-request.ts';
import { listEvents } from '../src/events/outbox.ts';

let t: TestServer;

before(async () => { t = await startTestServer(); });
after(async () => { await t.close(); });

const ONE = '/repos/{owner}/{repo}/deployments/{deployment_id}';
const STATUSES = '/repos/{owner}/{repo}/deployments/{deployment_id}/statuses';

interface Repo { id: number; owner: string; repo: string; head: string }

const newRepo = (owner: CreatedUser, priv = false): Promise<Repo> => createRepoWithHead(t, owner, { private: priv });

const tokenFor = (login: string, scopes: string[]) => createToken(t, login, scopes);

const send = (method: string, path: string, token: string | undefined, json?: unknown) => requestJson(t, method, path, token, json);

/** The deployment a 201 answered (Octokit's type also covers the 202 merge answer). */
function created(res: { status: number; data: unknown }): Record<string, any> & { id: number; sha: string } {
  assert.equal(res.status, 201, JSON.stringify(res.data));
  return res.data as Record<string, any> & { id: number; sha: string };
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** Writes a file on a branch through the contents API; answers the new commit's sha. */
async function commitFile(token: string, r: Repo, branch: string, path: string, content: string): Promise<string> {
  const kit = t.octokit(token);
  let sha: string | undefined;
  try {
    const { data } = await kit.rest.repos.getContent({ owner: r.owner, repo: r.repo, path, ref: branch });
    sha = (data as { sha: string }).sha;
  } catch { /* a new file */ }
  const { data } = await kit.rest.repos.createOrUpdateFileContents({ owner: r.owner, repo: r.repo, path, branch, message: `${path} on ${branch}`, content: b64(content), ...(sha ? { sha } : {}) });
  return data.commit.sha!;
}

async function branchHead(token: string, r: Repo, branch: string): Promise<string> {
  return (await t.octokit(token).rest.git.getRef({ owner: r.owner, repo: r.repo, ref: `heads/${branch}` })).data.object.sha;
}

async function deploymentCount(repositoryId: number): Promise<number> {
  const rows = await t.server.ctx.db.selectFrom('deployments').select('id').where('repository_id', '=', repositoryId).execute();
  return rows.length;
}

describe('creating deployments', () => {
  test('201 with the published record and upstream defaults; the deployment event', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const res = await t.octokit(alice.token).rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'main' });
    assert.equal(res.status, 201);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/deployments', 201, res.data);
    const d = res.data as Record<string, any>;
    const url = `${t.baseUrl}/repos/${r.owner}/${r.repo}/deployments/${d.id}`;
    assert.equal(d.url, url);
    assert.equal(res.headers.location, url);
    assert.equal(Buffer.from(d.node_id, 'base64').toString(), `010:Deployment${d.id}`);
    assert.equal(d.sha, r.head);
    assert.equal(d.ref, 'main');
    assert.equal(d.task, 'deploy');
    assert.deepEqual(d.payload, {});
    assert.equal(d.environment, 'production');
    assert.equal(d.original_environment, 'production');
    assert.equal(d.description, null);
    assert.equal(d.creator.login, alice.login);
    assert.equal(d.statuses_url, `${url}/statuses`);
    assert.equal(d.repository_url, `${t.baseUrl}/repos/${r.owner}/${r.repo}`);
    assert.equal(d.transient_environment, false);
    assert.equal(d.production_environment, true);
    assert.equal(d.performed_via_github_app, null);
    assert.equal(d.created_at, d.updated_at);

    const [e] = await listEvents(t.server.ctx, { event: 'deployment', repositoryId: r.id });
    assert.equal(e?.action, 'created');
    assert.equal(e?.actorId, alice.id);
    assert.deepEqual((e?.payload as any).deployment, d);
    assert.equal((e?.payload as any).workflow, null);
  });

  test('explicit fields: task, environment (not production by default), flags, description, payload forms', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const staging = await kit.rest.repos.createDeployment({
      owner: r.owner, repo: r.repo, ref: 'main', task: 'deploy:migrations', environment: 'staging', description: 'Deploy request from hubot',
      transient_environment: true, payload: { deploy: 'migrate', n: [1, 2] },
    });
    const s = staging.data as Record<string, any>;
    assert.equal(s.task, 'deploy:migrations');
    assert.equal(s.environment, 'staging');
    assert.equal(s.production_environment, false);
    assert.equal(s.transient_environment, true);
    assert.equal(s.description, 'Deploy request from hubot');
    assert.deepEqual(s.payload, { deploy: 'migrate', n: [1, 2] });
    const qa = (await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'main', environment: 'qa', production_environment: true, payload: '{ "deploy": "migrate" }' })).data as Record<string, any>;
    assert.equal(qa.production_environment, true);
    assert.deepEqual(qa.payload, { deploy: 'migrate' });
    const prod = (await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'main', production_environment: false, payload: 'plain words' })).data as Record<string, any>;
    assert.equal(prod.production_environment, false);
    assert.equal(prod.payload, 'plain words');
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/deployments', 201, prod);
    const got = await kit.rest.repos.getDeployment({ owner: r.owner, repo: r.repo, deployment_id: s.id });
    assert.deepEqual(got.data, s);
  });

  test('ref may be a tag or a sha, resolved to the commit; an unknown ref is 422', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    await kit.rest.git.createRef({ owner: r.owner, repo: r.repo, ref: 'refs/tags/v1.0', sha: r.head });
    const byTag = (await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'v1.0' })).data as Record<string, any>;
    assert.equal(byTag.sha, r.head);
    assert.equal(byTag.ref, 'v1.0');
    const bySha = (await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: r.head.slice(0, 12) })).data as Record<string, any>;
    assert.equal(bySha.sha, r.head);
    for (const ref of ['no-such-branch', 'main~1', 'b'.repeat(40)]) {
      const err = await failsWith(kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref }), 422);
      assert.equal(err.message, `No ref found for: ${ref}`);
      assert.deepEqual(err.errors?.map((e) => [e.resource, e.field, e.code]), [['Deployment', 'ref', 'invalid']]);
    }
    assert.equal(await deploymentCount(r.id), 2);
  });

  test('422 for bad bodies, with errors[]', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const path = `/repos/${r.owner}/${r.repo}/deployments`;
    const missing = await send('POST', path, alice.token, { task: 'deploy' });
    assert.equal(missing.status, 422);
    assert.deepEqual(missing.body.errors.map((e: any) => [e.resource, e.field, e.code]), [['Deployment', 'ref', 'missing_field']]);
    for (const [body, field] of [
      [{ ref: 1 }, 'ref'], [{ ref: 'main', auto_merge: 'yes' }, 'auto_merge'], [{ ref: 'main', required_contexts: 'ci' }, 'required_contexts'],
      [{ ref: 'main', environment: '' }, 'environment'], [{ ref: 'main', task: ' ' }, 'task'], [{ ref: '' }, 'ref'],
      [{ ref: 'main', transient_environment: 'no' }, 'transient_environment'], [{ ref: 'main', payload: 7 }, 'payload'],
      [{ ref: 'main', task: 'a\u0000b' }, 'task'], [{ ref: 'main', environment: 'x\u0000' }, 'environment'],
      [{ ref: 'main', description: '\u0000' }, 'description'], [{ ref: 'ma\u0000in' }, 'ref'],
    ] as const) {
      const res = await send('POST', path, alice.token, body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.body.message, 'Validation Failed');
      assert.ok(res.body.errors.some((e: any) => e.field === field || e.field.startsWith(`${field}`)), `${JSON.stringify(body)}: ${JSON.stringify(res.body.errors)}`);
    }
    assert.equal(await deploymentCount(r.id), 0);
  });
});

describe('auto-merge', () => {
  test('a branch behind the default branch gets a real merge commit (202), then deploys', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    await kit.rest.git.createRef({ owner: r.owner, repo: r.repo, ref: 'refs/heads/topic', sha: r.head });
    const topicHead = await commitFile(alice.token, r, 'topic', 'feature.txt', 'feature\n');
    const mainHead = await commitFile(alice.token, r, 'main', 'fix.txt', 'fix\n');
    const pushesBefore = (await listEvents(t.server.ctx, { event: 'push', repositoryId: r.id })).length;

    const res = await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'topic' });
    assert.equal(res.status, 202);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/deployments', 202, res.data);
    assert.deepEqual(res.data, { message: 'Auto-merged main into topic on deployment.' });
    assert.equal(await deploymentCount(r.id), 0, 'the merge is the answer; no deployment yet');

    const merged = await branchHead(alice.token, r, 'topic');
    assert.notEqual(merged, topicHead);
    const { data: commit } = await kit.rest.git.getCommit({ owner: r.owner, repo: r.repo, commit_sha: merged });
    assert.deepEqual(commit.parents.map((p) => p.sha), [topicHead, mainHead]);
    assert.equal(commit.message, 'Auto-merged main into topic on deployment.');
    assert.equal(commit.author.name, alice.login);
    assert.equal(commit.author.email, `${alice.login}@example.com`);
    assert.equal(commit.committer.email, `${alice.login}@example.com`);
    const { data: tree } = await kit.rest.git.getTree({ owner: r.owner, repo: r.repo, tree_sha: commit.tree.sha });
    const names = tree.tree.map((e) => e.path);
    assert.ok(names.includes('feature.txt') && names.includes('fix.txt'), names.join(','));
    assert.equal(await branchHead(alice.token, r, 'main'), mainHead, 'the default branch did not move');
    const pushes = await listEvents(t.server.ctx, { event: 'push', repositoryId: r.id });
    assert.equal(pushes.length, pushesBefore + 1, 'the ref change is recorded as a push');
    assert.equal((pushes.at(-1)?.payload as any).after, merged);

    const again = await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'topic' });
    assert.equal(again.status, 201);
    assert.equal((again.data as any).sha, merged);
  });

  test('a merge conflict is 409 and changes nothing; auto_merge false deploys the branch as it is', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    await kit.rest.git.createRef({ owner: r.owner, repo: r.repo, ref: 'refs/heads/topic', sha: r.head });
    const topicHead = await commitFile(alice.token, r, 'topic', 'app.txt', 'topic version\n');
    await commitFile(alice.token, r, 'main', 'app.txt', 'main version\n');
    const err = await failsWith(kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'topic' }), 409);
    assert.equal(err.message, 'Conflict merging main into topic.');
    assert.equal(await branchHead(alice.token, r, 'topic'), topicHead);
    assert.equal(await deploymentCount(r.id), 0);
    const plain = await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'topic', auto_merge: false });
    assert.equal(plain.status, 201);
    assert.equal((plain.data as any).sha, topicHead);
  });

  test('nothing to merge for the default branch itself, a branch already up to date, a sha or a tag', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    await kit.rest.git.createRef({ owner: r.owner, repo: r.repo, ref: 'refs/heads/ahead', sha: r.head });
    const ahead = await commitFile(alice.token, r, 'ahead', 'x.txt', 'x\n');
    const oldMain = r.head;
    await commitFile(alice.token, r, 'main', 'y.txt', 'y\n');
    await kit.rest.git.createRef({ owner: r.owner, repo: r.repo, ref: 'refs/tags/old', sha: oldMain });
    assert.equal((await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'main' })).status, 201);
    assert.equal((await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: oldMain })).status, 201);
    assert.equal((await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'old' })).status, 201);
    // "ahead" lacks y.txt: it is behind and merges; once merged it deploys.
    assert.equal((await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'ahead' })).status, 202);
    assert.notEqual(await branchHead(alice.token, r, 'ahead'), ahead);
    assert.equal((await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'ahead' })).status, 201);
  });
});

describe('required contexts', () => {
  test('every reported context must be success by default; a subset or [] may be asked for', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const status = (context: string, state: 'success' | 'failure' | 'pending' | 'error') =>
      kit.rest.repos.createCommitStatus({ owner: r.owner, repo: r.repo, sha: r.head, context, state });
    assert.equal((await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'main' })).status, 201, 'no statuses: nothing to check');
    await status('ci/build', 'success');
    await status('security/scan', 'failure');
    const err = await failsWith(kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'main' }), 409);
    assert.equal(err.message, 'Conflict: Commit status checks failed for main.');
    assert.equal((await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'main', required_contexts: ['ci/build'] })).status, 201);
    assert.equal((await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'main', required_contexts: ['CI/Build'] })).status, 201, 'contexts compare case-insensitively');
    assert.equal((await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'main', required_contexts: [] })).status, 201);
    await failsWith(kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'main', required_contexts: ['ci/build', 'not-reported'] }), 409);
    await failsWith(kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'main', required_contexts: ['security/scan'] }), 409);
    await status('security/scan', 'pending');
    await failsWith(kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'main' }), 409);
    await status('security/scan', 'success');
    assert.equal((await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'main' })).status, 201, 'the latest status of each context counts');
    assert.equal(await deploymentCount(r.id), 5);
  });
});

describe('reading and deleting deployments', () => {
  test('lists newest first, filter by sha, ref, task and environment, page with Link', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const other = await commitFile(alice.token, r, 'main', 'z.txt', 'z\n');
    const ids: number[] = [];
    for (const body of [
      { ref: r.head, environment: 'staging' }, { ref: 'main', task: 'deploy:migrations' }, { ref: 'main', environment: 'qa' },
    ]) ids.push(created(await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ...body })).id);
    const all = await kit.rest.repos.listDeployments({ owner: r.owner, repo: r.repo });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/deployments', 200, all.data);
    assert.deepEqual(all.data.map((d) => d.id), [...ids].reverse());
    const ids_ = async (q: Record<string, string>) => (await kit.rest.repos.listDeployments({ owner: r.owner, repo: r.repo, ...q })).data.map((d) => d.id);
    assert.deepEqual(await ids_({ sha: r.head }), [ids[0]]);
    assert.deepEqual(await ids_({ sha: other }), [ids[2], ids[1]]);
    assert.deepEqual(await ids_({ ref: 'main' }), [ids[2], ids[1]]);
    assert.deepEqual(await ids_({ task: 'deploy:migrations' }), [ids[1]]);
    assert.deepEqual(await ids_({ environment: 'qa' }), [ids[2]]);
    assert.deepEqual(await ids_({ environment: 'nowhere' }), []);
    const first = await kit.rest.repos.listDeployments({ owner: r.owner, repo: r.repo, per_page: 2 });
    assert.deepEqual(first.data.map((d) => d.id), [ids[2], ids[1]]);
    assert.match(first.headers.link ?? '', /rel="next"/);
    assert.match(first.headers.link ?? '', /rel="last"/);
    const second = await kit.rest.repos.listDeployments({ owner: r.owner, repo: r.repo, per_page: 2, page: 2 });
    assert.deepEqual(second.data.map((d) => d.id), [ids[0]]);
  });

  test('get answers the record; 404 for an unknown deployment, one of another repository, an unknown repository', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const r2 = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const d = created(await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'main' }));
    const got = await kit.rest.repos.getDeployment({ owner: r.owner, repo: r.repo, deployment_id: d.id });
    assertMatchesOpenApi('GET', ONE, 200, got.data);
    await failsWith(kit.rest.repos.getDeployment({ owner: r.owner, repo: r.repo, deployment_id: 999999 }), 404);
    await failsWith(kit.rest.repos.getDeployment({ owner: r2.owner, repo: r2.repo, deployment_id: d.id }), 404);
    await failsWith(kit.rest.repos.listDeployments({ owner: r.owner, repo: 'no-such-repo' }), 404);
    await failsWith(kit.rest.repos.createDeployment({ owner: r.owner, repo: 'no-such-repo', ref: 'main' }), 404);
    await failsWith(kit.rest.repos.deleteDeployment({ owner: r.owner, repo: r.repo, deployment_id: 999999 }), 404);
    // Input no row can match is answered, never a server error.
    for (const path of [`/repos/${r.owner}/${r.repo}/deployments/99999999999`, `/repos/${r.owner}/${r.repo}/deployments/${d.id}/statuses/99999999999`]) {
      const res = await send('GET', path, alice.token);
      assert.ok(res.status === 404 || res.status === 422, `${path}: ${res.status}`);
    }
    // NUL in a query value is refused for every route before any query runs (issue #11).
    const nul = await send('GET', `/repos/${r.owner}/${r.repo}/deployments?environment=a%00b&task=%00`, alice.token);
    assert.equal(nul.status, 422);
  });

  test('delete: the only deployment always; otherwise only inactive ones (422 for an active one)', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const create = async () => created(await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'main', environment: 'production' })).id;
    const state = (id: number, s: 'success' | 'failure' | 'inactive') => kit.rest.repos.createDeploymentStatus({ owner: r.owner, repo: r.repo, deployment_id: id, state: s });

    const only = await create();
    await state(only, 'success');
    assert.equal((await kit.rest.repos.deleteDeployment({ owner: r.owner, repo: r.repo, deployment_id: only })).status, 204);
    assert.equal(await deploymentCount(r.id), 0);

    const a = await create();
    const b = await create();
    await state(a, 'success');
    await state(b, 'success');
    const err = await failsWith(kit.rest.repos.deleteDeployment({ owner: r.owner, repo: r.repo, deployment_id: a }), 422);
    assert.equal(err.message, 'We cannot delete an active deployment unless it is the only deployment in a given environment.');
    assert.equal(await deploymentCount(r.id), 2);
    await state(a, 'inactive');
    assert.equal((await kit.rest.repos.deleteDeployment({ owner: r.owner, repo: r.repo, deployment_id: a })).status, 204);
    const c = await create();
    await state(c, 'failure');
    assert.equal((await kit.rest.repos.deleteDeployment({ owner: r.owner, repo: r.repo, deployment_id: c })).status, 204, 'a failed deployment is not active');
    await failsWith(kit.rest.repos.getDeployment({ owner: r.owner, repo: r.repo, deployment_id: c }), 404);
    const rows = await t.server.ctx.db.selectFrom('deployment_statuses').select('id').where('deployment_id', '=', c).execute();
    assert.equal(rows.length, 0, 'its statuses went with it');
  });
});

describe('deployment statuses', () => {
  test('create with defaults: the published record, the deployment takes its state; the deployment_status event', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const d = created(await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'main', environment: 'staging' }));
    const res = await kit.rest.repos.createDeploymentStatus({ owner: r.owner, repo: r.repo, deployment_id: d.id, state: 'in_progress' });
    assert.equal(res.status, 201);
    assertMatchesOpenApi('POST', STATUSES, 201, res.data);
    const s = res.data as Record<string, any>;
    const deploymentUrl = `${t.baseUrl}/repos/${r.owner}/${r.repo}/deployments/${d.id}`;
    assert.equal(s.url, `${deploymentUrl}/statuses/${s.id}`);
    assert.equal(res.headers.location, s.url);
    assert.equal(Buffer.from(s.node_id, 'base64').toString(), `016:DeploymentStatus${s.id}`);
    assert.equal(s.state, 'in_progress');
    assert.equal(s.creator.login, alice.login);
    assert.equal(s.description, '');
    assert.equal(s.environment, 'staging');
    assert.equal(s.target_url, '');
    assert.equal(s.log_url, '');
    assert.equal(s.environment_url, '');
    assert.equal(s.deployment_url, deploymentUrl);
    assert.equal(s.repository_url, `${t.baseUrl}/repos/${r.owner}/${r.repo}`);
    assert.equal(s.performed_via_github_app, null);

    const [e] = await listEvents(t.server.ctx, { event: 'deployment_status', repositoryId: r.id });
    assert.equal(e?.action, 'created');
    assert.deepEqual((e?.payload as any).deployment_status, s);
    assert.equal((e?.payload as any).deployment.id, d.id);
  });

  test('log_url sets target_url; target_url alone sets both; environment falls back to the previous status, then the deployment', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const d = created(await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'main', environment: 'qa' }));
    const id = d.id;
    const post = async (body: Record<string, unknown>) => (await kit.request(`POST ${STATUSES}`, { owner: r.owner, repo: r.repo, deployment_id: id, ...body } as never)).data as Record<string, any>;
    const first = await post({ state: 'queued', log_url: 'https://ci.example.com/log/1', environment_url: 'https://qa.example.com', description: 'Queued' });
    assert.equal(first.log_url, 'https://ci.example.com/log/1');
    assert.equal(first.target_url, 'https://ci.example.com/log/1');
    assert.equal(first.environment_url, 'https://qa.example.com');
    assert.equal(first.description, 'Queued');
    assert.equal(first.environment, 'qa', 'the deployment environment when there is no earlier status');
    const legacy = await post({ state: 'pending', target_url: 'https://ci.example.com/t/2' });
    assert.equal(legacy.target_url, 'https://ci.example.com/t/2');
    assert.equal(legacy.log_url, 'https://ci.example.com/t/2');
    const both = await post({ state: 'pending', target_url: 'https://old.example.com', log_url: 'https://new.example.com' });
    assert.equal(both.target_url, 'https://new.example.com');
    const moved = await post({ state: 'in_progress', environment: 'qa-2' });
    assert.equal(moved.environment, 'qa-2');
    const next = await post({ state: 'success' });
    assert.equal(next.environment, 'qa-2', 'the previous status environment');
    const { data: after } = await kit.rest.repos.getDeployment({ owner: r.owner, repo: r.repo, deployment_id: id });
    assert.equal(after.environment, 'qa-2');
    assert.equal(after.original_environment, 'qa');
  });

  test('422: bad or missing state, a description over 140 characters, a blank environment; nothing written', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const d = created(await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'main' }));
    const path = `/repos/${r.owner}/${r.repo}/deployments/${d.id}/statuses`;
    const bad = await send('POST', path, alice.token, { state: 'destroyed' });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.errors.map((e: any) => [e.resource, e.field, e.code]), [['DeploymentStatus', 'state', 'invalid']]);
    const missing = await send('POST', path, alice.token, { description: 'x' });
    assert.deepEqual(missing.body.errors.map((e: any) => [e.field, e.code]), [['state', 'missing_field']]);
    const long = await send('POST', path, alice.token, { state: 'success', description: 'd'.repeat(141) });
    assert.equal(long.status, 422);
    assert.deepEqual(long.body.errors.map((e: any) => [e.resource, e.field, e.code]), [['DeploymentStatus', 'description', 'custom']]);
    assert.match(long.body.errors[0].message, /140/);
    assert.equal((await send('POST', path, alice.token, { state: 'success', environment: '' })).status, 422);
    assert.equal((await send('POST', path, alice.token, { state: 'success', auto_inactive: 'yes' })).status, 422);
    for (const field of ['description', 'environment', 'log_url', 'target_url', 'environment_url']) {
      const res = await send('POST', path, alice.token, { state: 'success', [field]: 'a\u0000b' });
      assert.equal(res.status, 422, field);
      assert.equal(res.body.errors[0].field, field);
    }
    assert.equal((await kit.rest.repos.listDeploymentStatuses({ owner: r.owner, repo: r.repo, deployment_id: d.id })).data.length, 0);
    const ok = await send('POST', path, alice.token, { state: 'success', description: 'd'.repeat(140) });
    assert.equal(ok.status, 201);
    await failsWith(kit.rest.repos.createDeploymentStatus({ owner: r.owner, repo: r.repo, deployment_id: 999999, state: 'success' }), 404);
  });

  test('list newest first with Link, get one; 404 for a status of another deployment', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const a = created(await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'main', environment: 'a' })).id;
    const b = created(await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'main', environment: 'b' })).id;
    const ids: number[] = [];
    for (const state of ['queued', 'in_progress', 'success'] as const) {
      ids.push((await kit.rest.repos.createDeploymentStatus({ owner: r.owner, repo: r.repo, deployment_id: a, state })).data.id);
    }
    const list = await kit.rest.repos.listDeploymentStatuses({ owner: r.owner, repo: r.repo, deployment_id: a });
    assertMatchesOpenApi('GET', STATUSES, 200, list.data);
    assert.deepEqual(list.data.map((s) => s.id), [...ids].reverse());
    const page = await kit.rest.repos.listDeploymentStatuses({ owner: r.owner, repo: r.repo, deployment_id: a, per_page: 1, page: 2 });
    assert.deepEqual(page.data.map((s) => s.state), ['in_progress']);
    assert.match(page.headers.link ?? '', /rel="prev"/);
    assert.match(page.headers.link ?? '', /rel="next"/);
    const one = await kit.rest.repos.getDeploymentStatus({ owner: r.owner, repo: r.repo, deployment_id: a, status_id: ids[0]! });
    assertMatchesOpenApi('GET', `${STATUSES}/{status_id}`, 200, one.data);
    assert.equal(one.data.state, 'queued');
    await failsWith(kit.rest.repos.getDeploymentStatus({ owner: r.owner, repo: r.repo, deployment_id: b, status_id: ids[0]! }), 404);
    await failsWith(kit.rest.repos.getDeploymentStatus({ owner: r.owner, repo: r.repo, deployment_id: a, status_id: 999999 }), 404);
    await failsWith(kit.rest.repos.listDeploymentStatuses({ owner: r.owner, repo: r.repo, deployment_id: 999999 }), 404);
    const { data: deployment } = await kit.rest.repos.getDeployment({ owner: r.owner, repo: r.repo, deployment_id: a });
    assert.ok(deployment.updated_at >= deployment.created_at);
  });

  test('every state is accepted; a transient deployment takes inactive', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const d = created(await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'main', environment: 'review-app-7', transient_environment: true }));
    for (const state of ['error', 'failure', 'inactive', 'in_progress', 'queued', 'pending', 'success', 'inactive'] as const) {
      const { data } = await kit.rest.repos.createDeploymentStatus({ owner: r.owner, repo: r.repo, deployment_id: d.id, state });
      assert.equal(data.state, state);
    }
  });

  test('auto_inactive: a success retires earlier successful non-transient, non-production deployments of the environment', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const deploy = async (environment: string, extra: Record<string, unknown> = {}) =>
      created(await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'main', environment, ...extra })).id;
    const succeed = (id: number, extra: Record<string, unknown> = {}) =>
      kit.rest.repos.createDeploymentStatus({ owner: r.owner, repo: r.repo, deployment_id: id, state: 'success', ...extra });
    const states = async (id: number) => (await kit.rest.repos.listDeploymentStatuses({ owner: r.owner, repo: r.repo, deployment_id: id })).data.map((s) => s.state);

    const old = await deploy('staging');
    const transient = await deploy('staging', { transient_environment: true });
    const production = await deploy('staging', { production_environment: true });
    const failed = await deploy('staging');
    const elsewhere = await deploy('qa');
    // Set up without retiring anyone yet: the rule looks at the earlier deployments only,
    // whatever the kind of the one that succeeds.
    for (const id of [old, transient, production, elsewhere]) await succeed(id, { auto_inactive: false });
    await kit.rest.repos.createDeploymentStatus({ owner: r.owner, repo: r.repo, deployment_id: failed, state: 'failure' });
    const kept = await deploy('staging');
    await succeed(kept, { auto_inactive: false });
    assert.deepEqual(await states(old), ['success'], 'auto_inactive false leaves the others alone');

    const fresh = await deploy('staging');
    await succeed(fresh);
    assert.deepEqual(await states(old), ['inactive', 'success']);
    assert.deepEqual(await states(kept), ['inactive', 'success']);
    assert.deepEqual(await states(transient), ['success']);
    assert.deepEqual(await states(production), ['success']);
    assert.deepEqual(await states(failed), ['failure']);
    assert.deepEqual(await states(elsewhere), ['success']);
    assert.deepEqual(await states(fresh), ['success']);
    const inactive = (await kit.rest.repos.listDeploymentStatuses({ owner: r.owner, repo: r.repo, deployment_id: old })).data[0]!;
    assert.equal(inactive.environment, 'staging');
    assert.equal(inactive.creator?.login, alice.login);
    const events = await listEvents(t.server.ctx, { event: 'deployment_status', repositoryId: r.id });
    assert.deepEqual(events.slice(-3).map((e) => [(e.payload as any).deployment.id, (e.payload as any).deployment_status.state]), [
      [fresh, 'success'], [old, 'inactive'], [kept, 'inactive'],
    ]);
    // A later non-success status does not retire anyone.
    const another = await deploy('staging');
    await kit.rest.repos.createDeploymentStatus({ owner: r.owner, repo: r.repo, deployment_id: another, state: 'failure' });
    assert.deepEqual(await states(fresh), ['success']);
  });
});

describe('rights and scopes', () => {
  test('repo_deployment alone reads and writes deployments of a private repository', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice, true);
    const kit = t.octokit(await tokenFor(alice.login, ['repo_deployment']));
    const d = created(await kit.rest.repos.createDeployment({ owner: r.owner, repo: r.repo, ref: 'main' }));
    await kit.rest.repos.createDeploymentStatus({ owner: r.owner, repo: r.repo, deployment_id: d.id, state: 'success' });
    assert.equal((await kit.rest.repos.listDeployments({ owner: r.owner, repo: r.repo })).data.length, 1);
    assert.equal((await kit.rest.repos.listDeploymentStatuses({ owner: r.owner, repo: r.repo, deployment_id: d.id })).data.length, 1);
  });

  test('without repo_deployment or repo: 404 on a private repository; 403 on a public one unless public_repo', async () => {
    const alice = await createUser(t);
    const priv = await newRepo(alice, true);
    const pub = await newRepo(alice);
    const userOnly = await tokenFor(alice.login, ['user']);
    const kit = t.octokit(userOnly);
    await failsWith(kit.rest.repos.createDeployment({ owner: priv.owner, repo: priv.repo, ref: 'main' }), 404);
    await failsWith(kit.rest.repos.listDeployments({ owner: priv.owner, repo: priv.repo }), 404);
    await failsWith(t.octokit(await tokenFor(alice.login, ['public_repo'])).rest.repos.createDeployment({ owner: priv.owner, repo: priv.repo, ref: 'main' }), 404);
    const res = await send('POST', `/repos/${pub.owner}/${pub.repo}/deployments`, userOnly, { ref: 'main' });
    assert.equal(res.status, 403);
    assert.equal(res.headers.get('x-accepted-oauth-scopes'), 'repo_deployment, public_repo, repo');
    const d = created(await t.octokit(await tokenFor(alice.login, ['public_repo'])).rest.repos.createDeployment({ owner: pub.owner, repo: pub.repo, ref: 'main' }));
    const statusRes = await send('POST', `/repos/${pub.owner}/${pub.repo}/deployments/${d.id}/statuses`, userOnly, { state: 'success' });
    assert.equal(statusRes.status, 403);
    assert.equal((await send('DELETE', `/repos/${pub.owner}/${pub.repo}/deployments/${d.id}`, userOnly)).status, 403);
    assert.equal(await deploymentCount(priv.id), 0);
    assert.equal(await deploymentCount(pub.id), 1);
  });

  test('pull access reads but may not write; anonymous callers read public deployments; private ones are 404 to others', async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const pub = await newRepo(alice);
    const priv = await newRepo(alice, true);
    const d = created(await t.octokit(alice.token).rest.repos.createDeployment({ owner: pub.owner, repo: pub.repo, ref: 'main' }));
    const pd = created(await t.octokit(alice.token).rest.repos.createDeployment({ owner: priv.owner, repo: priv.repo, ref: 'main' }));
    const bobKit = t.octokit(bob.token);
    assert.equal((await bobKit.rest.repos.getDeployment({ owner: pub.owner, repo: pub.repo, deployment_id: d.id })).status, 200);
    const denied = await failsWith(bobKit.rest.repos.createDeployment({ owner: pub.owner, repo: pub.repo, ref: 'main' }), 403);
    assert.match(denied.message, /push access/);
    await failsWith(bobKit.rest.repos.createDeploymentStatus({ owner: pub.owner, repo: pub.repo, deployment_id: d.id, state: 'success' }), 403);
    await failsWith(bobKit.rest.repos.deleteDeployment({ owner: pub.owner, repo: pub.repo, deployment_id: d.id }), 403);
    assert.equal((await t.octokit().rest.repos.listDeployments({ owner: pub.owner, repo: pub.repo })).data.length, 1);
    assert.equal((await t.octokit().rest.repos.listDeploymentStatuses({ owner: pub.owner, repo: pub.repo, deployment_id: d.id })).data.length, 0);
    await failsWith(t.octokit().rest.repos.createDeployment({ owner: pub.owner, repo: pub.repo, ref: 'main' }), 401);
    await failsWith(bobKit.rest.repos.getDeployment({ owner: priv.owner, repo: priv.repo, deployment_id: pd.id }), 404);
    await failsWith(bobKit.rest.repos.createDeploymentStatus({ owner: priv.owner, repo: priv.repo, deployment_id: pd.id, state: 'success' }), 404);
    await failsWith(t.octokit().rest.repos.listDeployments({ owner: priv.owner, repo: priv.repo }), 404);
  });
});
