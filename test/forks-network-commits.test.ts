// A commit that exists only in a fork reads through its parent's URLs, as upstream
// (a fork network shares its objects there): GET …/commits/{sha}, …/git/commits/{sha},
// the .diff media type, …/status, …/check-runs and the web commit page of the parent
// answer it, with the parent's URLs. Only from
// forks the caller may read: a sha only in a private fork the caller cannot see stays
// unknown through the parent (422 / 404, as a sha that exists nowhere).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { requestJson } from './helpers/json-request.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addCollaborator } from './factories/issues.ts';
import { uniqueName } from './factories/pulls.ts';

let t: TestServer;
before(async () => { t = await startTestServer(); });
after(async () => { await t.close(); });

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** Commits a new file on the repository's default branch through the contents API; returns the commit's sha. */
async function commitFile(who: CreatedUser, owner: string, repo: string, path: string): Promise<string> {
  const res = await requestJson(t, 'PUT', `/repos/${owner}/${repo}/contents/${path}`, who.token, { message: `add ${path}`, content: b64(`${path}\n`) });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.commit.sha;
}

describe('commits of a fork read through the parent', () => {
  let alice: CreatedUser;
  let bob: CreatedUser;
  let repo: string;
  let forkSha: string;

  before(async () => {
    alice = await createUser(t);
    bob = await createUser(t);
    repo = uniqueName();
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: repo, auto_init: true });
    const fork = (await t.octokit(bob.token).rest.repos.createFork({ owner: alice.login, repo })).data;
    forkSha = await commitFile(bob, bob.login, fork.name, 'only-in-fork.txt');
  });

  test('GET …/commits/{sha}, …/git/commits/{sha} and the diff of the parent answer a public fork\'s commit, with the parent\'s URLs', async () => {
    const commit = await requestJson(t, 'GET', `/repos/${alice.login}/${repo}/commits/${forkSha}`, undefined);
    assert.equal(commit.status, 200, JSON.stringify(commit.body));
    assert.equal(commit.body.sha, forkSha);
    assert.equal(commit.body.html_url, `${t.baseUrl}/${alice.login}/${repo}/commit/${forkSha}`);
    assert.deepEqual(commit.body.files.map((f: { filename: string }) => f.filename), ['only-in-fork.txt']);

    const gitCommit = await requestJson(t, 'GET', `/repos/${alice.login}/${repo}/git/commits/${forkSha}`, alice.token);
    assert.equal(gitCommit.status, 200);
    assert.equal(gitCommit.body.sha, forkSha);
    assert.equal(gitCommit.body.message, 'add only-in-fork.txt');

    const diff = await t.request(`/repos/${alice.login}/${repo}/commits/${forkSha}`, { headers: { accept: 'application/vnd.github.diff' } });
    assert.equal(diff.status, 200);
    assert.match(await diff.text(), /\+\+\+ b\/only-in-fork\.txt/);

    // Its combined status and check runs in the parent: none reported there yet.
    const status = await requestJson(t, 'GET', `/repos/${alice.login}/${repo}/commits/${forkSha}/status`, undefined);
    assert.equal(status.status, 200);
    assert.deepEqual([status.body.sha, status.body.total_count], [forkSha, 0]);
    const runs = await requestJson(t, 'GET', `/repos/${alice.login}/${repo}/commits/${forkSha}/check-runs`, undefined);
    assert.equal(runs.status, 200);
    assert.equal(runs.body.total_count, 0);

    // The parent's web commit page shows it too.
    const page = await t.request(`/${alice.login}/${repo}/commit/${forkSha}`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /only-in-fork\.txt/);

    // Nothing was copied into the parent: its branches and its object database are as they were.
    const inParent = await requestJson(t, 'GET', `/repos/${alice.login}/${repo}/branches`, undefined);
    assert.equal(inParent.body.some((b: { commit: { sha: string } }) => b.commit.sha === forkSha), false);
  });

  test('a sha nowhere in the network is still unknown (422 and 404)', async () => {
    const nowhere = 'f'.repeat(40);
    assert.equal((await requestJson(t, 'GET', `/repos/${alice.login}/${repo}/commits/${nowhere}`, undefined)).status, 422);
    assert.equal((await requestJson(t, 'GET', `/repos/${alice.login}/${repo}/git/commits/${nowhere}`, undefined)).status, 404);
  });

  test('a commit only in a private fork reads through the parent for those who read the fork, and for no one else', async () => {
    const owner = await createUser(t);
    const carol = await createUser(t);
    const dave = await createUser(t);
    const secret = uniqueName();
    await t.octokit(owner.token).rest.repos.createForAuthenticatedUser({ name: secret, auto_init: true, private: true });
    await addCollaborator(t, owner.token, { owner: owner.login, repo: secret }, carol);
    await addCollaborator(t, owner.token, { owner: owner.login, repo: secret }, dave);
    const fork = (await t.octokit(carol.token).rest.repos.createFork({ owner: owner.login, repo: secret })).data;
    assert.equal(fork.private, true);
    const sha = await commitFile(carol, carol.login, fork.name, 'carol.txt');

    // Dave reads the parent but not carol's fork: the fork's commit stays hidden through the parent.
    assert.equal((await requestJson(t, 'GET', `/repos/${carol.login}/${fork.name}/commits/${sha}`, dave.token)).status, 404);
    assert.equal((await requestJson(t, 'GET', `/repos/${owner.login}/${secret}/commits/${sha}`, dave.token)).status, 422);
    assert.equal((await requestJson(t, 'GET', `/repos/${owner.login}/${secret}/git/commits/${sha}`, dave.token)).status, 404);
    assert.equal((await requestJson(t, 'GET', `/repos/${owner.login}/${secret}/commits/${sha}/status`, dave.token)).status, 404);
    // Nor through a public repository of another network, of course.
    assert.equal((await requestJson(t, 'GET', `/repos/${alice.login}/${repo}/commits/${sha}`, carol.token)).status, 422);

    // Carol reads her fork: the parent answers it to her.
    const seen = await requestJson(t, 'GET', `/repos/${owner.login}/${secret}/commits/${sha}`, carol.token);
    assert.equal(seen.status, 200);
    assert.equal(seen.body.sha, sha);
    assert.equal((await requestJson(t, 'GET', `/repos/${owner.login}/${secret}/git/commits/${sha}`, carol.token)).status, 200);
  });
});
