// Branch protection through Octokit and the git binary: PUT/GET/DELETE of a rule
// (bodies checked against the published OpenAPI schemas, state after each call, bad
// input refused with nothing changed), and the rule enforced on pushes over HTTP.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failsWith } from './helpers/failures.ts';
import { requestJson } from './helpers/json-request.ts';
import { gql } from './helpers/graphql.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addCollaborator } from './factories/issues.ts';
import { checkout, cloneAs, commitFiles, repoWithFeature, type Clone } from './factories/pulls.ts';
import { git, gitOk } from './helpers/git.ts';

let t: TestServer;
before(async () => { t = await startTestServer(); });
after(async () => { await t.close(); });

const PROTECTION = '/repos/{owner}/{repo}/branches/{branch}/protection';
const OPEN = { required_status_checks: null, enforce_admins: null, required_pull_request_reviews: null, restrictions: null };

async function rows(repositoryId: number) {
  return t.server.ctx.db.selectFrom('branch_protections').select(['pattern', 'rules']).where('repository_id', '=', repositoryId).execute();
}

describe('PUT, GET and DELETE …/branches/{branch}/protection', () => {
  let owner: CreatedUser;
  let repo: string;
  let id: number;
  before(async () => {
    owner = await createUser(t);
    const made = await repoWithFeature(t, owner);
    repo = made.clone.repo;
    id = made.id;
  });

  test('PUT answers the published record and stores the rule; GET reads it back', async () => {
    const kit = t.octokit(owner.token);
    const res = await kit.rest.repos.updateBranchProtection({
      owner: owner.login, repo, branch: 'main',
      required_status_checks: { strict: true, contexts: ['ci/build'] },
      enforce_admins: true,
      required_pull_request_reviews: { required_approving_review_count: 2, dismiss_stale_reviews: true },
      restrictions: null,
      required_linear_history: true,
    });
    assert.equal(res.status, 200);
    assertMatchesOpenApi('PUT', PROTECTION, 200, res.data);
    const base = `${t.baseUrl}/repos/${owner.login}/${repo}/branches/main/protection`;
    assert.equal(res.data.url, base);
    // Upstream's branch-protection fields: the rule exists, for which branch, and where.
    const record = res.data as typeof res.data & { enabled?: boolean; name?: string; protection_url?: string };
    assert.deepEqual([record.enabled, record.name, record.protection_url], [true, 'main', base]);
    // Checks bind admins too (enforce_admins): upstream's enforcement level "everyone".
    assert.deepEqual(res.data.required_status_checks, {
      url: `${base}/required_status_checks`, enforcement_level: 'everyone', strict: true, contexts: ['ci/build'],
      contexts_url: `${base}/required_status_checks/contexts`, checks: [{ context: 'ci/build', app_id: null }],
    });
    assert.deepEqual(res.data.required_signatures, { url: `${base}/required_signatures`, enabled: false });
    assert.deepEqual([res.data.lock_branch, res.data.allow_fork_syncing, res.data.block_creations], [{ enabled: false }, { enabled: false }, { enabled: false }]);
    assert.deepEqual(res.data.enforce_admins, { url: `${base}/enforce_admins`, enabled: true });
    assert.equal(res.data.required_pull_request_reviews?.required_approving_review_count, 2);
    assert.equal(res.data.required_pull_request_reviews?.dismiss_stale_reviews, true);
    assert.deepEqual(res.data.required_linear_history, { enabled: true });
    assert.deepEqual(res.data.allow_force_pushes, { enabled: false });
    assert.equal(res.data.restrictions, undefined);
    assert.equal((await rows(id)).length, 1);

    const got = await kit.rest.repos.getBranchProtection({ owner: owner.login, repo, branch: 'main' });
    assertMatchesOpenApi('GET', PROTECTION, 200, got.data);
    assert.deepEqual(got.data, res.data);
  });

  test('a wildcard pattern protects the branches it matches', async () => {
    const kit = t.octokit(owner.token);
    await kit.rest.repos.updateBranchProtection({ owner: owner.login, repo, branch: 'feat*', ...OPEN, allow_deletions: true });
    const got = await kit.rest.repos.getBranchProtection({ owner: owner.login, repo, branch: 'feature' });
    assertMatchesOpenApi('GET', PROTECTION, 200, got.data);
    assert.equal(got.data.url, `${t.baseUrl}/repos/${owner.login}/${repo}/branches/feat*/protection`);
    // Read for the branch: its name and address, the rule's pattern in url.
    assert.equal(got.data.name, 'feature');
    assert.equal(got.data.protection_url, `${t.baseUrl}/repos/${owner.login}/${repo}/branches/feature/protection`);
    assert.deepEqual(got.data.allow_deletions, { enabled: true });
    await kit.rest.repos.deleteBranchProtection({ owner: owner.login, repo, branch: 'feat*' });
    await failsWith(kit.rest.repos.getBranchProtection({ owner: owner.login, repo, branch: 'feature' }), 404);
  });

  test('bad input is refused and changes nothing', async () => {
    const kit = t.octokit(owner.token);
    const before = await rows(id);
    // The four required members missing: the schema's 422.
    const partial = await requestJson(t, 'PUT', `/repos/${owner.login}/${repo}/branches/main/protection`, owner.token, { enforce_admins: true });
    assert.equal(partial.status, 422);
    const notObject = await requestJson(t, 'PUT', `/repos/${owner.login}/${repo}/branches/main/protection`, owner.token, [1]);
    assert.equal(notObject.status, 400);
    const e = await failsWith(kit.rest.repos.updateBranchProtection({
      owner: owner.login, repo, branch: 'main', ...OPEN, required_pull_request_reviews: { required_approving_review_count: 7 },
    }), 422);
    assert.equal(e.errors?.[0]?.field, 'required_approving_review_count');
    // Users and teams restrictions are for organization repositories only.
    await failsWith(kit.rest.repos.updateBranchProtection({ owner: owner.login, repo, branch: 'main', ...OPEN, restrictions: { users: [owner.login], teams: [] } }), 422);
    const missing = await failsWith(kit.rest.repos.updateBranchProtection({ owner: owner.login, repo, branch: 'no-such-branch', ...OPEN }), 404);
    assert.equal(missing.message, 'Branch not found');
    assert.deepEqual(await rows(id), before);
  });

  test('only admins manage protection: a writer gets 403 (a reader of a private repository 404)', async () => {
    const writer = await createUser(t);
    await addCollaborator(t, owner.token, { owner: owner.login, repo }, writer, 'push');
    await failsWith(t.octokit(writer.token).rest.repos.getBranchProtection({ owner: owner.login, repo, branch: 'main' }), 403);
    await failsWith(t.octokit(writer.token).rest.repos.deleteBranchProtection({ owner: owner.login, repo, branch: 'main' }), 403);
    assert.equal((await rows(id)).length, 1);
  });

  test('DELETE removes the rule (204), then 404 Branch not protected', async () => {
    const kit = t.octokit(owner.token);
    const res = await kit.rest.repos.deleteBranchProtection({ owner: owner.login, repo, branch: 'main' });
    assert.equal(res.status, 204);
    assert.equal((await rows(id)).length, 0);
    const e = await failsWith(kit.rest.repos.getBranchProtection({ owner: owner.login, repo, branch: 'main' }), 404);
    assert.equal(e.message, 'Branch not protected');
    await failsWith(kit.rest.repos.deleteBranchProtection({ owner: owner.login, repo, branch: 'main' }), 404);
  });
});

/** `git push` (not quiet, so the remote's messages show) that may fail: its exit code and stderr. */
async function tryPush(c: Clone, ...args: string[]) {
  const r = await git(['push', 'origin', ...args], { cwd: c.dir });
  return { code: r.code, stderr: r.stderr };
}

async function serverSha(owner: string, repo: string, branch: string): Promise<string | null> {
  const res = await requestJson(t, 'GET', `/repos/${owner}/${repo}/git/ref/heads/${branch}`, undefined);
  return res.status === 200 ? res.body.object.sha : null;
}

describe('pushes over HTTP to a protected branch', () => {
  let owner: CreatedUser;
  let writer: CreatedUser;
  let clone: Clone;
  let writerClone: Clone;
  let repo: string;
  before(async () => {
    owner = await createUser(t);
    writer = await createUser(t);
    const made = await repoWithFeature(t, owner);
    clone = made.clone;
    repo = clone.repo;
    await addCollaborator(t, owner.token, { owner: owner.login, repo }, writer, 'push');
    writerClone = await cloneAs(t, owner.login, repo, writer);
    await t.octokit(owner.token).rest.repos.updateBranchProtection({ owner: owner.login, repo, branch: 'main', ...OPEN });
  });

  test('a fast-forward push is accepted', async () => {
    const sha = await commitFiles(clone, { 'ok.txt': 'ok\n' }, 'Fast forward');
    const r = await tryPush(clone, 'main');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await serverSha(owner.login, repo, 'main'), sha);
  });

  test('git push --force is rejected with upstream\'s message and the branch stays', async () => {
    const before = await serverSha(owner.login, repo, 'main');
    await gitOk(['reset', '-q', '--hard', 'HEAD~1'], { cwd: clone.dir });
    await commitFiles(clone, { 'rewrite.txt': 'x\n' }, 'Rewritten history');
    const r = await tryPush(clone, '--force', 'main');
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /remote: error: GH006: Protected branch update failed for refs\/heads\/main\./);
    assert.match(r.stderr, /remote: error: Cannot force-push to this branch/);
    assert.match(r.stderr, /\[remote rejected\] main -> main/);
    assert.equal(await serverSha(owner.login, repo, 'main'), before);
    await gitOk(['reset', '-q', '--hard', before!], { cwd: clone.dir });
  });

  test('deleting the branch is rejected; allowed once allow_deletions is set', async () => {
    const r = await tryPush(clone, '--delete', 'feature');
    assert.equal(r.code, 0, r.stderr); // feature is not protected
    const d = await tryPush(clone, '--delete', 'main');
    assert.notEqual(d.code, 0);
    assert.match(d.stderr, /Cannot delete this branch/);
    assert.ok(await serverSha(owner.login, repo, 'main'));
  });

  test('force pushes are accepted with allow_force_pushes', async () => {
    await t.octokit(owner.token).rest.repos.updateBranchProtection({ owner: owner.login, repo, branch: 'main', ...OPEN, allow_force_pushes: true });
    await gitOk(['reset', '-q', '--hard', 'HEAD~1'], { cwd: clone.dir });
    const sha = await commitFiles(clone, { 'forced.txt': 'x\n' }, 'Forced');
    const r = await tryPush(clone, '--force', 'main');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await serverSha(owner.login, repo, 'main'), sha);
  });

  test('required linear history rejects merge commits', async () => {
    await t.octokit(owner.token).rest.repos.updateBranchProtection({ owner: owner.login, repo, branch: 'main', ...OPEN, required_linear_history: true, enforce_admins: true });
    await checkout(clone, 'side', true);
    await commitFiles(clone, { 'side.txt': 'side\n' }, 'Side');
    await checkout(clone, 'main');
    await commitFiles(clone, { 'main2.txt': 'main\n' }, 'Main');
    await gitOk(['merge', '-q', '--no-ff', '-m', 'Merge side', 'side'], { cwd: clone.dir });
    const r = await tryPush(clone, 'main');
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /This branch must not contain merge commits\./);
    await gitOk(['reset', '-q', '--hard', 'origin/main'], { cwd: clone.dir });
  });

  test('required reviews: a writer must go through a pull request; the admin bypasses unless enforce_admins', async () => {
    await t.octokit(owner.token).rest.repos.updateBranchProtection({
      owner: owner.login, repo, branch: 'main', ...OPEN, required_pull_request_reviews: { required_approving_review_count: 1 },
    });
    await gitOk(['pull', '-q', 'origin', 'main'], { cwd: writerClone.dir });
    await commitFiles(writerClone, { 'writer.txt': 'w\n' }, 'By the writer');
    const w = await tryPush(writerClone, 'main');
    assert.notEqual(w.code, 0);
    assert.match(w.stderr, /Changes must be made through a pull request\./);
    const sha = await commitFiles(clone, { 'admin.txt': 'a\n' }, 'By the admin');
    const a = await tryPush(clone, 'main');
    assert.equal(a.code, 0, a.stderr);
    assert.equal(await serverSha(owner.login, repo, 'main'), sha);
    // Accepted, with upstream's notice of what the admin went around.
    assert.match(a.stderr, /remote: Bypassed rule violations for refs\/heads\/main:\s*\nremote:\s*\nremote: - Changes must be made through a pull request\.\s*\nremote:\s*\n/);
    assert.doesNotMatch(w.stderr, /Bypassed/);
    await t.octokit(owner.token).rest.repos.updateBranchProtection({
      owner: owner.login, repo, branch: 'main', ...OPEN, enforce_admins: true, required_pull_request_reviews: { required_approving_review_count: 1 },
    });
    await commitFiles(clone, { 'admin2.txt': 'a\n' }, 'By the admin again');
    const enforced = await tryPush(clone, 'main');
    assert.notEqual(enforced.code, 0);
    assert.equal(await serverSha(owner.login, repo, 'main'), sha);
  });

  test('required signatures decline an unsigned commit', async () => {
    const kit = t.octokit(owner.token);
    await kit.rest.repos.updateBranchProtection({ owner: owner.login, repo, branch: 'main', ...OPEN, enforce_admins: true, allow_force_pushes: true });
    await kit.rest.repos.createCommitSignatureProtection({ owner: owner.login, repo, branch: 'main' });
    const before = await serverSha(owner.login, repo, 'main');
    await gitOk(['reset', '-q', '--hard', before!], { cwd: clone.dir });
    await commitFiles(clone, { 'unsigned.txt': 'u\n' }, 'Unsigned');
    const r = await tryPush(clone, 'main');
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /Commits must have verified signatures\./);
    assert.equal(await serverSha(owner.login, repo, 'main'), before);
    await gitOk(['reset', '-q', '--hard', before!], { cwd: clone.dir });
  });

  test('a wildcard rule and lock_branch bind every pusher', async () => {
    await t.octokit(owner.token).rest.repos.updateBranchProtection({ owner: owner.login, repo, branch: 'release/*', ...OPEN, lock_branch: true });
    await checkout(clone, 'release/1.0', true);
    const r = await tryPush(clone, 'release/1.0');
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /Cannot change this locked branch/);
    assert.equal(await serverSha(owner.login, repo, 'release/1.0'), null);
    await checkout(clone, 'main');
  });
});

describe('the refs and contents APIs on a protected branch', () => {
  let owner: CreatedUser;
  let writer: CreatedUser;
  let repo: string;
  let mainSha: string;
  let featureSha: string;
  before(async () => {
    owner = await createUser(t);
    writer = await createUser(t);
    const made = await repoWithFeature(t, owner);
    repo = made.clone.repo;
    mainSha = made.mainSha;
    featureSha = made.featureSha;
    await addCollaborator(t, owner.token, { owner: owner.login, repo }, writer, 'push');
    await t.octokit(owner.token).rest.repos.updateBranchProtection({ owner: owner.login, repo, branch: 'main', ...OPEN });
  });

  test('GET …/branches shows protected (and filters on it); GET …/branches/{branch} the protection summary', async () => {
    const kit = t.octokit(owner.token);
    const list = await kit.rest.repos.listBranches({ owner: owner.login, repo });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/branches', 200, list.data);
    assert.deepEqual(list.data.map((b) => [b.name, b.protected]), [['feature', false], ['main', true]]);
    // Each branch carries its protection (upstream's branch-protection record) and where its rule is managed.
    const api = `${t.baseUrl}/repos/${owner.login}/${repo}/branches`;
    /** The record of a branch: main's rule leaves every switch off; without a rule force pushes and deletions are allowed. */
    const record = (name: string, protectedBranch: boolean) => {
      const url = `${api}/${name}/protection`;
      const off = { enabled: false };
      return {
        url, enabled: protectedBranch, name, protection_url: url,
        required_status_checks: { url: `${url}/required_status_checks`, enforcement_level: 'off', strict: false, contexts: [], contexts_url: `${url}/required_status_checks/contexts`, checks: [] },
        required_signatures: { url: `${url}/required_signatures`, enabled: false }, enforce_admins: { url: `${url}/enforce_admins`, enabled: false },
        required_linear_history: off, allow_force_pushes: { enabled: !protectedBranch }, allow_deletions: { enabled: !protectedBranch },
        block_creations: off, required_conversation_resolution: off, lock_branch: off, allow_fork_syncing: off,
      };
    };
    assert.deepEqual(list.data.map((b) => [b.protection, b.protection_url]), [
      [record('feature', false), `${api}/feature/protection`],
      [record('main', true), `${api}/main/protection`],
    ]);
    const only = await kit.rest.repos.listBranches({ owner: owner.login, repo, protected: true });
    assert.deepEqual(only.data.map((b) => b.name), ['main']);
    const main = await kit.rest.repos.getBranch({ owner: owner.login, repo, branch: 'main' });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/branches/{branch}', 200, main.data);
    assert.equal(main.data.protected, true);
    assert.deepEqual(main.data.protection, record('main', true));
    const feature = await kit.rest.repos.getBranch({ owner: owner.login, repo, branch: 'feature' });
    assert.equal(feature.data.protected, false);
    assert.equal(feature.data.protection.enabled, false);
  });

  test('a forced ref update and a deletion get 422 with the reason; the ref stays', async () => {
    const kit = t.octokit(owner.token);
    // Back to main's parent: not a fast forward.
    const parent = (await kit.rest.git.getCommit({ owner: owner.login, repo, commit_sha: mainSha })).data.parents[0]!.sha;
    const forced = await failsWith(kit.rest.git.updateRef({ owner: owner.login, repo, ref: 'heads/main', sha: parent, force: true }), 422);
    assert.equal(forced.message, 'Cannot force-push to this branch');
    const del = await failsWith(kit.rest.git.deleteRef({ owner: owner.login, repo, ref: 'heads/main' }), 422);
    assert.equal(del.message, 'Cannot delete this branch');
    assert.equal(await serverSha(owner.login, repo, 'main'), mainSha);
    // A fast forward is no force push.
    await kit.rest.git.updateRef({ owner: owner.login, repo, ref: 'heads/main', sha: featureSha });
    mainSha = featureSha;
  });

  test('with required reviews the contents API answers 409 to a writer; nothing is written', async () => {
    await t.octokit(owner.token).rest.repos.updateBranchProtection({
      owner: owner.login, repo, branch: 'main', ...OPEN, required_pull_request_reviews: { required_approving_review_count: 1 },
    });
    const e = await failsWith(t.octokit(writer.token).rest.repos.createOrUpdateFileContents({
      owner: owner.login, repo, path: 'new.txt', message: 'Add', content: Buffer.from('x').toString('base64'),
    }), 409);
    assert.equal(e.message, 'Changes must be made through a pull request.');
    assert.equal(await serverSha(owner.login, repo, 'main'), mainSha);
    // The admin bypasses (no enforce_admins).
    const ok = await t.octokit(owner.token).rest.repos.createOrUpdateFileContents({
      owner: owner.login, repo, path: 'new.txt', message: 'Add', content: Buffer.from('x').toString('base64'),
    });
    assert.equal(ok.status, 201);
  });
});

describe('merging into a protected branch', () => {
  let owner: CreatedUser;
  let writer: CreatedUser;
  let clone: Clone;
  let repo: string;
  let number: number;
  before(async () => {
    owner = await createUser(t);
    writer = await createUser(t);
    const made = await repoWithFeature(t, owner);
    clone = made.clone;
    repo = clone.repo;
    await addCollaborator(t, owner.token, { owner: owner.login, repo }, writer, 'push');
    await t.octokit(owner.token).rest.repos.updateBranchProtection({
      owner: owner.login, repo, branch: 'main', required_status_checks: { strict: true, contexts: ['ci'] }, enforce_admins: false,
      required_pull_request_reviews: { required_approving_review_count: 1 }, restrictions: null,
    });
    number = (await t.octokit(owner.token).rest.pulls.create({ owner: owner.login, repo, head: 'feature', base: 'main', title: 'Feature' })).data.number;
  });

  const state = async () => (await t.octokit(writer.token).rest.pulls.get({ owner: owner.login, repo, pull_number: number })).data;
  const mergeStateStatus = async () => {
    const data = await gql(t, writer.token)<{ repository: { pullRequest: { mergeStateStatus: string } } }>(
      'query($o: String!, $r: String!, $n: Int!) { repository(owner: $o, name: $r) { pullRequest(number: $n) { mergeStateStatus } } }',
      { o: owner.login, r: repo, n: number },
    );
    return data.repository.pullRequest.mergeStateStatus;
  };
  const merge = () => t.octokit(writer.token).rest.pulls.merge({ owner: owner.login, repo, pull_number: number });
  const status = async (sha: string, context: string, s: 'success' | 'failure') =>
    t.octokit(owner.token).rest.repos.createCommitStatus({ owner: owner.login, repo, sha, context, state: s });

  test('missing approvals: blocked, and PUT merge answers 405 with upstream\'s message', async () => {
    assert.equal((await state()).mergeable_state, 'blocked');
    assert.equal(await mergeStateStatus(), 'BLOCKED');
    const branch = await t.octokit(owner.token).rest.repos.getBranch({ owner: owner.login, repo, branch: 'main' });
    const url = `${t.baseUrl}/repos/${owner.login}/${repo}/branches/main/protection`;
    assert.deepEqual(branch.data.protection.required_status_checks, {
      url: `${url}/required_status_checks`, enforcement_level: 'non_admins', strict: true, contexts: ['ci'], contexts_url: `${url}/required_status_checks/contexts`,
      checks: [{ context: 'ci', app_id: null }],
    });
    // The review requirement shows too, to everyone who reads the branch.
    assert.equal(branch.data.protection.required_pull_request_reviews?.required_approving_review_count, 1);
    const e = await failsWith(merge(), 405);
    assert.equal(e.message, 'At least 1 approving review is required by reviewers with write access.');
    assert.equal((await state()).merged, false);
  });

  test('GraphQL Ref.branchProtectionRule is the rule of the branch (null for an unprotected one)', async () => {
    type Rule = { pattern: string; requiredApprovingReviewCount: number | null; requireLastPushApproval: boolean; requiresApprovingReviews: boolean; requiresStrictStatusChecks: boolean } | null;
    const data = await gql(t, writer.token)<{ repository: { main: { branchProtectionRule: Rule }; feature: { branchProtectionRule: Rule } } }>(
      `query($o: String!, $r: String!) { repository(owner: $o, name: $r) {
        main: ref(qualifiedName: "refs/heads/main") { branchProtectionRule { pattern requiredApprovingReviewCount requireLastPushApproval requiresApprovingReviews requiresStrictStatusChecks } }
        feature: ref(qualifiedName: "refs/heads/feature") { branchProtectionRule { pattern } } } }`,
      { o: owner.login, r: repo },
    );
    assert.deepEqual(data.repository.main.branchProtectionRule, { pattern: 'main', requiredApprovingReviewCount: 1, requireLastPushApproval: false, requiresApprovingReviews: true, requiresStrictStatusChecks: true });
    assert.equal(data.repository.feature.branchProtectionRule, null);
  });

  test('approved but the required check missing or failing: still blocked', async () => {
    const pr = await state();
    await t.octokit(writer.token).rest.pulls.createReview({ owner: owner.login, repo, pull_number: number, event: 'APPROVE' });
    const e = await failsWith(merge(), 405);
    assert.equal(e.message, 'Required status check "ci" is expected.');
    await status(pr.head.sha, 'ci', 'failure');
    assert.equal((await failsWith(merge(), 405)).message, 'Required status check "ci" is failing.');
    assert.equal((await state()).mergeable_state, 'blocked');
  });

  test('strict checks and the base moved on: behind', async () => {
    const pr = await state();
    await status(pr.head.sha, 'ci', 'success');
    assert.equal((await state()).mergeable_state, 'clean');
    // The admin pushes to main directly (no enforce_admins): the head is now behind.
    await gitOk(['pull', '-q', 'origin', 'main'], { cwd: clone.dir });
    await commitFiles(clone, { 'base-moved.txt': 'x\n' }, 'Base moves on');
    await gitOk(['push', '-q', 'origin', 'main'], { cwd: clone.dir });
    assert.equal((await state()).mergeable_state, 'behind');
    assert.equal(await mergeStateStatus(), 'BEHIND');
    assert.equal((await failsWith(merge(), 405)).message, 'Head branch is not up to date with the base branch');
  });

  test('a failing check that is not required: unstable, and the merge goes through', async () => {
    await t.octokit(writer.token).rest.pulls.updateBranch({ owner: owner.login, repo, pull_number: number });
    const head = (await state()).head.sha;
    await status(head, 'ci', 'success');
    await status(head, 'lint', 'failure');
    assert.equal((await state()).mergeable_state, 'unstable');
    assert.equal(await mergeStateStatus(), 'UNSTABLE');
    const res = await merge();
    assert.equal(res.status, 200);
    assert.equal((await state()).merged, true);
    assert.equal(await serverSha(owner.login, repo, 'main'), res.data.sha);
  });
});

describe('the parts of a protection rule', () => {
  let owner: CreatedUser;
  let repo: string;
  const P = '/repos/{owner}/{repo}/branches/{branch}/protection';
  before(async () => {
    owner = await createUser(t);
    repo = (await repoWithFeature(t, owner)).clone.repo;
    await t.octokit(owner.token).rest.repos.updateBranchProtection({ owner: owner.login, repo, branch: 'main', ...OPEN });
  });
  const at = () => ({ owner: owner.login, repo, branch: 'main' });

  test('enforce_admins and required_signatures: POST sets, GET reads, DELETE clears', async () => {
    const kit = t.octokit(owner.token);
    const set = await kit.rest.repos.setAdminBranchProtection(at());
    assertMatchesOpenApi('POST', `${P}/enforce_admins`, 200, set.data);
    assert.deepEqual(set.data, { url: `${t.baseUrl}/repos/${owner.login}/${repo}/branches/main/protection/enforce_admins`, enabled: true });
    assert.equal((await kit.rest.repos.getAdminBranchProtection(at())).data.enabled, true);
    assert.equal((await kit.rest.repos.deleteAdminBranchProtection(at())).status, 204);
    assert.equal((await kit.rest.repos.getBranchProtection(at())).data.enforce_admins?.enabled, false);
    const sig = await kit.rest.repos.createCommitSignatureProtection(at());
    assertMatchesOpenApi('POST', `${P}/required_signatures`, 200, sig.data);
    assert.equal((await kit.rest.repos.getCommitSignatureProtection(at())).data.enabled, true);
    // A PUT of the whole rule keeps signatures, set only here.
    await kit.rest.repos.updateBranchProtection({ ...at(), ...OPEN });
    assert.equal((await kit.rest.repos.getBranchProtection(at())).data.required_signatures?.enabled, true);
    await kit.rest.repos.deleteCommitSignatureProtection(at());
    assert.equal((await kit.rest.repos.getCommitSignatureProtection(at())).data.enabled, false);
  });

  test('required_status_checks: 404 until enabled, PATCH changes, DELETE removes', async () => {
    const kit = t.octokit(owner.token);
    assert.equal((await failsWith(kit.rest.repos.getStatusChecksProtection(at()), 404)).message, 'Required status checks not enabled');
    await failsWith(kit.rest.repos.updateStatusCheckProtection({ ...at(), strict: true }), 404);
    await kit.rest.repos.updateBranchProtection({ ...at(), ...OPEN, required_status_checks: { strict: false, contexts: ['ci'] } });
    const patched = await kit.rest.repos.updateStatusCheckProtection({ ...at(), strict: true, contexts: ['ci', 'lint'] });
    assertMatchesOpenApi('PATCH', `${P}/required_status_checks`, 200, patched.data);
    assert.equal(patched.data.strict, true);
    assert.deepEqual(patched.data.contexts, ['ci', 'lint']);
    assert.deepEqual((await kit.rest.repos.getStatusChecksProtection(at())).data.contexts, ['ci', 'lint']);
    await kit.rest.repos.removeStatusCheckProtection(at());
    await failsWith(kit.rest.repos.getStatusChecksProtection(at()), 404);
  });

  test('required_pull_request_reviews: PATCH enables and changes (422 on a bad count, nothing changed), DELETE removes', async () => {
    const kit = t.octokit(owner.token);
    const patched = await kit.rest.repos.updatePullRequestReviewProtection({ ...at(), required_approving_review_count: 3 });
    assertMatchesOpenApi('PATCH', `${P}/required_pull_request_reviews`, 200, patched.data);
    assert.equal(patched.data.required_approving_review_count, 3);
    await failsWith(kit.rest.repos.updatePullRequestReviewProtection({ ...at(), required_approving_review_count: 9 }), 422);
    assert.equal((await kit.rest.repos.getPullRequestReviewProtection(at())).data.required_approving_review_count, 3);
    await kit.rest.repos.deletePullRequestReviewProtection(at());
    await failsWith(kit.rest.repos.getPullRequestReviewProtection(at()), 404);
    await failsWith(kit.rest.repos.deletePullRequestReviewProtection(at()), 404);
  });

  test('restrictions: 404 when not enabled', async () => {
    const e = await failsWith(t.octokit(owner.token).rest.repos.getAccessRestrictions(at()), 404);
    assert.equal(e.message, 'Push restrictions not enabled');
  });
});
