// Issue comments (per issue and per repository, create, get, edit, delete, the exact
// counter, media types) and issue events (per issue, per repository, one; referenced
// by pushed commits).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addCollaborator, createIssue, createRepo } from './factories/issues.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failsWith } from './helpers/failures.ts';
import { cloneUrl, gitOk, tempDir } from './helpers/git.ts';
import { listEvents } from '../src/events/outbox.ts';

describe('issue comments and events', () => {
  let t: TestServer;
  let clock: TestClock;
  let alice: CreatedUser;
  let bob: CreatedUser;

  before(async () => {
    clock = new TestClock();
    t = await startTestServer({ clock });
    alice = await createUser(t);
    bob = await createUser(t);
  });
  after(() => t.close());

  test('create, list, get, edit, delete; the issue counter stays exact; webhook events', async () => {
    const r = await createRepo(t, alice);
    const issue = await createIssue(t, alice.token, r);
    const kit = t.octokit(alice.token);
    const made = await t.octokit(bob.token).rest.issues.createComment({ owner: r.owner, repo: r.repo, issue_number: issue.number, body: `Hello @${alice.login}` });
    assert.equal(made.status, 201);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/issues/{issue_number}/comments', 201, made.data);
    const c = made.data;
    assert.equal(made.headers.location, c.url);
    assert.equal(c.url, `${t.baseUrl}/repos/${r.owner}/${r.repo}/issues/comments/${c.id}`);
    assert.equal(c.html_url, `${t.baseUrl}/${r.owner}/${r.repo}/issues/${issue.number}#issuecomment-${c.id}`);
    assert.equal(c.issue_url, issue.url);
    assert.equal(c.user?.login, bob.login);
    assert.equal(c.author_association, 'NONE');
    assert.equal(c.reactions?.total_count, 0);
    assert.equal(c.reactions?.url, `${c.url}/reactions`);
    clock.advance(1000);
    const second = await kit.rest.issues.createComment({ owner: r.owner, repo: r.repo, issue_number: issue.number, body: 'Second' });
    assert.equal(second.data.author_association, 'OWNER');
    assert.equal((await kit.rest.issues.get({ owner: r.owner, repo: r.repo, issue_number: issue.number })).data.comments, 2);

    const listed = await kit.rest.issues.listComments({ owner: r.owner, repo: r.repo, issue_number: issue.number });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/issues/{issue_number}/comments', 200, listed.data);
    assert.deepEqual(listed.data.map((x) => x.id), [c.id, second.data.id]);
    const since = await kit.rest.issues.listComments({ owner: r.owner, repo: r.repo, issue_number: issue.number, since: second.data.created_at });
    assert.deepEqual(since.data.map((x) => x.id), [second.data.id]);
    const got = await kit.rest.issues.getComment({ owner: r.owner, repo: r.repo, comment_id: c.id });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/issues/comments/{comment_id}', 200, got.data);

    await failsWith(kit.rest.issues.updateComment({ owner: r.owner, repo: r.repo, comment_id: c.id, body: '' }), 422);
    const carol = await createUser(t);
    await failsWith(t.octokit(carol.token).rest.issues.updateComment({ owner: r.owner, repo: r.repo, comment_id: c.id, body: 'hijack' }), 403);
    await failsWith(t.octokit(carol.token).rest.issues.deleteComment({ owner: r.owner, repo: r.repo, comment_id: c.id }), 403);
    clock.advance(1000);
    const edited = await t.octokit(bob.token).rest.issues.updateComment({ owner: r.owner, repo: r.repo, comment_id: c.id, body: 'Edited' });
    assertMatchesOpenApi('PATCH', '/repos/{owner}/{repo}/issues/comments/{comment_id}', 200, edited.data);
    assert.equal(edited.data.body, 'Edited');
    assert.notEqual(edited.data.updated_at, c.updated_at);
    const byOwner = await kit.rest.issues.deleteComment({ owner: r.owner, repo: r.repo, comment_id: c.id });
    assert.equal(byOwner.status, 204, 'users with push access delete others\' comments');
    await failsWith(kit.rest.issues.getComment({ owner: r.owner, repo: r.repo, comment_id: c.id }), 404);
    await failsWith(kit.rest.issues.deleteComment({ owner: r.owner, repo: r.repo, comment_id: c.id }), 404);
    assert.equal((await kit.rest.issues.get({ owner: r.owner, repo: r.repo, issue_number: issue.number })).data.comments, 1);

    const hooks = await listEvents(t.server.ctx, { event: 'issue_comment', repositoryId: r.id });
    assert.deepEqual(hooks.map((e) => e.action), ['created', 'created', 'edited', 'deleted']);
    const payload = hooks[2]!.payload as { issue: { number: number }; comment: { body: string }; changes: unknown };
    assert.equal(payload.issue.number, issue.number);
    assert.equal(payload.comment.body, 'Edited');
    assert.deepEqual(payload.changes, { body: { from: `Hello @${alice.login}` } });

    // A mention in a comment counts for the mentioned filter.
    const mentioned = await kit.rest.issues.listForRepo({ owner: r.owner, repo: r.repo, mentioned: alice.login });
    assert.deepEqual(mentioned.data.map((i) => i.number), [issue.number]);
  });

  test('errors: 422 without a body, 404 for a missing issue, 401 anonymous', async () => {
    const r = await createRepo(t, alice);
    const issue = await createIssue(t, alice.token, r);
    const kit = t.octokit(alice.token);
    const missing = await failsWith(kit.rest.issues.createComment({ owner: r.owner, repo: r.repo, issue_number: issue.number, body: '' }), 422);
    assert.deepEqual(missing.errors?.map((e) => [e.resource, e.field, e.code]), [['IssueComment', 'body', 'missing_field']]);
    await failsWith(kit.rest.issues.createComment({ owner: r.owner, repo: r.repo, issue_number: 99, body: 'x' }), 404);
    await failsWith(t.octokit().rest.issues.createComment({ owner: r.owner, repo: r.repo, issue_number: issue.number, body: 'x' }), 401);
    assert.equal((await kit.rest.issues.get({ owner: r.owner, repo: r.repo, issue_number: issue.number })).data.comments, 0);
  });

  test('repository-wide comments: sort, direction, since; media types', async () => {
    const r = await createRepo(t, alice);
    const kit = t.octokit(alice.token);
    const one = await createIssue(t, alice.token, r);
    const two = await createIssue(t, alice.token, r);
    const a = await kit.rest.issues.createComment({ owner: r.owner, repo: r.repo, issue_number: one.number, body: '**a**' });
    clock.advance(1000);
    const b = await kit.rest.issues.createComment({ owner: r.owner, repo: r.repo, issue_number: two.number, body: 'b' });
    clock.advance(1000);
    await kit.rest.issues.updateComment({ owner: r.owner, repo: r.repo, comment_id: a.data.id, body: '**a2**' });
    const all = await kit.rest.issues.listCommentsForRepo({ owner: r.owner, repo: r.repo });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/issues/comments', 200, all.data);
    assert.deepEqual(all.data.map((x) => x.id), [a.data.id, b.data.id]);
    const updated = await kit.rest.issues.listCommentsForRepo({ owner: r.owner, repo: r.repo, sort: 'updated', direction: 'desc' });
    assert.deepEqual(updated.data.map((x) => x.id), [a.data.id, b.data.id]);
    const created = await kit.rest.issues.listCommentsForRepo({ owner: r.owner, repo: r.repo, sort: 'created', direction: 'desc' });
    assert.deepEqual(created.data.map((x) => x.id), [b.data.id, a.data.id]);
    const res = await t.request(`/repos/${r.owner}/${r.repo}/issues/comments/${a.data.id}`, { token: alice.token, headers: { accept: 'application/vnd.service.full+json' } });
    const full = (await res.json()) as { body: string; body_html: string; body_text: string };
    assert.equal(full.body, '**a2**');
    assert.match(full.body_html, /<strong>a2<\/strong>/);
    assert.equal(full.body_text, 'a2');
  });

  test('issue events: per issue, per repository with the issue, one by id; 404s', async () => {
    const r = await createRepo(t, alice);
    const kit = t.octokit(alice.token);
    await addCollaborator(t, alice.token, r, bob);
    const issue = await createIssue(t, alice.token, r, { labels: ['bug'] });
    await kit.rest.issues.addAssignees({ owner: r.owner, repo: r.repo, issue_number: issue.number, assignees: [bob.login] });
    await kit.rest.issues.update({ owner: r.owner, repo: r.repo, issue_number: issue.number, state: 'closed' });
    const mine = await kit.rest.issues.listEvents({ owner: r.owner, repo: r.repo, issue_number: issue.number });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/issues/{issue_number}/events', 200, mine.data);
    assert.deepEqual(mine.data.map((e) => e.event), ['labeled', 'assigned', 'closed']);
    const assigned = mine.data[1] as unknown as { assignee: { login: string }; assigner: { login: string } };
    assert.equal(assigned.assignee.login, bob.login);
    assert.equal(assigned.assigner.login, alice.login);
    const labeled = mine.data[0] as unknown as { label: { name: string; color: string } };
    assert.deepEqual(labeled.label, { name: 'bug', color: 'd73a4a' });
    const repoWide = await kit.rest.issues.listEventsForRepo({ owner: r.owner, repo: r.repo });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/issues/events', 200, repoWide.data);
    assert.deepEqual(repoWide.data.map((e) => e.event), ['closed', 'assigned', 'labeled']);
    assert.equal(repoWide.data[0]!.issue?.number, issue.number);
    const one = await kit.rest.issues.getEvent({ owner: r.owner, repo: r.repo, event_id: mine.data[2]!.id });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/issues/events/{event_id}', 200, one.data);
    assert.equal(one.data.event, 'closed');
    assert.equal(one.data.url, `${t.baseUrl}/repos/${r.owner}/${r.repo}/issues/events/${one.data.id}`);
    // author_association: the actor's with the repository (the owner, a collaborator); no review fields on other events.
    await t.octokit(bob.token).rest.issues.update({ owner: r.owner, repo: r.repo, issue_number: issue.number, state: 'open' });
    type EventFields = { event: string; actor: { login: string } | null; author_association: string; review_requester: unknown; requested_reviewer: unknown };
    const after = (await kit.rest.issues.listEvents({ owner: r.owner, repo: r.repo, issue_number: issue.number })).data as unknown as EventFields[];
    assert.deepEqual(after.map((e) => [e.event, e.actor?.login, e.author_association]), [
      ['labeled', alice.login, 'OWNER'], ['assigned', alice.login, 'OWNER'], ['closed', alice.login, 'OWNER'], ['reopened', bob.login, 'COLLABORATOR'],
    ]);
    assert.ok(after.every((e) => e.review_requester === null && e.requested_reviewer === null && !('requested_team' in e) && !('dismissed_review' in e)));
    await failsWith(kit.rest.issues.getEvent({ owner: r.owner, repo: r.repo, event_id: 999999 }), 404);
    const elsewhere = await createRepo(t, alice);
    await failsWith(kit.rest.issues.getEvent({ owner: elsewhere.owner, repo: elsewhere.repo, event_id: one.data.id }), 404);
  });

  test('referenced: a pushed commit whose message names #N adds a referenced event with the commit', async () => {
    const r = await createRepo(t, alice);
    const issue = await createIssue(t, alice.token, r);
    const dir = tempDir();
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, r.owner, r.repo, alice.login, alice.token), dir]);
    fs.writeFileSync(path.join(dir, 'fix.txt'), 'fix\n');
    await gitOk(['add', 'fix.txt'], { cwd: dir });
    await gitOk(['commit', '-q', '-m', `Fix the crash (#${issue.number}), not #999`], { cwd: dir });
    const sha = (await gitOk(['rev-parse', 'HEAD'], { cwd: dir })).trim();
    await gitOk(['push', '-q', 'origin', 'HEAD:main'], { cwd: dir });
    const events = await t.octokit(alice.token).rest.issues.listEvents({ owner: r.owner, repo: r.repo, issue_number: issue.number });
    assert.deepEqual(events.data.map((e) => [e.event, e.commit_id]), [['referenced', sha]]);
    assert.equal(events.data[0]!.commit_url, `${t.baseUrl}/repos/${r.owner}/${r.repo}/commits/${sha}`);
    assert.equal(events.data[0]!.actor?.login, alice.login, 'the pusher when no account owns the author address');
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/issues/{issue_number}/events', 200, events.data);
  });
});
