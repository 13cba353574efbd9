// Comparing commits (base...head: status, counts, commits, files, diff and patch media
// types, pages) and listing contributors, over history pushed with git.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failure } from './helpers/failures.ts';
import { gitOk, tempDir, cloneUrl } from './helpers/git.ts';

interface Who { name: string; email: string }

async function commit(dir: string, file: string, content: string, message: string, who: Who): Promise<string> {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), content);
  const env = { GIT_AUTHOR_NAME: who.name, GIT_AUTHOR_EMAIL: who.email, GIT_COMMITTER_NAME: who.name, GIT_COMMITTER_EMAIL: who.email };
  await gitOk(['add', '-A'], { cwd: dir });
  await gitOk(['commit', '-q', '-m', message], { cwd: dir, env });
  return (await gitOk(['rev-parse', 'HEAD'], { cwd: dir })).trim();
}

describe('compare and contributors', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  const repo = 'compare-dock';
  const shas: Record<string, string> = {};
  const stranger: Who = { name: 'Sea Stranger', email: 'stranger@elsewhere.example' };

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t, ['repo', 'user']);
    bob = await createUser(t, ['repo', 'user']);
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: repo });
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'empty-dock' });
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'secret-dock', private: true, auto_init: true });
    const a: Who = { name: 'Alice', email: `${alice.login}@example.com` };
    const dir = tempDir();
    await gitOk(['init', '-q', '-b', 'main', dir]);
    shas.root = await commit(dir, 'README.md', '# Dock\n', 'Root', a);
    shas.main1 = await commit(dir, 'main.txt', 'main\n', 'Main one', a);
    await gitOk(['checkout', '-q', '-b', 'feature/x', shas.root], { cwd: dir });
    shas.f1 = await commit(dir, 'src/x.txt', 'x\n', 'Feature one', stranger);
    shas.f2 = await commit(dir, 'src/x.txt', 'x\ny\n', 'Feature two', { name: 'Alice Again', email: `${alice.login.toUpperCase()}@EXAMPLE.COM` });
    shas.f3 = await commit(dir, 'README.md', '# Dock\nmore\n', 'Feature three', stranger);
    await gitOk(['checkout', '-q', '--orphan', 'unrelated'], { cwd: dir });
    shas.orphan = await commit(dir, 'other.txt', 'other\n', 'Orphan', stranger);
    await gitOk(['push', '-q', cloneUrl(t.baseUrl, alice.login, repo, alice.login, alice.token), 'main', 'feature/x', 'unrelated'], { cwd: dir });
  });
  after(() => t.close());

  test('diverged: counts, commits oldest first, files against the merge base, URLs', async () => {
    const { data, status } = await t.octokit(alice.token).rest.repos.compareCommitsWithBasehead({ owner: alice.login, repo, basehead: 'main...feature/x' });
    assert.equal(status, 200);
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/compare/{basehead}', 200, data);
    assert.equal(data.status, 'diverged');
    assert.equal(data.ahead_by, 3);
    assert.equal(data.behind_by, 1);
    assert.equal(data.total_commits, 3);
    assert.deepEqual(data.commits.map((c) => c.sha), [shas.f1, shas.f2, shas.f3]);
    assert.equal(data.commits[1]!.author?.login, alice.login, 'authors matched by address, case-insensitively');
    assert.equal(data.base_commit.sha, shas.main1);
    assert.equal(data.merge_base_commit.sha, shas.root);
    const files = Object.fromEntries((data.files ?? []).map((f) => [f.filename, f]));
    assert.deepEqual(Object.keys(files).sort(), ['README.md', 'src/x.txt'], 'main.txt is not head\'s change');
    assert.equal(files['src/x.txt']!.status, 'added');
    assert.equal(files['src/x.txt']!.additions, 2);
    assert.match(files['README.md']!.patch ?? '', /^@@ .*\n \# Dock\n\+more$/);
    const api = `${t.baseUrl}/repos/${alice.login}/${repo}`;
    assert.equal(data.url, `${api}/compare/main...feature/x`);
    assert.equal(data.permalink_url, `${t.baseUrl}/${alice.login}/${repo}/compare/${alice.login}:${shas.main1}...${alice.login}:${shas.f3}`);
    assert.equal(data.diff_url, `${t.baseUrl}/${alice.login}/${repo}/compare/main...feature/x.diff`);
  });

  test('ahead, behind and identical; shas and owner:branch sides', async () => {
    const octokit = t.octokit(alice.token);
    const cmp = async (basehead: string) => (await octokit.rest.repos.compareCommitsWithBasehead({ owner: alice.login, repo, basehead })).data;
    const ahead = await cmp(`${shas.root}...feature/x`);
    assert.deepEqual([ahead.status, ahead.ahead_by, ahead.behind_by], ['ahead', 3, 0]);
    const behind = await cmp(`feature/x...${alice.login}:${shas.f1}`);
    assert.deepEqual([behind.status, behind.ahead_by, behind.behind_by, behind.commits.length, behind.files?.length], ['behind', 0, 2, 0, 0]);
    const same = await cmp('main...main');
    assert.deepEqual([same.status, same.ahead_by, same.behind_by], ['identical', 0, 0]);
  });

  test('commits are paged when asked, with Link', async () => {
    const octokit = t.octokit(alice.token);
    const page1 = await octokit.rest.repos.compareCommitsWithBasehead({ owner: alice.login, repo, basehead: 'main...feature/x', per_page: 2 });
    assert.deepEqual(page1.data.commits.map((c) => c.sha), [shas.f1, shas.f2]);
    assert.equal(page1.data.total_commits, 3);
    assert.match(page1.headers.link ?? '', /[?&]page=2[^>]*>; rel="next"/);
    const page2 = await octokit.rest.repos.compareCommitsWithBasehead({ owner: alice.login, repo, basehead: 'main...feature/x', per_page: 2, page: 2 });
    assert.deepEqual(page2.data.commits.map((c) => c.sha), [shas.f3]);
    assert.doesNotMatch(page2.headers.link ?? '', /rel="next"/);
    const unpaged = await octokit.rest.repos.compareCommitsWithBasehead({ owner: alice.login, repo, basehead: 'main...feature/x' });
    assert.equal(unpaged.headers.link, undefined);
  });

  test('diff and patch media types answer the raw texts', async () => {
    const url = `/repos/${alice.login}/${repo}/compare/main...feature/x`;
    const diff = await t.request(url, { token: alice.token, headers: { accept: 'application/vnd.github.diff' } });
    assert.equal(diff.status, 200);
    assert.match(diff.headers.get('content-type') ?? '', /^application\/vnd\.service\.diff/);
    const diffText = await diff.text();
    assert.match(diffText, /^diff --git a\/README.md b\/README.md/m);
    assert.match(diffText, /^diff --git a\/src\/x.txt b\/src\/x.txt/m);
    assert.doesNotMatch(diffText, /main\.txt/, 'three-dot: against the merge base');
    const patch = await t.request(url, { token: alice.token, headers: { accept: 'application/vnd.github.v3.patch' } });
    const patchText = await patch.text();
    assert.equal(patchText.match(/^From [0-9a-f]{40} /gm)?.length, 3, 'one mail per commit');
    assert.match(patchText, /Subject: \[PATCH 1\/3\] Feature one/);
  });

  test('unknown refs, bad baseheads, unrelated histories and other owners are 404; private repositories hidden', async () => {
    const octokit = t.octokit(alice.token);
    const status = async (basehead: string, token = alice.token, r = repo) =>
      (await failure(() => t.octokit(token).rest.repos.compareCommitsWithBasehead({ owner: alice.login, repo: r, basehead }))).status;
    assert.equal(await status('main...no-such-branch'), 404);
    assert.equal(await status('no-such...main'), 404);
    assert.equal(await status('main'), 404);
    assert.equal(await status('main..feature/x'), 404);
    assert.equal(await status(`${bob.login}:main...feature/x`), 404);
    const unrelated = await failure(() => octokit.rest.repos.compareCommitsWithBasehead({ owner: alice.login, repo, basehead: 'main...unrelated' }));
    assert.equal(unrelated.status, 404);
    assert.match(unrelated.message, /No common ancestor between main and unrelated/);
    assert.equal(await status('main...main', bob.token, 'secret-dock'), 404);
    assert.equal((await failure(() => octokit.rest.repos.compareCommitsWithBasehead({ owner: alice.login, repo: 'empty-dock', basehead: 'main...main' }))).status, 409);
  });

  test('legacy GET /git/refs[/{namespace}]: all refs, a prefix, one ref exactly, 404 for none', async () => {
    const get = (p: string) => t.request(`/repos/${alice.login}/${repo}/git/refs${p}`, { token: alice.token });
    const all = await (await get('')).json() as { ref: string }[];
    assert.deepEqual(all.map((r) => r.ref), ['refs/heads/feature/x', 'refs/heads/main', 'refs/heads/unrelated']);
    const heads = await (await get('/heads/feature')).json() as { ref: string }[];
    assert.deepEqual(heads.map((r) => r.ref), ['refs/heads/feature/x']);
    const one = await (await get('/heads/main')).json() as { ref: string; object: { sha: string } };
    assert.equal(one.ref, 'refs/heads/main');
    assert.equal(one.object.sha, shas.main1);
    assert.equal((await get('/tags')).status, 404);
  });

  test('GET /contributors counts default-branch commits per user; anon lists the other addresses', async () => {
    const octokit = t.octokit(bob.token);
    // Feature commits reach main: alice 2 (root, and f2 under another spelling of her address), the stranger 2.
    await t.octokit(alice.token).rest.git.updateRef({ owner: alice.login, repo, ref: 'heads/main', sha: shas.f3, force: true });
    const { data, status } = await octokit.rest.repos.listContributors({ owner: alice.login, repo });
    assert.equal(status, 200);
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/contributors', 200, data);
    assert.deepEqual(data.map((c) => [c.login, c.contributions]), [[alice.login, 2]]);
    assert.equal(data[0]!.type, 'User');
    const anon = await octokit.rest.repos.listContributors({ owner: alice.login, repo, anon: '1' });
    // A tie in contributions is ordered by login or address.
    const expected = [[alice.login, 'User', 2], [stranger.email, 'Anonymous', 2]].sort((x, y) => String(x[0]).localeCompare(String(y[0])));
    assert.deepEqual(anon.data.map((c) => [c.login ?? c.email, c.type, c.contributions]), expected);
    const paged = await octokit.rest.repos.listContributors({ owner: alice.login, repo, anon: 'true', per_page: 1 });
    assert.equal(paged.data.length, 1);
    assert.match(paged.headers.link ?? '', /rel="next"/);
    const empty = await octokit.rest.repos.listContributors({ owner: alice.login, repo: 'empty-dock' });
    assert.equal(empty.status, 204);
    assert.equal((await failure(() => octokit.rest.repos.listContributors({ owner: alice.login, repo: 'secret-dock' }))).status, 404);
  });
});
