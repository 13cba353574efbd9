// git clone, fetch and push over HTTP against Wharf, with the git binary.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { git, gitOk, tempDir, cloneUrl } from './helpers/git.ts';
import { listEvents } from '../src/events/outbox.ts';

async function commitFile(dir: string, file: string, content: string, message: string): Promise<string> {
  fs.writeFileSync(path.join(dir, file), content);
  await gitOk(['add', file], { cwd: dir });
  await gitOk(['commit', '-q', '-m', message], { cwd: dir });
  return (await gitOk(['rev-parse', 'HEAD'], { cwd: dir })).trim();
}

describe('git over HTTP', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t, ['repo', 'user']);
    bob = await createUser(t, ['repo', 'user']);
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'public-dock', auto_init: true });
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'private-dock', auto_init: true, private: true });
  });
  after(() => t.close());

  test('clone, commit, push, clone again: the same tree, and the API sees the push', async () => {
    const work = tempDir();
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, alice.login, 'private-dock', alice.login, alice.token), work]);
    const before = await t.octokit(alice.token).rest.repos.get({ owner: alice.login, repo: 'private-dock' });
    await new Promise((r) => setTimeout(r, 1100)); // pushed_at has one-second resolution
    await commitFile(work, 'cargo.txt', 'crates\n', 'Load cargo');
    const head = await commitFile(work, 'manifest.txt', 'one crate\n', 'Write manifest');
    await gitOk(['push', '-q', 'origin', 'HEAD:main'], { cwd: work });
    const again = tempDir();
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, alice.login, 'private-dock', alice.login, alice.token), again]);
    assert.equal((await gitOk(['rev-parse', 'HEAD^{tree}'], { cwd: again })).trim(), (await gitOk(['rev-parse', 'HEAD^{tree}'], { cwd: work })).trim());
    assert.equal((await gitOk(['rev-parse', 'HEAD'], { cwd: again })).trim(), head);
    const after = await t.octokit(alice.token).rest.repos.get({ owner: alice.login, repo: 'private-dock' });
    assert.ok(Date.parse(after.data.pushed_at!) > Date.parse(before.data.pushed_at!));
    assert.ok(after.data.size >= before.data.size);
    const pushes = await listEvents(t.server.ctx, { event: 'push', repositoryId: after.data.id });
    const last = pushes.at(-1)!;
    assert.equal(last.payload.ref, 'refs/heads/main');
    assert.equal(last.payload.after, head);
    assert.equal(last.actorId, alice.id);
    assert.deepEqual((last.payload.commits as { message: string }[]).map((c) => c.message), ['Load cargo', 'Write manifest']);
  });

  test('fetch works without the .git suffix; public repositories clone anonymously', async () => {
    const dir = tempDir();
    await gitOk(['clone', '-q', `${t.baseUrl}/${alice.login}/public-dock`, dir]);
    assert.ok(fs.existsSync(path.join(dir, 'README.md')));
    await gitOk(['fetch', '-q', 'origin'], { cwd: dir });
  });

  test('a private repository challenges anonymous callers with 401 and WWW-Authenticate', async () => {
    const res = await t.request(`/${alice.login}/private-dock.git/info/refs?service=git-upload-pack`);
    assert.equal(res.status, 401);
    assert.match(res.headers.get('www-authenticate') ?? '', /^Basic realm=/);
    const missing = await t.request(`/${alice.login}/no-such-repo.git/info/refs?service=git-upload-pack`);
    assert.equal(missing.status, 401, 'absent and private look the same');
    const r = await git(['ls-remote', `${t.baseUrl}/${alice.login}/private-dock.git`]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /could not read Username|Authentication failed/);
  });

  test('wrong credentials are a 401; a user who may not see the repository finds nothing', async () => {
    const wrong = await git(['ls-remote', cloneUrl(t.baseUrl, alice.login, 'private-dock', alice.login, 'whp_wrong')]);
    assert.notEqual(wrong.code, 0);
    assert.match(wrong.stderr, /Authentication failed|401/);
    const hidden = await git(['ls-remote', cloneUrl(t.baseUrl, alice.login, 'private-dock', bob.login, bob.token)]);
    assert.notEqual(hidden.code, 0);
    assert.match(hidden.stderr, /not found|404/i);
  });

  test('pushing needs push access and the repo scope', async () => {
    const work = tempDir();
    await gitOk(['clone', '-q', `${t.baseUrl}/${alice.login}/public-dock`, work]);
    const sha = await commitFile(work, 'intruder.txt', 'x', 'Intrude');
    const byBob = await git(['push', cloneUrl(t.baseUrl, alice.login, 'public-dock', bob.login, bob.token), 'HEAD:main'], { cwd: work });
    assert.notEqual(byBob.code, 0);
    assert.match(byBob.stderr, /denied|403/);
    const weak = await t.octokit(ADMIN_TOKEN).request('POST /admin/users/{username}/authorizations', { username: alice.login, scopes: ['user'] });
    const noScope = await git(['push', cloneUrl(t.baseUrl, alice.login, 'public-dock', alice.login, weak.data.token), 'HEAD:main'], { cwd: work });
    assert.notEqual(noScope.code, 0);
    const remote = await gitOk(['ls-remote', `${t.baseUrl}/${alice.login}/public-dock`, 'refs/heads/main']);
    assert.ok(!remote.startsWith(sha), 'nothing was pushed');
    const anon = await git(['push', `${t.baseUrl}/${alice.login}/public-dock`, 'HEAD:main'], { cwd: work });
    assert.notEqual(anon.code, 0);
  });

  test('the first push to an empty repository sets its default branch; branches and tags raise create and delete events', async () => {
    const { data: repo } = await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'fresh' });
    const work = tempDir();
    await gitOk(['init', '-q', '-b', 'trunk', work]);
    await commitFile(work, 'a.txt', 'a', 'First');
    const url = cloneUrl(t.baseUrl, alice.login, 'fresh', alice.login, alice.token);
    await gitOk(['push', '-q', url, 'trunk'], { cwd: work });
    const { data } = await t.octokit(alice.token).rest.repos.get({ owner: alice.login, repo: 'fresh' });
    assert.equal(data.default_branch, 'trunk');
    const clone = tempDir();
    await gitOk(['clone', '-q', url, clone]);
    assert.equal((await gitOk(['rev-parse', '--abbrev-ref', 'HEAD'], { cwd: clone })).trim(), 'trunk');
    await gitOk(['tag', 'v1'], { cwd: work });
    await gitOk(['push', '-q', url, 'v1', 'trunk:topic'], { cwd: work });
    await gitOk(['push', '-q', url, ':topic'], { cwd: work });
    const creates = await listEvents(t.server.ctx, { event: 'create', repositoryId: repo.id });
    assert.deepEqual(creates.map((e) => `${e.payload.ref_type}:${e.payload.ref}`), ['branch:trunk', 'branch:topic', 'tag:v1']);
    const deletes = await listEvents(t.server.ctx, { event: 'delete', repositoryId: repo.id });
    assert.deepEqual(deletes.map((e) => e.payload.ref), ['topic']);
  });

  test('a forced push is recorded as forced', async () => {
    const { data: repo } = await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'rewrite', auto_init: true });
    const work = tempDir();
    const url = cloneUrl(t.baseUrl, alice.login, 'rewrite', alice.login, alice.token);
    await gitOk(['clone', '-q', url, work]);
    await commitFile(work, 'b.txt', 'b', 'Second');
    await gitOk(['push', '-q', 'origin', 'HEAD:main'], { cwd: work });
    await gitOk(['reset', '-q', '--hard', 'HEAD~1'], { cwd: work });
    await commitFile(work, 'c.txt', 'c', 'Other second');
    await gitOk(['push', '-q', '--force', 'origin', 'HEAD:main'], { cwd: work });
    const pushes = await listEvents(t.server.ctx, { event: 'push', repositoryId: repo.id });
    assert.deepEqual(pushes.map((p) => p.payload.forced), [false, true]);
  });
});
