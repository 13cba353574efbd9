// Labels: the default set of a new repository, repository label CRUD (names unique
// without case, hex colors), labels on issues, labels of a milestone.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addCollaborator, createIssue, createRepo } from './factories/issues.ts';
import { createOrgWithOwner } from './factories/orgs.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failsWith } from './helpers/failures.ts';
import { listEvents } from '../src/events/outbox.ts';

const names = (labels: { name: string }[]) => labels.map((l) => l.name);

describe('labels', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    bob = await createUser(t);
  });
  after(() => t.close());

  test('a new repository has upstream\'s default labels', async () => {
    const r = await createRepo(t, alice);
    const { data } = await t.octokit(bob.token).rest.issues.listLabelsForRepo({ owner: r.owner, repo: r.repo, per_page: 100 });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/labels', 200, data);
    assert.deepEqual(names(data), ['bug', 'documentation', 'duplicate', 'enhancement', 'good first issue', 'help wanted', 'invalid', 'question', 'wontfix']);
    const bug = data[0]!;
    assert.equal(bug.color, 'd73a4a');
    assert.equal(bug.description, 'Something isn\'t working');
    assert.equal(bug.default, true);
    assert.equal(bug.url, `${t.baseUrl}/repos/${r.owner}/${r.repo}/labels/bug`);
    const gfi = data.find((l) => l.name === 'good first issue')!;
    assert.equal(gfi.url, `${t.baseUrl}/repos/${r.owner}/${r.repo}/labels/good%20first%20issue`);
    // Forks and generated repositories are new repositories too.
    const { data: fork } = await t.octokit(bob.token).rest.repos.createFork({ owner: r.owner, repo: r.repo });
    const forkLabels = await t.octokit(bob.token).rest.issues.listLabelsForRepo({ owner: fork.owner.login, repo: fork.name, per_page: 100 });
    assert.equal(forkLabels.data.length, 9);
  });

  test('create, get, update (new_name, color, description), delete; webhook events', async () => {
    const r = await createRepo(t, alice);
    const kit = t.octokit(alice.token);
    const made = await kit.rest.issues.createLabel({ owner: r.owner, repo: r.repo, name: 'Needs Triage', color: 'FF00aa', description: 'look at me' });
    assert.equal(made.status, 201);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/labels', 201, made.data);
    assert.equal(made.data.name, 'Needs Triage');
    assert.equal(made.data.color, 'ff00aa');
    assert.equal(made.data.default, false);
    assert.equal(made.headers.location, made.data.url);
    const got = await kit.rest.issues.getLabel({ owner: r.owner, repo: r.repo, name: 'needs triage' });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/labels/{name}', 200, got.data);
    assert.equal(got.data.id, made.data.id, 'names are matched without case');
    const upd = await kit.rest.issues.updateLabel({ owner: r.owner, repo: r.repo, name: 'Needs Triage', new_name: 'triage', color: '00ff00' });
    assertMatchesOpenApi('PATCH', '/repos/{owner}/{repo}/labels/{name}', 200, upd.data);
    assert.equal(upd.data.name, 'triage');
    assert.equal(upd.data.color, '00ff00');
    assert.equal(upd.data.description, 'look at me', 'omitted description is kept');
    const cleared = await kit.rest.issues.updateLabel({ owner: r.owner, repo: r.repo, name: 'triage', description: null as never });
    assert.equal(cleared.data.description, null);
    await failsWith(kit.rest.issues.getLabel({ owner: r.owner, repo: r.repo, name: 'Needs Triage' }), 404);
    assert.equal((await kit.rest.issues.deleteLabel({ owner: r.owner, repo: r.repo, name: 'triage' })).status, 204);
    await failsWith(kit.rest.issues.getLabel({ owner: r.owner, repo: r.repo, name: 'triage' }), 404);
    await failsWith(kit.rest.issues.deleteLabel({ owner: r.owner, repo: r.repo, name: 'triage' }), 404);
    const hooks = await listEvents(t.server.ctx, { event: 'label', repositoryId: r.id });
    assert.deepEqual(hooks.map((e) => e.action), ['created', 'edited', 'edited', 'deleted']);
    assert.deepEqual(hooks[1]!.payload.changes, { name: { from: 'Needs Triage' }, color: { from: 'ff00aa' } });
  });

  test('errors: 422 already_exists (any case), invalid color, missing name; 403 without push; 404 unknown', async () => {
    const r = await createRepo(t, alice);
    const kit = t.octokit(alice.token);
    const dup = await failsWith(kit.rest.issues.createLabel({ owner: r.owner, repo: r.repo, name: 'BUG', color: 'ffffff' }), 422);
    assert.deepEqual(dup.errors?.map((e) => [e.resource, e.field, e.code]), [['Label', 'name', 'already_exists']]);
    for (const color of ['#ffffff', 'fff', 'zzzzzz', 'ffffff0']) {
      const bad = await failsWith(kit.rest.issues.createLabel({ owner: r.owner, repo: r.repo, name: `c-${color}`, color }), 422);
      assert.deepEqual(bad.errors?.map((e) => [e.field, e.code]), [['color', 'invalid']]);
    }
    const missing = await failsWith(kit.rest.issues.createLabel({ owner: r.owner, repo: r.repo } as never), 422);
    assert.equal(missing.errors?.[0]?.code, 'missing_field');
    const renameDup = await failsWith(kit.rest.issues.updateLabel({ owner: r.owner, repo: r.repo, name: 'bug', new_name: 'Question' }), 422);
    assert.equal(renameDup.errors?.[0]?.code, 'already_exists');
    const recolor = await failsWith(kit.rest.issues.updateLabel({ owner: r.owner, repo: r.repo, name: 'bug', color: 'red' }), 422);
    assert.equal(recolor.errors?.[0]?.field, 'color');
    await failsWith(t.octokit(bob.token).rest.issues.createLabel({ owner: r.owner, repo: r.repo, name: 'mine', color: 'ffffff' }), 403);
    await failsWith(t.octokit(bob.token).rest.issues.deleteLabel({ owner: r.owner, repo: r.repo, name: 'bug' }), 403);
    await failsWith(kit.rest.issues.updateLabel({ owner: r.owner, repo: r.repo, name: 'nope', color: 'ffffff' }), 404);
    // Renaming to another case of itself is allowed.
    assert.equal((await kit.rest.issues.updateLabel({ owner: r.owner, repo: r.repo, name: 'bug', new_name: 'Bug' })).data.name, 'Bug');
    const all = await kit.rest.issues.listLabelsForRepo({ owner: r.owner, repo: r.repo, per_page: 100 });
    assert.equal(all.data.length, 9);
  });

  test('labels on an issue: list, add (names or objects, bare array), set, remove one, remove all; events', async () => {
    const r = await createRepo(t, alice);
    const kit = t.octokit(alice.token);
    const issue = await createIssue(t, alice.token, r);
    const added = await kit.rest.issues.addLabels({ owner: r.owner, repo: r.repo, issue_number: issue.number, labels: ['bug', 'fresh'] });
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/issues/{issue_number}/labels', 200, added.data);
    assert.deepEqual(names(added.data), ['bug', 'fresh']);
    const bare = await t.request(`/repos/${r.owner}/${r.repo}/issues/${issue.number}/labels`, { method: 'POST', token: alice.token, json: [{ name: 'question' }] });
    assert.equal(bare.status, 200);
    assert.deepEqual(names((await bare.json()) as { name: string }[]), ['bug', 'fresh', 'question']);
    const listed = await kit.rest.issues.listLabelsOnIssue({ owner: r.owner, repo: r.repo, issue_number: issue.number });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/issues/{issue_number}/labels', 200, listed.data);
    assert.deepEqual(names(listed.data), ['bug', 'fresh', 'question']);
    const set = await kit.rest.issues.setLabels({ owner: r.owner, repo: r.repo, issue_number: issue.number, labels: ['wontfix', 'BUG'] });
    assertMatchesOpenApi('PUT', '/repos/{owner}/{repo}/issues/{issue_number}/labels', 200, set.data);
    assert.deepEqual(names(set.data), ['bug', 'wontfix']);
    const removed = await kit.rest.issues.removeLabel({ owner: r.owner, repo: r.repo, issue_number: issue.number, name: 'wontfix' });
    assertMatchesOpenApi('DELETE', '/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}', 200, removed.data);
    assert.deepEqual(names(removed.data), ['bug']);
    const gone = await failsWith(kit.rest.issues.removeLabel({ owner: r.owner, repo: r.repo, issue_number: issue.number, name: 'wontfix' }), 404);
    assert.equal(gone.message, 'Label does not exist');
    assert.equal((await kit.rest.issues.removeAllLabels({ owner: r.owner, repo: r.repo, issue_number: issue.number })).status, 204);
    assert.deepEqual((await kit.rest.issues.listLabelsOnIssue({ owner: r.owner, repo: r.repo, issue_number: issue.number })).data, []);
    const fresh = await kit.rest.issues.getLabel({ owner: r.owner, repo: r.repo, name: 'fresh' });
    assert.equal(fresh.data.color, 'ededed', 'a label named on an issue is created');
    const events = await kit.rest.issues.listEvents({ owner: r.owner, repo: r.repo, issue_number: issue.number });
    assert.deepEqual(events.data.map((e) => e.event), ['labeled', 'labeled', 'labeled', 'unlabeled', 'unlabeled', 'labeled', 'unlabeled', 'unlabeled']);
    const hooks = (await listEvents(t.server.ctx, { event: 'issues', repositoryId: r.id })).filter((e) => e.action === 'labeled');
    assert.equal((hooks[0]!.payload.label as { name: string }).name, 'bug');
    // Rights: triage access is needed.
    await failsWith(t.octokit(bob.token).rest.issues.addLabels({ owner: r.owner, repo: r.repo, issue_number: issue.number, labels: ['bug'] }), 403);
    const org = await createOrgWithOwner(t);
    const orgRepo = await createRepo(t, org.owner, { org: org.login });
    const orgIssue = await createIssue(t, org.owner.token, orgRepo);
    const triager = await createUser(t);
    await addCollaborator(t, org.owner.token, orgRepo, triager, 'triage');
    const triaged = await t.octokit(triager.token).rest.issues.addLabels({ owner: orgRepo.owner, repo: orgRepo.repo, issue_number: orgIssue.number, labels: ['bug'] });
    assert.deepEqual(names(triaged.data), ['bug']);
    await failsWith(t.octokit(triager.token).rest.issues.createLabel({ owner: orgRepo.owner, repo: orgRepo.repo, name: 'x', color: 'ffffff' }), 403);
    await kit.rest.issues.addLabels({ owner: r.owner, repo: r.repo, issue_number: issue.number, labels: ['bug'] });
    await failsWith(kit.rest.issues.addLabels({ owner: r.owner, repo: r.repo, issue_number: issue.number, labels: [] }), 422);
    await failsWith(kit.rest.issues.addLabels({ owner: r.owner, repo: r.repo, issue_number: 99, labels: ['bug'] }), 404);
    // Deleting a label removes it from issues.
    await kit.rest.issues.deleteLabel({ owner: r.owner, repo: r.repo, name: 'bug' });
    assert.deepEqual((await kit.rest.issues.listLabelsOnIssue({ owner: r.owner, repo: r.repo, issue_number: issue.number })).data, []);
  });

  test('labels of a milestone\'s issues', async () => {
    const r = await createRepo(t, alice);
    const kit = t.octokit(alice.token);
    const { data: ms } = await kit.rest.issues.createMilestone({ owner: r.owner, repo: r.repo, title: 'v2' });
    await createIssue(t, alice.token, r, { labels: ['bug', 'question'], milestone: ms.number });
    await createIssue(t, alice.token, r, { labels: ['bug', 'wontfix'] });
    const { data } = await kit.rest.issues.listLabelsForMilestone({ owner: r.owner, repo: r.repo, milestone_number: ms.number });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/milestones/{milestone_number}/labels', 200, data);
    assert.deepEqual(names(data), ['bug', 'question']);
    await failsWith(kit.rest.issues.listLabelsForMilestone({ owner: r.owner, repo: r.repo, milestone_number: 42 }), 404);
  });
});
