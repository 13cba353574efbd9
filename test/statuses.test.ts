// Commit statuses: create, list for a ref, the combined status, rights and scopes,
// and the status event.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failsWith } from './helpers/failures.ts';
import { createToken, createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepoWithHead } from './factories/repos.ts';
import { listEvents } from '../src/events/outbox.ts';

let t: TestServer;

before(async () => { t = await startTestServer(); });
after(async () => { await t.close(); });

interface Repo { id: number; owner: string; repo: string; head: string }

const newRepo = (owner: CreatedUser, priv = false): Promise<Repo> => createRepoWithHead(t, owner, { private: priv });

const tokenFor = (login: string, scopes: string[]) => createToken(t, login, scopes);

async function statusRows(repositoryId: number) {
  return t.server.ctx.db.selectFrom('commit_statuses').selectAll().where('repository_id', '=', repositoryId).orderBy('id').execute();
}

describe('creating commit statuses', () => {
  test('201 with the published record; defaults: context "default", null description and target_url', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const res = await kit.rest.repos.createCommitStatus({ owner: r.owner, repo: r.repo, sha: r.head, state: 'pending' });
    assert.equal(res.status, 201);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/statuses/{sha}', 201, res.data);
    const s = res.data;
    assert.equal(s.state, 'pending');
    assert.equal(s.context, 'default');
    assert.equal(s.description, null);
    assert.equal(s.target_url, null);
    assert.equal(s.url, `${t.baseUrl}/repos/${r.owner}/${r.repo}/statuses/${r.head}`);
    assert.equal(s.creator?.login, alice.login);
    assert.equal(s.avatar_url, s.creator?.avatar_url);
    assert.equal(Buffer.from(s.node_id, 'base64').toString(), `06:Status${s.id}`);
    assert.match(s.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const [row] = await statusRows(r.id);
    assert.equal(row?.sha, r.head);
    assert.equal(row?.state, 'pending');
  });

  test('every field kept; an abbreviated sha is stored in full', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const { data } = await t.octokit(alice.token).rest.repos.createCommitStatus({
      owner: r.owner, repo: r.repo, sha: r.head.slice(0, 10), state: 'success',
      target_url: 'https://ci.example.com/1', description: 'Build passed', context: 'ci/build',
    });
    assert.equal(data.target_url, 'https://ci.example.com/1');
    assert.equal(data.description, 'Build passed');
    assert.equal(data.context, 'ci/build');
    assert.equal(data.url.endsWith(`/statuses/${r.head}`), true);
    assert.equal((await statusRows(r.id))[0]?.sha, r.head);
  });

  test('422 for an unknown sha, a ref name, a bad or missing state, a description over 140 characters', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const unknown = await failsWith(kit.rest.repos.createCommitStatus({ owner: r.owner, repo: r.repo, sha: 'a'.repeat(40), state: 'success' }), 422);
    assert.equal(unknown.message, `No commit found for SHA: ${'a'.repeat(40)}`);
    assert.deepEqual(unknown.errors?.map((e) => [e.resource, e.field, e.code]), [['Status', 'sha', 'invalid']]);
    await failsWith(kit.rest.repos.createCommitStatus({ owner: r.owner, repo: r.repo, sha: 'main', state: 'success' }), 422);
    const bad = await failsWith(kit.rest.repos.createCommitStatus({ owner: r.owner, repo: r.repo, sha: r.head, state: 'done' as never }), 422);
    assert.equal(bad.errors?.[0]?.field, 'state');
    const missing = await failsWith(kit.request('POST /repos/{owner}/{repo}/statuses/{sha}', { owner: r.owner, repo: r.repo, sha: r.head, context: 'x' } as never), 422);
    assert.deepEqual(missing.errors?.map((e) => [e.field, e.code]), [['state', 'missing_field']]);
    const long = await failsWith(kit.rest.repos.createCommitStatus({ owner: r.owner, repo: r.repo, sha: r.head, state: 'success', description: 'x'.repeat(141) }), 422);
    assert.deepEqual(long.errors?.map((e) => [e.resource, e.field, e.code]), [['Status', 'description', 'custom']]);
    for (const field of ['context', 'description', 'target_url'] as const) {
      const nul = await failsWith(kit.rest.repos.createCommitStatus({ owner: r.owner, repo: r.repo, sha: r.head, state: 'success', [field]: 'a\u0000b' }), 422);
      assert.equal(nul.errors?.[0]?.field, field);
    }
    await kit.rest.repos.createCommitStatus({ owner: r.owner, repo: r.repo, sha: r.head, state: 'success', description: 'x'.repeat(140) });
    assert.equal((await statusRows(r.id)).length, 1, 'rejected requests wrote nothing');
  });

  test('the status event is recorded with the published keys', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const { data } = await t.octokit(alice.token).rest.repos.createCommitStatus({ owner: r.owner, repo: r.repo, sha: r.head, state: 'failure', context: 'ci', description: 'red', target_url: 'https://ci.example.com/2' });
    const [e] = await listEvents(t.server.ctx, { event: 'status', repositoryId: r.id });
    assert.ok(e);
    assert.equal(e.actorId, alice.id);
    const p = e.payload as Record<string, any>;
    for (const key of ['id', 'sha', 'name', 'target_url', 'context', 'description', 'state', 'commit', 'branches', 'created_at', 'updated_at']) {
      assert.ok(key in p, `payload has ${key}`);
    }
    assert.equal(p.id, data.id);
    assert.equal(p.sha, r.head);
    assert.equal(p.name, `${r.owner}/${r.repo}`);
    assert.equal(p.state, 'failure');
    assert.equal(p.context, 'ci');
    assert.equal(p.description, 'red');
    assert.equal(p.target_url, 'https://ci.example.com/2');
    assert.equal(p.commit.sha, r.head);
    assert.equal(p.commit.url, `${t.baseUrl}/repos/${r.owner}/${r.repo}/commits/${r.head}`);
    assert.ok(p.commit.commit.message);
    assert.deepEqual(p.branches, [{ name: 'main', commit: { sha: r.head, url: `${t.baseUrl}/repos/${r.owner}/${r.repo}/commits/${r.head}` }, protected: false }]);
  });
});

describe('listing statuses', () => {
  test('newest first, for a sha, a branch or a tag, with Link pages and the legacy path', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    for (const state of ['pending', 'success', 'failure'] as const) {
      await kit.rest.repos.createCommitStatus({ owner: r.owner, repo: r.repo, sha: r.head, state, context: `c-${state}` });
    }
    await kit.rest.git.createRef({ owner: r.owner, repo: r.repo, ref: 'refs/tags/v1', sha: r.head });
    const bySha = await kit.rest.repos.listCommitStatusesForRef({ owner: r.owner, repo: r.repo, ref: r.head });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/commits/{ref}/statuses', 200, bySha.data);
    assert.deepEqual(bySha.data.map((s) => s.state), ['failure', 'success', 'pending']);
    for (const ref of ['main', 'v1', r.head.slice(0, 8)]) {
      const { data } = await kit.rest.repos.listCommitStatusesForRef({ owner: r.owner, repo: r.repo, ref });
      assert.deepEqual(data.map((s) => s.id), bySha.data.map((s) => s.id));
    }
    const page = await kit.rest.repos.listCommitStatusesForRef({ owner: r.owner, repo: r.repo, ref: 'main', per_page: 2 });
    assert.equal(page.data.length, 2);
    assert.match(page.headers.link ?? '', /rel="next"/);
    assert.match(page.headers.link ?? '', /page=2/);
    const second = await kit.rest.repos.listCommitStatusesForRef({ owner: r.owner, repo: r.repo, ref: 'main', per_page: 2, page: 2 });
    assert.deepEqual(second.data.map((s) => s.state), ['pending']);
    const legacy = await t.request(`/repos/${r.owner}/${r.repo}/statuses/main`, { token: alice.token });
    assert.equal(legacy.status, 200);
    assert.deepEqual(((await legacy.json()) as { id: number }[]).map((s) => s.id), bySha.data.map((s) => s.id));
  });

  test('404 for an unknown ref, an unknown repository, a private repository of someone else', async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const r = await newRepo(alice, true);
    const kit = t.octokit(alice.token);
    await failsWith(kit.rest.repos.listCommitStatusesForRef({ owner: r.owner, repo: r.repo, ref: 'no-such-branch' }), 404);
    await failsWith(kit.rest.repos.getCombinedStatusForRef({ owner: r.owner, repo: r.repo, ref: 'f'.repeat(40) }), 404);
    await failsWith(kit.rest.repos.listCommitStatusesForRef({ owner: r.owner, repo: 'nothing-here', ref: 'main' }), 404);
    await failsWith(t.octokit(bob.token).rest.repos.listCommitStatusesForRef({ owner: r.owner, repo: r.repo, ref: 'main' }), 404);
    await failsWith(t.octokit(bob.token).rest.repos.createCommitStatus({ owner: r.owner, repo: r.repo, sha: r.head, state: 'success' }), 404);
    await failsWith(t.octokit().rest.repos.getCombinedStatusForRef({ owner: r.owner, repo: r.repo, ref: 'main' }), 404);
  });
});

describe('the combined status', () => {
  test('pending with no statuses; the latest status of each context decides', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const combined = async () => (await kit.rest.repos.getCombinedStatusForRef({ owner: r.owner, repo: r.repo, ref: 'main' })).data;
    const post = (state: 'error' | 'failure' | 'pending' | 'success', context: string) =>
      kit.rest.repos.createCommitStatus({ owner: r.owner, repo: r.repo, sha: r.head, state, context });

    const empty = await combined();
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/commits/{ref}/status', 200, empty);
    assert.equal(empty.state, 'pending');
    assert.equal(empty.total_count, 0);
    assert.deepEqual(empty.statuses, []);
    assert.equal(empty.sha, r.head);
    assert.equal(empty.commit_url, `${t.baseUrl}/repos/${r.owner}/${r.repo}/commits/${r.head}`);
    assert.equal(empty.url, `${t.baseUrl}/repos/${r.owner}/${r.repo}/commits/${r.head}/status`);
    assert.equal(empty.repository.full_name, `${r.owner}/${r.repo}`);

    await post('success', 'ci');
    assert.equal((await combined()).state, 'success');
    await post('pending', 'lint');
    assert.equal((await combined()).state, 'pending');
    await post('success', 'lint');
    assert.equal((await combined()).state, 'success');
    await post('error', 'deploy');
    assert.equal((await combined()).state, 'failure');
    await post('success', 'deploy');
    await post('failure', 'CI'); // contexts compare case-insensitively: this replaces "ci"
    const c = await combined();
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/commits/{ref}/status', 200, c);
    assert.equal(c.state, 'failure');
    assert.equal(c.total_count, 3);
    assert.deepEqual(c.statuses.map((s) => [s.context, s.state]).sort(), [['CI', 'failure'], ['deploy', 'success'], ['lint', 'success']]);
    await post('success', 'ci');
    assert.equal((await combined()).state, 'success');

    const paged = await kit.rest.repos.getCombinedStatusForRef({ owner: r.owner, repo: r.repo, ref: 'main', per_page: 2 });
    assert.equal(paged.data.statuses.length, 2);
    assert.equal(paged.data.total_count, 3);
    assert.match(paged.headers.link ?? '', /rel="next"/);
  });
});

describe('required: whether the branch requires the context', () => {
  test('read for a branch, each status says whether its protection requires the context; read for a sha, null', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    for (const context of ['ci/build', 'lint']) await kit.rest.repos.createCommitStatus({ owner: r.owner, repo: r.repo, sha: r.head, state: 'success', context });
    const required = async (ref: string) => {
      const c = (await kit.rest.repos.getCombinedStatusForRef({ owner: r.owner, repo: r.repo, ref })).data;
      assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/commits/{ref}/status', 200, c);
      return c.statuses.map((s) => [s.context, s.required]).sort();
    };
    // No rule yet: the branch requires nothing.
    assert.deepEqual(await required('main'), [['ci/build', false], ['lint', false]]);
    await kit.rest.repos.updateBranchProtection({
      owner: r.owner, repo: r.repo, branch: 'main', required_status_checks: { strict: false, contexts: ['ci/build'] },
      enforce_admins: null, required_pull_request_reviews: null, restrictions: null,
    });
    assert.deepEqual(await required('main'), [['ci/build', true], ['lint', false]]);
    assert.deepEqual(await required('heads/main'), [['ci/build', true], ['lint', false]]);
    assert.deepEqual(await required(r.head), [['ci/build', null], ['lint', null]]);
  });
});

describe('rights and scopes', () => {
  test('repo:status alone reads and writes statuses of a private repository', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice, true);
    const token = await tokenFor(alice.login, ['repo:status']);
    const kit = t.octokit(token);
    const created = await kit.rest.repos.createCommitStatus({ owner: r.owner, repo: r.repo, sha: r.head, state: 'success' });
    assert.equal(created.status, 201);
    assert.equal((await kit.rest.repos.listCommitStatusesForRef({ owner: r.owner, repo: r.repo, ref: r.head })).data.length, 1);
    assert.equal((await kit.rest.repos.getCombinedStatusForRef({ owner: r.owner, repo: r.repo, ref: 'main' })).data.state, 'success');
  });

  test('a token without repo:status, public_repo or repo: 404 on a private repository, 403 on a public one', async () => {
    const alice = await createUser(t);
    const priv = await newRepo(alice, true);
    const pub = await newRepo(alice);
    const kit = t.octokit(await tokenFor(alice.login, ['user']));
    await failsWith(kit.rest.repos.createCommitStatus({ owner: priv.owner, repo: priv.repo, sha: priv.head, state: 'success' }), 404);
    await failsWith(kit.rest.repos.listCommitStatusesForRef({ owner: priv.owner, repo: priv.repo, ref: 'main' }), 404);
    const res = await t.request(`/repos/${pub.owner}/${pub.repo}/statuses/${pub.head}`, { method: 'POST', token: await tokenFor(alice.login, ['user']), json: { state: 'success' } });
    assert.equal(res.status, 403);
    assert.equal(res.headers.get('x-accepted-oauth-scopes'), 'repo:status, public_repo, repo');
    // public_repo is enough on a public repository.
    const publicRepo = t.octokit(await tokenFor(alice.login, ['public_repo']));
    assert.equal((await publicRepo.rest.repos.createCommitStatus({ owner: pub.owner, repo: pub.repo, sha: pub.head, state: 'success' })).status, 201);
    assert.equal((await statusRows(priv.id)).length, 0);
  });

  test('pull access reads but may not write; anonymous callers read public statuses', async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const r = await newRepo(alice);
    await t.octokit(alice.token).rest.repos.createCommitStatus({ owner: r.owner, repo: r.repo, sha: r.head, state: 'success' });
    const denied = await failsWith(t.octokit(bob.token).rest.repos.createCommitStatus({ owner: r.owner, repo: r.repo, sha: r.head, state: 'failure' }), 403);
    assert.match(denied.message, /push access/);
    assert.equal((await t.octokit(bob.token).rest.repos.getCombinedStatusForRef({ owner: r.owner, repo: r.repo, ref: 'main' })).data.state, 'success');
    assert.equal((await t.octokit().rest.repos.listCommitStatusesForRef({ owner: r.owner, repo: r.repo, ref: 'main' })).data.length, 1);
    await failsWith(t.octokit().rest.repos.createCommitStatus({ owner: r.owner, repo: r.repo, sha: r.head, state: 'failure' }), 401);
  });

  test('an archived repository takes no statuses', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    await t.octokit(alice.token).rest.repos.update({ owner: r.owner, repo: r.repo, archived: true });
    await failsWith(t.octokit(alice.token).rest.repos.createCommitStatus({ owner: r.owner, repo: r.repo, sha: r.head, state: 'success' }), 403);
  });
});
