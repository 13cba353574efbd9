// Repository contents: files and directories at a ref, README, raw downloads, and
// files created, updated and deleted through the API as real commits.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failure } from './helpers/failures.ts';
import { gitOk, tempDir, cloneUrl } from './helpers/git.ts';
import { listEvents } from '../src/events/outbox.ts';

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

describe('repository contents', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  const repo = 'content-dock';

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t, ['repo', 'user', 'workflow']);
    bob = await createUser(t, ['repo', 'user']);
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: repo, auto_init: true, description: 'Contents' });
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'private-contents', auto_init: true, private: true });
    const dir = tempDir();
    const url = cloneUrl(t.baseUrl, alice.login, repo, alice.login, alice.token);
    await gitOk(['clone', '-q', url, dir]);
    fs.mkdirSync(path.join(dir, 'docs/deep'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'docs/guide.md'), 'Guide\n');
    fs.writeFileSync(path.join(dir, 'docs/deep/x.bin'), Buffer.from([0, 200, 1, 255]));
    fs.writeFileSync(path.join(dir, 'big.txt'), 'x'.repeat(1024 * 1024 + 10));
    fs.symlinkSync('docs/guide.md', path.join(dir, 'guide-link'));
    fs.symlinkSync('../outside', path.join(dir, 'dangling'));
    await gitOk(['add', '-A'], { cwd: dir });
    await gitOk(['commit', '-q', '-m', 'Docs'], { cwd: dir });
    await gitOk(['push', '-q', 'origin', 'HEAD:main'], { cwd: dir });
    await gitOk(['push', '-q', 'origin', 'HEAD~1:refs/heads/old'], { cwd: dir });
  });
  after(() => t.close());

  test('a file: base64 content, links, and the raw media type', async () => {
    const { data } = await t.octokit(alice.token).rest.repos.getContent({ owner: alice.login, repo, path: 'docs/guide.md' });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/contents/{path}', 200, data);
    assert.ok(!Array.isArray(data) && data.type === 'file');
    assert.equal(Buffer.from(data.content!, 'base64').toString(), 'Guide\n');
    assert.equal(data.encoding, 'base64');
    assert.equal(data.name, 'guide.md');
    assert.equal(data.path, 'docs/guide.md');
    assert.equal(data.size, 6);
    assert.equal(data.sha, (await gitOk(['hash-object', '--stdin'], { input: 'Guide\n' })).trim());
    const base = `${t.baseUrl}/repos/${alice.login}/${repo}`;
    assert.equal(data.url, `${base}/contents/docs/guide.md?ref=main`);
    assert.equal(data.git_url, `${base}/git/blobs/${data.sha}`);
    assert.equal(data.html_url, `${t.baseUrl}/${alice.login}/${repo}/blob/main/docs/guide.md`);
    assert.equal(data.download_url, `${t.baseUrl}/${alice.login}/${repo}/raw/main/docs/guide.md`);
    assert.deepEqual(data._links, { self: data.url, git: data.git_url, html: data.html_url });

    const raw = await t.octokit(alice.token).rest.repos.getContent({ owner: alice.login, repo, path: 'docs/guide.md', mediaType: { format: 'raw' } });
    assert.equal(raw.data as unknown as string, 'Guide\n');
    const bin = await t.request(`/repos/${alice.login}/${repo}/contents/docs/deep/x.bin`, { token: alice.token, headers: { accept: 'application/vnd.github.raw+json' } });
    assert.deepEqual(Buffer.from(await bin.arrayBuffer()), Buffer.from([0, 200, 1, 255]));
    const download = await t.request(`/${alice.login}/${repo}/raw/main/docs/deep/x.bin`);
    assert.equal(download.status, 200);
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), Buffer.from([0, 200, 1, 255]));
  });

  test('a directory is an array of entries; the root without a path; ref selects the commit', async () => {
    const octokit = t.octokit(alice.token);
    const { data } = await octokit.rest.repos.getContent({ owner: alice.login, repo, path: 'docs' });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/contents/{path}', 200, data);
    assert.ok(Array.isArray(data));
    assert.deepEqual(data.map((e) => [e.type, e.path, e.size]), [['dir', 'docs/deep', 0], ['file', 'docs/guide.md', 6]]);
    assert.equal(data[0]!.download_url, null);
    assert.equal(data[0]!.git_url, `${t.baseUrl}/repos/${alice.login}/${repo}/git/trees/${data[0]!.sha}`);
    const root = await octokit.rest.repos.getContent({ owner: alice.login, repo, path: '' });
    assert.ok(Array.isArray(root.data));
    assert.deepEqual(root.data.map((e) => `${e.type}:${e.name}`), ['file:README.md', 'file:big.txt', 'symlink:dangling', 'dir:docs', 'symlink:guide-link']);
    const old = await octokit.rest.repos.getContent({ owner: alice.login, repo, path: '', ref: 'old' });
    assert.ok(Array.isArray(old.data));
    assert.deepEqual(old.data.map((e) => e.name), ['README.md']);
    const object = await t.request(`/repos/${alice.login}/${repo}/contents/docs`, { token: alice.token, headers: { accept: 'application/vnd.github.object+json' } });
    const obj = await object.json();
    assert.equal(obj.type, 'dir');
    assert.equal(obj.entries.length, 2);
  });

  test('symlinks to files read as the file; others as a symlink; a file over 1 MB only raw', async () => {
    const octokit = t.octokit(alice.token);
    const linked = await octokit.rest.repos.getContent({ owner: alice.login, repo, path: 'guide-link' });
    assert.ok(!Array.isArray(linked.data) && linked.data.type === 'file');
    assert.equal(linked.data.path, 'docs/guide.md');
    const dangling = await octokit.rest.repos.getContent({ owner: alice.login, repo, path: 'dangling' });
    assert.ok(!Array.isArray(dangling.data) && dangling.data.type === 'symlink');
    assert.equal((dangling.data as { target: string }).target, '../outside');
    assert.equal((await failure(() => octokit.rest.repos.getContent({ owner: alice.login, repo, path: 'big.txt' }))).status, 403);
    const raw = await t.request(`/repos/${alice.login}/${repo}/contents/big.txt`, { token: alice.token, headers: { accept: 'application/vnd.github.raw' } });
    assert.equal((await raw.arrayBuffer()).byteLength, 1024 * 1024 + 10);
    const object = await (await t.request(`/repos/${alice.login}/${repo}/contents/big.txt`, { token: alice.token, headers: { accept: 'application/vnd.github.object' } })).json();
    assert.deepEqual([object.encoding, object.content, object.size], ['none', '', 1024 * 1024 + 10]);
  });

  test('missing paths, refs and repositories are 404', async () => {
    const octokit = t.octokit(alice.token);
    assert.deepEqual(await failure(() => octokit.rest.repos.getContent({ owner: alice.login, repo, path: 'nope.txt' })), { status: 404, message: 'Not Found' });
    assert.deepEqual(await failure(() => octokit.rest.repos.getContent({ owner: alice.login, repo, path: 'docs', ref: 'nope' })), { status: 404, message: 'No commit found for the ref nope' });
    assert.equal((await failure(() => t.octokit(bob.token).rest.repos.getContent({ owner: alice.login, repo: 'private-contents', path: 'README.md' }))).status, 404);
    assert.equal((await t.request(`/${alice.login}/private-contents/raw/main/README.md`)).status, 404);
    assert.equal((await t.request(`/${alice.login}/${repo}/raw/main/nope.txt`)).status, 404);
    // Paths git cannot hold name nothing (and are never handed to git).
    assert.equal((await t.request(`/repos/${alice.login}/${repo}/contents/docs%2F..%2F..%2Fetc`, { token: alice.token })).status, 404);
    assert.equal((await t.request(`/${alice.login}/${repo}/raw/main/docs%2F..%2F..%2Fx`)).status, 404);
    await octokit.rest.repos.createForAuthenticatedUser({ name: 'empty-contents' });
    assert.deepEqual(await failure(() => octokit.rest.repos.getContent({ owner: alice.login, repo: 'empty-contents', path: '' })), { status: 404, message: 'This repository is empty.' });
  });

  test('README: found case-insensitively, raw on request; none is 404', async () => {
    const octokit = t.octokit(alice.token);
    const { data } = await octokit.rest.repos.getReadme({ owner: alice.login, repo });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/readme', 200, data);
    assert.equal(data.path, 'README.md');
    assert.equal(Buffer.from(data.content, 'base64').toString(), '# content-dock\n\nContents\n');
    const raw = await octokit.rest.repos.getReadme({ owner: alice.login, repo, mediaType: { format: 'raw' } });
    assert.equal(raw.data as unknown as string, '# content-dock\n\nContents\n');

    await octokit.rest.repos.createForAuthenticatedUser({ name: 'readme-cases' });
    const commit = (p: string, content: string) => octokit.rest.repos.createOrUpdateFileContents({ owner: alice.login, repo: 'readme-cases', path: p, message: `add ${p}`, content: b64(content) });
    await commit('notes.txt', 'not a readme');
    assert.equal((await failure(() => octokit.rest.repos.getReadme({ owner: alice.login, repo: 'readme-cases' }))).status, 404);
    await commit('ReadMe.txt', 'plain');
    assert.equal((await octokit.rest.repos.getReadme({ owner: alice.login, repo: 'readme-cases' })).data.path, 'ReadMe.txt');
    await commit('readme.markdown', 'marked');
    assert.equal((await octokit.rest.repos.getReadme({ owner: alice.login, repo: 'readme-cases' })).data.path, 'readme.markdown');
  });

  test('PUT creates (201) and updates (200) a file as a commit on the branch; git sees it; the push is recorded', async () => {
    const octokit = t.octokit(alice.token);
    const owner = alice.login;
    const created = await octokit.rest.repos.createOrUpdateFileContents({ owner, repo, path: 'notes/hello.txt', message: 'Say hello', content: b64('hello\n') });
    assert.equal(created.status, 201);
    assertMatchesOpenApi('PUT', '/repos/{owner}/{repo}/contents/{path}', 201, created.data);
    assert.equal(created.data.content?.path, 'notes/hello.txt');
    assert.equal(created.data.content?.sha, (await gitOk(['hash-object', '--stdin'], { input: 'hello\n' })).trim());
    assert.equal(created.data.commit.message, 'Say hello');
    assert.equal(created.data.commit.author?.name, alice.login);
    assert.equal(created.data.commit.committer?.email, `${alice.login}@example.com`);

    const updated = await octokit.rest.repos.createOrUpdateFileContents({
      owner, repo, path: 'notes/hello.txt', message: 'Say it louder', content: b64('HELLO\n'), sha: created.data.content!.sha!,
      committer: { name: 'Harbour Master', email: 'master@example.com' }, author: { name: 'Deck Hand', email: 'hand@example.com', date: '2024-06-01T12:00:00+02:00' },
    });
    assert.equal(updated.status, 200);
    assertMatchesOpenApi('PUT', '/repos/{owner}/{repo}/contents/{path}', 200, updated.data);
    assert.deepEqual(updated.data.commit.parents?.map((p) => p.sha), [created.data.commit.sha]);
    assert.deepEqual(updated.data.commit.author, { name: 'Deck Hand', email: 'hand@example.com', date: '2024-06-01T10:00:00Z' });
    assert.equal(updated.data.commit.committer?.name, 'Harbour Master');

    const dir = tempDir();
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, owner, repo, owner, alice.token), dir]);
    assert.equal(fs.readFileSync(path.join(dir, 'notes/hello.txt'), 'utf8'), 'HELLO\n');
    assert.equal((await gitOk(['rev-parse', 'HEAD'], { cwd: dir })).trim(), updated.data.commit.sha);
    assert.equal((await gitOk(['log', '-1', '--format=%an <%ae>|%cn <%ce>|%s'], { cwd: dir })).trim(), 'Deck Hand <hand@example.com>|Harbour Master <master@example.com>|Say it louder');
    assert.ok(fs.existsSync(path.join(dir, 'docs/guide.md')), 'the rest of the tree is kept');
    const { data: repoData } = await octokit.rest.repos.get({ owner, repo });
    const pushes = await listEvents(t.server.ctx, { event: 'push', repositoryId: repoData.id });
    assert.equal(pushes.at(-1)!.payload.after, updated.data.commit.sha);
  });

  test('a stale sha is 409, a missing one 422, and neither changes the branch', async () => {
    const octokit = t.octokit(alice.token);
    const owner = alice.login;
    const { data: first } = await octokit.rest.repos.createOrUpdateFileContents({ owner, repo, path: 'stale.txt', message: 'v1', content: b64('1') });
    await octokit.rest.repos.createOrUpdateFileContents({ owner, repo, path: 'stale.txt', message: 'v2', content: b64('2'), sha: first.content!.sha! });
    const { data: head } = await octokit.rest.git.getRef({ owner, repo, ref: 'heads/main' });
    const stale = await failure(() => octokit.rest.repos.createOrUpdateFileContents({ owner, repo, path: 'stale.txt', message: 'v3', content: b64('3'), sha: first.content!.sha! }));
    assert.deepEqual(stale, { status: 409, message: `stale.txt does not match ${first.content!.sha}` });
    const missing = await failure(() => octokit.rest.repos.createOrUpdateFileContents({ owner, repo, path: 'stale.txt', message: 'v3', content: b64('3') }));
    assert.equal(missing.status, 422);
    assert.match(missing.message, /"sha" wasn't supplied\./);
    const staleDelete = await failure(() => octokit.rest.repos.deleteFile({ owner, repo, path: 'stale.txt', message: 'rm', sha: first.content!.sha! }));
    assert.equal(staleDelete.status, 409);
    const cases: [Record<string, unknown>, string][] = [
      [{ message: 'm', content: '%%%' }, 'stale2.txt'],
      [{ content: b64('x') }, 'stale2.txt'],
      [{ message: 'm', content: b64('x') }, 'a%2F..%2Fb.txt'],
      [{ message: 'm', content: b64('x') }, 'docs'],
      [{ message: 'm', content: b64('x'), branch: 'bad..branch' }, 'ok.txt'],
      [{ message: 'm', content: b64('x'), committer: { name: 'No Mail' } }, 'ok.txt'],
    ];
    for (const [body, p] of cases) {
      const res = await t.request(`/repos/${owner}/${repo}/contents/${p}`, { method: 'PUT', token: alice.token, json: body });
      assert.equal(res.status, 422, `${p} ${JSON.stringify(body)}`);
    }
    const branchMissing = await failure(() => octokit.rest.repos.createOrUpdateFileContents({ owner, repo, path: 'x.txt', message: 'm', content: b64('x'), branch: 'no-such-branch' }));
    assert.equal(branchMissing.status, 404);
    assert.equal((await octokit.rest.git.getRef({ owner, repo, ref: 'heads/main' })).data.object.sha, head.object.sha, 'nothing was committed');
  });

  test('DELETE removes the file in a new commit: 200 with content null', async () => {
    const octokit = t.octokit(alice.token);
    const owner = alice.login;
    const { data: file } = await octokit.rest.repos.createOrUpdateFileContents({ owner, repo, path: 'doomed/file.txt', message: 'add', content: b64('bye') });
    const res = await octokit.rest.repos.deleteFile({ owner, repo, path: 'doomed/file.txt', message: 'Remove it', sha: file.content!.sha! });
    assert.equal(res.status, 200);
    assertMatchesOpenApi('DELETE', '/repos/{owner}/{repo}/contents/{path}', 200, res.data);
    assert.equal(res.data.content, null);
    assert.equal(res.data.commit.message, 'Remove it');
    assert.equal((await failure(() => octokit.rest.repos.getContent({ owner, repo, path: 'doomed/file.txt' }))).status, 404);
    assert.equal((await failure(() => octokit.rest.repos.getContent({ owner, repo, path: 'doomed' }))).status, 404, 'the emptied directory is gone');
    assert.equal((await failure(() => octokit.rest.repos.deleteFile({ owner, repo, path: 'doomed/file.txt', message: 'again', sha: file.content!.sha! }))).status, 404);
    const dir = tempDir();
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, owner, repo, owner, alice.token), dir]);
    assert.ok(!fs.existsSync(path.join(dir, 'doomed')));
    assert.equal((await gitOk(['log', '-1', '--format=%s'], { cwd: dir })).trim(), 'Remove it');
  });

  test('concurrent writes to one branch never lose a commit: each either lands or is refused with 409', async () => {
    const octokit = t.octokit(alice.token);
    const owner = alice.login;
    const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => octokit.rest.repos.createOrUpdateFileContents({ owner, repo, path: `race/${i}.txt`, message: `race ${i}`, content: b64(`${i}`) })));
    const landed = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
    for (const r of results) if (r.status === 'rejected') assert.equal((r.reason as { status: number }).status, 409);
    assert.ok(landed.length >= 1);
    const { data } = await octokit.rest.repos.getContent({ owner, repo, path: 'race' });
    assert.ok(Array.isArray(data));
    assert.deepEqual(data.map((e) => e.name).sort(), landed.map((i) => `${i}.txt`).sort());
  });

  test('an empty repository gets its first commit on the branch written to, which becomes the default', async () => {
    const octokit = t.octokit(alice.token);
    const owner = alice.login;
    await octokit.rest.repos.createForAuthenticatedUser({ name: 'fresh-contents' });
    const res = await octokit.rest.repos.createOrUpdateFileContents({ owner, repo: 'fresh-contents', path: 'README', message: 'Begin', content: b64('start\n'), branch: 'trunk' });
    assert.equal(res.status, 201);
    assert.deepEqual(res.data.commit.parents, []);
    const { data } = await octokit.rest.repos.get({ owner, repo: 'fresh-contents' });
    assert.equal(data.default_branch, 'trunk');
    assert.equal(res.data.content?.download_url, `${t.baseUrl}/${owner}/fresh-contents/raw/trunk/README`);
    assert.equal(await (await t.request(`/${owner}/fresh-contents/raw/trunk/README`)).text(), 'start\n');
  });

  test('writes need push access; workflow files need the workflow scope', async () => {
    const denied = await failure(() => t.octokit(bob.token).rest.repos.createOrUpdateFileContents({ owner: alice.login, repo, path: 'bob.txt', message: 'm', content: b64('b') }));
    assert.equal(denied.status, 403);
    assert.equal((await failure(() => t.octokit(bob.token).rest.repos.createOrUpdateFileContents({ owner: alice.login, repo: 'private-contents', path: 'bob.txt', message: 'm', content: b64('b') }))).status, 404);
    const { data: readme } = await t.octokit(alice.token).rest.repos.getContent({ owner: alice.login, repo, path: 'README.md' });
    assert.equal((await failure(() => t.octokit(bob.token).rest.repos.deleteFile({ owner: alice.login, repo, path: 'README.md', message: 'm', sha: (readme as { sha: string }).sha }))).status, 403);

    const workflow = b64('on: push\n');
    const { data: weak } = await t.octokit(ADMIN_TOKEN).request('POST /admin/users/{username}/authorizations', { username: alice.login, scopes: ['repo'] });
    const noScope = await failure(() => t.octokit(weak.token).rest.repos.createOrUpdateFileContents({ owner: alice.login, repo, path: '.github/workflows/ci.yml', message: 'ci', content: workflow }));
    assert.equal(noScope.status, 403);
    assert.match(noScope.message, /workflow/);
    const ok = await t.octokit(alice.token).rest.repos.createOrUpdateFileContents({ owner: alice.login, repo, path: '.github/workflows/ci.yml', message: 'ci', content: workflow });
    assert.equal(ok.status, 201);
  });
});
