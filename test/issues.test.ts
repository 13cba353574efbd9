// Issues: create, get, update, lock, body media types, numbering under concurrency,
// interaction limits, open_issues_count.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addMember, createOrgWithOwner } from './factories/orgs.ts';
import { addCollaborator, createIssue, createRepo } from './factories/issues.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failsWith } from './helpers/failures.ts';
import { listEvents } from '../src/events/outbox.ts';

describe('issues', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    bob = await createUser(t);
  });
  after(() => t.close());

  test('create: 201 with Location, the full record, labels/assignees/milestone for the owner, timeline and webhook events', async () => {
    const r = await createRepo(t, alice);
    const kit = t.octokit(alice.token);
    const { data: ms } = await kit.rest.issues.createMilestone({ owner: r.owner, repo: r.repo, title: 'v1' });
    const res = await kit.rest.issues.create({
      owner: r.owner, repo: r.repo, title: 'Crash on start', body: 'It crashes, see #1 and ask @' + bob.login,
      labels: ['bug', { name: 'brand new' }], assignees: [alice.login], milestone: ms.number,
    });
    assert.equal(res.status, 201);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/issues', 201, res.data);
    const issue = res.data;
    assert.equal(res.headers.location, issue.url);
    assert.equal(issue.number, 1);
    assert.equal(issue.url, `${t.baseUrl}/repos/${r.owner}/${r.repo}/issues/1`);
    assert.equal(issue.html_url, `${t.baseUrl}/${r.owner}/${r.repo}/issues/1`);
    assert.equal(issue.repository_url, `${t.baseUrl}/repos/${r.owner}/${r.repo}`);
    assert.equal(issue.labels_url, `${issue.url}/labels{/name}`);
    assert.equal(issue.comments_url, `${issue.url}/comments`);
    assert.equal(issue.events_url, `${issue.url}/events`);
    assert.equal(issue.timeline_url, `${issue.url}/timeline`);
    assert.equal(issue.state, 'open');
    assert.equal(issue.state_reason, null);
    assert.equal(issue.title, 'Crash on start');
    assert.equal(issue.user?.login, alice.login);
    assert.deepEqual(issue.labels.map((l) => (typeof l === 'string' ? l : l.name)), ['brand new', 'bug']);
    const brandNew = issue.labels.find((l) => typeof l !== 'string' && l.name === 'brand new');
    assert.equal(typeof brandNew === 'object' && brandNew.color, 'ededed');
    assert.equal(issue.assignee?.login, alice.login);
    assert.deepEqual(issue.assignees?.map((a) => a.login), [alice.login]);
    assert.equal(issue.milestone?.number, ms.number);
    assert.equal(issue.milestone?.open_issues, 1);
    assert.equal(issue.locked, false);
    assert.equal('active_lock_reason' in issue, false, 'the lock reason is a sailor-v preview field');
    assert.equal(issue.comments, 0);
    assert.equal('pull_request' in issue, false);
    assert.equal(issue.closed_at, null);
    assert.equal(issue.closed_by, null);
    assert.equal(issue.author_association, 'OWNER');
    assert.equal(issue.reactions?.total_count, 0);
    assert.equal(issue.reactions?.url, `${issue.url}/reactions`);
    assert.equal(issue.performed_via_github_app, null);
    assert.ok(issue.node_id);
    assert.ok(issue.created_at?.endsWith('Z'));

    const opened = (await listEvents(t.server.ctx, { event: 'issues', repositoryId: r.id })).filter((e) => e.action === 'opened');
    assert.equal(opened.length, 1);
    const payload = opened[0]!.payload.issue as { number: number; user: { login: string }; active_lock_reason: unknown; assignees: unknown[] };
    assert.equal(payload.number, 1);
    assert.equal(payload.user.login, alice.login);
    assert.equal(payload.active_lock_reason, null);
    assert.equal(payload.assignees.length, 1);
    const timeline = await kit.rest.issues.listEvents({ owner: r.owner, repo: r.repo, issue_number: 1 });
    assert.deepEqual(timeline.data.map((e) => e.event).sort(), ['assigned', 'labeled', 'labeled', 'milestoned']);
  });

  test('create without push access: labels, assignees and milestone are silently dropped; author_association NONE', async () => {
    const r = await createRepo(t, alice);
    const kit = t.octokit(alice.token);
    await kit.rest.issues.createMilestone({ owner: r.owner, repo: r.repo, title: 'later' });
    const { data } = await t.octokit(bob.token).rest.issues.create({
      owner: r.owner, repo: r.repo, title: 'Outsider', labels: ['bug'], assignees: [alice.login], milestone: 1,
    });
    assert.deepEqual(data.labels, []);
    assert.deepEqual(data.assignees, []);
    assert.equal(data.milestone, null);
    assert.equal(data.author_association, 'NONE');
    const events = await kit.rest.issues.listEvents({ owner: r.owner, repo: r.repo, issue_number: data.number });
    assert.deepEqual(events.data, []);
  });

  test('create: a number is taken as the title; the deprecated assignee works', async () => {
    const r = await createRepo(t, alice);
    const res = await t.request(`/repos/${r.owner}/${r.repo}/issues`, { method: 'POST', token: alice.token, json: { title: 42, assignee: alice.login } });
    assert.equal(res.status, 201);
    const body = (await res.json()) as { title: string; assignee: { login: string } };
    assert.equal(body.title, '42');
    assert.equal(body.assignee.login, alice.login);
  });

  test('create errors: 422 missing title, unknown assignee, unknown milestone; 410 disabled; 403 archived; 404 private; 401 anonymous; nothing written', async () => {
    const r = await createRepo(t, alice);
    const kit = t.octokit(alice.token);
    const post = (json: unknown, token = alice.token) =>
      t.request(`/repos/${r.owner}/${r.repo}/issues`, { method: 'POST', ...(token ? { token } : {}), json });
    let res = await post({ body: 'no title' });
    assert.equal(res.status, 422);
    assert.deepEqual(((await res.json()) as { errors: unknown[] }).errors, [{ resource: 'Issue', field: 'title', code: 'missing_field' }]);
    res = await post({ title: '   ' });
    assert.equal(res.status, 422);
    const unknown = await failsWith(kit.rest.issues.create({ owner: r.owner, repo: r.repo, title: 'x', assignees: ['no-such-user-anywhere'] }), 422);
    assert.deepEqual(unknown.errors?.map((e) => [e.resource, e.field, e.code]), [['Issue', 'assignees', 'invalid']]);
    const notAssignable = await failsWith(kit.rest.issues.create({ owner: r.owner, repo: r.repo, title: 'x', assignees: [bob.login] }), 422);
    assert.equal(notAssignable.errors?.[0]?.code, 'invalid');
    const ms = await failsWith(kit.rest.issues.create({ owner: r.owner, repo: r.repo, title: 'x', milestone: 99 }), 422);
    assert.deepEqual(ms.errors?.map((e) => [e.field, e.code]), [['milestone', 'invalid']]);
    assert.equal((await post({ title: 'x' }, '')).status, 401);
    res = await post({ title: 5, labels: 'bug' });
    assert.equal(res.status, 422, 'labels must be an array');
    // Nothing was written: the next issue is number 1.
    const first = await createIssue(t, alice.token, r);
    assert.equal(first.number, 1);

    await kit.rest.repos.update({ owner: r.owner, repo: r.repo, has_issues: false });
    const gone = await failsWith(kit.rest.issues.create({ owner: r.owner, repo: r.repo, title: 'x' }), 410);
    assert.equal(gone.message, 'Issues are disabled for this repo');
    await failsWith(kit.rest.issues.get({ owner: r.owner, repo: r.repo, issue_number: 1 }), 410);
    await kit.rest.repos.update({ owner: r.owner, repo: r.repo, has_issues: true, archived: true });
    const archived = await failsWith(kit.rest.issues.create({ owner: r.owner, repo: r.repo, title: 'x' }), 403);
    assert.match(archived.message, /archived/);

    const secret = await createRepo(t, alice, { private: true });
    await failsWith(t.octokit(bob.token).rest.issues.create({ owner: secret.owner, repo: secret.repo, title: 'x' }), 404);
    await failsWith(t.octokit(bob.token).rest.issues.listForRepo({ owner: secret.owner, repo: secret.repo }), 404);
  });

  test('get: 200 with the record; 404 for a missing number', async () => {
    const r = await createRepo(t, alice);
    const made = await createIssue(t, alice.token, r, { title: 'Readable', body: 'text' });
    const got = await t.octokit(bob.token).rest.issues.get({ owner: r.owner, repo: r.repo, issue_number: made.number });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/issues/{issue_number}', 200, got.data);
    assert.equal(got.data.id, made.id);
    assert.equal(got.data.body, 'text');
    assert.equal(got.data.author_association, 'OWNER');
    await failsWith(t.octokit(bob.token).rest.issues.get({ owner: r.owner, repo: r.repo, issue_number: 999 }), 404);
    const anon = await t.request(`/repos/${r.owner}/${r.repo}/issues/${made.number}`);
    assert.equal(anon.status, 200);
  });

  test('update: title, body, state and state_reason, milestone null clears, labels and assignees replace; events', async () => {
    const r = await createRepo(t, alice);
    const kit = t.octokit(alice.token);
    await kit.rest.issues.createMilestone({ owner: r.owner, repo: r.repo, title: 'm1' });
    const made = await createIssue(t, alice.token, r, { title: 'Old', body: 'keep me', labels: ['bug'], milestone: 1 });
    const upd = await kit.rest.issues.update({ owner: r.owner, repo: r.repo, issue_number: made.number, title: 'New', labels: ['question'], assignees: [alice.login] });
    assertMatchesOpenApi('PATCH', '/repos/{owner}/{repo}/issues/{issue_number}', 200, upd.data);
    assert.equal(upd.data.title, 'New');
    assert.equal(upd.data.body, 'keep me', 'omitted body is kept');
    assert.equal(upd.data.milestone?.number, 1, 'omitted milestone is kept');
    assert.deepEqual(upd.data.labels.map((l) => (typeof l === 'string' ? l : l.name)), ['question']);
    assert.deepEqual(upd.data.assignees?.map((a) => a.login), [alice.login]);

    const closed = await kit.rest.issues.update({ owner: r.owner, repo: r.repo, issue_number: made.number, state: 'closed', state_reason: 'not_planned', milestone: null, body: null });
    assert.equal(closed.data.state, 'closed');
    assert.equal(closed.data.state_reason, 'not_planned');
    assert.ok(closed.data.closed_at);
    assert.equal(closed.data.closed_by?.login, alice.login);
    assert.equal(closed.data.milestone, null);
    assert.equal(closed.data.body, null);

    const reopened = await kit.rest.issues.update({ owner: r.owner, repo: r.repo, issue_number: made.number, state: 'open' });
    assert.equal(reopened.data.state, 'open');
    assert.equal(reopened.data.state_reason, 'reopened');
    assert.equal(reopened.data.closed_at, null);

    const events = await kit.rest.issues.listEvents({ owner: r.owner, repo: r.repo, issue_number: made.number });
    const names = events.data.map((e) => e.event);
    for (const e of ['renamed', 'unlabeled', 'labeled', 'assigned', 'closed', 'demilestoned', 'reopened']) assert.ok(names.includes(e), `${e} in ${names}`);
    const renamed = events.data.find((e) => e.event === 'renamed') as unknown as { rename: { from: string; to: string } };
    assert.deepEqual(renamed.rename, { from: 'Old', to: 'New' });
    const closedEvent = events.data.find((e) => e.event === 'closed') as unknown as { state_reason: string; actor: { login: string } };
    assert.equal(closedEvent.state_reason, 'not_planned');
    assert.equal(closedEvent.actor.login, alice.login);
    for (const e of events.data) assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/issues/{issue_number}/events', 200, [e]);

    const hooks = (await listEvents(t.server.ctx, { event: 'issues', repositoryId: r.id })).map((e) => e.action);
    for (const a of ['opened', 'edited', 'labeled', 'unlabeled', 'assigned', 'closed', 'demilestoned', 'reopened']) assert.ok(hooks.includes(a), `${a} in ${hooks}`);
    const edited = (await listEvents(t.server.ctx, { event: 'issues', repositoryId: r.id })).find((e) => e.action === 'edited');
    assert.deepEqual(edited?.payload.changes, { title: { from: 'Old' } });
  });

  test('update rights: the author without triage edits title and body, labels are dropped; others get 403; invalid values 422', async () => {
    const r = await createRepo(t, alice);
    const mine = await createIssue(t, bob.token, r, { title: 'Mine' });
    const theirs = await createIssue(t, alice.token, r, { title: 'Theirs' });
    const own = await t.octokit(bob.token).rest.issues.update({ owner: r.owner, repo: r.repo, issue_number: mine.number, title: 'Mine, edited', labels: ['bug'], state: 'closed' });
    assert.equal(own.data.title, 'Mine, edited');
    assert.deepEqual(own.data.labels, []);
    assert.equal(own.data.state, 'closed');
    await failsWith(t.octokit(bob.token).rest.issues.update({ owner: r.owner, repo: r.repo, issue_number: theirs.number, title: 'hijack' }), 403);
    const still = await t.octokit(alice.token).rest.issues.get({ owner: r.owner, repo: r.repo, issue_number: theirs.number });
    assert.equal(still.data.title, 'Theirs');
    const bad = await t.request(`/repos/${r.owner}/${r.repo}/issues/${theirs.number}`, { method: 'PATCH', token: alice.token, json: { state: 'done' } });
    assert.equal(bad.status, 422);
    const badMs = await failsWith(t.octokit(alice.token).rest.issues.update({ owner: r.owner, repo: r.repo, issue_number: theirs.number, milestone: 77 }), 422);
    assert.equal(badMs.errors?.[0]?.field, 'milestone');
    const empty = await failsWith(t.octokit(alice.token).rest.issues.update({ owner: r.owner, repo: r.repo, issue_number: theirs.number, title: '' }), 422);
    assert.equal(empty.errors?.[0]?.code, 'missing_field');
  });

  test('lock and unlock: 204; active_lock_reason with the sailor-v preview; a locked issue takes comments only from collaborators', async () => {
    const r = await createRepo(t, alice);
    const made = await createIssue(t, bob.token, r, { title: 'Heated' });
    const kit = t.octokit(alice.token);
    const bad = await failsWith(kit.rest.issues.lock({ owner: r.owner, repo: r.repo, issue_number: made.number, lock_reason: 'boring' as never }), 422);
    assert.equal(bad.errors?.[0]?.field, 'lock_reason');
    await failsWith(t.octokit(bob.token).rest.issues.lock({ owner: r.owner, repo: r.repo, issue_number: made.number }), 403);
    const locked = await kit.rest.issues.lock({ owner: r.owner, repo: r.repo, issue_number: made.number, lock_reason: 'too heated' });
    assert.equal(locked.status, 204);
    const plain = await kit.rest.issues.get({ owner: r.owner, repo: r.repo, issue_number: made.number });
    assert.equal(plain.data.locked, true);
    assert.equal('active_lock_reason' in plain.data, false);
    for (const accept of ['application/vnd.service.sailor-v-preview+json', 'application/vnd.github.sailor-v-preview+json']) {
      const res = await t.request(`/repos/${r.owner}/${r.repo}/issues/${made.number}`, { token: alice.token, headers: { accept } });
      assert.equal(((await res.json()) as { active_lock_reason: string }).active_lock_reason, 'too heated');
    }
    const refused = await failsWith(t.octokit(bob.token).rest.issues.createComment({ owner: r.owner, repo: r.repo, issue_number: made.number, body: 'but' }), 403);
    assert.match(refused.message, /locked/);
    const ok = await kit.rest.issues.createComment({ owner: r.owner, repo: r.repo, issue_number: made.number, body: 'Calm down' });
    assert.equal(ok.status, 201);
    const unlocked = await kit.rest.issues.unlock({ owner: r.owner, repo: r.repo, issue_number: made.number });
    assert.equal(unlocked.status, 204);
    const after = await t.request(`/repos/${r.owner}/${r.repo}/issues/${made.number}`, { token: alice.token, headers: { accept: 'application/vnd.service.sailor-v-preview+json' } });
    const body = (await after.json()) as { locked: boolean; active_lock_reason: string | null };
    assert.equal(body.locked, false);
    assert.equal(body.active_lock_reason, null);
    assert.equal((await t.octokit(bob.token).rest.issues.createComment({ owner: r.owner, repo: r.repo, issue_number: made.number, body: 'thanks' })).status, 201);
    const events = await kit.rest.issues.listEvents({ owner: r.owner, repo: r.repo, issue_number: made.number });
    const lockEvent = events.data.find((e) => e.event === 'locked') as unknown as { lock_reason: string };
    assert.equal(lockEvent.lock_reason, 'too heated');
    assert.ok(events.data.some((e) => e.event === 'unlocked'));
    const hooks = (await listEvents(t.server.ctx, { event: 'issues', repositoryId: r.id })).map((e) => e.action);
    assert.ok(hooks.includes('locked') && hooks.includes('unlocked'));
  });

  test('body media types: raw, text, html and full (vnd.service and vnd.github), #N and @mentions linked', async () => {
    const r = await createRepo(t, alice);
    await createIssue(t, alice.token, r, { title: 'first' });
    const made = await createIssue(t, alice.token, r, { title: 'Render me', body: `**Bold** see #1 cc @${bob.login}\n\n- [x] done` });
    const get = async (accept: string) => {
      const res = await t.request(`/repos/${r.owner}/${r.repo}/issues/${made.number}`, { token: alice.token, headers: { accept } });
      assert.equal(res.status, 200);
      return (await res.json()) as Record<string, unknown>;
    };
    const raw = await get('application/vnd.service.raw+json');
    assert.equal(raw.body, made.body);
    assert.equal('body_html' in raw || 'body_text' in raw, false);
    const text = await get('application/vnd.service.text+json');
    assert.equal('body' in text, false);
    assert.match(String(text.body_text), /Bold see #1 cc @/);
    const html = await get('application/vnd.github.v3.html+json');
    assert.equal('body' in html, false);
    assert.match(String(html.body_html), /<strong>Bold<\/strong>/);
    assert.match(String(html.body_html), new RegExp(`href="${t.baseUrl}/${r.owner}/${r.repo}/issues/1"`));
    assert.match(String(html.body_html), new RegExp(`class="user-mention" href="${t.baseUrl}/${bob.login}"`));
    const full = await get('application/vnd.service.full+json');
    assert.equal(full.body, made.body);
    assert.ok(full.body_html && full.body_text);
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/issues/{issue_number}', 200, full);
    const list = await t.request(`/repos/${r.owner}/${r.repo}/issues`, { token: alice.token, headers: { accept: 'application/vnd.service.html+json' } });
    const items = (await list.json()) as { number: number; body_html: string }[];
    assert.match(items.find((i) => i.number === made.number)!.body_html, /<strong>/);
  });

  test('16 concurrent creates get numbers exactly 1..16', async () => {
    const r = await createRepo(t, alice);
    const kit = t.octokit(alice.token);
    const made = await Promise.all(Array.from({ length: 16 }, (_, i) => kit.rest.issues.create({ owner: r.owner, repo: r.repo, title: `n${i}` })));
    assert.deepEqual(made.map((m) => m.data.number).sort((a, b) => a - b), Array.from({ length: 16 }, (_, i) => i + 1));
    const ms = await Promise.all(Array.from({ length: 8 }, (_, i) => kit.rest.issues.createMilestone({ owner: r.owner, repo: r.repo, title: `m${i}` })));
    assert.deepEqual(ms.map((m) => m.data.number).sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7, 8]);
  });

  test('open_issues_count of the repository counts open issues', async () => {
    const r = await createRepo(t, alice);
    const a = await createIssue(t, alice.token, r);
    await createIssue(t, alice.token, r);
    await t.octokit(alice.token).rest.issues.update({ owner: r.owner, repo: r.repo, issue_number: a.number, state: 'closed' });
    const { data } = await t.octokit(alice.token).rest.repos.get({ owner: r.owner, repo: r.repo });
    assert.equal(data.open_issues_count, 1);
    assert.equal(data.open_issues, 1);
    const listed = await t.octokit(alice.token).rest.repos.listForAuthenticatedUser({ per_page: 100 });
    assert.equal(listed.data.find((x) => x.id === r.id)?.open_issues_count, 1);
  });

  test('open_issues_count is kept, not counted: concurrent closes and reopens of one issue move it once', async () => {
    const r = await createRepo(t, alice);
    const kit = t.octokit(alice.token);
    const issues = await Promise.all(Array.from({ length: 4 }, () => createIssue(t, alice.token, r)));
    const count = async () => (await kit.rest.repos.get({ owner: r.owner, repo: r.repo })).data.open_issues_count;
    assert.equal(await count(), 4);
    const target = issues[0]!.number;
    await Promise.all(Array.from({ length: 8 }, () => kit.rest.issues.update({ owner: r.owner, repo: r.repo, issue_number: target, state: 'closed' })));
    assert.equal(await count(), 3);
    await Promise.all(Array.from({ length: 8 }, () => kit.rest.issues.update({ owner: r.owner, repo: r.repo, issue_number: target, state: 'open' })));
    assert.equal(await count(), 4);
    // A title-only change leaves it; closing every issue empties it.
    await kit.rest.issues.update({ owner: r.owner, repo: r.repo, issue_number: target, title: 'renamed' });
    for (const i of issues) await kit.rest.issues.update({ owner: r.owner, repo: r.repo, issue_number: i.number, state: 'closed' });
    assert.equal(await count(), 0);
    const stored = await t.server.ctx.db.selectFrom('issues').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('repository_id', '=', r.id).where('state', '=', 'open').executeTakeFirstOrThrow();
    assert.equal(Number(stored.n), 0);
  });

  test('author_association: OWNER, COLLABORATOR, MEMBER, NONE', async () => {
    const r = await createRepo(t, alice);
    const carol = await createUser(t);
    await addCollaborator(t, alice.token, r, carol);
    const c = await createIssue(t, carol.token, r);
    assert.equal(c.author_association, 'COLLABORATOR');
    const b = await createIssue(t, bob.token, r);
    assert.equal(b.author_association, 'NONE');
    const org = await createOrgWithOwner(t);
    const member = await addMember(t, org);
    const orgRepo = await createRepo(t, org.owner, { org: org.login });
    const m = await createIssue(t, member.token, orgRepo);
    assert.equal(m.author_association, 'MEMBER');
    const listed = await t.octokit(alice.token).rest.issues.listForRepo({ owner: r.owner, repo: r.repo });
    assert.deepEqual(listed.data.map((i) => i.author_association), ['NONE', 'COLLABORATOR']);
  });

  test('interaction limits: a restricted user may not open an issue (403, clear message); prior issues make a contributor', async () => {
    const r = await createRepo(t, alice);
    const dave = await createUser(t);
    await createIssue(t, dave.token, r, { title: 'before the limit' });
    await t.octokit(alice.token).rest.interactions.setRestrictionsForRepo({ owner: r.owner, repo: r.repo, limit: 'contributors_only' });
    const refused = await failsWith(t.octokit(bob.token).rest.issues.create({ owner: r.owner, repo: r.repo, title: 'nope' }), 403);
    assert.match(refused.message, /limited the ability to open issues to users that have contributed/);
    const c = await failsWith(t.octokit(bob.token).rest.issues.createComment({ owner: r.owner, repo: r.repo, issue_number: 1, body: 'nope' }), 403);
    assert.match(c.message, /limited the ability to comment/);
    assert.equal((await t.octokit(dave.token).rest.issues.create({ owner: r.owner, repo: r.repo, title: 'contributor' })).status, 201);
    assert.equal((await t.octokit(alice.token).rest.issues.create({ owner: r.owner, repo: r.repo, title: 'owner' })).status, 201);
    await t.octokit(alice.token).rest.interactions.setRestrictionsForRepo({ owner: r.owner, repo: r.repo, limit: 'collaborators_only' });
    const col = await failsWith(t.octokit(dave.token).rest.issues.create({ owner: r.owner, repo: r.repo, title: 'nope' }), 403);
    assert.match(col.message, /to collaborators/);
  });
});
