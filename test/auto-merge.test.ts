// Pull request auto-merge through GraphQL (enablePullRequestAutoMerge,
// disablePullRequestAutoMerge, PullRequest.autoMergeRequest) and REST (`auto_merge` on
// the record): enabled on a pull request blocked by its base branch's protection, it is
// merged by the worker, as the user who enabled it and with their method, once a
// required status or approval clears the way; refused as upstream refuses it; turned
// off by hand or by a push from someone without write access.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { gql, graphqlErrors } from './helpers/graphql.ts';
import { listEvents } from '../src/events/outbox.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addCollaborator } from './factories/issues.ts';
import { checkout, cloneAs, commitFiles, log, push, repoWithFeature, type Clone } from './factories/pulls.ts';

let t: TestServer;
before(async () => { t = await startTestServer(); });
after(async () => { await t.close(); });

const OPEN = { required_status_checks: null, enforce_admins: null, required_pull_request_reviews: null, restrictions: null } as const;

interface Pr {
  owner: CreatedUser;
  writer: CreatedUser;
  repo: string;
  number: number;
  nodeId: string;
  clone: Clone;
}

/** A repository (allow_auto_merge unless told), a writer, and a pull request feature → main; `protection` on main when given. */
async function setUp(protection: Record<string, unknown> | null, allowAutoMerge = true): Promise<Pr> {
  const owner = await createUser(t);
  const writer = await createUser(t);
  const { clone } = await repoWithFeature(t, owner, { allow_auto_merge: allowAutoMerge });
  await addCollaborator(t, owner.token, { owner: owner.login, repo: clone.repo }, writer, 'push');
  if (protection) await t.octokit(owner.token).rest.repos.updateBranchProtection({ owner: owner.login, repo: clone.repo, branch: 'main', ...OPEN, ...protection });
  const { data } = await t.octokit(owner.token).rest.pulls.create({ owner: owner.login, repo: clone.repo, head: 'feature', base: 'main', title: 'Feature' });
  return { owner, writer, repo: clone.repo, number: data.number, nodeId: data.node_id, clone };
}

const REQUIRED_CI = { required_status_checks: { strict: false, contexts: ['ci'] } };

const ENABLE = `mutation($id: ID!, $mergeMethod: PullRequestMergeMethod, $headline: String) {
  enablePullRequestAutoMerge(input: { pullRequestId: $id, mergeMethod: $mergeMethod, commitHeadline: $headline }) {
    actor { login }
    pullRequest { autoMergeRequest { mergeMethod commitHeadline commitBody enabledAt enabledBy { login } } }
  } }`;

interface EnableAnswer {
  enablePullRequestAutoMerge: {
    actor: { login: string };
    pullRequest: { autoMergeRequest: { mergeMethod: string; commitHeadline: string | null; commitBody: string | null; enabledAt: string; enabledBy: { login: string } } | null };
  };
}

const enable = (pr: Pr, user: CreatedUser, method = 'MERGE', headline: string | null = null) =>
  gql(t, user.token)<EnableAnswer>(ENABLE, { id: pr.nodeId, mergeMethod: method, headline });
const disable = (pr: Pr, user: CreatedUser) => gql(t, user.token)<{ disablePullRequestAutoMerge: { pullRequest: { autoMergeRequest: unknown } } }>(
  'mutation($id: ID!) { disablePullRequestAutoMerge(input: { pullRequestId: $id }) { pullRequest { autoMergeRequest { mergeMethod } } } }', { id: pr.nodeId });
const pull = async (pr: Pr) => (await t.octokit(pr.owner.token).rest.pulls.get({ owner: pr.owner.login, repo: pr.repo, pull_number: pr.number })).data;
const pullEvents = async (pr: Pr, action: string) => (await listEvents(t.server.ctx, { event: 'pull_request' }))
  .filter((e) => e.action === action && (e.payload.pull_request as { node_id: string }).node_id === pr.nodeId);

describe('auto-merge on a pull request blocked by a required status', () => {
  test('enabled through GraphQL, shown on REST, and merged by the enabler with their method once the status succeeds', async () => {
    const pr = await setUp(REQUIRED_CI);
    assert.equal((await pull(pr)).mergeable_state, 'blocked');
    const answer = (await enable(pr, pr.writer, 'SQUASH', 'Auto: feature')).enablePullRequestAutoMerge;
    assert.equal(answer.actor.login, pr.writer.login);
    assert.deepEqual({ ...answer.pullRequest.autoMergeRequest!, enabledAt: undefined }, {
      mergeMethod: 'SQUASH', commitHeadline: 'Auto: feature', commitBody: null, enabledAt: undefined, enabledBy: { login: pr.writer.login },
    });

    const rest = await pull(pr);
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/pulls/{pull_number}', 200, rest);
    assert.equal(rest.auto_merge?.enabled_by.login, pr.writer.login);
    assert.deepEqual({ ...rest.auto_merge, enabled_by: undefined }, { enabled_by: undefined, merge_method: 'squash', commit_title: 'Auto: feature', commit_message: '' });
    const listed = (await t.octokit(pr.owner.token).rest.pulls.list({ owner: pr.owner.login, repo: pr.repo })).data;
    assert.equal(listed[0]?.auto_merge?.merge_method, 'squash');
    const enabled = await pullEvents(pr, 'auto_merge_enabled');
    assert.equal(enabled.length, 1);
    assert.equal((enabled[0]!.payload.pull_request as { auto_merge: { merge_method: string } }).auto_merge.merge_method, 'squash');
    const timeline = (await t.octokit(pr.owner.token).rest.issues.listEvents({ owner: pr.owner.login, repo: pr.repo, issue_number: pr.number })).data;
    assert.deepEqual(timeline.map((e) => [e.event, e.actor?.login]), [['auto_squash_enabled', pr.writer.login]]);

    // A failing status changes nothing; the success clears the way and the worker merges.
    await t.octokit(pr.owner.token).rest.repos.createCommitStatus({ owner: pr.owner.login, repo: pr.repo, sha: rest.head.sha, context: 'ci', state: 'failure' });
    await t.server.autoMerges.idle();
    assert.equal((await pull(pr)).merged, false);
    await t.octokit(pr.owner.token).rest.repos.createCommitStatus({ owner: pr.owner.login, repo: pr.repo, sha: rest.head.sha, context: 'ci', state: 'success' });
    await t.server.autoMerges.idle();
    const merged = await pull(pr);
    assert.equal(merged.merged, true);
    assert.equal(merged.merged_by?.login, pr.writer.login);
    assert.equal(merged.state, 'closed');
    // Squashed: one commit on main with the chosen title.
    assert.deepEqual((await log(pr.clone, 'origin/main', '%s|%P')).slice(0, 1).map((l) => l.split('|')[0]), ['Auto: feature']);
    assert.equal((await log(pr.clone, 'origin/main', '%P'))[0]!.split(' ').length, 1);
  });

  test('a required approval clears the way too (merge commit by default)', async () => {
    const pr = await setUp({ required_pull_request_reviews: { required_approving_review_count: 1 } });
    await enable(pr, pr.owner);
    const reviewer = await createUser(t);
    await addCollaborator(t, pr.owner.token, { owner: pr.owner.login, repo: pr.repo }, reviewer, 'push');
    await t.octokit(reviewer.token).rest.pulls.createReview({ owner: pr.owner.login, repo: pr.repo, pull_number: pr.number, event: 'APPROVE' });
    await t.server.autoMerges.idle();
    const merged = await pull(pr);
    assert.equal(merged.merged, true);
    assert.equal(merged.merged_by?.login, pr.owner.login);
    assert.match((await log(pr.clone, 'origin/main'))[0]!, /^Merge pull request #\d+ from /);
  });
});

describe('refusals', () => {
  test('a repository without allow_auto_merge, an unprotected base, a clean pull request, a caller without push access', async () => {
    const off = await setUp(REQUIRED_CI, false);
    const e1 = await graphqlErrors(enable(off, off.owner));
    assert.deepEqual([e1.errors[0]?.type, e1.errors[0]?.message], ['UNPROCESSABLE', 'Pull request Auto merge is not allowed for this repository']);

    const unprotected = await setUp(null);
    const e2 = await graphqlErrors(enable(unprotected, unprotected.owner));
    assert.equal(e2.errors[0]?.message, 'Pull request Protected branch rules not configured for this branch');

    const clean = await setUp({});
    assert.equal((await pull(clean)).mergeable_state, 'clean');
    const e3 = await graphqlErrors(enable(clean, clean.owner));
    assert.deepEqual([e3.errors[0]?.type, e3.errors[0]?.message], ['UNPROCESSABLE', 'Pull request Pull request is in clean status']);

    const blocked = await setUp(REQUIRED_CI);
    const reader = await createUser(t);
    const e4 = await graphqlErrors(enable(blocked, reader));
    assert.deepEqual([e4.errors[0]?.type, e4.errors[0]?.message], ['FORBIDDEN', `${reader.login} does not have the correct permissions to execute \`EnablePullRequestAutoMerge\``]);

    for (const pr of [off, unprotected, clean, blocked]) {
      assert.equal((await pull(pr)).auto_merge, null);
      assert.deepEqual(await pullEvents(pr, 'auto_merge_enabled'), []);
    }
  });
});

describe('turning auto-merge off', () => {
  test('disablePullRequestAutoMerge removes it, with the auto_merge_disabled event; a later success merges nothing', async () => {
    const pr = await setUp(REQUIRED_CI);
    await enable(pr, pr.writer);
    const answer = await disable(pr, pr.writer);
    assert.equal(answer.disablePullRequestAutoMerge.pullRequest.autoMergeRequest, null);
    const rest = await pull(pr);
    assert.equal(rest.auto_merge, null);
    const disabled = await pullEvents(pr, 'auto_merge_disabled');
    assert.deepEqual(disabled.map((e) => e.payload.reason), [`Auto-merge was disabled by ${pr.writer.login}.`]);
    const timeline = (await t.octokit(pr.owner.token).rest.issues.listEvents({ owner: pr.owner.login, repo: pr.repo, issue_number: pr.number })).data;
    assert.deepEqual(timeline.map((e) => e.event), ['auto_merge_enabled', 'auto_merge_disabled']);
    await t.octokit(pr.owner.token).rest.repos.createCommitStatus({ owner: pr.owner.login, repo: pr.repo, sha: rest.head.sha, context: 'ci', state: 'success' });
    await t.server.autoMerges.idle();
    assert.equal((await pull(pr)).merged, false);
  });

  test('a push by a writer keeps it; a push to a fork\'s head by its author without write access turns it off', async () => {
    const pr = await setUp(REQUIRED_CI);
    await enable(pr, pr.owner);
    await checkout(pr.clone, 'feature');
    await commitFiles(pr.clone, { 'more.txt': 'more\n' }, 'More');
    await push(pr.clone, 'feature');
    await checkout(pr.clone, 'main');
    assert.equal((await pull(pr)).auto_merge?.enabled_by.login, pr.owner.login);

    const bob = await createUser(t);
    const fork = await t.octokit(bob.token).rest.repos.createFork({ owner: pr.owner.login, repo: pr.repo });
    const clone = await cloneAs(t, bob.login, fork.data.name, bob);
    await checkout(clone, 'fix', true);
    await commitFiles(clone, { 'fix.txt': 'fix\n' }, 'Fix');
    await push(clone, 'fix');
    const { data } = await t.octokit(bob.token).rest.pulls.create({ owner: pr.owner.login, repo: pr.repo, head: `${bob.login}:fix`, base: 'main', title: 'Fix' });
    const forked: Pr = { ...pr, number: data.number, nodeId: data.node_id };
    await enable(forked, pr.owner);
    await commitFiles(clone, { 'fix.txt': 'fix again\n' }, 'Fix again');
    await push(clone, 'fix');
    assert.equal((await pull(forked)).auto_merge, null);
    assert.deepEqual((await pullEvents(forked, 'auto_merge_disabled')).map((e) => e.payload.reason), ['New commits were pushed to the head branch.']);
  });
});
