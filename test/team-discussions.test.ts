// Team discussions and their comments through Octokit (raw routes: upstream removed
// them from its current description) and plain fetch, checked against the published
// schema of @octokit/openapi 22 and the stored state.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { Octokit } from '@octokit/rest';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './helpers/server.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failsWith } from './helpers/failures.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addMember, createOrgWithOwner, createTeam, type CreatedOrg, type CreatedTeam } from './factories/orgs.ts';
import { userActor } from '../src/domain/actor.ts';
import { setDiscussionPinned } from '../src/modules/team-discussions/team-discussions.service.ts';

let t: TestServer;

before(async () => { t = await startTestServer(); });
after(async () => { await t.close(); });

// Octokit sends mediaType.previews only to GraphQL nowadays: the header is set by hand.
const PREVIEW = { headers: { accept: 'application/vnd.github.squirrel-girl-preview+json' } };
const SQUIRREL = 'application/vnd.service.squirrel-girl-preview+json';
const DISCUSSIONS = '/orgs/{org}/teams/{team_slug}/discussions';
const DISCUSSION = `${DISCUSSIONS}/{discussion_number}`;
const COMMENTS = `${DISCUSSION}/comments`;
const COMMENT = `${COMMENTS}/{comment_number}`;
const OWNER_SCOPES = ['admin:org', 'write:discussion'];
const MEMBER_SCOPES = ['read:org', 'write:discussion'];

interface Setting {
  org: CreatedOrg;
  team: CreatedTeam;
  /** Member of the team (and of the organization). */
  member: CreatedUser;
  /** Member of the organization, not of the team. */
  outsider: CreatedUser;
}

async function setting(): Promise<Setting> {
  const org = await createOrgWithOwner(t, OWNER_SCOPES);
  // Closed: every member of the organization sees the team's page (secret is the default).
  const team = await createTeam(t, org.owner.token, org.login, { privacy: 'closed' });
  const member = await addMember(t, org, 'member', MEMBER_SCOPES);
  await t.octokit(org.owner.token).rest.teams.addOrUpdateMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: member.login });
  const outsider = await addMember(t, org, 'member', MEMBER_SCOPES);
  return { org, team, member, outsider };
}

function discussions(kit: Octokit, s: Setting) {
  const at = { org: s.org.login, team_slug: s.team.slug, ...PREVIEW };
  return {
    create: (body: Record<string, unknown>) => kit.request(`POST ${DISCUSSIONS}`, { ...at, ...body }),
    list: (query: Record<string, unknown> = {}) => kit.request(`GET ${DISCUSSIONS}`, { ...at, ...query }),
    get: (n: number) => kit.request(`GET ${DISCUSSION}`, { ...at, discussion_number: n }),
    update: (n: number, body: Record<string, unknown>) => kit.request(`PATCH ${DISCUSSION}`, { ...at, discussion_number: n, ...body }),
    remove: (n: number) => kit.request(`DELETE ${DISCUSSION}`, { ...at, discussion_number: n }),
    comment: (n: number, body: string) => kit.request(`POST ${COMMENTS}`, { ...at, discussion_number: n, body }),
    comments: (n: number, query: Record<string, unknown> = {}) => kit.request(`GET ${COMMENTS}`, { ...at, discussion_number: n, ...query }),
    getComment: (n: number, c: number) => kit.request(`GET ${COMMENT}`, { ...at, discussion_number: n, comment_number: c }),
    updateComment: (n: number, c: number, body: string) => kit.request(`PATCH ${COMMENT}`, { ...at, discussion_number: n, comment_number: c, body }),
    removeComment: (n: number, c: number) => kit.request(`DELETE ${COMMENT}`, { ...at, discussion_number: n, comment_number: c }),
  };
}

function md5(text: string): string {
  return createHash('md5').update(text).digest('hex');
}

async function discussionRow(teamId: number, number: number) {
  return t.server.ctx.db.selectFrom('team_discussions').selectAll().where('team_id', '=', teamId).where('number', '=', number).executeTakeFirst();
}

describe('team discussions', () => {
  test('create, get and list: the published record, numbered per team, at both addresses of the team', async () => {
    const s = await setting();
    const d = discussions(t.octokit(s.member.token), s);
    const created = await d.create({ title: 'Release train', body: 'Who drives **this** week? @' + s.outsider.login });
    assert.equal(created.status, 201);
    assertMatchesOpenApi('POST', DISCUSSIONS, 201, created.data, 'removed');
    const v = created.data;
    const teamUrl = `${t.baseUrl}/organizations/${s.org.id}/team/${s.team.id}`;
    const url = `${teamUrl}/discussions/1`;
    assert.equal(v.number, 1);
    assert.equal(v.title, 'Release train');
    assert.equal(v.body, 'Who drives **this** week? @' + s.outsider.login);
    assert.match(v.body_html, /<strong>this<\/strong>/);
    assert.match(v.body_html, new RegExp(`href="${t.baseUrl}/${s.outsider.login}"`));
    assert.equal(v.body_version, md5(v.body));
    assert.equal(v.author.login, s.member.login);
    assert.equal(v.author.id, s.member.id);
    assert.equal(v.comments_count, 0);
    assert.equal(v.private, false);
    assert.equal(v.pinned, false);
    assert.equal(v.last_edited_at, null);
    assert.equal(v.team_url, teamUrl);
    assert.equal(v.url, url);
    assert.equal(v.comments_url, `${url}/comments`);
    assert.equal(v.html_url, `${t.baseUrl}/orgs/${s.org.login}/teams/${s.team.slug}/discussions/1`);
    assert.equal(typeof v.node_id, 'string');
    assert.match(v.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(v.updated_at, v.created_at);
    assert.deepEqual(v.reactions, {
      url: `${url}/reactions`, total_count: 0, '+1': 0, '-1': 0, laugh: 0, confused: 0, heart: 0, hooray: 0, eyes: 0, rocket: 0,
    });

    const row = await discussionRow(s.team.id, 1);
    assert.equal(row?.author_id, s.member.id);
    assert.equal(row?.body_version, md5(v.body));

    const got = await d.get(1);
    assertMatchesOpenApi('GET', DISCUSSION, 200, got.data, 'removed');
    assert.deepEqual(got.data, v);

    // The ids route answers the same record.
    const byIds = await t.octokit(s.member.token).request('GET /organizations/{org_id}/team/{team_id}/discussions/{discussion_number}', {
      org_id: s.org.id, team_id: s.team.id, discussion_number: 1, ...PREVIEW,
    });
    assert.deepEqual(byIds.data, v);

    const second = await t.octokit(s.org.owner.token).request('POST /organizations/{org_id}/team/{team_id}/discussions', {
      org_id: s.org.id, team_id: s.team.id, title: 'Second', body: '', ...PREVIEW,
    });
    assert.equal(second.status, 201);
    assert.equal(second.data.number, 2);
    assert.equal(second.data.author.login, s.org.owner.login);

    // Another team counts from 1.
    const other = await createTeam(t, s.org.owner.token, s.org.login);
    const first = await discussions(t.octokit(s.org.owner.token), { ...s, team: other }).create({ title: 'Elsewhere', body: 'x' });
    assert.equal(first.data.number, 1);

    const listed = await d.list();
    assertMatchesOpenApi('GET', DISCUSSIONS, 200, listed.data, 'removed');
    assert.deepEqual(listed.data.map((x: { number: number }) => x.number), [2, 1]);
  });

  test('list: direction, the pinned filter and Link pagination', async () => {
    const s = await setting();
    const d = discussions(t.octokit(s.org.owner.token), s);
    for (let i = 1; i <= 5; i += 1) await d.create({ title: `Post ${i}`, body: `body ${i}` });
    assert.deepEqual((await d.list({ direction: 'asc' })).data.map((x: { number: number }) => x.number), [1, 2, 3, 4, 5]);
    assert.deepEqual((await d.list()).data.map((x: { number: number }) => x.number), [5, 4, 3, 2, 1]);

    const page = await d.list({ per_page: 2, page: 2, direction: 'asc' });
    assert.deepEqual(page.data.map((x: { number: number }) => x.number), [3, 4]);
    const link = page.headers.link ?? '';
    assert.match(link, /rel="next"/);
    assert.match(link, /page=3/);
    assert.match(link, /rel="last"/);
    assert.match(link, /rel="prev"/);

    // Pinning is not a REST operation upstream (GraphQL's updateTeamDiscussion); the service does it.
    const owner = userActor({ id: s.org.owner.id, login: s.org.owner.login, siteAdmin: false }, 'token', 1, OWNER_SCOPES, '127.0.0.1');
    const pinned = await setDiscussionPinned(t.server.ctx, owner, { org: s.org.login, teamSlug: s.team.slug }, 2, true);
    assert.equal(pinned.discussion.pinned, true);
    assert.deepEqual((await d.list({ pinned: 'true' })).data.map((x: { number: number }) => x.number), [2]);
    assert.deepEqual((await d.list({ pinned: 'false' })).data.map((x: { number: number }) => x.number), [5, 4, 3, 1]);
    assert.equal((await d.get(2)).data.pinned, true);
    // Members may not pin.
    const member = userActor({ id: s.member.id, login: s.member.login, siteAdmin: false }, 'token', 1, MEMBER_SCOPES, '127.0.0.1');
    await assert.rejects(setDiscussionPinned(t.server.ctx, member, { org: s.org.login, teamSlug: s.team.slug }, 1, true), /team maintainer or an organization owner/);

    await failsWith(d.list({ direction: 'sideways' }), 422);
  });

  test('update: title and body, body_version and last_edited_at follow; author, maintainers and owners only', async () => {
    const s = await setting();
    const mine = discussions(t.octokit(s.member.token), s);
    const created = (await mine.create({ title: 'Draft', body: 'first' })).data;

    const same = await mine.update(1, {});
    assert.equal(same.data.last_edited_at, null);
    assert.equal(same.data.body_version, created.body_version);

    const updated = await mine.update(1, { title: 'Final', body: 'second _take_' });
    assertMatchesOpenApi('PATCH', DISCUSSION, 200, updated.data, 'removed');
    assert.equal(updated.data.title, 'Final');
    assert.equal(updated.data.body, 'second _take_');
    assert.match(updated.data.body_html, /<em>take<\/em>/);
    assert.equal(updated.data.body_version, md5('second _take_'));
    assert.notEqual(updated.data.body_version, created.body_version);
    assert.match(updated.data.last_edited_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const row = await discussionRow(s.team.id, 1);
    assert.equal(row?.title, 'Final');
    assert.equal(row?.body_version, md5('second _take_'));

    // Title only keeps the body.
    const renamed = await mine.update(1, { title: 'Final (2)' });
    assert.equal(renamed.data.body, 'second _take_');

    const err = await failsWith(discussions(t.octokit(s.outsider.token), s).update(1, { title: 'Hijack' }), 403);
    assert.match(err.message, /author/);
    assert.equal((await discussionRow(s.team.id, 1))?.title, 'Final (2)');

    // The organization owner moderates.
    const byOwner = await discussions(t.octokit(s.org.owner.token), s).update(1, { body: 'owner edit' });
    assert.equal(byOwner.data.body, 'owner edit');
    assert.equal(byOwner.data.author.login, s.member.login);

    const blank = await failsWith(mine.update(1, { title: '  ' }), 422);
    assert.deepEqual(blank.errors?.map((e) => [e.resource, e.field, e.code]), [['TeamDiscussion', 'title', 'missing_field']]);
    await failsWith(mine.update(99, { title: 'x' }), 404);
  });

  test('create validates: title and body required, title not blank', async () => {
    const s = await setting();
    const d = discussions(t.octokit(s.member.token), s);
    const missing = await failsWith(d.create({ body: 'no title' }), 422);
    assert.deepEqual(missing.errors?.map((e) => [e.field, e.code]), [['title', 'missing_field']]);
    const noBody = await failsWith(d.create({ title: 'no body' }), 422);
    assert.deepEqual(noBody.errors?.map((e) => [e.field, e.code]), [['body', 'missing_field']]);
    await failsWith(d.create({ title: '', body: 'x' }), 422);
    await failsWith(d.create({ title: 'x', body: 'y', private: 'yes' }), 422);
    assert.equal((await d.list()).data.length, 0);
  });

  test('delete: 204, then gone; numbers are not given again; comments and reactions go with it', async () => {
    const s = await setting();
    const d = discussions(t.octokit(s.member.token), s);
    await d.create({ title: 'One', body: '1' });
    await d.create({ title: 'Two', body: '2' });
    await d.comment(2, 'a comment');
    await t.octokit(s.member.token).request(`POST ${DISCUSSION}/reactions`, {
      org: s.org.login, team_slug: s.team.slug, discussion_number: 2, content: 'heart', ...PREVIEW,
    });
    const id = (await discussionRow(s.team.id, 2))!.id;

    await failsWith(discussions(t.octokit(s.outsider.token), s).remove(2), 403);
    const res = await d.remove(2);
    assert.equal(res.status, 204);
    await failsWith(d.get(2), 404);
    await failsWith(d.remove(2), 404);
    assert.equal(await discussionRow(s.team.id, 2), undefined);
    const db = t.server.ctx.db;
    assert.equal((await db.selectFrom('team_discussion_comments').selectAll().where('discussion_id', '=', id).execute()).length, 0);
    assert.equal((await db.selectFrom('reactions').selectAll().where('subject_type', '=', 'team_discussion').where('subject_id', '=', id).execute()).length, 0);

    const next = await d.create({ title: 'Three', body: '3' });
    assert.equal(next.data.number, 3);
  });

  test('private discussions: team members and organization owners only', async () => {
    const s = await setting();
    const d = discussions(t.octokit(s.member.token), s);
    const created = await d.create({ title: 'Team only', body: 'secret plans', private: true });
    assert.equal(created.data.private, true);
    await d.create({ title: 'Open', body: 'for all members' });

    const outside = discussions(t.octokit(s.outsider.token), s);
    await failsWith(outside.get(1), 404);
    await failsWith(outside.comment(1, 'let me in'), 404);
    await failsWith(outside.comments(1), 404);
    await failsWith(t.octokit(s.outsider.token).request(`GET ${DISCUSSION}/reactions`, {
      org: s.org.login, team_slug: s.team.slug, discussion_number: 1, ...PREVIEW,
    }), 404);
    assert.deepEqual((await outside.list()).data.map((x: { title: string }) => x.title), ['Open']);
    assert.equal((await outside.get(2)).data.title, 'Open');
    // Someone outside the team cannot post privately to it.
    const refused = await failsWith(outside.create({ title: 'x', body: 'y', private: true }), 403);
    assert.match(refused.message, /private/);

    const owner = discussions(t.octokit(s.org.owner.token), s);
    assert.equal((await owner.get(1)).data.title, 'Team only');
    assert.deepEqual((await owner.list()).data.map((x: { title: string }) => x.title), ['Open', 'Team only']);

    // Members of a child team are members of the team.
    const child = await createTeam(t, s.org.owner.token, s.org.login, { parent_team_id: s.team.id });
    await t.octokit(s.org.owner.token).rest.teams.addOrUpdateMembershipForUserInOrg({ org: s.org.login, team_slug: child.slug, username: s.outsider.login });
    assert.equal((await outside.get(1)).data.title, 'Team only');
  });

  test('who may see the team page at all: secret teams, outsiders of the organization, anonymous callers', async () => {
    const s = await setting();
    const secret = await createTeam(t, s.org.owner.token, s.org.login, { privacy: 'secret' });
    await discussions(t.octokit(s.org.owner.token), { ...s, team: secret }).create({ title: 'Hidden', body: 'x' });
    await failsWith(discussions(t.octokit(s.member.token), { ...s, team: secret }).list(), 404);
    await failsWith(discussions(t.octokit(s.member.token), { ...s, team: secret }).get(1), 404);

    const stranger = await createUser(t, MEMBER_SCOPES);
    await failsWith(discussions(t.octokit(stranger.token), s).list(), 404);
    await failsWith(discussions(t.octokit(stranger.token), s).create({ title: 'x', body: 'y' }), 404);
    await failsWith(discussions(t.octokit(), s).list(), 401);
    await failsWith(discussions(t.octokit(s.member.token), { ...s, team: { ...s.team, slug: 'no-such-team' } }).list(), 404);
  });

  test('scopes: read:discussion reads, write:discussion writes; X-Accepted-OAuth-Scopes', async () => {
    const s = await setting();
    await discussions(t.octokit(s.member.token), s).create({ title: 'Scoped', body: 'x' });
    const admin = t.octokit(ADMIN_TOKEN);
    const token = async (scopes: string[]) =>
      (await admin.request('POST /admin/users/{username}/authorizations', { username: s.member.login, scopes })).data.token as string;

    const reader = discussions(t.octokit(await token(['read:discussion'])), s);
    const read = await reader.list();
    assert.equal(read.data.length, 1);
    assert.equal(read.headers['x-accepted-oauth-scopes'], 'read:discussion, write:discussion');
    const denied = await failsWith(reader.create({ title: 'x', body: 'y' }), 403);
    assert.match(denied.message, /write:discussion/);
    await failsWith(reader.comment(1, 'x'), 403);
    await failsWith(reader.update(1, { title: 'x' }), 403);
    await failsWith(reader.remove(1), 403);

    const none = discussions(t.octokit(await token(['repo', 'admin:org'])), s);
    const err = await failsWith(none.list(), 403);
    assert.match(err.message, /read:discussion/);
    await failsWith(none.get(1), 403);
    assert.equal((await discussionRow(s.team.id, 1))?.title, 'Scoped');
  });

  test('the squirrel-girl preview is required: 415 naming it; vnd.service and vnd.github both work', async () => {
    const s = await setting();
    const path = `/orgs/${s.org.login}/teams/${s.team.slug}/discussions`;
    const plain = await t.request(path, { token: s.member.token });
    assert.equal(plain.status, 415);
    const body = await plain.json() as { message: string };
    assert.match(body.message, /application\/vnd\.service\.squirrel-girl-preview\+json/);

    const post = await t.request(path, { method: 'POST', token: s.member.token, json: { title: 'x', body: 'y' } });
    assert.equal(post.status, 415);
    assert.equal((await discussionRow(s.team.id, 1)), undefined);
    const byIds = await t.request(`/organizations/${s.org.id}/team/${s.team.id}/discussions/1/comments`, { token: s.member.token });
    assert.equal(byIds.status, 415);

    const service = await t.request(path, { method: 'POST', token: s.member.token, json: { title: 'x', body: 'y' }, headers: { accept: SQUIRREL } });
    assert.equal(service.status, 201);
    const github = await t.request(`${path}/1`, { token: s.member.token, headers: { accept: 'application/vnd.github.squirrel-girl-preview+json' } });
    assert.equal(github.status, 200);
    await failsWith(t.octokit(s.member.token).request(`GET ${DISCUSSIONS}`, { org: s.org.login, team_slug: s.team.slug }), 415);
  });
});

describe('team discussion comments', () => {
  test('create, get, list, update, delete: numbered per discussion, counted on the discussion', async () => {
    const s = await setting();
    const d = discussions(t.octokit(s.member.token), s);
    await d.create({ title: 'Topic', body: 'x' });
    const c1 = await d.comment(1, 'First *reply*');
    assert.equal(c1.status, 201);
    assertMatchesOpenApi('POST', COMMENTS, 201, c1.data, 'removed');
    const url = `${t.baseUrl}/organizations/${s.org.id}/team/${s.team.id}/discussions/1`;
    assert.equal(c1.data.number, 1);
    assert.equal(c1.data.body, 'First *reply*');
    assert.match(c1.data.body_html, /<em>reply<\/em>/);
    assert.equal(c1.data.body_version, md5('First *reply*'));
    assert.equal(c1.data.author.login, s.member.login);
    assert.equal(c1.data.discussion_url, url);
    assert.equal(c1.data.url, `${url}/comments/1`);
    assert.equal(c1.data.html_url, `${t.baseUrl}/orgs/${s.org.login}/teams/${s.team.slug}/discussions/1/comments/1`);
    assert.equal(c1.data.last_edited_at, null);
    assert.equal(c1.data.reactions.url, `${url}/comments/1/reactions`);
    assert.equal(c1.data.reactions.total_count, 0);

    const other = discussions(t.octokit(s.outsider.token), s);
    const c2 = await other.comment(1, 'Second');
    assert.equal(c2.data.number, 2);
    await d.comment(1, 'Third');
    assert.equal((await d.get(1)).data.comments_count, 3);

    const got = await d.getComment(1, 2);
    assertMatchesOpenApi('GET', COMMENT, 200, got.data, 'removed');
    assert.deepEqual(got.data, c2.data);

    const listed = await d.comments(1, { direction: 'asc' });
    assertMatchesOpenApi('GET', COMMENTS, 200, listed.data, 'removed');
    assert.deepEqual(listed.data.map((c: { number: number }) => c.number), [1, 2, 3]);
    assert.deepEqual((await d.comments(1)).data.map((c: { number: number }) => c.number), [3, 2, 1]);
    const page = await d.comments(1, { per_page: 1, direction: 'asc' });
    assert.deepEqual(page.data.map((c: { number: number }) => c.number), [1]);
    assert.match(page.headers.link ?? '', /rel="last"/);

    // Author edits; others may not; the owner may.
    const edited = await other.updateComment(1, 2, 'Second, edited');
    assertMatchesOpenApi('PATCH', COMMENT, 200, edited.data, 'removed');
    assert.equal(edited.data.body, 'Second, edited');
    assert.equal(edited.data.body_version, md5('Second, edited'));
    assert.match(edited.data.last_edited_at, /Z$/);
    await failsWith(d.updateComment(1, 2, 'not mine'), 403);
    assert.equal((await d.getComment(1, 2)).data.body, 'Second, edited');
    await failsWith(d.updateComment(1, 2, ''), 422);
    await failsWith(d.comment(1, '   '), 422);

    await failsWith(d.removeComment(1, 2), 403);
    assert.equal((await other.removeComment(1, 2)).status, 204);
    await failsWith(d.getComment(1, 2), 404);
    assert.equal((await d.get(1)).data.comments_count, 2);
    const c4 = await d.comment(1, 'Fourth');
    assert.equal(c4.data.number, 4);
    assert.equal((await discussions(t.octokit(s.org.owner.token), s).removeComment(1, 1)).status, 204);
    assert.deepEqual((await d.comments(1, { direction: 'asc' })).data.map((c: { number: number }) => c.number), [3, 4]);

    await failsWith(d.getComment(1, 99), 404);
    await failsWith(d.comment(99, 'x'), 404);
  });

  test('the ids route form works for comments too', async () => {
    const s = await setting();
    const kit = t.octokit(s.member.token);
    const at = { org_id: s.org.id, team_id: s.team.id, ...PREVIEW };
    await kit.request('POST /organizations/{org_id}/team/{team_id}/discussions', { ...at, title: 'T', body: 'B' });
    const c = await kit.request('POST /organizations/{org_id}/team/{team_id}/discussions/{discussion_number}/comments', { ...at, discussion_number: 1, body: 'hi' });
    assert.equal(c.status, 201);
    const updated = await kit.request('PATCH /organizations/{org_id}/team/{team_id}/discussions/{discussion_number}/comments/{comment_number}', {
      ...at, discussion_number: 1, comment_number: 1, body: 'hello',
    });
    assert.equal(updated.data.body, 'hello');
    const listed = await kit.request('GET /organizations/{org_id}/team/{team_id}/discussions/{discussion_number}/comments', { ...at, discussion_number: 1 });
    assert.deepEqual(listed.data.map((x: { body: string }) => x.body), ['hello']);
    const removed = await kit.request('DELETE /organizations/{org_id}/team/{team_id}/discussions/{discussion_number}/comments/{comment_number}', {
      ...at, discussion_number: 1, comment_number: 1,
    });
    assert.equal(removed.status, 204);
    // A team id of another organization is not found.
    const elsewhere = await createOrgWithOwner(t, OWNER_SCOPES);
    await failsWith(kit.request('GET /organizations/{org_id}/team/{team_id}/discussions', { ...at, org_id: elsewhere.id }), 404);
  });
});
