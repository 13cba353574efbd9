// Reactions on issues, issue comments, pull request review comments, team discussions
// and team discussion comments, through Octokit and plain fetch, checked against the
// published schemas (team discussions: @octokit/openapi 22, since removed upstream)
// and the stored state.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Octokit } from '@octokit/rest';
import { ADMIN_TOKEN, startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failsWith } from './helpers/failures.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo } from './factories/repos.ts';
import { addMember, createOrgWithOwner, createTeam, type CreatedOrg, type CreatedTeam } from './factories/orgs.ts';

let t: TestServer;
const clock = new TestClock();
const DAY = 24 * 60 * 60 * 1000;

before(async () => { t = await startTestServer({ clock }); });
after(async () => { await t.close(); });

const CONTENTS = ['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes'] as const;
type Content = (typeof CONTENTS)[number];
const ISSUE_REACTIONS = '/repos/{owner}/{repo}/issues/{issue_number}/reactions';
const COMMENT_REACTIONS = '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions';
const REVIEW_COMMENT_REACTIONS = '/repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions';
// Octokit sends mediaType.previews only to GraphQL nowadays: the header is set by hand.
const PREVIEW = { headers: { accept: 'application/vnd.github.squirrel-girl-preview+json' } };

interface RepoRef {
  id: number;
  owner: string;
  repo: string;
}

// Organization repositories start empty here, user repositories with a README.
const newRepo = (owner: CreatedUser, opts: { private?: boolean; org?: string } = {}): Promise<RepoRef> =>
  createRepo(t, owner, { private: opts.private, org: opts.org, autoInit: !opts.org });

async function newIssue(user: CreatedUser, r: RepoRef, title = 'Leaky hull'): Promise<number> {
  const { data } = await t.octokit(user.token).rest.issues.create({ owner: r.owner, repo: r.repo, title });
  return data.number;
}

async function reactionRows(subjectType: string, subjectId: number) {
  return t.server.ctx.db.selectFrom('reactions').selectAll()
    .where('subject_type', '=', subjectType).where('subject_id', '=', subjectId).orderBy('id').execute();
}

/** A pull request from a branch adding FIX.md (one line). */
async function newPull(user: CreatedUser, r: RepoRef): Promise<{ number: number; head: { sha: string } }> {
  const kit = t.octokit(user.token);
  const { data: head } = await kit.rest.git.getRef({ owner: r.owner, repo: r.repo, ref: 'heads/main' });
  await kit.rest.git.createRef({ owner: r.owner, repo: r.repo, ref: 'refs/heads/patch', sha: head.object.sha });
  await kit.rest.repos.createOrUpdateFileContents({
    owner: r.owner, repo: r.repo, path: 'FIX.md', message: 'fix', branch: 'patch', content: Buffer.from('fix\n').toString('base64'),
  });
  const { data: pr } = await kit.rest.pulls.create({ owner: r.owner, repo: r.repo, title: 'Fix', head: 'patch', base: 'main' });
  return pr;
}

function issueReactions(kit: Octokit, r: RepoRef, issue: number) {
  const at = { owner: r.owner, repo: r.repo, issue_number: issue };
  return {
    create: (content: string) => kit.request(`POST ${ISSUE_REACTIONS}`, { ...at, content: content as Content }),
    list: (query: Record<string, unknown> = {}) => kit.request(`GET ${ISSUE_REACTIONS}`, { ...at, ...query }),
    remove: (id: number) => kit.request(`DELETE ${ISSUE_REACTIONS}/{reaction_id}`, { ...at, reaction_id: id }),
  };
}

describe('reactions on issues', () => {
  test('every content value: 201 with the published record, 200 with the same reaction when left again', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const n = await newIssue(alice, r);
    const kit = t.octokit(alice.token);
    const rx = issueReactions(kit, r, n);
    const ids = new Map<string, number>();
    for (const content of CONTENTS) {
      const res = await rx.create(content);
      assert.equal(res.status, 201, content);
      assertMatchesOpenApi('POST', ISSUE_REACTIONS, 201, res.data);
      assert.equal(res.data.content, content);
      assert.equal(res.data.user?.login, alice.login);
      assert.equal(res.data.user?.id, alice.id);
      assert.equal(typeof res.data.node_id, 'string');
      assert.match(res.data.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      ids.set(content, res.data.id);
    }
    const { data: issue } = await kit.rest.issues.get({ owner: r.owner, repo: r.repo, issue_number: n });
    const rows = await reactionRows('issue', issue.id);
    assert.deepEqual(rows.map((x) => x.content), [...CONTENTS]);
    assert.ok(rows.every((x) => x.user_id === alice.id && x.repository_id === r.id));

    const again = await rx.create('heart');
    assert.equal(again.status, 200);
    assertMatchesOpenApi('POST', ISSUE_REACTIONS, 200, again.data);
    assert.equal(again.data.id, ids.get('heart'));
    assert.equal((await reactionRows('issue', issue.id)).length, CONTENTS.length);

    // Another user's identical reaction is a reaction of its own.
    const bob = await createUser(t);
    const bobs = await issueReactions(t.octokit(bob.token), r, n).create('heart');
    assert.equal(bobs.status, 201);
    assert.notEqual(bobs.data.id, ids.get('heart'));

    // The issue carries the summary.
    const { data: after } = await kit.rest.issues.get({ owner: r.owner, repo: r.repo, issue_number: n });
    assert.deepEqual(after.reactions, {
      url: `${t.baseUrl}/repos/${r.owner}/${r.repo}/issues/${n}/reactions`,
      total_count: 9, '+1': 1, '-1': 1, laugh: 1, confused: 1, heart: 2, hooray: 1, rocket: 1, eyes: 1,
    });
  });

  test('invalid or missing content: 422, nothing stored', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const n = await newIssue(alice, r);
    const rx = issueReactions(t.octokit(alice.token), r, n);
    const bad = await failsWith(rx.create('thumbsup'), 422);
    assert.deepEqual(bad.errors?.map((e) => [e.resource, e.field, e.code]), [['Reaction', 'content', 'invalid']]);
    const res = await t.request(`/repos/${r.owner}/${r.repo}/issues/${n}/reactions`, { method: 'POST', token: alice.token, json: {} });
    assert.equal(res.status, 422);
    const body = await res.json() as { errors: { field: string; code: string }[] };
    assert.deepEqual(body.errors.map((e) => [e.field, e.code]), [['content', 'missing_field']]);
    assert.equal((await rx.list()).data.length, 0);
    await failsWith(rx.list({ content: 'thumbsup' }), 422);
  });

  test('list: the content filter and Link pagination', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const n = await newIssue(alice, r);
    const people = [alice, await createUser(t), await createUser(t), await createUser(t)];
    for (const p of people) await issueReactions(t.octokit(p.token), r, n).create('rocket');
    await issueReactions(t.octokit(alice.token), r, n).create('eyes');

    const rx = issueReactions(t.octokit(alice.token), r, n);
    const all = await rx.list();
    assertMatchesOpenApi('GET', ISSUE_REACTIONS, 200, all.data);
    assert.deepEqual(all.data.map((x) => x.content), ['rocket', 'rocket', 'rocket', 'rocket', 'eyes']);
    const rockets = await rx.list({ content: 'rocket' });
    assert.deepEqual(rockets.data.map((x) => x.user?.login), people.map((p) => p.login));
    assert.deepEqual((await rx.list({ content: 'eyes' })).data.map((x) => x.user?.login), [alice.login]);
    assert.deepEqual((await rx.list({ content: 'heart' })).data, []);

    const page = await rx.list({ content: 'rocket', per_page: 3 });
    assert.equal(page.data.length, 3);
    assert.match(page.headers.link ?? '', /rel="next"/);
    assert.match(page.headers.link ?? '', /content=rocket/);
    const second = await rx.list({ content: 'rocket', per_page: 3, page: 2 });
    assert.deepEqual(second.data.map((x) => x.user?.login), [people[3]!.login]);

    // Anyone may read the reactions of a public repository.
    assert.equal((await issueReactions(t.octokit(), r, n).list()).data.length, 5);
    await failsWith(issueReactions(t.octokit(alice.token), r, 999).list(), 404);
  });

  test('delete: own reactions 204; someone else\'s 403, unless a repository admin; unknown ids 404', async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const carol = await createUser(t);
    const r = await newRepo(alice);
    const n = await newIssue(alice, r);
    const n2 = await newIssue(alice, r, 'Other');
    const bobs = (await issueReactions(t.octokit(bob.token), r, n).create('+1')).data;
    const carols = (await issueReactions(t.octokit(carol.token), r, n).create('laugh')).data;

    const err = await failsWith(issueReactions(t.octokit(carol.token), r, n).remove(bobs.id), 403);
    assert.match(err.message, /own reactions/);
    // Addressed through another issue, the reaction is not there.
    await failsWith(issueReactions(t.octokit(bob.token), r, n2).remove(bobs.id), 404);

    const res = await issueReactions(t.octokit(bob.token), r, n).remove(bobs.id);
    assert.equal(res.status, 204);
    await failsWith(issueReactions(t.octokit(bob.token), r, n).remove(bobs.id), 404);

    // The repository's owner (admin) removes anyone's reaction.
    assert.equal((await issueReactions(t.octokit(alice.token), r, n).remove(carols.id)).status, 204);
    const { data: issue } = await t.octokit(alice.token).rest.issues.get({ owner: r.owner, repo: r.repo, issue_number: n });
    assert.equal((await reactionRows('issue', issue.id)).length, 0);
    assert.equal(issue.reactions?.total_count, 0);
    await failsWith(issueReactions(t.octokit(), r, n).remove(carols.id), 401);
  });

  test('access: anonymous callers cannot react; private repositories are 404 without read access; token scopes', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const n = await newIssue(alice, r);
    await failsWith(issueReactions(t.octokit(), r, n).create('heart'), 401);

    const priv = await newRepo(alice, { private: true });
    const pn = await newIssue(alice, priv);
    const bob = await createUser(t);
    await failsWith(issueReactions(t.octokit(bob.token), priv, pn).list(), 404);
    await failsWith(issueReactions(t.octokit(bob.token), priv, pn).create('heart'), 404);
    assert.equal((await issueReactions(t.octokit(alice.token), priv, pn).create('heart')).status, 201);

    // A token without public_repo or repo may read but not react.
    const { data: auth } = await t.octokit(ADMIN_TOKEN).request('POST /admin/users/{username}/authorizations', { username: bob.login, scopes: ['user'] });
    const weak = issueReactions(t.octokit(auth.token as string), r, n);
    assert.equal((await weak.list()).status, 200);
    const denied = await failsWith(weak.create('heart'), 403);
    assert.match(denied.message, /public_repo/);
    const { data: pub } = await t.octokit(ADMIN_TOKEN).request('POST /admin/users/{username}/authorizations', { username: bob.login, scopes: ['public_repo'] });
    assert.equal((await issueReactions(t.octokit(pub.token as string), r, n).create('heart')).status, 201);
    // public_repo does not reach private repositories.
    await failsWith(issueReactions(t.octokit(pub.token as string), priv, pn).list(), 404);

    // Issues disabled: their reactions are gone (410), as upstream answers.
    await t.octokit(alice.token).rest.repos.update({ owner: r.owner, repo: r.repo, has_issues: false });
    const gone = await failsWith(issueReactions(t.octokit(alice.token), r, n).list(), 410);
    assert.match(gone.message, /disabled/);
    await failsWith(issueReactions(t.octokit(alice.token), r, n).create('heart'), 410);
  });

  test('interaction limits refuse restricted users; collaborators still react; archived repositories are read-only', async () => {
    const alice = await createUser(t);
    const outsider = await createUser(t);
    clock.advance(2 * DAY);
    const newcomer = await createUser(t);
    const r = await newRepo(alice);
    const n = await newIssue(alice, r);
    const kit = t.octokit(alice.token);

    await kit.rest.interactions.setRestrictionsForRepo({ owner: r.owner, repo: r.repo, limit: 'collaborators_only' });
    const refused = await failsWith(issueReactions(t.octokit(outsider.token), r, n).create('heart'), 403);
    assert.match(refused.message, /limited the ability to react/);
    assert.equal((await issueReactions(kit, r, n).create('heart')).status, 201);
    // Reading is not limited.
    assert.equal((await issueReactions(t.octokit(outsider.token), r, n).list()).data.length, 1);

    await kit.rest.interactions.setRestrictionsForRepo({ owner: r.owner, repo: r.repo, limit: 'existing_users' });
    assert.equal((await issueReactions(t.octokit(outsider.token), r, n).create('heart')).status, 201);
    await failsWith(issueReactions(t.octokit(newcomer.token), r, n).create('heart'), 403);
    clock.advance(DAY);
    assert.equal((await issueReactions(t.octokit(newcomer.token), r, n).create('heart')).status, 201);
    await kit.rest.interactions.removeRestrictionsForRepo({ owner: r.owner, repo: r.repo });

    // An organization's limit covers its repositories.
    const org = await createOrgWithOwner(t);
    const orgRepo = await newRepo(org.owner, { org: org.login });
    const on = await newIssue(org.owner, orgRepo);
    await t.octokit(org.owner.token).rest.interactions.setRestrictionsForOrg({ org: org.login, limit: 'contributors_only' });
    await failsWith(issueReactions(t.octokit(outsider.token), orgRepo, on).create('eyes'), 403);
    assert.equal((await issueReactions(t.octokit(org.owner.token), orgRepo, on).create('eyes')).status, 201);
    assert.equal((await issueReactions(t.octokit(org.owner.token), orgRepo, on).list()).data.length, 1);

    await kit.rest.repos.update({ owner: r.owner, repo: r.repo, archived: true });
    const archived = await failsWith(issueReactions(kit, r, n).create('rocket'), 403);
    assert.match(archived.message, /archived/);
  });

  test('pull requests take reactions through their issue', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const pr = await newPull(alice, r);
    const res = await issueReactions(kit, r, pr.number).create('hooray');
    assert.equal(res.status, 201);
    const { data: issue } = await kit.rest.issues.get({ owner: r.owner, repo: r.repo, issue_number: pr.number });
    assert.equal(issue.reactions?.hooray, 1);
  });
});

describe('reactions on issue comments', () => {
  test('create, list, delete, and the summary on the comment', async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const r = await newRepo(alice);
    const n = await newIssue(alice, r);
    const kit = t.octokit(alice.token);
    const { data: comment } = await kit.rest.issues.createComment({ owner: r.owner, repo: r.repo, issue_number: n, body: 'Patched it' });
    const at = { owner: r.owner, repo: r.repo, comment_id: comment.id };

    for (const content of CONTENTS) {
      const res = await kit.request(`POST ${COMMENT_REACTIONS}`, { ...at, content });
      assert.equal(res.status, 201);
      assertMatchesOpenApi('POST', COMMENT_REACTIONS, 201, res.data);
    }
    const again = await kit.request(`POST ${COMMENT_REACTIONS}`, { ...at, content: 'confused' });
    assert.equal(again.status, 200);
    const bobs = await t.octokit(bob.token).request(`POST ${COMMENT_REACTIONS}`, { ...at, content: 'confused' });
    assert.equal(bobs.status, 201);

    const listed = await kit.request(`GET ${COMMENT_REACTIONS}`, { ...at, content: 'confused' });
    assertMatchesOpenApi('GET', COMMENT_REACTIONS, 200, listed.data);
    assert.deepEqual(listed.data.map((x) => x.user?.login), [alice.login, bob.login]);
    assert.deepEqual(await reactionRows('issue_comment', comment.id).then((rows) => rows.length), 9);

    const { data: got } = await kit.rest.issues.getComment({ owner: r.owner, repo: r.repo, comment_id: comment.id });
    assert.deepEqual(got.reactions, {
      url: `${t.baseUrl}/repos/${r.owner}/${r.repo}/issues/comments/${comment.id}/reactions`,
      total_count: 9, '+1': 1, '-1': 1, laugh: 1, confused: 2, heart: 1, hooray: 1, rocket: 1, eyes: 1,
    });

    await failsWith(kit.request(`DELETE ${COMMENT_REACTIONS}/{reaction_id}`, { ...at, reaction_id: 999999 }), 404);
    await failsWith(t.octokit(bob.token).request(`DELETE ${COMMENT_REACTIONS}/{reaction_id}`, { ...at, reaction_id: again.data.id }), 403);
    const del = await t.octokit(bob.token).request(`DELETE ${COMMENT_REACTIONS}/{reaction_id}`, { ...at, reaction_id: bobs.data.id });
    assert.equal(del.status, 204);
    assert.equal((await kit.rest.issues.getComment({ owner: r.owner, repo: r.repo, comment_id: comment.id })).data.reactions?.confused, 1);

    await failsWith(kit.request(`GET ${COMMENT_REACTIONS}`, { ...at, comment_id: 999999 }), 404);
    // A comment id of another repository is not found here.
    const other = await newRepo(alice);
    await failsWith(kit.request(`GET ${COMMENT_REACTIONS}`, { ...at, repo: other.repo }), 404);
  });
});

const RELEASE_REACTIONS = '/repos/{owner}/{repo}/releases/{release_id}/reactions';

describe('reactions on releases', () => {
  test('the six contents releases take (-1 and confused are 422), the summary on the release, drafts hidden, delete, gone with the release', async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const { data: rel } = await kit.rest.repos.createRelease({ owner: r.owner, repo: r.repo, tag_name: 'v1.0.0', name: 'One' });
    const at = { owner: r.owner, repo: r.repo, release_id: rel.id };
    assert.deepEqual(rel.reactions, {
      url: `${t.baseUrl}/repos/${r.owner}/${r.repo}/releases/${rel.id}/reactions`,
      total_count: 0, '+1': 0, '-1': 0, laugh: 0, confused: 0, heart: 0, hooray: 0, rocket: 0, eyes: 0,
    });

    for (const content of ['+1', 'laugh', 'heart', 'hooray', 'rocket', 'eyes'] as const) {
      const res = await kit.request(`POST ${RELEASE_REACTIONS}`, { ...at, content });
      assert.equal(res.status, 201);
      assertMatchesOpenApi('POST', RELEASE_REACTIONS, 201, res.data);
    }
    for (const content of ['-1', 'confused']) {
      const res = await t.request(`/repos/${r.owner}/${r.repo}/releases/${rel.id}/reactions`, { method: 'POST', token: alice.token, json: { content } });
      assert.equal(res.status, 422, content);
    }
    assert.equal((await reactionRows('release', rel.id)).length, 6);
    const again = await kit.request(`POST ${RELEASE_REACTIONS}`, { ...at, content: 'heart' });
    assert.equal(again.status, 200);
    const bobs = await t.octokit(bob.token).request(`POST ${RELEASE_REACTIONS}`, { ...at, content: 'heart' });
    assert.equal(bobs.status, 201);

    const listed = await kit.request(`GET ${RELEASE_REACTIONS}`, { ...at, content: 'heart' });
    assertMatchesOpenApi('GET', RELEASE_REACTIONS, 200, listed.data);
    assert.deepEqual(listed.data.map((x) => x.user?.login), [alice.login, bob.login]);
    const { data: got } = await kit.rest.repos.getRelease(at);
    assert.deepEqual(got.reactions, { ...rel.reactions, total_count: 7, '+1': 1, laugh: 1, heart: 2, hooray: 1, rocket: 1, eyes: 1 });
    const { data: list } = await kit.rest.repos.listReleases({ owner: r.owner, repo: r.repo });
    assert.equal(list[0]!.reactions?.heart, 2);

    await failsWith(t.octokit(bob.token).request(`DELETE ${RELEASE_REACTIONS}/{reaction_id}`, { ...at, reaction_id: again.data.id }), 403);
    assert.equal((await t.octokit(bob.token).request(`DELETE ${RELEASE_REACTIONS}/{reaction_id}`, { ...at, reaction_id: bobs.data.id })).status, 204);
    assert.equal((await kit.rest.repos.getRelease(at)).data.reactions?.heart, 1);
    await failsWith(kit.request(`GET ${RELEASE_REACTIONS}`, { ...at, release_id: 999999 }), 404);

    // A draft's reactions are as hidden as the draft.
    const { data: draft } = await kit.rest.repos.createRelease({ owner: r.owner, repo: r.repo, tag_name: 'v2.0.0', draft: true });
    await failsWith(t.octokit(bob.token).request(`POST ${RELEASE_REACTIONS}`, { ...at, release_id: draft.id, content: 'rocket' }), 404);
    assert.equal((await kit.request(`POST ${RELEASE_REACTIONS}`, { ...at, release_id: draft.id, content: 'rocket' })).status, 201);

    await kit.rest.repos.deleteRelease(at);
    assert.equal((await reactionRows('release', rel.id)).length, 0);
  });
});

describe('reactions on pull request review comments', () => {
  test('create, list, delete, and the summary on the review comment', async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const r = await newRepo(alice);
    const pr = await newPull(alice, r);
    const kit = t.octokit(alice.token);
    const { data: comment } = await kit.rest.pulls.createReviewComment({
      owner: r.owner, repo: r.repo, pull_number: pr.number, body: 'Typo here', commit_id: pr.head.sha, path: 'FIX.md', line: 1,
    });
    const at = { owner: r.owner, repo: r.repo, comment_id: comment.id };

    for (const content of CONTENTS) {
      const res = await kit.request(`POST ${REVIEW_COMMENT_REACTIONS}`, { ...at, content });
      assert.equal(res.status, 201);
      assertMatchesOpenApi('POST', REVIEW_COMMENT_REACTIONS, 201, res.data);
    }
    const again = await kit.request(`POST ${REVIEW_COMMENT_REACTIONS}`, { ...at, content: 'rocket' });
    assert.equal(again.status, 200);
    const bobs = await t.octokit(bob.token).request(`POST ${REVIEW_COMMENT_REACTIONS}`, { ...at, content: 'rocket' });
    assert.equal(bobs.status, 201);
    assert.equal((await reactionRows('pull_request_review_comment', comment.id)).length, 9);

    const listed = await kit.request(`GET ${REVIEW_COMMENT_REACTIONS}`, { ...at, content: 'rocket' });
    assertMatchesOpenApi('GET', REVIEW_COMMENT_REACTIONS, 200, listed.data);
    assert.deepEqual(listed.data.map((x) => x.user?.login), [alice.login, bob.login]);

    const { data: got } = await kit.rest.pulls.getReviewComment({ owner: r.owner, repo: r.repo, comment_id: comment.id });
    assert.deepEqual(got.reactions, {
      url: `${t.baseUrl}/repos/${r.owner}/${r.repo}/pulls/comments/${comment.id}/reactions`,
      total_count: 9, '+1': 1, '-1': 1, laugh: 1, confused: 1, heart: 1, hooray: 1, rocket: 2, eyes: 1,
    });

    await failsWith(t.octokit(bob.token).request(`DELETE ${REVIEW_COMMENT_REACTIONS}/{reaction_id}`, { ...at, reaction_id: again.data.id }), 403);
    assert.equal((await kit.request(`DELETE ${REVIEW_COMMENT_REACTIONS}/{reaction_id}`, { ...at, reaction_id: bobs.data.id })).status, 204);
    assert.equal((await kit.rest.pulls.getReviewComment({ owner: r.owner, repo: r.repo, comment_id: comment.id })).data.reactions?.rocket, 1);
    await failsWith(kit.request(`GET ${REVIEW_COMMENT_REACTIONS}`, { ...at, comment_id: 999999 }), 404);
    await failsWith(t.octokit().request(`POST ${REVIEW_COMMENT_REACTIONS}`, { ...at, content: 'heart' }), 401);
  });
});

// ---------------------------------------------------------------- team discussions

interface Setting {
  org: CreatedOrg;
  team: CreatedTeam;
  maintainer: CreatedUser;
  member: CreatedUser;
  outsider: CreatedUser;
}

async function setting(): Promise<Setting> {
  const org = await createOrgWithOwner(t, ['admin:org', 'write:discussion']);
  const team = await createTeam(t, org.owner.token, org.login, { privacy: 'closed' });
  const scopes = ['read:org', 'write:discussion'];
  const ownerKit = t.octokit(org.owner.token);
  const maintainer = await addMember(t, org, 'member', scopes);
  await ownerKit.rest.teams.addOrUpdateMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: maintainer.login, role: 'maintainer' });
  const member = await addMember(t, org, 'member', scopes);
  await ownerKit.rest.teams.addOrUpdateMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: member.login });
  const outsider = await addMember(t, org, 'member', scopes);
  await ownerKit.request('POST /orgs/{org}/teams/{team_slug}/discussions', { org: org.login, team_slug: team.slug, title: 'Topic', body: 'x', ...PREVIEW });
  await ownerKit.request('POST /orgs/{org}/teams/{team_slug}/discussions/{discussion_number}/comments', {
    org: org.login, team_slug: team.slug, discussion_number: 1, body: 'reply', ...PREVIEW,
  });
  return { org, team, maintainer, member, outsider };
}

const FORMS = {
  discussion: {
    slug: '/orgs/{org}/teams/{team_slug}/discussions/{discussion_number}/reactions',
    ids: '/organizations/{org_id}/team/{team_id}/discussions/{discussion_number}/reactions',
  },
  comment: {
    slug: '/orgs/{org}/teams/{team_slug}/discussions/{discussion_number}/comments/{comment_number}/reactions',
    ids: '/organizations/{org_id}/team/{team_id}/discussions/{discussion_number}/comments/{comment_number}/reactions',
  },
} as const;

function teamReactions(kit: Octokit, s: Setting, subject: 'discussion' | 'comment', form: 'slug' | 'ids') {
  const path = FORMS[subject][form];
  const at = {
    ...(form === 'slug' ? { org: s.org.login, team_slug: s.team.slug } : { org_id: s.org.id, team_id: s.team.id }),
    discussion_number: 1, ...(subject === 'comment' ? { comment_number: 1 } : {}), ...PREVIEW,
  };
  return {
    path,
    create: (content: string) => kit.request(`POST ${path}`, { ...at, content }),
    list: (query: Record<string, unknown> = {}) => kit.request(`GET ${path}`, { ...at, ...query }),
    remove: (id: number) => kit.request(`DELETE ${path}/{reaction_id}`, { ...at, reaction_id: id }),
  };
}

describe('reactions on team discussions and their comments', () => {
  for (const subject of ['discussion', 'comment'] as const) {
    for (const form of ['slug', 'ids'] as const) {
      test(`${subject}, ${form} route: every content value, 201 then 200, filter, delete`, async () => {
        const s = await setting();
        const rx = teamReactions(t.octokit(s.member.token), s, subject, form);
        const slugPath = FORMS[subject].slug;
        for (const content of CONTENTS) {
          const res = await rx.create(content);
          assert.equal(res.status, 201, content);
          assertMatchesOpenApi('POST', slugPath, 201, res.data, 'removed');
          assert.equal(res.data.content, content);
          assert.equal(res.data.user.login, s.member.login);
        }
        const again = await rx.create('laugh');
        assert.equal(again.status, 200);
        assertMatchesOpenApi('POST', slugPath, 200, again.data, 'removed');
        const others = await teamReactions(t.octokit(s.outsider.token), s, subject, form).create('laugh');
        assert.equal(others.status, 201);

        const listed = await rx.list();
        assertMatchesOpenApi('GET', slugPath, 200, listed.data, 'removed');
        assert.equal(listed.data.length, 9);
        const laughs = await rx.list({ content: 'laugh' });
        assert.deepEqual(laughs.data.map((x: { user: { login: string } }) => x.user.login), [s.member.login, s.outsider.login]);
        const paged = await rx.list({ per_page: 4 });
        assert.equal(paged.data.length, 4);
        assert.match(paged.headers.link ?? '', /rel="last"/);

        // The summary on the discussion or comment.
        const kit = t.octokit(s.member.token);
        const record = subject === 'discussion'
          ? (await kit.request('GET /orgs/{org}/teams/{team_slug}/discussions/{discussion_number}', { org: s.org.login, team_slug: s.team.slug, discussion_number: 1, ...PREVIEW })).data
          : (await kit.request('GET /orgs/{org}/teams/{team_slug}/discussions/{discussion_number}/comments/{comment_number}', {
            org: s.org.login, team_slug: s.team.slug, discussion_number: 1, comment_number: 1, ...PREVIEW,
          })).data;
        const base = `${t.baseUrl}/organizations/${s.org.id}/team/${s.team.id}/discussions/1`;
        assert.deepEqual(record.reactions, {
          url: subject === 'discussion' ? `${base}/reactions` : `${base}/comments/1/reactions`,
          total_count: 9, '+1': 1, '-1': 1, laugh: 2, confused: 1, heart: 1, hooray: 1, rocket: 1, eyes: 1,
        });

        // Own reactions go; others' only for maintainers and owners.
        const theirs = others.data.id;
        await failsWith(rx.remove(theirs), 403);
        assert.equal((await rx.remove(again.data.id)).status, 204);
        assert.equal((await teamReactions(t.octokit(s.maintainer.token), s, subject, form).remove(theirs)).status, 204);
        const ownersTurn = (await rx.list({ content: 'heart' })).data[0]!.id;
        assert.equal((await teamReactions(t.octokit(s.org.owner.token), s, subject, form).remove(ownersTurn)).status, 204);
        await failsWith(rx.remove(ownersTurn), 404);
        assert.equal((await rx.list()).data.length, 6);
        const type = subject === 'discussion' ? 'team_discussion' : 'team_discussion_comment';
        const rows = await t.server.ctx.db.selectFrom('reactions').select('content').where('subject_type', '=', type).execute();
        assert.ok(rows.length >= 6);
      });
    }
  }

  test('the squirrel-girl preview is required: 415 naming it, nothing stored', async () => {
    const s = await setting();
    for (const subject of ['discussion', 'comment'] as const) {
      for (const form of ['slug', 'ids'] as const) {
        const path = form === 'slug'
          ? `/orgs/${s.org.login}/teams/${s.team.slug}/discussions/1${subject === 'comment' ? '/comments/1' : ''}/reactions`
          : `/organizations/${s.org.id}/team/${s.team.id}/discussions/1${subject === 'comment' ? '/comments/1' : ''}/reactions`;
        const list = await t.request(path, { token: s.member.token });
        assert.equal(list.status, 415, path);
        assert.match(((await list.json()) as { message: string }).message, /application\/vnd\.service\.squirrel-girl-preview\+json/);
        const post = await t.request(path, { method: 'POST', token: s.member.token, json: { content: 'heart' } });
        assert.equal(post.status, 415);
        const del = await t.request(`${path}/1`, { method: 'DELETE', token: s.member.token });
        assert.equal(del.status, 415);
        const ok = await t.request(path, { method: 'POST', token: s.member.token, json: { content: 'heart' }, headers: { accept: 'application/vnd.service.squirrel-girl-preview+json' } });
        assert.equal(ok.status, form === 'slug' ? 201 : 200, path);
      }
    }
    const count = await t.server.ctx.db.selectFrom('reactions').select('id').where('user_id', '=', s.member.id).execute();
    assert.equal(count.length, 2);
  });

  test('scopes, private discussions and validation', async () => {
    const s = await setting();
    const admin = t.octokit(ADMIN_TOKEN);
    const token = async (scopes: string[]) =>
      (await admin.request('POST /admin/users/{username}/authorizations', { username: s.member.login, scopes })).data.token as string;

    const reader = teamReactions(t.octokit(await token(['read:discussion'])), s, 'discussion', 'slug');
    const read = await reader.list();
    assert.equal(read.status, 200);
    assert.equal(read.headers['x-accepted-oauth-scopes'], 'read:discussion, write:discussion');
    const denied = await failsWith(reader.create('heart'), 403);
    assert.match(denied.message, /write:discussion/);
    await failsWith(teamReactions(t.octokit(await token(['repo', 'admin:org'])), s, 'discussion', 'slug').list(), 403);
    await failsWith(teamReactions(t.octokit(), s, 'discussion', 'slug').list(), 401);

    const bad = await failsWith(teamReactions(t.octokit(s.member.token), s, 'discussion', 'slug').create('smile'), 422);
    assert.deepEqual(bad.errors?.map((e) => [e.field, e.code]), [['content', 'invalid']]);

    // A private discussion's reactions are hidden from members outside the team.
    const kit = t.octokit(s.member.token);
    await kit.request('POST /orgs/{org}/teams/{team_slug}/discussions', { org: s.org.login, team_slug: s.team.slug, title: 'Inner', body: 'x', private: true, ...PREVIEW });
    const path = '/orgs/{org}/teams/{team_slug}/discussions/{discussion_number}/reactions';
    const at = { org: s.org.login, team_slug: s.team.slug, discussion_number: 2, ...PREVIEW };
    assert.equal((await kit.request(`POST ${path}`, { ...at, content: 'eyes' })).status, 201);
    await failsWith(t.octokit(s.outsider.token).request(`GET ${path}`, at), 404);
    await failsWith(t.octokit(s.outsider.token).request(`POST ${path}`, { ...at, content: 'eyes' }), 404);
    assert.equal((await t.octokit(s.org.owner.token).request(`GET ${path}`, at)).data.length, 1);
    await failsWith(kit.request(`GET ${path}`, { ...at, discussion_number: 99 }), 404);
    await failsWith(kit.request(`GET ${FORMS.comment.slug}`, { ...at, discussion_number: 1, comment_number: 99 }), 404);
  });

  test('deleting a comment takes its reactions', async () => {
    const s = await setting();
    const rx = teamReactions(t.octokit(s.member.token), s, 'comment', 'slug');
    await rx.create('heart');
    const [row] = await t.server.ctx.db.selectFrom('team_discussion_comments').innerJoin('team_discussions', 'team_discussions.id', 'team_discussion_comments.discussion_id')
      .select('team_discussion_comments.id').where('team_discussions.team_id', '=', s.team.id).execute();
    assert.equal((await reactionRows('team_discussion_comment', row!.id)).length, 1);
    await t.octokit(s.org.owner.token).request('DELETE /orgs/{org}/teams/{team_slug}/discussions/{discussion_number}/comments/{comment_number}', {
      org: s.org.login, team_slug: s.team.slug, discussion_number: 1, comment_number: 1, ...PREVIEW,
    });
    assert.equal((await reactionRows('team_discussion_comment', row!.id)).length, 0);
    await failsWith(rx.list(), 404);
  });
});
