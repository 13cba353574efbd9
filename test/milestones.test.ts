// Milestones (numbers, unique titles, real open/closed counts, state, sort) and
// assignees (list, check, add, remove).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addCollaborator, createIssue, createRepo } from './factories/issues.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failsWith } from './helpers/failures.ts';
import { listEvents } from '../src/events/outbox.ts';

describe('milestones', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    bob = await createUser(t);
  });
  after(() => t.close());

  test('create, get, update, close, delete; counts are real; events', async () => {
    const r = await createRepo(t, alice);
    const kit = t.octokit(alice.token);
    const made = await kit.rest.issues.createMilestone({ owner: r.owner, repo: r.repo, title: 'v1.0', description: 'first', due_on: '2030-01-02T03:04:05Z' });
    assert.equal(made.status, 201);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/milestones', 201, made.data);
    const m = made.data;
    assert.equal(made.headers.location, m.url);
    assert.equal(m.number, 1);
    assert.equal(m.url, `${t.baseUrl}/repos/${r.owner}/${r.repo}/milestones/1`);
    assert.equal(m.html_url, `${t.baseUrl}/${r.owner}/${r.repo}/milestone/1`);
    assert.equal(m.labels_url, `${m.url}/labels`);
    assert.equal(m.state, 'open');
    assert.equal(m.creator?.login, alice.login);
    assert.equal(m.due_on, '2030-01-02T03:04:05Z');
    assert.equal(m.open_issues, 0);
    assert.equal(m.closed_issues, 0);
    assert.equal(m.closed_at, null);

    await createIssue(t, alice.token, r, { milestone: 1 });
    const two = await createIssue(t, alice.token, r, { milestone: 1 });
    await kit.rest.issues.update({ owner: r.owner, repo: r.repo, issue_number: two.number, state: 'closed' });
    const got = await kit.rest.issues.getMilestone({ owner: r.owner, repo: r.repo, milestone_number: 1 });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/milestones/{milestone_number}', 200, got.data);
    assert.equal(got.data.open_issues, 1);
    assert.equal(got.data.closed_issues, 1);

    const upd = await kit.rest.issues.updateMilestone({ owner: r.owner, repo: r.repo, milestone_number: 1, title: 'v1.0.0', state: 'closed' });
    assertMatchesOpenApi('PATCH', '/repos/{owner}/{repo}/milestones/{milestone_number}', 200, upd.data);
    assert.equal(upd.data.title, 'v1.0.0');
    assert.equal(upd.data.state, 'closed');
    assert.ok(upd.data.closed_at);
    assert.equal(upd.data.description, 'first', 'omitted fields are kept');
    const cleared = await kit.rest.issues.updateMilestone({ owner: r.owner, repo: r.repo, milestone_number: 1, due_on: null as never, state: 'open' });
    assert.equal(cleared.data.due_on, null);
    assert.equal(cleared.data.closed_at, null);

    assert.equal((await kit.rest.issues.deleteMilestone({ owner: r.owner, repo: r.repo, milestone_number: 1 })).status, 204);
    await failsWith(kit.rest.issues.getMilestone({ owner: r.owner, repo: r.repo, milestone_number: 1 }), 404);
    assert.equal((await kit.rest.issues.get({ owner: r.owner, repo: r.repo, issue_number: two.number })).data.milestone, null);
    const next = await kit.rest.issues.createMilestone({ owner: r.owner, repo: r.repo, title: 'v2' });
    assert.equal(next.data.number, 2, 'numbers are never reused');
    const hooks = await listEvents(t.server.ctx, { event: 'milestone', repositoryId: r.id });
    assert.deepEqual(hooks.map((e) => e.action), ['created', 'edited', 'closed', 'edited', 'opened', 'deleted', 'created']);
  });

  test('list: state, sort due_on and completeness, direction; Link', async () => {
    const r = await createRepo(t, alice);
    const kit = t.octokit(alice.token);
    await kit.rest.issues.createMilestone({ owner: r.owner, repo: r.repo, title: 'late', due_on: '2031-01-01T00:00:00Z' });
    await kit.rest.issues.createMilestone({ owner: r.owner, repo: r.repo, title: 'soon', due_on: '2030-01-01T00:00:00Z' });
    await kit.rest.issues.createMilestone({ owner: r.owner, repo: r.repo, title: 'whenever' });
    await kit.rest.issues.createMilestone({ owner: r.owner, repo: r.repo, title: 'done', state: 'closed' });
    const a = await createIssue(t, alice.token, r, { milestone: 1 });
    await createIssue(t, alice.token, r, { milestone: 1 });
    const c = await createIssue(t, alice.token, r, { milestone: 2 });
    await kit.rest.issues.update({ owner: r.owner, repo: r.repo, issue_number: a.number, state: 'closed' });
    await kit.rest.issues.update({ owner: r.owner, repo: r.repo, issue_number: c.number, state: 'closed' });
    const titles = async (q: Record<string, string>) =>
      (await kit.rest.issues.listMilestones({ owner: r.owner, repo: r.repo, ...q } as never)).data.map((m) => m.title);
    const all = await kit.rest.issues.listMilestones({ owner: r.owner, repo: r.repo });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/milestones', 200, all.data);
    assert.deepEqual(all.data.map((m) => m.title), ['soon', 'late', 'whenever']);
    assert.deepEqual(await titles({ state: 'closed' }), ['done']);
    assert.deepEqual((await titles({ state: 'all' })).length, 4);
    assert.deepEqual(await titles({ direction: 'desc' }), ['whenever', 'late', 'soon']);
    assert.deepEqual(await titles({ sort: 'completeness', direction: 'desc' }), ['soon', 'late', 'whenever']);
    assert.deepEqual(await titles({ sort: 'completeness', direction: 'asc' }), ['whenever', 'late', 'soon']);
    const page = await t.request(`/repos/${r.owner}/${r.repo}/milestones?state=all&per_page=3`, { token: alice.token });
    assert.match(page.headers.get('link') ?? '', /rel="next"/);
  });

  test('errors: duplicate title 422 already_exists, missing title, bad state and due_on 422; 403 without push; 404', async () => {
    const r = await createRepo(t, alice);
    const kit = t.octokit(alice.token);
    await kit.rest.issues.createMilestone({ owner: r.owner, repo: r.repo, title: 'Same' });
    const dup = await failsWith(kit.rest.issues.createMilestone({ owner: r.owner, repo: r.repo, title: 'same' }), 422);
    assert.deepEqual(dup.errors?.map((e) => [e.resource, e.field, e.code]), [['Milestone', 'title', 'already_exists']]);
    const missing = await failsWith(kit.rest.issues.createMilestone({ owner: r.owner, repo: r.repo } as never), 422);
    assert.equal(missing.errors?.[0]?.code, 'missing_field');
    await failsWith(kit.rest.issues.createMilestone({ owner: r.owner, repo: r.repo, title: 'x', state: 'maybe' as never }), 422);
    const due = await failsWith(kit.rest.issues.createMilestone({ owner: r.owner, repo: r.repo, title: 'x', due_on: 'someday' }), 422);
    assert.equal(due.errors?.[0]?.field, 'due_on');
    await kit.rest.issues.createMilestone({ owner: r.owner, repo: r.repo, title: 'Other' });
    const renameDup = await failsWith(kit.rest.issues.updateMilestone({ owner: r.owner, repo: r.repo, milestone_number: 2, title: 'SAME' }), 422);
    assert.equal(renameDup.errors?.[0]?.code, 'already_exists');
    await failsWith(t.octokit(bob.token).rest.issues.createMilestone({ owner: r.owner, repo: r.repo, title: 'mine' }), 403);
    await failsWith(kit.rest.issues.updateMilestone({ owner: r.owner, repo: r.repo, milestone_number: 9, title: 'x' }), 404);
    const listed = await kit.rest.issues.listMilestones({ owner: r.owner, repo: r.repo });
    assert.deepEqual(listed.data.map((m) => m.number), [1, 2], 'no number was used by the failures');
  });
});

describe('assignees', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let carol: CreatedUser;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    bob = await createUser(t);
    carol = await createUser(t);
  });
  after(() => t.close());

  test('list and check: users with push access', async () => {
    const r = await createRepo(t, alice);
    await addCollaborator(t, alice.token, r, bob);
    const kit = t.octokit(carol.token);
    const { data } = await kit.rest.issues.listAssignees({ owner: r.owner, repo: r.repo });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/assignees', 200, data);
    assert.deepEqual(data.map((u) => u.login).sort(), [alice.login, bob.login].sort());
    assert.equal((await kit.rest.issues.checkUserCanBeAssigned({ owner: r.owner, repo: r.repo, assignee: bob.login })).status, 204);
    await failsWith(kit.rest.issues.checkUserCanBeAssigned({ owner: r.owner, repo: r.repo, assignee: carol.login }), 404);
    await failsWith(kit.rest.issues.checkUserCanBeAssigned({ owner: r.owner, repo: r.repo, assignee: 'no-such-user-anywhere' }), 404);
    const issue = await createIssue(t, alice.token, r);
    assert.equal((await kit.rest.issues.checkUserCanBeAssignedToIssue({ owner: r.owner, repo: r.repo, issue_number: issue.number, assignee: alice.login })).status, 204);
    await failsWith(kit.rest.issues.checkUserCanBeAssignedToIssue({ owner: r.owner, repo: r.repo, issue_number: issue.number, assignee: carol.login }), 404);
    await failsWith(kit.rest.issues.checkUserCanBeAssignedToIssue({ owner: r.owner, repo: r.repo, issue_number: 77, assignee: alice.login }), 404);
  });

  test('add and remove on an issue: 201 with the issue; logins that may not be assigned are ignored; events', async () => {
    const r = await createRepo(t, alice);
    await addCollaborator(t, alice.token, r, bob);
    const kit = t.octokit(alice.token);
    const issue = await createIssue(t, alice.token, r);
    const added = await kit.rest.issues.addAssignees({ owner: r.owner, repo: r.repo, issue_number: issue.number, assignees: [bob.login, carol.login, 'no-such-user-anywhere'] });
    assert.equal(added.status, 201);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/issues/{issue_number}/assignees', 201, added.data);
    assert.deepEqual(added.data.assignees?.map((a) => a.login), [bob.login]);
    const more = await kit.rest.issues.addAssignees({ owner: r.owner, repo: r.repo, issue_number: issue.number, assignees: [alice.login, bob.login] });
    assert.deepEqual(more.data.assignees?.map((a) => a.login).sort(), [bob.login, alice.login].sort());
    const removed = await kit.rest.issues.removeAssignees({ owner: r.owner, repo: r.repo, issue_number: issue.number, assignees: [bob.login] });
    assert.equal(removed.status, 200);
    assertMatchesOpenApi('DELETE', '/repos/{owner}/{repo}/issues/{issue_number}/assignees', 200, removed.data);
    assert.deepEqual(removed.data.assignees?.map((a) => a.login), [alice.login]);
    const events = await kit.rest.issues.listEvents({ owner: r.owner, repo: r.repo, issue_number: issue.number });
    assert.deepEqual(events.data.map((e) => e.event), ['assigned', 'assigned', 'unassigned']);
    const hooks = (await listEvents(t.server.ctx, { event: 'issues', repositoryId: r.id })).map((e) => e.action);
    assert.deepEqual(hooks, ['opened', 'assigned', 'assigned', 'unassigned']);
    // Without triage access nothing changes.
    const ignored = await t.octokit(carol.token).rest.issues.addAssignees({ owner: r.owner, repo: r.repo, issue_number: issue.number, assignees: [bob.login] });
    assert.deepEqual(ignored.data.assignees?.map((a) => a.login), [alice.login]);
    await failsWith(kit.rest.issues.addAssignees({ owner: r.owner, repo: r.repo, issue_number: 404, assignees: [bob.login] }), 404);
  });
});
