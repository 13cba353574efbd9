// Commits and branches: history pushed with git, read through the API (lists with
// filters and pages, one commit with its files and stats, diff and patch media types).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failure } from './helpers/failures.ts';
import { gitOk, tempDir, cloneUrl } from './helpers/git.ts';

interface Who {
  name: string;
  email: string;
}

async function commitAll(dir: string, message: string, who: Who, date: string): Promise<string> {
  const env = { GIT_AUTHOR_NAME: who.name, GIT_AUTHOR_EMAIL: who.email, GIT_AUTHOR_DATE: date, GIT_COMMITTER_NAME: who.name, GIT_COMMITTER_EMAIL: who.email, GIT_COMMITTER_DATE: date };
  await gitOk(['add', '-A'], { cwd: dir });
  await gitOk(['commit', '-q', '-m', message], { cwd: dir, env });
  return (await gitOk(['rev-parse', 'HEAD'], { cwd: dir })).trim();
}

function write(dir: string, file: string, content: string | Buffer): void {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), content);
}

describe('commits and branches', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  const repo = 'history-dock';
  const shas: Record<string, string> = {};
  const stranger: Who = { name: 'Sea Stranger', email: 'stranger@elsewhere.example' };

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t, ['repo', 'user']);
    bob = await createUser(t, ['repo', 'user']);
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: repo });
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'private-history', private: true, auto_init: true });
    const a: Who = { name: 'Alice Anchor', email: `${alice.login}@example.com` };
    const dir = tempDir();
    await gitOk(['init', '-q', '-b', 'main', dir]);
    write(dir, 'README.md', '# History\n');
    write(dir, 'src/app.js', 'one\ntwo\nthree\n');
    shas.first = await commitAll(dir, 'First cargo', a, '2024-01-01T10:00:00Z');
    write(dir, 'src/app.js', 'one\n2\nthree\nfour\n');
    write(dir, 'docs/notes.txt', 'notes\n');
    shas.second = await commitAll(dir, 'Second cargo\n\nWith a body.', stranger, '2024-02-01T10:00:00Z');
    fs.renameSync(path.join(dir, 'docs/notes.txt'), path.join(dir, 'docs/log.txt'));
    fs.rmSync(path.join(dir, 'README.md'));
    write(dir, 'bin/tool', Buffer.from([0, 1, 2, 3, 0, 255]));
    shas.third = await commitAll(dir, 'Third cargo', a, '2024-03-01T10:00:00Z');
    await gitOk(['checkout', '-q', '-b', 'feature/side', shas.second], { cwd: dir });
    write(dir, 'side.txt', 'side\n');
    shas.side = await commitAll(dir, 'Side cargo', stranger, '2024-03-15T10:00:00Z');
    await gitOk(['checkout', '-q', 'main'], { cwd: dir });
    await gitOk(['merge', '-q', '--no-ff', '-m', 'Merge side', 'feature/side'], { cwd: dir, env: { GIT_COMMITTER_DATE: '2024-04-01T10:00:00Z', GIT_AUTHOR_DATE: '2024-04-01T10:00:00Z', GIT_AUTHOR_EMAIL: `${alice.login}@example.com`, GIT_COMMITTER_EMAIL: `${alice.login}@example.com` } });
    shas.merge = (await gitOk(['rev-parse', 'HEAD'], { cwd: dir })).trim();
    await gitOk(['push', '-q', cloneUrl(t.baseUrl, alice.login, repo, alice.login, alice.token), 'main', 'feature/side'], { cwd: dir });
  });
  after(() => t.close());

  test('GET /commits lists the default branch newest first, with users matched by e-mail', async () => {
    const { data, status } = await t.octokit(alice.token).rest.repos.listCommits({ owner: alice.login, repo });
    assert.equal(status, 200);
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/commits', 200, data);
    assert.deepEqual(data.map((c) => c.sha), [shas.merge, shas.side, shas.third, shas.second, shas.first]);
    const first = data.at(-1)!;
    assert.equal(first.commit.message, 'First cargo');
    assert.deepEqual(first.commit.author, { name: 'Alice Anchor', email: `${alice.login}@example.com`, date: '2024-01-01T10:00:00Z' });
    assert.equal(first.author?.login, alice.login, 'the author address belongs to alice');
    assert.equal(first.committer?.login, alice.login);
    assert.equal(first.commit.comment_count, 0);
    assert.equal(first.commit.verification?.reason, 'unsigned');
    assert.equal(first.url, `${t.baseUrl}/repos/${alice.login}/${repo}/commits/${shas.first}`);
    assert.equal(first.commit.url, `${t.baseUrl}/repos/${alice.login}/${repo}/git/commits/${shas.first}`);
    assert.deepEqual(first.parents, []);
    const second = data.find((c) => c.sha === shas.second)!;
    assert.equal(second.commit.message, 'Second cargo\n\nWith a body.');
    assert.equal(second.author, null, 'an address no user has');
    assert.deepEqual(data[0]!.parents.map((p) => p.sha), [shas.third, shas.side]);
  });

  test('a verified secondary address matches its user; an unverified one does not', async () => {
    const bob = await createUser(t, ['repo', 'user']);
    const octokit = t.octokit(bob.token);
    await octokit.rest.users.addEmailForAuthenticatedUser({ emails: ['bob-verified@example.com', 'bob-unverified@example.com'] });
    await t.octokit(ADMIN_TOKEN).request('PATCH /admin/users/{username}/emails', { username: bob.login, email: 'bob-verified@example.com', verified: true });
    await octokit.rest.repos.createForAuthenticatedUser({ name: 'addresses' });
    const dir = tempDir();
    await gitOk(['init', '-q', '-b', 'main', dir]);
    write(dir, 'a.txt', 'a\n');
    const verified = await commitAll(dir, 'Verified', { name: 'Bob', email: 'bob-verified@example.com' }, '2024-05-01T10:00:00Z');
    write(dir, 'b.txt', 'b\n');
    const unverified = await commitAll(dir, 'Unverified', { name: 'Bob', email: 'bob-unverified@example.com' }, '2024-05-02T10:00:00Z');
    await gitOk(['push', '-q', cloneUrl(t.baseUrl, bob.login, 'addresses', bob.login, bob.token), 'main'], { cwd: dir });
    const { data } = await octokit.rest.repos.listCommits({ owner: bob.login, repo: 'addresses' });
    assert.equal(data.find((c) => c.sha === verified)!.author?.login, bob.login);
    assert.equal(data.find((c) => c.sha === unverified)!.author, null);
  });

  test('pages with Link (next, last), and sha, path, author, committer, since and until filters', async () => {
    const octokit = t.octokit(alice.token);
    const owner = alice.login;
    const page1 = await octokit.rest.repos.listCommits({ owner, repo, per_page: 2 });
    assert.deepEqual(page1.data.map((c) => c.sha), [shas.merge, shas.side]);
    const link = page1.headers.link ?? '';
    assert.match(link, /[?&]page=2[^>]*>; rel="next"/);
    assert.match(link, /[?&]page=3[^>]*>; rel="last"/);
    const page3 = await octokit.rest.repos.listCommits({ owner, repo, per_page: 2, page: 3 });
    assert.deepEqual(page3.data.map((c) => c.sha), [shas.first]);
    assert.doesNotMatch(page3.headers.link ?? '', /rel="next"/);
    const all = await octokit.paginate(octokit.rest.repos.listCommits, { owner, repo, per_page: 2 });
    assert.equal(all.length, 5);

    const list = async (q: Record<string, string>) => (await octokit.rest.repos.listCommits({ owner, repo, ...q })).data.map((c) => c.sha);
    assert.deepEqual(await list({ sha: 'feature/side' }), [shas.side, shas.second, shas.first]);
    assert.deepEqual(await list({ sha: shas.second }), [shas.second, shas.first]);
    assert.deepEqual(await list({ path: 'src/app.js' }), [shas.second, shas.first]);
    assert.deepEqual(await list({ path: 'docs' }), [shas.third, shas.second]);
    assert.deepEqual(await list({ author: alice.login }), [shas.merge, shas.third, shas.first]);
    assert.deepEqual(await list({ author: stranger.email.toUpperCase() }), [shas.side, shas.second]);
    assert.deepEqual(await list({ committer: stranger.email }), [shas.side, shas.second]);
    assert.deepEqual(await list({ author: 'no-such-user-anywhere' }), []);
    assert.deepEqual(await list({ path: '../outside' }), []);
    assert.deepEqual(await list({ since: '2024-02-15T00:00:00Z', until: '2024-03-20T00:00:00Z' }), [shas.side, shas.third]);
    assert.equal((await failure(() => octokit.rest.repos.listCommits({ owner, repo, sha: 'no-such-branch' }))).status, 404);
    assert.equal((await failure(() => octokit.rest.repos.listCommits({ owner, repo, since: 'last tuesday' }))).status, 400);
  });

  test('GET /commits/{ref}: files with statuses, line counts and patches, and stats', async () => {
    const octokit = t.octokit(alice.token);
    const second = await octokit.rest.repos.getCommit({ owner: alice.login, repo, ref: shas.second });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/commits/{ref}', 200, second.data);
    const files = Object.fromEntries(second.data.files!.map((f) => [f.filename, f]));
    assert.deepEqual(Object.keys(files).sort(), ['docs/notes.txt', 'src/app.js']);
    assert.equal(files['src/app.js']!.status, 'modified');
    assert.deepEqual([files['src/app.js']!.additions, files['src/app.js']!.deletions, files['src/app.js']!.changes], [2, 1, 3]);
    assert.equal(files['src/app.js']!.patch, '@@ -1,3 +1,4 @@\n one\n-two\n+2\n three\n+four');
    assert.equal(files['docs/notes.txt']!.status, 'added');
    assert.deepEqual(second.data.stats, { additions: 3, deletions: 1, total: 4 });
    assert.equal(files['src/app.js']!.raw_url, `${t.baseUrl}/${alice.login}/${repo}/raw/${shas.second}/src/app.js`);
    assert.equal(files['src/app.js']!.contents_url, `${t.baseUrl}/repos/${alice.login}/${repo}/contents/src/app.js?ref=${shas.second}`);

    const third = await octokit.rest.repos.getCommit({ owner: alice.login, repo, ref: shas.third });
    const byName = Object.fromEntries(third.data.files!.map((f) => [f.filename, f]));
    assert.equal(byName['docs/log.txt']!.status, 'renamed');
    assert.equal(byName['docs/log.txt']!.previous_filename, 'docs/notes.txt');
    assert.equal(byName['README.md']!.status, 'removed');
    assert.equal(byName['README.md']!.deletions, 1);
    assert.equal(byName['bin/tool']!.status, 'added');
    assert.equal(byName['bin/tool']!.patch, undefined, 'binary files have no patch');

    // A branch name (with a slash) is a ref too; a root commit lists every file as added.
    const side = await octokit.rest.repos.getCommit({ owner: alice.login, repo, ref: 'feature/side' });
    assert.equal(side.data.sha, shas.side);
    const root = await octokit.rest.repos.getCommit({ owner: alice.login, repo, ref: shas.first });
    assert.deepEqual(root.data.files!.map((f) => f.status), ['added', 'added']);
    // A merge commit shows what it changed against its first parent.
    const merge = await octokit.rest.repos.getCommit({ owner: alice.login, repo, ref: 'main' });
    assert.deepEqual(merge.data.files!.map((f) => f.filename), ['side.txt']);

    const missing = await failure(() => octokit.rest.repos.getCommit({ owner: alice.login, repo, ref: 'no-such-ref' }));
    assert.deepEqual(missing, { status: 422, message: 'No commit found for SHA: no-such-ref' });
    assert.equal((await failure(() => octokit.rest.repos.getCommit({ owner: alice.login, repo, ref: 'main~1' }))).status, 422, 'revision syntax is not a ref');
  });

  test('the diff, patch and sha media types of a commit', async () => {
    const url = `/repos/${alice.login}/${repo}/commits/${shas.second}`;
    const diff = await t.request(url, { token: alice.token, headers: { accept: 'application/vnd.github.diff' } });
    assert.equal(diff.status, 200);
    const diffText = await diff.text();
    assert.match(diffText, /^diff --git a\/docs\/notes.txt b\/docs\/notes.txt$/m);
    assert.match(diffText, /^-two\n\+2$/m);
    const octo = await t.octokit(alice.token).rest.repos.getCommit({ owner: alice.login, repo, ref: shas.second, mediaType: { format: 'diff' } });
    assert.equal(octo.data as unknown as string, diffText);
    const patch = await t.request(url, { token: alice.token, headers: { accept: 'application/vnd.service.patch' } });
    const patchText = await patch.text();
    assert.match(patchText, new RegExp(`^From ${shas.second} `));
    assert.match(patchText, /^Subject: \[PATCH\] Second cargo$/m);
    assert.match(patchText, /^diff --git a\/src\/app.js b\/src\/app.js$/m);
    const sha = await t.request(`/repos/${alice.login}/${repo}/commits/main`, { token: alice.token, headers: { accept: 'application/vnd.github.sha' } });
    assert.equal(await sha.text(), shas.merge);
    const mergePatch = await t.request(`/repos/${alice.login}/${repo}/commits/${shas.merge}`, { token: alice.token, headers: { accept: 'application/vnd.github.patch' } });
    assert.match(await mergePatch.text(), /side\.txt/);
  });

  test('branches: list with pages, the protected filter, one branch with its commit; unknown is 404', async () => {
    const octokit = t.octokit(alice.token);
    const owner = alice.login;
    const { data } = await octokit.rest.repos.listBranches({ owner, repo });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/branches', 200, data);
    const api = `${t.baseUrl}/repos/${owner}/${repo}`;
    /** An unprotected branch's protection record: what no rule means (anyone who may push may force-push and delete). */
    const off = (name: string) => {
      const url = `${api}/branches/${name}/protection`;
      const no = { enabled: false };
      return {
        url, enabled: false, name, protection_url: url,
        required_status_checks: { url: `${url}/required_status_checks`, enforcement_level: 'off', strict: false, contexts: [], contexts_url: `${url}/required_status_checks/contexts`, checks: [] },
        required_signatures: { url: `${url}/required_signatures`, enabled: false }, enforce_admins: { url: `${url}/enforce_admins`, enabled: false },
        required_linear_history: no, allow_force_pushes: { enabled: true }, allow_deletions: { enabled: true },
        block_creations: no, required_conversation_resolution: no, lock_branch: no, allow_fork_syncing: no,
      };
    };
    assert.deepEqual(data, [
      { name: 'feature/side', commit: { sha: shas.side, url: `${api}/commits/${shas.side}` }, protected: false, protection: off('feature/side'), protection_url: `${api}/branches/feature/side/protection` },
      { name: 'main', commit: { sha: shas.merge, url: `${api}/commits/${shas.merge}` }, protected: false, protection: off('main'), protection_url: `${api}/branches/main/protection` },
    ]);
    const paged = await octokit.rest.repos.listBranches({ owner, repo, per_page: 1 });
    assert.equal(paged.data.length, 1);
    assert.match(paged.headers.link ?? '', /rel="last"/);
    assert.deepEqual((await octokit.rest.repos.listBranches({ owner, repo, protected: true })).data, []);
    assert.equal((await octokit.rest.repos.listBranches({ owner, repo, protected: false })).data.length, 2);

    const { data: branch } = await octokit.rest.repos.getBranch({ owner, repo, branch: 'feature/side' });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/branches/{branch}', 200, branch);
    assert.equal(branch.name, 'feature/side');
    assert.equal(branch.commit.sha, shas.side);
    assert.equal(branch.commit.commit.message, 'Side cargo');
    assert.equal(branch.protected, false);
    assert.deepEqual(branch.protection, off('feature/side'));
    assert.equal(branch._links.self, `${t.baseUrl}/repos/${owner}/${repo}/branches/feature/side`);
    assert.equal(branch.protection_url, `${t.baseUrl}/repos/${owner}/${repo}/branches/feature/side/protection`);
    assert.deepEqual(await failure(() => octokit.rest.repos.getBranch({ owner, repo, branch: 'nope' })), { status: 404, message: 'Branch not found' });
  });

  test('an empty repository: listing commits is 409, branches are none; private history is hidden', async () => {
    const octokit = t.octokit(alice.token);
    await octokit.rest.repos.createForAuthenticatedUser({ name: 'no-history' });
    assert.deepEqual(await failure(() => octokit.rest.repos.listCommits({ owner: alice.login, repo: 'no-history' })), { status: 409, message: 'Git Repository is empty.' });
    assert.equal((await failure(() => octokit.rest.repos.getCommit({ owner: alice.login, repo: 'no-history', ref: 'main' }))).status, 409);
    assert.deepEqual((await octokit.rest.repos.listBranches({ owner: alice.login, repo: 'no-history' })).data, []);
    assert.equal((await failure(() => octokit.rest.repos.getBranch({ owner: alice.login, repo: 'no-history', branch: 'main' }))).status, 404);

    const hidden = { owner: alice.login, repo: 'private-history' };
    assert.equal((await t.octokit(alice.token).rest.repos.listCommits(hidden)).data.length, 1);
    assert.equal((await failure(() => t.octokit(bob.token).rest.repos.listCommits(hidden))).status, 404);
    assert.equal((await failure(() => t.octokit(bob.token).rest.repos.getCommit({ ...hidden, ref: 'main' }))).status, 404);
    assert.equal((await failure(() => t.octokit(bob.token).rest.repos.listBranches(hidden))).status, 404);
    assert.equal((await failure(() => t.octokit().rest.repos.getBranch({ ...hidden, branch: 'main' }))).status, 404);
  });
});
