// Comparing across a fork network: `base...owner:branch` and `base...owner:repo:branch`
// naming a branch of a fork (or of the parent, from the fork), read from both
// repositories' objects without copying any into either; private forks the caller
// cannot see and repositories outside the network name nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createOrg, createUser, type CreatedUser } from './factories/accounts.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failure } from './helpers/failures.ts';
import { git, gitOk, tempDir, cloneUrl } from './helpers/git.ts';
import { repoDir } from '../src/git/repository.ts';

async function commit(dir: string, file: string, content: string, message: string): Promise<string> {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), content);
  await gitOk(['add', '-A'], { cwd: dir });
  await gitOk(['commit', '-q', '-m', message], { cwd: dir });
  return (await gitOk(['rev-parse', 'HEAD'], { cwd: dir })).trim();
}

/** Whether the bare repository holds the object (any object, with or without a ref). */
async function holds(gitDir: string, sha: string): Promise<boolean> {
  return (await git(['--git-dir', gitDir, 'cat-file', '-e', sha])).code === 0;
}

async function refsOf(gitDir: string): Promise<string> {
  return gitOk(['--git-dir', gitDir, 'for-each-ref', '--format=%(objectname) %(refname)']);
}

describe('compare across forks', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let carol: CreatedUser;
  const shas: Record<string, string> = {};
  let aliceDir: string;
  let bobDir: string;
  let bobWork: string;

  before(async () => {
    t = await startTestServer();
    [alice, bob, carol] = await Promise.all([createUser(t, ['repo', 'user']), createUser(t, ['repo', 'user']), createUser(t, ['repo', 'user'])]);
    const { data: reef } = await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'reef' });
    aliceDir = repoDir(t.dataDir, reef.id);
    const work = tempDir();
    await gitOk(['init', '-q', '-b', 'main', work]);
    shas.root = await commit(work, 'README.md', '# Reef\n', 'Root');
    shas.m1 = await commit(work, 'main.txt', 'main\n', 'Main one');
    await gitOk(['push', '-q', cloneUrl(t.baseUrl, alice.login, 'reef', alice.login, alice.token), 'main'], { cwd: work });

    const { data: fork } = await t.octokit(bob.token).rest.repos.createFork({ owner: alice.login, repo: 'reef' });
    bobDir = repoDir(t.dataDir, fork.id);
    bobWork = tempDir();
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, bob.login, 'reef', bob.login, bob.token), bobWork]);
    await gitOk(['checkout', '-q', '-b', 'feature/tide'], { cwd: bobWork });
    shas.f1 = await commit(bobWork, 'README.md', '# Reef\nfrom the fork\n', 'Fork one');
    shas.f2 = await commit(bobWork, 'src/tide.txt', 'high\nlow\n', 'Fork two');
    await gitOk(['checkout', '-q', '--orphan', 'driftwood'], { cwd: bobWork });
    await gitOk(['rm', '-q', '-rf', '.'], { cwd: bobWork });
    shas.orphan = await commit(bobWork, 'wood.txt', 'wood\n', 'Unrelated');
    await gitOk(['push', '-q', 'origin', 'feature/tide', 'driftwood'], { cwd: bobWork });
  });
  after(() => t.close());

  test('main...owner:branch on the parent: ahead, the fork\'s commits and files, URLs on the parent', async () => {
    const before = await refsOf(aliceDir);
    const { data, status } = await t.octokit(carol.token).rest.repos.compareCommitsWithBasehead({ owner: alice.login, repo: 'reef', basehead: `main...${bob.login}:feature/tide` });
    assert.equal(status, 200);
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/compare/{basehead}', 200, data);
    assert.deepEqual([data.status, data.ahead_by, data.behind_by, data.total_commits], ['ahead', 2, 0, 2]);
    assert.deepEqual(data.commits.map((c) => c.sha), [shas.f1, shas.f2]);
    assert.equal(data.commits[1]!.commit.message, 'Fork two');
    assert.equal(data.base_commit.sha, shas.m1);
    assert.equal(data.merge_base_commit.sha, shas.m1);
    const files = Object.fromEntries((data.files ?? []).map((f) => [f.filename, f]));
    assert.deepEqual(Object.keys(files).sort(), ['README.md', 'src/tide.txt']);
    assert.equal(files['src/tide.txt']!.status, 'added');
    assert.equal(files['src/tide.txt']!.patch, '@@ -0,0 +1,2 @@\n+high\n+low');
    assert.equal(files['README.md']!.status, 'modified');
    assert.match(files['README.md']!.patch ?? '', /^@@ .*\n # Reef\n\+from the fork$/);
    // Upstream's shape: everything on the repository asked, the sides kept as written.
    const api = `${t.baseUrl}/repos/${alice.login}/reef`;
    const html = `${t.baseUrl}/${alice.login}/reef`;
    assert.equal(data.url, `${api}/compare/main...${bob.login}:feature/tide`);
    assert.equal(data.html_url, `${html}/compare/main...${bob.login}:feature/tide`);
    assert.equal(data.diff_url, `${html}/compare/main...${bob.login}:feature/tide.diff`);
    assert.equal(data.patch_url, `${html}/compare/main...${bob.login}:feature/tide.patch`);
    assert.equal(data.permalink_url, `${html}/compare/${alice.login}:${shas.m1}...${bob.login}:${shas.f2}`);
    assert.equal(data.commits[0]!.url, `${api}/commits/${shas.f1}`);
    assert.equal(data.commits[0]!.html_url, `${html}/commit/${shas.f1}`);

    // owner:repo:branch names the same branch.
    const named = (await t.octokit(carol.token).rest.repos.compareCommitsWithBasehead({ owner: alice.login, repo: 'reef', basehead: `main...${bob.login}:reef:feature/tide` })).data;
    assert.deepEqual([named.status, named.ahead_by, named.commits.map((c) => c.sha)], ['ahead', 2, [shas.f1, shas.f2]]);
    assert.equal(named.url, `${api}/compare/main...${bob.login}:reef:feature/tide`);

    // Read only: the parent gained neither the fork's objects nor refs.
    assert.equal(await holds(aliceDir, shas.f1), false);
    assert.equal(await holds(aliceDir, shas.f2), false);
    assert.equal(await refsOf(aliceDir), before);
  });

  test('pages of the fork\'s commits, and the diff and patch media types', async () => {
    const octokit = t.octokit(alice.token);
    const page1 = await octokit.rest.repos.compareCommitsWithBasehead({ owner: alice.login, repo: 'reef', basehead: `main...${bob.login}:feature/tide`, per_page: 1 });
    assert.deepEqual(page1.data.commits.map((c) => c.sha), [shas.f1]);
    assert.match(page1.headers.link ?? '', /[?&]page=2[^>]*>; rel="next"/);
    const page2 = await octokit.rest.repos.compareCommitsWithBasehead({ owner: alice.login, repo: 'reef', basehead: `main...${bob.login}:feature/tide`, per_page: 1, page: 2 });
    assert.deepEqual(page2.data.commits.map((c) => c.sha), [shas.f2]);

    const url = `/repos/${alice.login}/reef/compare/main...${bob.login}:reef:feature/tide`;
    const diff = await t.request(url, { token: alice.token, headers: { accept: 'application/vnd.github.diff' } });
    assert.equal(diff.status, 200);
    assert.match(diff.headers.get('content-type') ?? '', /^application\/vnd\.service\.diff/);
    const diffText = await diff.text();
    assert.match(diffText, /^diff --git a\/README.md b\/README.md\n/m);
    assert.match(diffText, /^diff --git a\/src\/tide.txt b\/src\/tide.txt\nnew file mode 100644\n/m);
    assert.match(diffText, /^\+from the fork$/m);
    const patch = await t.request(url, { token: alice.token, headers: { accept: 'application/vnd.github.patch' } });
    const patchText = await patch.text();
    assert.deepEqual(patchText.match(/^From [0-9a-f]{40} /gm), [`From ${shas.f1} `, `From ${shas.f2} `]);
    assert.match(patchText, /Subject: \[PATCH 2\/2\] Fork two/);
    assert.equal(await holds(aliceDir, shas.f2), false);
  });

  test('from the fork: main...owner:main after the parent moves; diverged both ways; both sides elsewhere', async () => {
    const work = tempDir();
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, alice.login, 'reef', alice.login, alice.token), work]);
    shas.m2 = await commit(work, 'main.txt', 'main\nmoved\n', 'Main two');
    await gitOk(['push', '-q', 'origin', 'main'], { cwd: work });
    const bobRefs = await refsOf(bobDir);

    const cmp = async (owner: string, basehead: string) =>
      (await t.octokit(bob.token).rest.repos.compareCommitsWithBasehead({ owner, repo: 'reef', basehead })).data;
    const fromFork = await cmp(bob.login, `main...${alice.login}:main`);
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/compare/{basehead}', 200, fromFork);
    assert.deepEqual([fromFork.status, fromFork.ahead_by, fromFork.behind_by], ['ahead', 1, 0]);
    assert.deepEqual(fromFork.commits.map((c) => c.sha), [shas.m2]);
    assert.equal(fromFork.merge_base_commit.sha, shas.m1);
    assert.deepEqual(fromFork.files?.map((f) => [f.filename, f.patch]), [['main.txt', '@@ -1 +1,2 @@\n main\n+moved']]);
    assert.equal(fromFork.url, `${t.baseUrl}/repos/${bob.login}/reef/compare/main...${alice.login}:main`);
    assert.equal(fromFork.permalink_url, `${t.baseUrl}/${bob.login}/reef/compare/${bob.login}:${shas.m1}...${alice.login}:${shas.m2}`);
    assert.equal(await holds(bobDir, shas.m2), false, 'the fork did not gain the parent\'s new commit');
    assert.equal(await refsOf(bobDir), bobRefs);

    const diverged = await cmp(bob.login, `feature/tide...${alice.login}:reef:main`);
    assert.deepEqual([diverged.status, diverged.ahead_by, diverged.behind_by, diverged.base_commit.sha], ['diverged', 1, 2, shas.f2]);
    const onParent = await cmp(alice.login, `main...${bob.login}:feature/tide`);
    assert.deepEqual([onParent.status, onParent.ahead_by, onParent.behind_by], ['diverged', 2, 1]);
    assert.deepEqual(onParent.commits.map((c) => c.sha), [shas.f1, shas.f2]);
    // The base in the fork, the head in the repository asked.
    const baseElsewhere = await cmp(alice.login, `${bob.login}:feature/tide...main`);
    assert.deepEqual([baseElsewhere.status, baseElsewhere.ahead_by, baseElsewhere.behind_by, baseElsewhere.base_commit.sha], ['diverged', 1, 2, shas.f2]);
    assert.equal(baseElsewhere.permalink_url, `${t.baseUrl}/${alice.login}/reef/compare/${bob.login}:${shas.f2}...${alice.login}:${shas.m2}`);
    // Both sides in the fork, asked of the parent.
    const both = await cmp(alice.login, `${bob.login}:main...${bob.login}:feature/tide`);
    assert.deepEqual([both.status, both.ahead_by, both.behind_by], ['ahead', 2, 0]);
    assert.equal(await holds(aliceDir, shas.f1), false);
  });

  test('a fork under another name, as owner:repo:branch', async () => {
    await t.octokit(carol.token).rest.repos.createFork({ owner: alice.login, repo: 'reef', name: 'atoll' });
    const { data } = await t.octokit(alice.token).rest.repos.compareCommitsWithBasehead({ owner: alice.login, repo: 'reef', basehead: `main...${carol.login}:atoll:main` });
    assert.deepEqual([data.status, data.ahead_by, data.behind_by], ['identical', 0, 0]);
    const short = await t.octokit(alice.token).rest.repos.compareCommitsWithBasehead({ owner: alice.login, repo: 'reef', basehead: `main...${carol.login}:main` });
    assert.equal(short.data.status, 'identical', 'owner:branch finds the owner\'s repository of the network whatever its name');
  });

  test('unknown users, repositories and branches, repositories outside the network, unrelated histories: 404', async () => {
    const status = async (basehead: string, owner = alice.login) =>
      (await failure(() => t.octokit(alice.token).rest.repos.compareCommitsWithBasehead({ owner, repo: 'reef', basehead }))).status;
    // dave holds a repository named reef with the same first commit, but outside the network.
    const dave = await createUser(t, ['repo', 'user']);
    await t.octokit(dave.token).rest.repos.createForAuthenticatedUser({ name: 'reef' });
    await gitOk(['push', '-q', cloneUrl(t.baseUrl, dave.login, 'reef', dave.login, dave.token), `${shas.root}:refs/heads/main`], { cwd: bobWork });
    assert.equal(await status(`main...${dave.login}:main`), 404);
    assert.equal(await status(`main...${dave.login}:reef:main`), 404);
    assert.equal(await status(`${dave.login}:reef:main...main`), 404);
    assert.equal(await status(`main...no-such-user-here:main`), 404);
    assert.equal(await status(`main...${bob.login}:no-such-branch`), 404);
    assert.equal(await status(`main...${bob.login}:no-such-repo:feature/tide`), 404);
    assert.equal(await status(`main...${bob.login}::feature/tide`), 404);
    assert.equal(await status(`main...${bob.login}:`), 404);
    assert.equal(await status(`main...:main`), 404);
    const unrelated = await failure(() => t.octokit(alice.token).rest.repos.compareCommitsWithBasehead({ owner: alice.login, repo: 'reef', basehead: `main...${bob.login}:driftwood` }));
    assert.equal(unrelated.status, 404);
    assert.match(unrelated.message, new RegExp(`No common ancestor between main and ${bob.login}:driftwood\\.`));
    assert.equal(await holds(aliceDir, shas.orphan), false);
  });

  test('a private fork the caller cannot see names nothing', async () => {
    const owner = await createUser(t);
    const org = await createOrg(t, owner.login);
    const { data: vault } = await t.octokit(owner.token).rest.repos.createInOrg({ org: org.login, name: 'vault', private: true, auto_init: true });
    const dave = await createUser(t, ['repo', 'user']);
    for (const member of [carol, dave]) {
      await t.octokit(owner.token).rest.orgs.setMembershipForUser({ org: org.login, username: member.login, role: 'member' });
    }
    const { data: fork } = await t.octokit(carol.token).rest.repos.createFork({ owner: org.login, repo: 'vault' });
    assert.equal(fork.private, true);
    const work = tempDir();
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, carol.login, 'vault', carol.login, carol.token), work]);
    await gitOk(['checkout', '-q', '-b', 'secret'], { cwd: work });
    const secret = await commit(work, 'secret.txt', 'hush\n', 'Secret');
    await gitOk(['push', '-q', 'origin', 'secret'], { cwd: work });

    const compare = (who: CreatedUser, basehead: string) =>
      t.octokit(who.token).rest.repos.compareCommitsWithBasehead({ owner: org.login, repo: 'vault', basehead });
    const seen = await compare(carol, `main...${carol.login}:secret`);
    assert.deepEqual([seen.data.status, seen.data.commits.map((c) => c.sha)], ['ahead', [secret]]);
    // dave reads the organization's repository (a member) but may not read carol's fork
    // (Wharf's access rule; forks do not take their parent's grants), so it names nothing.
    assert.equal((await compare(dave, 'main...main')).data.status, 'identical', 'dave reads the organization\'s repository');
    for (const basehead of [`main...${carol.login}:secret`, `main...${carol.login}:vault:secret`, `${carol.login}:secret...main`]) {
      const res = await failure(() => compare(dave, basehead));
      assert.equal(res.status, 404, basehead);
      assert.equal(res.message, 'Not Found');
    }
    assert.equal(await holds(repoDir(t.dataDir, vault.id), secret), false);
  });
});
