// Notifications, seen from the receiving user's side: threads made by the issues,
// pull request and invitation activity of other users, their reasons, read and done
// state, thread subscriptions, polling headers, and who may call the endpoints.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createUser, uniqueLogin, type CreatedUser } from './factories/accounts.ts';
import { addMember, createOrgWithOwner, createTeam } from './factories/orgs.ts';
import { createRepo } from './factories/repos.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failsWith } from './helpers/failures.ts';

type Thread = {
  id: string;
  reason: string;
  unread: boolean;
  updated_at: string;
  last_read_at: string | null;
  url: string;
  subscription_url: string;
  subject: { title: string; url: string; latest_comment_url: string; type: string };
  repository: { full_name: string; private: boolean };
};

describe('notifications', () => {
  let t: TestServer;
  let clock: TestClock;

  before(async () => {
    clock = new TestClock();
    t = await startTestServer({ clock });
  });
  after(() => t.close());

  /** Moves time on, so that each action has its own updated_at. */
  function tick(): void {
    clock.advance(1000);
  }

  async function inbox(user: CreatedUser, query: Record<string, unknown> = {}): Promise<Thread[]> {
    const { data } = await t.octokit(user.token).rest.activity.listNotificationsForAuthenticatedUser({ all: true, ...query });
    return data as unknown as Thread[];
  }

  /** The user's thread about owner/repo issue or pull request #number, if any. */
  async function threadOf(user: CreatedUser, owner: string, repo: string, number: number): Promise<Thread | undefined> {
    const list = await inbox(user);
    return list.find((th) => th.repository.full_name === `${owner}/${repo}` && /\/(issues|pulls)\/(\d+)$/.exec(th.subject.url)?.[2] === String(number));
  }

  async function reasonOf(user: CreatedUser, owner: string, repo: string, number: number): Promise<string | undefined> {
    return (await threadOf(user, owner, repo, number))?.reason;
  }

  const newRepo = async (owner: CreatedUser, opts: { private?: boolean } = {}): Promise<string> => (await createRepo(t, owner, opts)).repo;

  async function addCollaborator(owner: CreatedUser, repo: string, user: CreatedUser): Promise<void> {
    const { data } = await t.octokit(owner.token).rest.repos.addCollaborator({ owner: owner.login, repo, username: user.login });
    await t.octokit(user.token).rest.repos.acceptInvitationForAuthenticatedUser({ invitation_id: data!.id });
  }

  /** A pull request from a new branch `head` holding one new file. */
  async function openPull(by: CreatedUser, owner: CreatedUser | { login: string; token: string }, repo: string, head: string, title = 'Add notes') {
    const octokit = t.octokit(owner.token);
    const { data: main } = await octokit.rest.git.getRef({ owner: owner.login, repo, ref: 'heads/main' });
    await octokit.rest.git.createRef({ owner: owner.login, repo, ref: `refs/heads/${head}`, sha: main.object.sha });
    await octokit.rest.repos.createOrUpdateFileContents({
      owner: owner.login, repo, path: `${head}.md`, message: head, content: Buffer.from(`${head}\n`).toString('base64'), branch: head,
    });
    tick();
    return (await t.octokit(by.token).rest.pulls.create({ owner: owner.login, repo, title, head, base: 'main' })).data;
  }

  async function openIssue(by: CreatedUser, owner: string, repo: string, fields: { title?: string; body?: string; assignees?: string[] } = {}): Promise<number> {
    tick();
    const { data } = await t.octokit(by.token).rest.issues.create({ owner, repo, title: fields.title ?? 'Leaking hull', ...fields });
    return data.number;
  }

  async function comment(by: CreatedUser, owner: string, repo: string, issue_number: number, body: string): Promise<number> {
    tick();
    const { data } = await t.octokit(by.token).rest.issues.createComment({ owner, repo, issue_number, body });
    return data.id;
  }

  async function watch(user: CreatedUser, owner: string, repo: string, settings: { subscribed?: boolean; ignored?: boolean } = { subscribed: true }): Promise<void> {
    await t.octokit(user.token).rest.activity.setRepoSubscription({ owner, repo, ...settings });
  }

  // ------------------------------------------------------------ reasons

  test('author, mention, comment and subscribed: each user hears with their own reason; the actor hears nothing', async () => {
    const [alice, bob, carol, dave] = [await createUser(t), await createUser(t), await createUser(t), await createUser(t)];
    const repo = await newRepo(alice); // alice watches her repository from its creation
    await watch(carol, alice.login, repo);

    const n = await openIssue(bob, alice.login, repo, { title: 'Rudder jams', body: `Seen by @${dave.login} too` });
    assert.equal(await reasonOf(bob, alice.login, repo, n), undefined, 'no notification for your own action');
    assert.equal(await reasonOf(dave, alice.login, repo, n), 'mention');
    assert.equal(await reasonOf(alice, alice.login, repo, n), 'subscribed');
    assert.equal(await reasonOf(carol, alice.login, repo, n), 'subscribed');

    const list = await inbox(dave);
    assertMatchesOpenApi('GET', '/notifications', 200, list);
    const th = list[0]!;
    assert.equal(th.subject.title, 'Rudder jams');
    assert.equal(th.subject.type, 'Issue');
    assert.equal(th.subject.url, `${t.baseUrl}/repos/${alice.login}/${repo}/issues/${n}`);
    assert.equal(th.subject.latest_comment_url, th.subject.url, 'no comment yet: the subject itself');
    assert.equal(th.url, `${t.baseUrl}/notifications/threads/${th.id}`);
    assert.equal(th.subscription_url, `${th.url}/subscription`);
    assert.equal(th.unread, true);
    assert.equal(th.last_read_at, null);
    assert.equal(th.updated_at, clock.now().toISOString().replace(/\.\d{3}Z$/, 'Z'));
    assert.equal(typeof th.id, 'string');
    assert.equal(th.repository.full_name, `${alice.login}/${repo}`);

    // carol comments: the author hears as author, dave stays mention, alice as watcher.
    const commentId = await comment(carol, alice.login, repo, n, 'Same here');
    assert.equal(await reasonOf(bob, alice.login, repo, n), 'author');
    assert.equal(await reasonOf(dave, alice.login, repo, n), 'mention');
    assert.equal(await reasonOf(alice, alice.login, repo, n), 'subscribed');
    const bobs = (await threadOf(bob, alice.login, repo, n))!;
    assert.equal(bobs.subject.latest_comment_url, `${t.baseUrl}/repos/${alice.login}/${repo}/issues/comments/${commentId}`);

    // dave comments: carol, who commented before, now hears as comment.
    await comment(dave, alice.login, repo, n, 'Fixed it?');
    assert.equal(await reasonOf(carol, alice.login, repo, n), 'comment');
    assert.equal((await inbox(carol)).filter((x) => x.repository.full_name === `${alice.login}/${repo}`).length, 1, 'one thread per subject');
  });

  test('a thread\'s repository is the whole record repository lists carry, the same in the list and the single thread', async () => {
    const [alice, bob, dave] = [await createUser(t), await createUser(t), await createUser(t)];
    const repo = await newRepo(alice);
    await t.octokit(alice.token).rest.repos.replaceAllTopics({ owner: alice.login, repo, names: ['rigging'] });
    await t.octokit(bob.token).rest.activity.starRepoForAuthenticatedUser({ owner: alice.login, repo });
    const n = await openIssue(bob, alice.login, repo, { body: `@${dave.login} look` });
    const th = (await threadOf(dave, alice.login, repo, n))!;
    const record = th.repository as unknown as Record<string, unknown>;
    const { data: listed } = await t.octokit(dave.token).rest.repos.listForUser({ username: alice.login });
    assert.deepEqual(record, listed.find((r) => r.name === repo) as unknown as Record<string, unknown>);
    assert.equal(record.stargazers_count, 1);
    assert.equal(record.open_issues_count, 1);
    assert.deepEqual(record.topics, ['rigging']);
    assert.equal(record.default_branch, 'main');
    assert.equal(record.clone_url, `${record.html_url}.git`);
    assert.deepEqual(record.permissions, { admin: false, maintain: false, push: false, triage: false, pull: true });
    const { data: single } = await t.octokit(dave.token).rest.activity.getThread({ thread_id: Number(th.id) });
    assert.deepEqual(single.repository, record);
    assertMatchesOpenApi('GET', '/notifications/threads/{thread_id}', 200, single);
  });

  test('reason transitions: author, then mention after an @mention, and mention stays', async () => {
    const [alice, bob, carol] = [await createUser(t), await createUser(t), await createUser(t)];
    const repo = await newRepo(alice);
    const n = await openIssue(bob, alice.login, repo);
    await comment(carol, alice.login, repo, n, 'A first reply');
    assert.equal(await reasonOf(bob, alice.login, repo, n), 'author');
    await comment(carol, alice.login, repo, n, `@${bob.login} can you check?`);
    assert.equal(await reasonOf(bob, alice.login, repo, n), 'mention');
    await comment(carol, alice.login, repo, n, 'No mention this time');
    assert.equal(await reasonOf(bob, alice.login, repo, n), 'mention', 'mention is kept');
    tick();
    await t.octokit(alice.token).rest.issues.update({ owner: alice.login, repo, issue_number: n, state: 'closed' });
    assert.equal(await reasonOf(bob, alice.login, repo, n), 'mention', 'still mention after a state change');
  });

  test('assign, state_change, and mentions in code are not mentions', async () => {
    const [alice, bob, carol, erin] = [await createUser(t), await createUser(t), await createUser(t), await createUser(t)];
    const repo = await newRepo(alice);
    await addCollaborator(alice, repo, carol); // only users with push access may be assigned
    await watch(erin, alice.login, repo);
    const n = await openIssue(bob, alice.login, repo, { body: `Not a mention: \`@${carol.login}\`` });
    assert.equal(await reasonOf(carol, alice.login, repo, n), undefined);

    tick();
    await t.octokit(alice.token).rest.issues.addAssignees({ owner: alice.login, repo, issue_number: n, assignees: [carol.login] });
    assert.equal(await reasonOf(carol, alice.login, repo, n), 'assign');

    // An issue opened with assignees tells them too.
    const m = await openIssue(alice, alice.login, repo, { assignees: [carol.login] });
    assert.equal(await reasonOf(carol, alice.login, repo, m), 'assign');

    tick();
    await t.octokit(alice.token).rest.issues.update({ owner: alice.login, repo, issue_number: n, state: 'closed' });
    assert.equal(await reasonOf(bob, alice.login, repo, n), 'state_change', 'the author takes part');
    assert.equal(await reasonOf(carol, alice.login, repo, n), 'state_change', 'the assignee takes part');
    assert.equal(await reasonOf(erin, alice.login, repo, n), 'subscribed', 'a watcher only watches');
    tick();
    await t.octokit(carol.token).rest.issues.update({ owner: alice.login, repo, issue_number: n, state: 'open' });
    assert.equal(await reasonOf(bob, alice.login, repo, n), 'state_change', 'reopening too');
  });

  test('team_mention: members of an @mentioned team hear of it', async () => {
    const org = await createOrgWithOwner(t);
    const member = await addMember(t, org);
    const other = await addMember(t, org);
    const team = await createTeam(t, org.owner.token, org.login);
    await t.octokit(org.owner.token).rest.teams.addOrUpdateMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: member.login });
    const repo = uniqueLogin('pier');
    // The team gets access to the repository with it (a team can be asked for reviews then).
    await t.octokit(org.owner.token).rest.repos.createInOrg({ org: org.login, name: repo, auto_init: true, team_id: team.id });
    const author = await createUser(t);
    const n = await openIssue(author, org.login, repo, { body: `Calling @${org.login}/${team.slug}.` });
    assert.equal(await reasonOf(member, org.login, repo, n), 'team_mention');
    assert.equal(await reasonOf(other, org.login, repo, n), undefined, 'not in the team');

    // A team asked for a review: its members hear with review_requested.
    const pr = await openPull(org.owner, { login: org.login, token: org.owner.token }, repo, 'review-me');
    tick();
    await t.octokit(org.owner.token).rest.pulls.requestReviewers({ owner: org.login, repo, pull_number: pr.number, reviewers: [], team_reviewers: [team.slug] });
    assert.equal(await reasonOf(member, org.login, repo, pr.number), 'review_requested');
    assert.equal(await reasonOf(other, org.login, repo, pr.number), undefined);
  });

  test('edits: a title change reaches every thread quietly; a body edit that adds an @mention notifies the newly mentioned', async () => {
    const [alice, bob, carol] = [await createUser(t), await createUser(t), await createUser(t)];
    const repo = await newRepo(alice);
    const n = await openIssue(bob, alice.login, repo, { title: 'Old name' });
    const before = (await threadOf(alice, alice.login, repo, n))!;
    await t.octokit(alice.token).rest.activity.markThreadAsRead({ thread_id: Number(before.id) });
    tick();
    await t.octokit(bob.token).rest.issues.update({ owner: alice.login, repo, issue_number: n, title: 'New name' });
    const renamed = (await threadOf(alice, alice.login, repo, n))!;
    assert.equal(renamed.subject.title, 'New name');
    assert.equal(renamed.unread, false, 'a rename notifies nobody');
    assert.equal(renamed.updated_at, before.updated_at);

    assert.equal(await reasonOf(carol, alice.login, repo, n), undefined);
    tick();
    await t.octokit(bob.token).rest.issues.update({ owner: alice.login, repo, issue_number: n, body: `cc @${carol.login}` });
    assert.equal(await reasonOf(carol, alice.login, repo, n), 'mention');

    // A comment edited to mention someone tells them too.
    const commentId = await comment(bob, alice.login, repo, n, 'plain');
    const dave = await createUser(t);
    tick();
    await t.octokit(bob.token).rest.issues.updateComment({ owner: alice.login, repo, comment_id: commentId, body: `and @${dave.login}` });
    assert.equal(await reasonOf(dave, alice.login, repo, n), 'mention');
  });

  test('invitation: the invitee hears of a repository invitation, even to a private repository', async () => {
    const [alice, bob] = [await createUser(t), await createUser(t)];
    const repo = await newRepo(alice, { private: true });
    tick();
    const { data: invitation } = await t.octokit(alice.token).rest.repos.addCollaborator({ owner: alice.login, repo, username: bob.login });
    const list = await inbox(bob);
    assertMatchesOpenApi('GET', '/notifications', 200, list);
    assert.equal(list.length, 1);
    const th = list[0]!;
    assert.equal(th.reason, 'invitation');
    assert.equal(th.subject.type, 'RepositoryInvitation');
    assert.equal(th.subject.title, `Invitation to join ${alice.login}/${repo} from ${alice.login}`);
    assert.equal(th.subject.url, `${t.baseUrl}/user/repository_invitations/${invitation!.id}`);
    assert.equal(th.repository.full_name, `${alice.login}/${repo}`);
    assert.equal(th.repository.private, true);
    assert.equal((await t.octokit(bob.token).rest.activity.getThread({ thread_id: Number(th.id) })).data.reason, 'invitation');
    assert.deepEqual(await inbox(alice), [], 'the inviter hears nothing');
  });

  test('review_requested and merged pull requests', async () => {
    const [alice, bob, carol] = [await createUser(t), await createUser(t), await createUser(t)];
    const repo = await newRepo(alice);
    for (const u of [bob, carol]) await addCollaborator(alice, repo, u);
    const octokit = t.octokit(alice.token);
    const pr = await openPull(bob, alice, repo, 'feature');
    assert.equal(await reasonOf(alice, alice.login, repo, pr.number), 'subscribed');
    tick();
    await t.octokit(bob.token).rest.pulls.requestReviewers({ owner: alice.login, repo, pull_number: pr.number, reviewers: [carol.login] });
    const carols = (await threadOf(carol, alice.login, repo, pr.number))!;
    assert.equal(carols.reason, 'review_requested');
    assert.equal(carols.subject.type, 'PullRequest');
    assert.equal(carols.subject.url, `${t.baseUrl}/repos/${alice.login}/${repo}/pulls/${pr.number}`);
    assert.equal(carols.subject.title, 'Add notes');

    tick();
    const { data: review } = await t.octokit(carol.token).rest.pulls.createReview({ owner: alice.login, repo, pull_number: pr.number, event: 'APPROVE', body: 'Looks right' });
    const bobs = (await threadOf(bob, alice.login, repo, pr.number))!;
    assert.equal(bobs.reason, 'author');
    assert.equal(bobs.subject.latest_comment_url, `${t.baseUrl}/repos/${alice.login}/${repo}/pulls/${pr.number}/reviews/${review.id}`);

    tick();
    const { data: reviewComment } = await t.octokit(carol.token).rest.pulls.createReviewComment({
      owner: alice.login, repo, pull_number: pr.number, body: 'One more line?', commit_id: pr.head.sha, path: 'feature.md', line: 1,
    });
    assert.equal((await threadOf(bob, alice.login, repo, pr.number))!.subject.latest_comment_url,
      `${t.baseUrl}/repos/${alice.login}/${repo}/pulls/comments/${reviewComment.id}`);

    tick();
    await octokit.rest.pulls.merge({ owner: alice.login, repo, pull_number: pr.number });
    assert.equal(await reasonOf(bob, alice.login, repo, pr.number), 'state_change');
    assert.equal(await reasonOf(carol, alice.login, repo, pr.number), 'state_change');
  });

  // ------------------------------------------------------------ read, done, lists

  test('unread and read: PATCH a thread (205), all=false hides read threads, new activity brings them back', async () => {
    const [alice, bob, carol] = [await createUser(t), await createUser(t), await createUser(t)];
    const repo = await newRepo(alice);
    const n = await openIssue(bob, alice.login, repo);
    const th = (await threadOf(alice, alice.login, repo, n))!;
    tick();
    const marked = await t.octokit(alice.token).rest.activity.markThreadAsRead({ thread_id: Number(th.id) });
    assert.equal(marked.status, 205);
    const read = (await t.octokit(alice.token).rest.activity.getThread({ thread_id: Number(th.id) })).data;
    assertMatchesOpenApi('GET', '/notifications/threads/{thread_id}', 200, read);
    assert.equal(read.unread, false);
    assert.equal(read.last_read_at, clock.now().toISOString().replace(/\.\d{3}Z$/, 'Z'));
    assert.equal(read.updated_at, th.updated_at, 'reading does not move updated_at');
    assert.deepEqual((await inbox(alice, { all: false })).map((x) => x.id), []);

    await comment(carol, alice.login, repo, n, 'Any news?');
    const again = (await threadOf(alice, alice.login, repo, n))!;
    assert.equal(again.id, th.id, 'the same thread');
    assert.equal(again.unread, true);
    assert.ok(again.updated_at > th.updated_at);
    assert.equal(again.last_read_at, read.last_read_at);
    assert.deepEqual((await inbox(alice, { all: false })).map((x) => x.id), [th.id]);
  });

  test('PUT /notifications marks read up to last_read_at; PUT /repos/{owner}/{repo}/notifications only that repository', async () => {
    const [alice, bob] = [await createUser(t), await createUser(t)];
    const one = await newRepo(alice);
    const two = await newRepo(alice);
    const first = await openIssue(bob, alice.login, one);
    const cut = clock.now().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const second = await openIssue(bob, alice.login, one);
    const third = await openIssue(bob, alice.login, two);

    const res = await t.octokit(alice.token).rest.activity.markNotificationsAsRead({ last_read_at: cut });
    assert.equal(res.status, 205);
    assert.equal((await threadOf(alice, alice.login, one, first))!.unread, false);
    assert.equal((await threadOf(alice, alice.login, one, first))!.last_read_at, cut);
    assert.equal((await threadOf(alice, alice.login, one, second))!.unread, true, 'updated after last_read_at');

    const repoRes = await t.octokit(alice.token).rest.activity.markRepoNotificationsAsRead({ owner: alice.login, repo: one });
    assert.equal(repoRes.status, 205);
    assert.equal((await threadOf(alice, alice.login, one, second))!.unread, false);
    assert.equal((await threadOf(alice, alice.login, two, third))!.unread, true, 'another repository is left alone');

    const repoList = await t.octokit(alice.token).rest.activity.listRepoNotificationsForAuthenticatedUser({ owner: alice.login, repo: two });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/notifications', 200, repoList.data);
    assert.deepEqual(repoList.data.map((x) => x.repository.full_name), [`${alice.login}/${two}`]);

    // Without last_read_at, everything so far is read.
    await t.octokit(alice.token).rest.activity.markNotificationsAsRead();
    assert.deepEqual(await inbox(alice, { all: false }), []);
    const bad = await failsWith(t.octokit(alice.token).rest.activity.markNotificationsAsRead({ last_read_at: 'yesterday' }), 422);
    assert.equal(bad.errors?.[0]?.field, 'last_read_at');
  });

  test('DELETE a thread marks it done (204): out of every list until new activity', async () => {
    const [alice, bob, carol] = [await createUser(t), await createUser(t), await createUser(t)];
    const repo = await newRepo(alice);
    const n = await openIssue(bob, alice.login, repo);
    const th = (await threadOf(alice, alice.login, repo, n))!;
    const done = await t.octokit(alice.token).rest.activity.markThreadAsDone({ thread_id: Number(th.id) });
    assert.equal(done.status, 204);
    assert.equal(await threadOf(alice, alice.login, repo, n), undefined);
    await comment(carol, alice.login, repo, n, 'Back again');
    const back = (await threadOf(alice, alice.login, repo, n))!;
    assert.equal(back.id, th.id);
    assert.equal(back.unread, true);
  });

  test('participating, since and before filter the list; newest first; bad times are 422', async () => {
    const [alice, bob, dave] = [await createUser(t), await createUser(t), await createUser(t)];
    const repo = await newRepo(alice);
    const watched = await openIssue(bob, alice.login, repo);
    const mentioned = await openIssue(bob, alice.login, repo, { body: `@${alice.login} and @${dave.login}` });
    const all = await inbox(alice);
    assert.deepEqual(all.map((x) => x.subject.url.split('/').pop()), [String(mentioned), String(watched)], 'most recently updated first');
    const participating = await inbox(alice, { participating: true });
    assert.deepEqual(participating.map((x) => x.reason), ['mention'], 'watching is not participating');
    assert.deepEqual((await inbox(alice, { since: '2100-01-01T00:00:00Z' })).length, 0);
    assert.deepEqual((await inbox(alice, { before: all[0]!.updated_at })).map((x) => x.subject.url.split('/').pop()), [String(watched)], 'updated before the time');
    assert.deepEqual((await inbox(alice, { since: all[0]!.updated_at })).map((x) => x.subject.url.split('/').pop()), [String(mentioned)]);
    const bad = await failsWith(t.octokit(alice.token).rest.activity.listNotificationsForAuthenticatedUser({ since: 'not a time' }), 422);
    assert.equal(bad.errors?.[0]?.field, 'since');
  });

  test('per_page: 50 by default and at most 50, with Link', async () => {
    const [alice, bob] = [await createUser(t), await createUser(t)];
    const repo = await newRepo(alice);
    for (let i = 0; i < 52; i++) await openIssue(bob, alice.login, repo, { title: `Issue ${i}` });
    const res = await t.request('/notifications?per_page=100', { token: alice.token });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as unknown[]).length, 50);
    const link = res.headers.get('link') ?? '';
    assert.match(link, /per_page=50/);
    assert.match(link, /page=2[^>]*>; rel="next"/);
    const second = await t.request('/notifications?page=2', { token: alice.token });
    assert.equal(((await second.json()) as unknown[]).length, 2);
  });

  // ------------------------------------------------------------ polling

  test('Last-Modified, X-Poll-Interval, and If-Modified-Since → 304 that leaves the rate limit untouched', async () => {
    const [alice, bob] = [await createUser(t), await createUser(t)];
    const repo = await newRepo(alice);
    const empty = await t.request('/notifications', { token: alice.token });
    assert.equal(empty.status, 200);
    assert.equal(empty.headers.get('x-poll-interval'), '60');

    await openIssue(bob, alice.login, repo);
    const newest = clock.now();
    await openIssue(bob, alice.login, repo);
    const res = await t.request('/notifications', { token: alice.token });
    assert.equal(res.status, 200);
    const lastModified = res.headers.get('last-modified')!;
    assert.equal(lastModified, new Date(clock.now().getTime()).toUTCString(), 'the newest updated_at listed');
    assert.ok(new Date(lastModified) > newest);
    assert.equal(res.headers.get('x-poll-interval'), '60');
    const remaining = Number(res.headers.get('x-ratelimit-remaining'));

    const cached = await t.request('/notifications', { token: alice.token, headers: { 'if-modified-since': lastModified } });
    assert.equal(cached.status, 304);
    assert.equal(cached.headers.get('x-poll-interval'), '60');
    assert.equal(Number(cached.headers.get('x-ratelimit-remaining')), remaining, 'a 304 is not counted');
    const next = await t.request('/notifications', { token: alice.token });
    assert.equal(Number(next.headers.get('x-ratelimit-remaining')), remaining - 1);

    const repoRes = await t.request(`/repos/${alice.login}/${repo}/notifications`, { token: alice.token, headers: { 'if-modified-since': lastModified } });
    assert.equal(repoRes.status, 304);

    // Something new since: 200 again.
    await openIssue(bob, alice.login, repo);
    const fresh = await t.request('/notifications', { token: alice.token, headers: { 'if-modified-since': lastModified } });
    assert.equal(fresh.status, 200);
  });

  // ------------------------------------------------------------ subscriptions

  test('thread subscription: GET, PUT ignored silences the thread until an @mention, DELETE ends participation', async () => {
    const [alice, bob, carol] = [await createUser(t), await createUser(t), await createUser(t)];
    const repo = await newRepo(alice);
    const n = await openIssue(bob, alice.login, repo);
    await comment(carol, alice.login, repo, n, 'first');
    const th = (await threadOf(bob, alice.login, repo, n))!;
    const octokit = t.octokit(bob.token);

    const got = await octokit.rest.activity.getThreadSubscriptionForAuthenticatedUser({ thread_id: Number(th.id) });
    assertMatchesOpenApi('GET', '/notifications/threads/{thread_id}/subscription', 200, got.data);
    assert.equal(got.data.subscribed, true);
    assert.equal(got.data.ignored, false);
    assert.equal(got.data.reason, 'author');
    assert.equal(got.data.url, `${t.baseUrl}/notifications/threads/${th.id}/subscription`);
    assert.equal(got.data.thread_url, `${t.baseUrl}/notifications/threads/${th.id}`);

    const ignored = await octokit.rest.activity.setThreadSubscription({ thread_id: Number(th.id), ignored: true });
    assertMatchesOpenApi('PUT', '/notifications/threads/{thread_id}/subscription', 200, ignored.data);
    assert.equal(ignored.data.ignored, true);
    assert.equal(ignored.data.subscribed, false);
    await octokit.rest.activity.markThreadAsRead({ thread_id: Number(th.id) });
    await comment(carol, alice.login, repo, n, 'second');
    tick();
    await t.octokit(alice.token).rest.issues.update({ owner: alice.login, repo, issue_number: n, state: 'closed' });
    assert.equal((await threadOf(bob, alice.login, repo, n))!.unread, false, 'an ignored thread gets nothing');
    await comment(carol, alice.login, repo, n, `@${bob.login} please look`);
    const mentioned = (await threadOf(bob, alice.login, repo, n))!;
    assert.equal(mentioned.unread, true, 'an @mention gets through');
    assert.equal(mentioned.reason, 'mention');
    assert.equal((await octokit.rest.activity.getThreadSubscriptionForAuthenticatedUser({ thread_id: Number(th.id) })).data.ignored, false);

    // DELETE: no longer a participant, and bob does not watch the repository.
    const deleted = await octokit.rest.activity.deleteThreadSubscription({ thread_id: Number(th.id) });
    assert.equal(deleted.status, 204);
    await failsWith(octokit.rest.activity.getThreadSubscriptionForAuthenticatedUser({ thread_id: Number(th.id) }), 404);
    await octokit.rest.activity.markThreadAsRead({ thread_id: Number(th.id) });
    await comment(carol, alice.login, repo, n, 'third');
    assert.equal((await threadOf(bob, alice.login, repo, n))!.unread, false, 'no longer taking part');

    // PUT without ignored subscribes (manual); the next comment reaches bob again.
    const manual = await octokit.rest.activity.setThreadSubscription({ thread_id: Number(th.id) });
    assert.equal(manual.data.subscribed, true);
    assert.equal(manual.data.reason, 'manual');
    await comment(carol, alice.login, repo, n, 'fourth');
    assert.equal((await threadOf(bob, alice.login, repo, n))!.unread, true);

    // A watcher without a thread subscription sees the repository's.
    const alices = (await threadOf(alice, alice.login, repo, n))!;
    const inherited = await t.octokit(alice.token).rest.activity.getThreadSubscriptionForAuthenticatedUser({ thread_id: Number(alices.id) });
    assertMatchesOpenApi('GET', '/notifications/threads/{thread_id}/subscription', 200, inherited.data);
    assert.equal(inherited.data.subscribed, true);
    assert.equal(inherited.data.reason, null);
    assert.equal(inherited.data.repository_url, `${t.baseUrl}/repos/${alice.login}/${repo}`);
  });

  test('a user ignoring the repository hears nothing from it, not even mentions', async () => {
    const [alice, bob, carol] = [await createUser(t), await createUser(t), await createUser(t)];
    const repo = await newRepo(alice);
    await watch(carol, alice.login, repo, { ignored: true });
    await openIssue(bob, alice.login, repo, { body: `@${carol.login}` });
    assert.deepEqual(await inbox(carol), []);
  });

  // ------------------------------------------------------------ access

  test('private repositories: only readers get threads, and a thread hides when access ends', async () => {
    const [alice, bob, eve] = [await createUser(t), await createUser(t), await createUser(t)];
    const repo = await newRepo(alice, { private: true });
    await addCollaborator(alice, repo, bob);
    const n = await openIssue(alice, alice.login, repo, { body: `@${bob.login} @${eve.login}` });
    assert.equal(await reasonOf(bob, alice.login, repo, n), 'mention');
    assert.equal(await reasonOf(eve, alice.login, repo, n), undefined, 'cannot read the repository');

    // Nothing was kept for eve either: read access granted later shows no old thread.
    await addCollaborator(alice, repo, eve);
    assert.equal(await reasonOf(eve, alice.login, repo, n), undefined);

    const th = (await threadOf(bob, alice.login, repo, n))!;
    assert.equal(th.repository.private, true);
    await t.octokit(alice.token).rest.repos.removeCollaborator({ owner: alice.login, repo, username: bob.login });
    assert.equal(await threadOf(bob, alice.login, repo, n), undefined);
    await failsWith(t.octokit(bob.token).rest.activity.getThread({ thread_id: Number(th.id) }), 404);
  });

  test('threads are their owner\'s: another user gets 404, as does an id that is not a number', async () => {
    const [alice, bob] = [await createUser(t), await createUser(t)];
    const repo = await newRepo(alice);
    const n = await openIssue(bob, alice.login, repo);
    const th = (await threadOf(alice, alice.login, repo, n))!;
    await failsWith(t.octokit(bob.token).rest.activity.getThread({ thread_id: Number(th.id) }), 404);
    await failsWith(t.octokit(bob.token).rest.activity.markThreadAsRead({ thread_id: Number(th.id) }), 404);
    await failsWith(t.octokit(bob.token).rest.activity.setThreadSubscription({ thread_id: Number(th.id), ignored: true }), 404);
    assert.equal((await t.request('/notifications/threads/abc', { token: alice.token })).status, 404);
    assert.equal((await t.request('/notifications/threads/999999999', { token: alice.token })).status, 404);
    assert.equal((await t.octokit(alice.token).rest.activity.getThread({ thread_id: Number(th.id) })).data.unread, true, 'untouched');
  });

  test('only a user\'s token with notifications or repo scope: 401 anonymous, 403 other scopes', async () => {
    const alice = await createUser(t, ['notifications']);
    const narrow = await createUser(t, ['user']);
    assert.equal((await t.octokit(alice.token).rest.activity.listNotificationsForAuthenticatedUser()).status, 200);
    await failsWith(t.octokit().rest.activity.listNotificationsForAuthenticatedUser(), 401);
    const res = await t.request('/notifications', { token: narrow.token });
    assert.equal(res.status, 403);
    assert.equal(res.headers.get('x-accepted-oauth-scopes'), 'notifications, repo');
    await failsWith(t.octokit(narrow.token).rest.activity.markNotificationsAsRead(), 403);
    await failsWith(t.octokit(narrow.token).rest.activity.getThread({ thread_id: 1 }), 403);
    // A private repository's notifications list needs a token that may read it.
    const owner = await createUser(t);
    const repo = await newRepo(owner, { private: true });
    const ownerNotificationsOnly = await t.octokit((await t.octokit('whp_testadmintoken000000000000000000000').request('POST /admin/users/{username}/authorizations', { username: owner.login, scopes: ['notifications'] })).data.token);
    await failsWith(ownerNotificationsOnly.rest.activity.listRepoNotificationsForAuthenticatedUser({ owner: owner.login, repo }), 404);
    assert.equal((await t.octokit(owner.token).rest.activity.listRepoNotificationsForAuthenticatedUser({ owner: owner.login, repo })).status, 200);
  });
});
