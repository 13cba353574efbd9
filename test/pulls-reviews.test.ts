// Requested reviewers, reviews and review comments of pull requests, through Octokit,
// with the events they record.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failsWith } from './helpers/failures.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addMember, createOrgWithOwner, createTeam } from './factories/orgs.ts';
import { checkout, cloneAs, commitFiles, push, repoWithFeature, uniqueName } from './factories/pulls.ts';
import { listEvents } from '../src/events/outbox.ts';

type Json = Record<string, any>;

let t: TestServer;
let alice: CreatedUser;
let bob: CreatedUser;
let carol: CreatedUser;
let stranger: CreatedUser;

before(async () => {
  t = await startTestServer();
  [alice, bob, carol, stranger] = await Promise.all([createUser(t), createUser(t), createUser(t), createUser(t)]);
});
after(async () => { await t.close(); });

/** A repository of alice with bob and carol as collaborators (write), and an open pull request #1 by alice. */
async function setup(): Promise<{ repo: string; id: number; headSha: string }> {
  const r = await repoWithFeature(t, alice);
  const kit = t.octokit(alice.token);
  for (const u of [bob, carol]) {
    const inv = await kit.rest.repos.addCollaborator({ owner: alice.login, repo: r.clone.repo, username: u.login, permission: 'push' });
    if (inv.status === 201) await t.octokit(u.token).rest.repos.acceptInvitationForAuthenticatedUser({ invitation_id: inv.data.id });
  }
  await kit.rest.pulls.create({ owner: alice.login, repo: r.clone.repo, title: 'Please review', head: 'feature', base: 'main' });
  return { repo: r.clone.repo, id: r.id, headSha: r.featureSha };
}

describe('requested reviewers', () => {
  test('request, list, remove: 201 with the pull request, events naming the reviewer', async () => {
    const s = await setup();
    const kit = t.octokit(alice.token);
    const res = await kit.rest.pulls.requestReviewers({ owner: alice.login, repo: s.repo, pull_number: 1, reviewers: [bob.login, carol.login] });
    assert.equal(res.status, 201);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', 201, res.data);
    assert.deepEqual(res.data.requested_reviewers?.map((u) => u.login), [bob.login, carol.login]);
    const listed = await kit.rest.pulls.listRequestedReviewers({ owner: alice.login, repo: s.repo, pull_number: 1 });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', 200, listed.data);
    assert.deepEqual(listed.data.users.map((u) => u.login), [bob.login, carol.login]);
    assert.deepEqual(listed.data.teams, []);
    // Asking again adds nothing (and records nothing).
    await kit.rest.pulls.requestReviewers({ owner: alice.login, repo: s.repo, pull_number: 1, reviewers: [bob.login] });

    const removed = await kit.rest.pulls.removeRequestedReviewers({ owner: alice.login, repo: s.repo, pull_number: 1, reviewers: [carol.login] });
    assertMatchesOpenApi('DELETE', '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', 200, removed.data);
    assert.deepEqual(removed.data.requested_reviewers?.map((u) => u.login), [bob.login]);
    const got = await kit.rest.pulls.get({ owner: alice.login, repo: s.repo, pull_number: 1 });
    assert.deepEqual(got.data.requested_reviewers?.map((u) => u.login), [bob.login]);

    const events = await listEvents(t.server.ctx, { event: 'pull_request', repositoryId: s.id });
    const relevant = events.filter((e) => e.action !== 'opened');
    assert.deepEqual(relevant.map((e) => [e.action, (e.payload as Json).requested_reviewer?.login]), [
      ['review_requested', bob.login], ['review_requested', carol.login], ['review_request_removed', carol.login],
    ]);
    assert.deepEqual((relevant[0]!.payload as Json).pull_request.requested_reviewers.map((u: Json) => u.login), [bob.login, carol.login]);

    // The issue events API has them too: who asked, who was asked; no team, no dismissed review.
    const { data: timeline } = await kit.rest.issues.listEvents({ owner: alice.login, repo: s.repo, issue_number: 1 });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/issues/{issue_number}/events', 200, timeline);
    const reviewEvents = timeline.filter((e) => e.event.startsWith('review_')) as Json[];
    assert.deepEqual(reviewEvents.map((e) => [e.event, e.actor.login, e.review_requester.login, e.requested_reviewer.login, 'requested_team' in e, 'dismissed_review' in e]), [
      ['review_requested', alice.login, alice.login, bob.login, false, false],
      ['review_requested', alice.login, alice.login, carol.login, false, false],
      ['review_request_removed', alice.login, alice.login, carol.login, false, false],
    ]);
    assert.ok(reviewEvents.every((e) => e.author_association === 'OWNER'));
    const { data: one } = await kit.rest.issues.getEvent({ owner: alice.login, repo: s.repo, event_id: reviewEvents[0]!.id });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/issues/events/{event_id}', 200, one);
    assert.equal((one as Json).requested_reviewer.login, bob.login);
  });

  test('422 for non-collaborators, unknown users and the author; 403 without triage access', async () => {
    const s = await setup();
    const kit = t.octokit(alice.token);
    let body = await failsWith(kit.rest.pulls.requestReviewers({ owner: alice.login, repo: s.repo, pull_number: 1, reviewers: [stranger.login] }), 422);
    assert.equal(body.message, `Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the ${alice.login}/${s.repo} repository.`);
    await failsWith(kit.rest.pulls.requestReviewers({ owner: alice.login, repo: s.repo, pull_number: 1, reviewers: ['no-such-user-x'] }), 422);
    body = await failsWith(t.octokit(bob.token).rest.pulls.requestReviewers({ owner: alice.login, repo: s.repo, pull_number: 1, reviewers: [alice.login] }), 422);
    assert.equal(body.message, 'Review cannot be requested from pull request author.');
    await failsWith(t.octokit(stranger.token).rest.pulls.requestReviewers({ owner: alice.login, repo: s.repo, pull_number: 1, reviewers: [bob.login] }), 403);
    const listed = await kit.rest.pulls.listRequestedReviewers({ owner: alice.login, repo: s.repo, pull_number: 1 });
    assert.deepEqual(listed.data.users, []);
  });

  test('teams with access to an organization repository; teams without it are refused', async () => {
    const org = await createOrgWithOwner(t);
    const member = await addMember(t, org);
    const team = await createTeam(t, org.owner.token, org.login, { name: uniqueName('reviewers') });
    const other = await createTeam(t, org.owner.token, org.login, { name: uniqueName('others') });
    const kit = t.octokit(org.owner.token);
    const name = uniqueName();
    // Creating the repository with team_id grants that team access to it.
    await kit.rest.repos.createInOrg({ org: org.login, name, auto_init: true, team_id: team.id });
    const clone = await cloneAs(t, org.login, name, org.owner);
    await checkout(clone, 'topic', true);
    await commitFiles(clone, { 'topic.txt': 'topic\n' }, 'Topic');
    await push(clone, 'topic');
    await kit.rest.pulls.create({ owner: org.login, repo: name, title: 'Team review', head: 'topic', base: 'main' });
    const res = await kit.rest.pulls.requestReviewers({ owner: org.login, repo: name, pull_number: 1, reviewers: [member.login], team_reviewers: [team.slug] });
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', 201, res.data);
    assert.deepEqual(res.data.requested_teams?.map((x) => x.slug), [team.slug]);
    const listed = await kit.rest.pulls.listRequestedReviewers({ owner: org.login, repo: name, pull_number: 1 });
    assert.deepEqual(listed.data.teams.map((x) => x.slug), [team.slug]);
    await failsWith(kit.rest.pulls.requestReviewers({ owner: org.login, repo: name, pull_number: 1, team_reviewers: [other.slug] }), 422);
    const events = await listEvents(t.server.ctx, { event: 'pull_request' });
    const teamEvent = events.find((e) => e.action === 'review_requested' && (e.payload as Json).requested_team);
    assert.equal((teamEvent!.payload as Json).requested_team.slug, team.slug);
    const removed = await kit.rest.pulls.removeRequestedReviewers({ owner: org.login, repo: name, pull_number: 1, reviewers: [], team_reviewers: [team.slug] });
    assert.deepEqual(removed.data.requested_teams, []);
    // The issue events name the team (the team record, as upstream's requested_team) and who asked.
    const { data: timeline } = await kit.rest.issues.listEventsForRepo({ owner: org.login, repo: name });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/issues/events', 200, timeline);
    const teamEvents = (timeline as Json[]).filter((e) => e.requested_team);
    assert.deepEqual(teamEvents.map((e) => [e.event, e.requested_team.slug, e.requested_team.id, e.requested_reviewer]).sort(),
      [['review_request_removed', team.slug, team.id, null], ['review_requested', team.slug, team.id, null]]);
    assert.ok(teamEvents.every((e) => e.review_requester.login === org.owner.login));
    const memberEvent = (timeline as Json[]).find((e) => e.requested_reviewer?.login === member.login)!;
    assert.equal(memberEvent.event, 'review_requested');
  });
});

describe('reviews', () => {
  test('submitted reviews: approve and request changes, state recorded, the reviewer\'s request answered, events', async () => {
    const s = await setup();
    await t.octokit(alice.token).rest.pulls.requestReviewers({ owner: alice.login, repo: s.repo, pull_number: 1, reviewers: [bob.login, carol.login] });
    const approved = await t.octokit(bob.token).rest.pulls.createReview({ owner: alice.login, repo: s.repo, pull_number: 1, event: 'APPROVE', body: 'LGTM' });
    assert.equal(approved.status, 200);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews', 200, approved.data);
    assert.equal(approved.data.state, 'APPROVED');
    assert.equal(approved.data.body, 'LGTM');
    assert.equal(approved.data.user?.login, bob.login);
    assert.equal(approved.data.commit_id, s.headSha);
    assert.equal(approved.data.author_association, 'COLLABORATOR');
    assert.ok(approved.data.submitted_at);
    assert.equal(approved.data.pull_request_url, `${t.baseUrl}/repos/${alice.login}/${s.repo}/pulls/1`);
    assert.match(approved.data.html_url, /#pullrequestreview-\d+$/);
    const changes = await t.octokit(carol.token).rest.pulls.createReview({ owner: alice.login, repo: s.repo, pull_number: 1, event: 'REQUEST_CHANGES', body: 'Not yet' });
    assert.equal(changes.data.state, 'CHANGES_REQUESTED');

    const requested = await t.octokit(alice.token).rest.pulls.listRequestedReviewers({ owner: alice.login, repo: s.repo, pull_number: 1 });
    assert.deepEqual(requested.data.users, [], 'a review answers the request');

    const list = await t.octokit(alice.token).rest.pulls.listReviews({ owner: alice.login, repo: s.repo, pull_number: 1 });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews', 200, list.data);
    assert.deepEqual(list.data.map((r) => [r.user?.login, r.state]), [[bob.login, 'APPROVED'], [carol.login, 'CHANGES_REQUESTED']]);
    const one = await t.octokit(alice.token).rest.pulls.getReview({ owner: alice.login, repo: s.repo, pull_number: 1, review_id: approved.data.id });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}', 200, one.data);
    assert.equal(one.data.id, approved.data.id);

    const updated = await t.octokit(bob.token).rest.pulls.updateReview({ owner: alice.login, repo: s.repo, pull_number: 1, review_id: approved.data.id, body: 'LGTM!' });
    assertMatchesOpenApi('PUT', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}', 200, updated.data);
    assert.equal(updated.data.body, 'LGTM!');
    await failsWith(t.octokit(carol.token).rest.pulls.updateReview({ owner: alice.login, repo: s.repo, pull_number: 1, review_id: approved.data.id, body: 'hijack' }), 403);

    const dismissed = await t.octokit(alice.token).rest.pulls.dismissReview({ owner: alice.login, repo: s.repo, pull_number: 1, review_id: changes.data.id, message: 'Outdated' });
    assertMatchesOpenApi('PUT', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/dismissals', 200, dismissed.data);
    assert.equal(dismissed.data.state, 'DISMISSED');
    // The issue timeline's review_dismissed: the review as it was, the message; by hand, no commit.
    const { data: timeline } = await t.octokit(alice.token).rest.issues.listEvents({ owner: alice.login, repo: s.repo, issue_number: 1 });
    const dismissal = (timeline as Json[]).find((e) => e.event === 'review_dismissed')!;
    assert.deepEqual(dismissal.dismissed_review, { state: 'changes_requested', review_id: changes.data.id, dismissal_message: 'Outdated', dismissal_commit_id: null });
    assert.equal(dismissal.actor.login, alice.login);
    assert.equal(dismissal.author_association, 'OWNER');
    assert.deepEqual([dismissal.requested_reviewer, dismissal.review_requester, 'requested_team' in dismissal], [null, null, false]);

    const events = await listEvents(t.server.ctx, { event: 'pull_request_review', repositoryId: s.id });
    assert.deepEqual(events.map((e) => [e.action, (e.payload as Json).review.state]), [
      ['submitted', 'APPROVED'], ['submitted', 'CHANGES_REQUESTED'], ['edited', 'APPROVED'], ['dismissed', 'DISMISSED'],
    ]);
    assert.equal((events[0]!.payload as Json).pull_request.number, 1);
  });

  test('the author cannot approve or request changes; bodies are required where upstream requires them', async () => {
    const s = await setup();
    const kit = t.octokit(alice.token);
    let body = await failsWith(kit.rest.pulls.createReview({ owner: alice.login, repo: s.repo, pull_number: 1, event: 'APPROVE' }), 422);
    assert.equal(body.message, 'Can not approve your own pull request');
    body = await failsWith(kit.rest.pulls.createReview({ owner: alice.login, repo: s.repo, pull_number: 1, event: 'REQUEST_CHANGES', body: 'hm' }), 422);
    assert.equal(body.message, 'Can not request changes on your own pull request');
    await failsWith(t.octokit(bob.token).rest.pulls.createReview({ owner: alice.login, repo: s.repo, pull_number: 1, event: 'REQUEST_CHANGES' }), 422);
    const own = await kit.rest.pulls.createReview({ owner: alice.login, repo: s.repo, pull_number: 1, event: 'COMMENT', body: 'A note to self' });
    assert.equal(own.data.state, 'COMMENTED');
    await failsWith(t.octokit(bob.token).rest.pulls.createReview({ owner: alice.login, repo: s.repo, pull_number: 1, event: 'APPROVE', commit_id: '0'.repeat(40) }), 422);
    const list = await kit.rest.pulls.listReviews({ owner: alice.login, repo: s.repo, pull_number: 1 });
    assert.equal(list.data.length, 1, 'refusals wrote nothing');
  });

  test('pending reviews: seen by their author only, one per user, comments inside, submitted later, deletable', async () => {
    const s = await setup();
    const pending = await t.octokit(bob.token).rest.pulls.createReview({
      owner: alice.login, repo: s.repo, pull_number: 1, body: 'Drafting',
      comments: [{ path: 'app.txt', line: 2, body: 'Why shout?' }],
    });
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews', 200, pending.data);
    assert.equal(pending.data.state, 'PENDING');
    assert.equal((pending.data as Json).submitted_at, undefined);
    const mine = await t.octokit(bob.token).rest.pulls.listReviews({ owner: alice.login, repo: s.repo, pull_number: 1 });
    assert.equal(mine.data.length, 1);
    const theirs = await t.octokit(alice.token).rest.pulls.listReviews({ owner: alice.login, repo: s.repo, pull_number: 1 });
    assert.equal(theirs.data.length, 0);
    await failsWith(t.octokit(alice.token).rest.pulls.getReview({ owner: alice.login, repo: s.repo, pull_number: 1, review_id: pending.data.id }), 404);
    const hidden = await t.octokit(alice.token).rest.pulls.listReviewComments({ owner: alice.login, repo: s.repo, pull_number: 1 });
    assert.equal(hidden.data.length, 0, 'pending comments are the reviewer\'s alone');
    const body = await failsWith(t.octokit(bob.token).rest.pulls.createReview({ owner: alice.login, repo: s.repo, pull_number: 1 }), 422);
    assert.equal(body.message, 'User can only have one pending review per pull request');

    const comments = await t.octokit(bob.token).rest.pulls.listCommentsForReview({ owner: alice.login, repo: s.repo, pull_number: 1, review_id: pending.data.id });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments', 200, comments.data);
    assert.equal(comments.data.length, 1);

    const submitted = await t.octokit(bob.token).rest.pulls.submitReview({ owner: alice.login, repo: s.repo, pull_number: 1, review_id: pending.data.id, event: 'COMMENT', body: 'Done' });
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/events', 200, submitted.data);
    assert.equal(submitted.data.state, 'COMMENTED');
    assert.equal(submitted.data.body, 'Done');
    const visible = await t.octokit(alice.token).rest.pulls.listReviewComments({ owner: alice.login, repo: s.repo, pull_number: 1 });
    assert.equal(visible.data.length, 1);
    const pr = await t.octokit(alice.token).rest.pulls.get({ owner: alice.login, repo: s.repo, pull_number: 1 });
    assert.equal(pr.data.review_comments, 1);
    await failsWith(t.octokit(bob.token).rest.pulls.submitReview({ owner: alice.login, repo: s.repo, pull_number: 1, review_id: pending.data.id, event: 'APPROVE' }), 422);
    const commentEvents = await listEvents(t.server.ctx, { event: 'pull_request_review_comment', repositoryId: s.id });
    assert.deepEqual(commentEvents.map((e) => e.action), ['created']);

    const another = await t.octokit(carol.token).rest.pulls.createReview({ owner: alice.login, repo: s.repo, pull_number: 1 });
    const deleted = await t.octokit(carol.token).rest.pulls.deletePendingReview({ owner: alice.login, repo: s.repo, pull_number: 1, review_id: another.data.id });
    assertMatchesOpenApi('DELETE', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}', 200, deleted.data);
    await failsWith(t.octokit(carol.token).rest.pulls.getReview({ owner: alice.login, repo: s.repo, pull_number: 1, review_id: another.data.id }), 404);
    await failsWith(t.octokit(bob.token).rest.pulls.deletePendingReview({ owner: alice.login, repo: s.repo, pull_number: 1, review_id: pending.data.id }), 422);
  });
});

describe('review comments', () => {
  test('on a line (line/side or position), replies, lists, get, edit, delete, reactions rollup', async () => {
    const s = await setup();
    const kit = t.octokit(bob.token);
    const created = await kit.rest.pulls.createReviewComment({
      owner: alice.login, repo: s.repo, pull_number: 1, body: 'Shouting?', commit_id: s.headSha, path: 'app.txt', line: 2, side: 'RIGHT',
    });
    assert.equal(created.status, 201);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/pulls/{pull_number}/comments', 201, created.data);
    const c = created.data;
    assert.equal(c.path, 'app.txt');
    assert.equal(c.line, 2);
    assert.equal(c.side, 'RIGHT');
    assert.equal(c.position, 3);
    assert.equal(c.commit_id, s.headSha);
    assert.equal(c.original_commit_id, s.headSha);
    assert.equal(c.diff_hunk, '@@ -1,3 +1,3 @@\n one\n-two\n+TWO');
    assert.equal(c.subject_type, 'line');
    assert.equal(c.user.login, bob.login);
    assert.equal(c.url, `${t.baseUrl}/repos/${alice.login}/${s.repo}/pulls/comments/${c.id}`);
    assert.match(c.html_url, new RegExp(`/pull/1#discussion_r${c.id}$`));
    assert.equal(c.reactions?.total_count, 0);
    assert.equal(c.reactions?.url, `${c.url}/reactions`);
    assert.ok(c.pull_request_review_id, 'a comment on its own is a review of its own');

    const byPosition = await kit.rest.pulls.createReviewComment({
      owner: alice.login, repo: s.repo, pull_number: 1, body: 'Old line', commit_id: s.headSha, path: 'app.txt', position: 2,
    });
    assert.equal(byPosition.data.side, 'LEFT');
    assert.equal(byPosition.data.line, 2);

    const reply = await t.octokit(alice.token).rest.pulls.createReplyForReviewComment({ owner: alice.login, repo: s.repo, pull_number: 1, comment_id: c.id, body: 'Yes!' });
    assert.equal(reply.status, 201);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies', 201, reply.data);
    assert.equal(reply.data.in_reply_to_id, c.id);
    assert.equal(reply.data.path, 'app.txt');
    assert.equal(reply.data.line, 2);
    const viaBody = await t.octokit(alice.token).rest.pulls.createReviewComment({ owner: alice.login, repo: s.repo, pull_number: 1, body: 'Again', in_reply_to: reply.data.id } as never);
    assert.equal((viaBody.data as Json).in_reply_to_id, c.id, 'threads are flat');

    const list = await kit.rest.pulls.listReviewComments({ owner: alice.login, repo: s.repo, pull_number: 1 });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/pulls/{pull_number}/comments', 200, list.data);
    assert.deepEqual(list.data.map((x) => x.body), ['Shouting?', 'Old line', 'Yes!', 'Again']);
    const desc = await kit.rest.pulls.listReviewComments({ owner: alice.login, repo: s.repo, pull_number: 1, sort: 'created', direction: 'desc', per_page: 2 });
    assert.deepEqual(desc.data.map((x) => x.body), ['Again', 'Yes!']);
    assert.match(desc.headers.link ?? '', /rel="next"/);
    const repoWide = await kit.rest.pulls.listReviewCommentsForRepo({ owner: alice.login, repo: s.repo });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/pulls/comments', 200, repoWide.data);
    assert.equal(repoWide.data.length, 4);

    const got = await kit.rest.pulls.getReviewComment({ owner: alice.login, repo: s.repo, comment_id: c.id });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/pulls/comments/{comment_id}', 200, got.data);
    const edited = await kit.rest.pulls.updateReviewComment({ owner: alice.login, repo: s.repo, comment_id: c.id, body: 'Shouting, really?' });
    assertMatchesOpenApi('PATCH', '/repos/{owner}/{repo}/pulls/comments/{comment_id}', 200, edited.data);
    assert.equal(edited.data.body, 'Shouting, really?');
    await failsWith(t.octokit(stranger.token).rest.pulls.updateReviewComment({ owner: alice.login, repo: s.repo, comment_id: c.id, body: 'mine now' }), 403);

    // The reactions rollup counts reactions on review comments.
    await t.server.ctx.db.insertInto('reactions').values({
      subject_type: 'pull_request_review_comment', subject_id: c.id, repository_id: s.id, user_id: alice.id, content: 'heart', created_at: '2026-01-01T00:00:00Z',
    }).execute();
    const withReaction = await kit.rest.pulls.getReviewComment({ owner: alice.login, repo: s.repo, comment_id: c.id });
    assert.equal(withReaction.data.reactions?.heart, 1);
    assert.equal(withReaction.data.reactions?.total_count, 1);

    const del = await kit.rest.pulls.deleteReviewComment({ owner: alice.login, repo: s.repo, comment_id: byPosition.data.id });
    assert.equal(del.status, 204);
    await failsWith(kit.rest.pulls.getReviewComment({ owner: alice.login, repo: s.repo, comment_id: byPosition.data.id }), 404);

    const events = await listEvents(t.server.ctx, { event: 'pull_request_review_comment', repositoryId: s.id });
    assert.deepEqual(events.map((e) => e.action), ['created', 'created', 'created', 'created', 'edited', 'deleted']);
    assert.equal((events[4]!.payload as Json).changes.body.from, 'Shouting?');
    assert.equal((events[0]!.payload as Json).pull_request.number, 1);
  });

  test('422s: unknown path, a line outside the diff, a commit outside the pull request; 404 on a reply to nothing', async () => {
    const s = await setup();
    const kit = t.octokit(bob.token);
    let body = await failsWith(kit.rest.pulls.createReviewComment({ owner: alice.login, repo: s.repo, pull_number: 1, body: 'x', commit_id: s.headSha, path: 'nope.txt', line: 1 }), 422);
    assert.equal(body.errors?.[0]?.field, 'path');
    body = await failsWith(kit.rest.pulls.createReviewComment({ owner: alice.login, repo: s.repo, pull_number: 1, body: 'x', commit_id: s.headSha, path: 'app.txt', line: 40 }), 422);
    assert.equal(body.errors?.[0]?.field, 'line');
    body = await failsWith(kit.rest.pulls.createReviewComment({ owner: alice.login, repo: s.repo, pull_number: 1, body: 'x', commit_id: 'f'.repeat(40), path: 'app.txt', line: 2 }), 422);
    assert.equal(body.errors?.[0]?.field, 'commit_id');
    body = await failsWith(kit.rest.pulls.createReviewComment({ owner: alice.login, repo: s.repo, pull_number: 1, body: 'x', path: 'app.txt', line: 2 } as never), 422);
    assert.equal(body.errors?.[0]?.field, 'commit_id');
    await failsWith(kit.rest.pulls.createReplyForReviewComment({ owner: alice.login, repo: s.repo, pull_number: 1, comment_id: 999999, body: 'x' }), 404);
    const list = await kit.rest.pulls.listReviewCommentsForRepo({ owner: alice.login, repo: s.repo });
    assert.equal(list.data.length, 0);
  });

  test('a locked pull request takes review comments from collaborators only', async () => {
    const s = await setup();
    await t.octokit(alice.token).rest.issues.lock({ owner: alice.login, repo: s.repo, issue_number: 1 });
    const body = await failsWith(t.octokit(stranger.token).rest.pulls.createReviewComment({
      owner: alice.login, repo: s.repo, pull_number: 1, body: 'x', commit_id: s.headSha, path: 'app.txt', line: 2,
    }), 403);
    assert.match(body.message, /locked/);
    const ok = await t.octokit(bob.token).rest.pulls.createReviewComment({ owner: alice.login, repo: s.repo, pull_number: 1, body: 'fine', commit_id: s.headSha, path: 'app.txt', line: 2 });
    assert.equal(ok.status, 201);
  });
});
