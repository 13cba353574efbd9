// Writes to a public repository need a token with public_repo or repo, also where reading
// is enough to be allowed (opening an issue, commenting, reviewing) and where the caller
// is the author (editing their issue or pull request, deleting their comment). Found by
// the authorization matrix (reliability/authz.ts): a token with only read:user could do
// all of these on its user's public repositories, and the comment was gone.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createToken, createUser, type CreatedUser } from './factories/accounts.ts';
import { createIssue, createRepo, type CreatedRepo } from './factories/issues.ts';

describe('writes need a write scope, whatever role the user has', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let repo: CreatedRepo;
  let readOnly: string;
  let publicRepo: string;
  let base: string;
  let issueNumber: number;
  let commentId: number;
  let pullNumber: number;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    repo = await createRepo(t, alice);
    base = `/repos/${repo.owner}/${repo.repo}`;
    readOnly = await createToken(t, alice.login, ['read:user']);
    publicRepo = await createToken(t, alice.login, ['public_repo']);
    issueNumber = (await createIssue(t, alice.token, repo)).number;
    const comment = await t.request(`${base}/issues/${issueNumber}/comments`, { method: 'POST', token: alice.token, json: { body: 'mine' } });
    commentId = ((await comment.json()) as { id: number }).id;
    const { data: main } = await t.octokit(alice.token).rest.repos.getBranch({ owner: repo.owner, repo: repo.repo, branch: 'main' });
    await t.octokit(alice.token).rest.git.createRef({ owner: repo.owner, repo: repo.repo, ref: 'refs/heads/topic', sha: main.commit.sha });
    await t.octokit(alice.token).rest.repos.createOrUpdateFileContents({ owner: repo.owner, repo: repo.repo, path: 'topic.txt', message: 'topic', content: Buffer.from('t\n').toString('base64'), branch: 'topic' });
    pullNumber = (await t.octokit(alice.token).rest.pulls.create({ owner: repo.owner, repo: repo.repo, title: 'topic', head: 'topic', base: 'main' })).data.number;
  });
  after(async () => { await t.close(); });

  const refusals: [string, string, () => string, unknown][] = [
    ['opening an issue', 'POST', () => `${base}/issues`, { title: 'no scope' }],
    ['commenting', 'POST', () => `${base}/issues/${issueNumber}/comments`, { body: 'no scope' }],
    ['editing their own issue', 'PATCH', () => `${base}/issues/${issueNumber}`, { title: 'changed' }],
    ['editing their own comment', 'PATCH', () => `${base}/issues/comments/${commentId}`, { body: 'changed' }],
    ['deleting their own comment', 'DELETE', () => `${base}/issues/comments/${commentId}`, undefined],
    ['editing their own pull request', 'PATCH', () => `${base}/pulls/${pullNumber}`, { title: 'changed' }],
    ['reviewing a pull request', 'POST', () => `${base}/pulls/${pullNumber}/reviews`, { body: 'looks fine', event: 'COMMENT' }],
  ];
  for (const [what, method, path, json] of refusals) {
    test(`${what} with a token holding only read:user: 403, the scope named`, async () => {
      const res = await t.request(path(), { method, token: readOnly, ...(json !== undefined ? { json } : {}) });
      assert.equal(res.status, 403, await res.clone().text());
      assert.match(((await res.json()) as { message: string }).message, /public_repo/);
      assert.equal(res.headers.get('x-accepted-oauth-scopes') !== null, true);
    });
  }

  test('nothing changed, and the same writes pass with public_repo', async () => {
    const issue = (await (await t.request(`${base}/issues/${issueNumber}`, { token: alice.token })).json()) as { title: string; comments: number };
    assert.equal(issue.title, 'An issue');
    assert.equal(issue.comments, 1);
    const comment = await t.request(`${base}/issues/comments/${commentId}`, { token: alice.token });
    assert.equal(comment.status, 200);
    assert.equal((await t.request(`${base}/issues/${issueNumber}`, { method: 'PATCH', token: publicRepo, json: { title: 'changed' } })).status, 200);
    assert.equal((await t.request(`${base}/issues/${issueNumber}/comments`, { method: 'POST', token: publicRepo, json: { body: 'scoped' } })).status, 201);
    assert.equal((await t.request(`${base}/issues/comments/${commentId}`, { method: 'DELETE', token: publicRepo })).status, 204);
  });
});
