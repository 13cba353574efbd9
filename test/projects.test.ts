// Classic projects through Octokit with the inertia preview: projects on organizations,
// repositories and users (numbers, state filter and transitions, conditional reads),
// owners with projects switched off (404, and 410 on create), the permission matrix
// (owner, member per organization_permission, team, collaborator, outsider, anonymous;
// public and private), columns and cards with their moves and order (20 concurrent
// moves), issue cards and their rules, collaborators, and cards on GraphQL issues.
// Bodies are checked against the published description of these removed endpoints.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { assertMatchesWebhookSchema } from './helpers/webhook-schema.ts';
import { headerOf, ReceiverPool, type Received } from './helpers/webhook-receiver.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failsWith } from './helpers/failures.ts';
import { gql } from './helpers/graphql.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addMember, createOrgWithOwner, type CreatedOrg } from './factories/orgs.ts';
import { createIssue } from './factories/issues.ts';
import { createRepo } from './factories/repos.ts';

const ENV = {
  WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,::1',
  WHARF_WEBHOOK_RETRY_BASE_MS: '100',
  WHARF_WEBHOOK_POLL_MS: '200',
};

let t: TestServer;
const pool = new ReceiverPool();
before(async () => { t = await startTestServer({ env: ENV }); });
after(async () => {
  await t.close();
  await pool.stopAll();
});

const PREVIEW = { mediaType: { previews: ['inertia'] } };
// Any: Octokit has no types for these removed endpoints; each test reads the fields it checks.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

async function call(token: string | undefined, route: string, params: Record<string, unknown> = {}): Promise<{ status: number; data: Json; headers: Record<string, string | undefined> }> {
  const res = await t.octokit(token).request(route, { ...PREVIEW, ...params });
  return { status: res.status, data: res.data as Json, headers: res.headers as Record<string, string | undefined> };
}

const check = (method: string, path: string, status: number, body: unknown) => assertMatchesOpenApi(method, path, status, body, 'removed');

async function orgProject(org: CreatedOrg, name = 'Board', body?: string): Promise<Json> {
  return (await call(org.owner.token, 'POST /orgs/{org}/projects', { org: org.login, name, ...(body ? { body } : {}) })).data;
}

async function column(token: string, projectId: number, name: string): Promise<Json> {
  return (await call(token, 'POST /projects/{project_id}/columns', { project_id: projectId, name })).data;
}

async function note(token: string, columnId: number, text: string): Promise<Json> {
  return (await call(token, 'POST /projects/columns/{column_id}/cards', { column_id: columnId, note: text })).data;
}

async function cardIds(token: string, columnId: number, archived = 'not_archived'): Promise<number[]> {
  return (await call(token, 'GET /projects/columns/{column_id}/cards', { column_id: columnId, archived_state: archived, per_page: 100 })).data.map((c: Json) => c.id);
}

describe('projects on organizations, repositories and users', () => {
  test('organization: create, numbers, fields, state filter and transitions, conditional read, delete', async () => {
    const org = await createOrgWithOwner(t);
    const res = await call(org.owner.token, 'POST /orgs/{org}/projects', { org: org.login, name: 'Roadmap', body: 'Quarter plan' });
    assert.equal(res.status, 201);
    check('POST', '/orgs/{org}/projects', 201, res.data);
    const p = res.data;
    assert.equal(p.number, 1);
    assert.equal(p.url, `${t.baseUrl}/projects/${p.id}`);
    assert.equal(p.columns_url, `${p.url}/columns`);
    assert.equal(p.owner_url, `${t.baseUrl}/orgs/${org.login}`);
    assert.equal(p.html_url, `${t.baseUrl}/orgs/${org.login}/projects/1`);
    assert.deepEqual([p.name, p.body, p.state, p.creator.login], ['Roadmap', 'Quarter plan', 'open', org.owner.login]);
    assert.deepEqual([p.organization_permission, p.private], ['write', true]);
    const second = await orgProject(org, 'Second');
    assert.equal(second.number, 2);

    const closed = await call(org.owner.token, 'PATCH /projects/{project_id}', { project_id: second.id, state: 'closed', body: null });
    check('PATCH', '/projects/{project_id}', 200, closed.data);
    assert.deepEqual([closed.data.state, closed.data.body], ['closed', null]);
    const names = async (state?: string) => (await call(org.owner.token, 'GET /orgs/{org}/projects', { org: org.login, ...(state ? { state } : {}) })).data.map((x: Json) => x.name);
    assert.deepEqual(await names(), ['Roadmap']);
    assert.deepEqual(await names('closed'), ['Second']);
    assert.deepEqual(await names('all'), ['Roadmap', 'Second']);
    const bad = await failsWith(call(org.owner.token, 'GET /orgs/{org}/projects', { org: org.login, state: 'sideways' }), 422);
    assert.equal(bad.errors?.[0]?.field, 'state');
    const reopened = await call(org.owner.token, 'PATCH /projects/{project_id}', { project_id: second.id, state: 'open' });
    assert.equal(reopened.data.state, 'open');
    await failsWith(call(org.owner.token, 'PATCH /projects/{project_id}', { project_id: second.id, state: 'archived' }), 422);
    await failsWith(call(org.owner.token, 'PATCH /projects/{project_id}', { project_id: second.id, name: '  ' }), 422);
    await failsWith(call(org.owner.token, 'POST /orgs/{org}/projects', { org: org.login, body: 'no name' }), 422);
    assert.equal((await call(org.owner.token, 'GET /projects/{project_id}', { project_id: second.id })).data.name, 'Second', 'rejected changes left it as it was');

    const got = await t.request(`/projects/${p.id}`, { token: org.owner.token, headers: { accept: 'application/vnd.github.inertia-preview+json' } });
    assert.equal(got.status, 200);
    check('GET', '/projects/{project_id}', 200, await got.json());
    const etag = got.headers.get('etag');
    assert.ok(etag);
    const again = await t.request(`/projects/${p.id}`, { token: org.owner.token, headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);

    assert.equal((await call(org.owner.token, 'DELETE /projects/{project_id}', { project_id: p.id })).status, 204);
    await failsWith(call(org.owner.token, 'GET /projects/{project_id}', { project_id: p.id }), 404);
    await call(org.owner.token, 'DELETE /projects/{project_id}', { project_id: second.id });
    assert.equal((await orgProject(org, 'Third')).number, 3, 'numbers of deleted projects are not given again');
    const [x, y] = await Promise.all([orgProject(org, 'Racing 1'), orgProject(org, 'Racing 2')]);
    assert.deepEqual([x.number, y.number].sort(), [4, 5]);
  });

  test('repository and user projects: create, list, html_url, visibility of the repository', async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const r = await createRepo(t, alice);
    const res = await call(alice.token, 'POST /repos/{owner}/{repo}/projects', { owner: r.owner, repo: r.repo, name: 'Bugs' });
    assert.equal(res.status, 201);
    check('POST', '/repos/{owner}/{repo}/projects', 201, res.data);
    assert.equal(res.data.html_url, `${t.baseUrl}/${r.owner}/${r.repo}/projects/1`);
    assert.equal(res.data.owner_url, `${t.baseUrl}/repos/${r.owner}/${r.repo}`);
    const listed = await call(bob.token, 'GET /repos/{owner}/{repo}/projects', { owner: r.owner, repo: r.repo });
    check('GET', '/repos/{owner}/{repo}/projects', 200, listed.data);
    assert.deepEqual(listed.data.map((x: Json) => x.id), [res.data.id], 'a public repository shows its projects to everyone');
    await failsWith(call(bob.token, 'PATCH /projects/{project_id}', { project_id: res.data.id, name: 'Mine' }), 410);
    await failsWith(call(bob.token, 'POST /repos/{owner}/{repo}/projects', { owner: r.owner, repo: r.repo, name: 'X' }), 410);
    await failsWith(call(undefined, 'PATCH /projects/{project_id}', { project_id: res.data.id, name: 'Anon' }), 401);

    const hidden = await createRepo(t, alice, { private: true });
    const secret = (await call(alice.token, 'POST /repos/{owner}/{repo}/projects', { owner: hidden.owner, repo: hidden.repo, name: 'Secret' })).data;
    await failsWith(call(bob.token, 'GET /projects/{project_id}', { project_id: secret.id }), 404);
    await failsWith(call(bob.token, 'GET /repos/{owner}/{repo}/projects', { owner: hidden.owner, repo: hidden.repo }), 404);
    await t.octokit(alice.token).rest.repos.update({ owner: hidden.owner, repo: hidden.repo, archived: true });
    const archived = await failsWith(call(alice.token, 'PATCH /projects/{project_id}', { project_id: secret.id, name: 'Renamed' }), 403);
    assert.equal(archived.message, 'Repository was archived so is read-only.');

    const mine = await call(alice.token, 'POST /user/projects', { name: 'Personal', body: null });
    assert.equal(mine.status, 201);
    check('POST', '/user/projects', 201, mine.data);
    assert.equal(mine.data.html_url, `${t.baseUrl}/users/${alice.login}/projects/1`);
    const theirs = await call(bob.token, 'GET /users/{username}/projects', { username: alice.login });
    check('GET', '/users/{username}/projects', 200, theirs.data);
    assert.deepEqual(theirs.data.map((x: Json) => x.name), ['Personal']);
    await failsWith(call(alice.token, 'PATCH /projects/{project_id}', { project_id: mine.data.id, private: true, organization_permission: 'read' }), 422);
    await call(alice.token, 'PATCH /projects/{project_id}', { project_id: mine.data.id, private: true });
    assert.deepEqual((await call(bob.token, 'GET /users/{username}/projects', { username: alice.login })).data, [], 'a private user project is hidden');
    await failsWith(call(bob.token, 'GET /projects/{project_id}', { project_id: mine.data.id }), 404);
  });

  test('projects switched off: the owner answers 404, creating 410', async () => {
    const org = await createOrgWithOwner(t);
    const p = await orgProject(org);
    await t.octokit(org.owner.token).rest.orgs.update({ org: org.login, has_organization_projects: false });
    await failsWith(call(org.owner.token, 'GET /orgs/{org}/projects', { org: org.login }), 404);
    await failsWith(call(org.owner.token, 'GET /projects/{project_id}', { project_id: p.id }), 404);
    const gone = await failsWith(call(org.owner.token, 'POST /orgs/{org}/projects', { org: org.login, name: 'No' }), 410);
    assert.equal(gone.message, 'Projects are disabled for this organization');
    const orgRepo = await createRepo(t, org.owner, { org: org.login });
    assert.equal((await call(org.owner.token, 'GET /repos/{owner}/{repo}/projects', { owner: orgRepo.owner, repo: orgRepo.repo })).status, 200);
    await t.octokit(org.owner.token).rest.orgs.update({ org: org.login, has_repository_projects: false });
    await failsWith(call(org.owner.token, 'GET /repos/{owner}/{repo}/projects', { owner: orgRepo.owner, repo: orgRepo.repo }), 404);
    await failsWith(call(org.owner.token, 'POST /repos/{owner}/{repo}/projects', { owner: orgRepo.owner, repo: orgRepo.repo, name: 'No' }), 410);

    const alice = await createUser(t);
    const r = await createRepo(t, alice);
    await call(alice.token, 'POST /repos/{owner}/{repo}/projects', { owner: r.owner, repo: r.repo, name: 'Before' });
    await t.octokit(alice.token).rest.repos.update({ owner: r.owner, repo: r.repo, has_projects: false });
    await failsWith(call(alice.token, 'GET /repos/{owner}/{repo}/projects', { owner: r.owner, repo: r.repo }), 404);
    const repoGone = await failsWith(call(alice.token, 'POST /repos/{owner}/{repo}/projects', { owner: r.owner, repo: r.repo, name: 'No' }), 410);
    assert.equal(repoGone.message, 'Projects are disabled for this repository');
    await t.octokit(alice.token).rest.repos.update({ owner: r.owner, repo: r.repo, has_projects: true });
    assert.equal((await call(alice.token, 'GET /repos/{owner}/{repo}/projects', { owner: r.owner, repo: r.repo })).data.length, 1);
  });
});

describe('permissions on organization projects', () => {
  test('owner, members per organization_permission, team grant, collaborator, outsider, anonymous; private and public', async () => {
    const org = await createOrgWithOwner(t);
    const member = await addMember(t, org);
    const collaborator = await createUser(t);
    const outsider = await createUser(t);
    const p = await orgProject(org, 'Matrix');
    const canRead = async (u: CreatedUser | undefined) => {
      try { await call(u?.token, 'GET /projects/{project_id}', { project_id: p.id }); return true; } catch { return false; }
    };
    const rename = (u: CreatedUser | undefined, name: string) => call(u?.token, 'PATCH /projects/{project_id}', { project_id: p.id, name });

    // Default: private, members write.
    assert.deepEqual([await canRead(member), await canRead(outsider), await canRead(undefined)], [true, false, false]);
    await rename(member, 'By a member');
    await failsWith(rename(outsider, 'x'), 404);
    await failsWith(call(member.token, 'PATCH /projects/{project_id}', { project_id: p.id, private: false }), 410, );

    await call(org.owner.token, 'PATCH /projects/{project_id}', { project_id: p.id, organization_permission: 'read' });
    assert.equal(await canRead(member), true);
    const refused = await failsWith(rename(member, 'x'), 410);
    assert.match(refused.message, /write access/);

    await call(org.owner.token, 'PATCH /projects/{project_id}', { project_id: p.id, organization_permission: 'none' });
    assert.equal(await canRead(member), false, 'none: a member without another grant does not see a private project');

    const put = await call(org.owner.token, 'PUT /projects/{project_id}/collaborators/{username}', { project_id: p.id, username: collaborator.login, permission: 'write' });
    assert.equal(put.status, 204);
    await rename(collaborator, 'By a collaborator');
    const perm = await call(org.owner.token, 'GET /projects/{project_id}/collaborators/{username}/permission', { project_id: p.id, username: collaborator.login });
    check('GET', '/projects/{project_id}/collaborators/{username}/permission', 200, perm.data);
    assert.deepEqual([perm.data.permission, perm.data.user.login], ['write', collaborator.login]);
    const none = await call(org.owner.token, 'GET /projects/{project_id}/collaborators/{username}/permission', { project_id: p.id, username: outsider.login });
    assert.equal(none.data.permission, 'none');
    const ownerPerm = await call(org.owner.token, 'GET /projects/{project_id}/collaborators/{username}/permission', { project_id: p.id, username: org.owner.login });
    assert.equal(ownerPerm.data.permission, 'admin');
    const list = await call(org.owner.token, 'GET /projects/{project_id}/collaborators', { project_id: p.id, affiliation: 'direct' });
    check('GET', '/projects/{project_id}/collaborators', 200, list.data);
    assert.deepEqual(list.data.map((u: Json) => u.login), [collaborator.login]);
    assert.deepEqual((await call(org.owner.token, 'GET /projects/{project_id}/collaborators', { project_id: p.id, affiliation: 'outside' })).data.map((u: Json) => u.login), [collaborator.login]);
    await failsWith(call(collaborator.token, 'GET /projects/{project_id}/collaborators', { project_id: p.id }), 410);
    await failsWith(call(org.owner.token, 'PUT /projects/{project_id}/collaborators/{username}', { project_id: p.id, username: 'no-such-user-here' }), 404);
    await failsWith(call(org.owner.token, 'PUT /projects/{project_id}/collaborators/{username}', { project_id: p.id, username: collaborator.login, permission: 'owner' }), 422);
    assert.equal((await call(org.owner.token, 'DELETE /projects/{project_id}/collaborators/{username}', { project_id: p.id, username: collaborator.login })).status, 204);
    assert.equal(await canRead(collaborator), false);

    // Team grant.
    const team = (await t.octokit(org.owner.token).rest.teams.create({ org: org.login, name: `t-${p.id}` })).data;
    await t.octokit(org.owner.token).rest.teams.addOrUpdateMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: member.login });
    const granted = await call(org.owner.token, 'PUT /orgs/{org}/teams/{team_slug}/projects/{project_id}', { org: org.login, team_slug: team.slug, project_id: p.id, permission: 'admin' });
    assert.equal(granted.status, 204);
    await call(member.token, 'PATCH /projects/{project_id}', { project_id: p.id, private: false });
    const teamProjects = await call(org.owner.token, 'GET /orgs/{org}/teams/{team_slug}/projects', { org: org.login, team_slug: team.slug });
    check('GET', '/orgs/{org}/teams/{team_slug}/projects', 200, teamProjects.data);
    assert.deepEqual([teamProjects.data[0].id, teamProjects.data[0].permissions], [p.id, { read: true, write: true, admin: true }]);

    // Public now: everyone reads, nobody outside writes.
    assert.deepEqual([await canRead(outsider), await canRead(undefined)], [true, true]);
    await failsWith(rename(outsider, 'x'), 410);
    await failsWith(rename(undefined, 'x'), 401);
    assert.equal((await call(org.owner.token, 'DELETE /orgs/{org}/teams/{team_slug}/projects/{project_id}', { org: org.login, team_slug: team.slug, project_id: p.id })).status, 204);
    await failsWith(call(member.token, 'DELETE /projects/{project_id}', { project_id: p.id }), 410);
  });
});

describe('columns and cards', () => {
  test('columns: create, list in order, moves first/last/after, rename, delete', async () => {
    const org = await createOrgWithOwner(t);
    const p = await orgProject(org);
    const tok = org.owner.token;
    const res = await call(tok, 'POST /projects/{project_id}/columns', { project_id: p.id, name: 'To do' });
    assert.equal(res.status, 201);
    check('POST', '/projects/{project_id}/columns', 201, res.data);
    const todo = res.data;
    assert.equal(todo.cards_url, `${t.baseUrl}/projects/columns/${todo.id}/cards`);
    assert.equal(todo.project_url, p.url);
    const doing = await column(tok, p.id, 'Doing');
    const done = await column(tok, p.id, 'Done');
    const order = async () => (await call(tok, 'GET /projects/{project_id}/columns', { project_id: p.id })).data.map((c: Json) => c.name);
    assert.deepEqual(await order(), ['To do', 'Doing', 'Done']);
    const moved = await call(tok, 'POST /projects/columns/{column_id}/moves', { column_id: done.id, position: 'first' });
    assert.deepEqual([moved.status, moved.data], [201, {}]);
    assert.deepEqual(await order(), ['Done', 'To do', 'Doing']);
    await call(tok, 'POST /projects/columns/{column_id}/moves', { column_id: done.id, position: `after:${todo.id}` });
    assert.deepEqual(await order(), ['To do', 'Done', 'Doing']);
    await call(tok, 'POST /projects/columns/{column_id}/moves', { column_id: done.id, position: 'last' });
    assert.deepEqual(await order(), ['To do', 'Doing', 'Done']);
    await failsWith(call(tok, 'POST /projects/columns/{column_id}/moves', { column_id: done.id, position: 'middle' }), 422);
    const other = await column(tok, (await orgProject(org, 'Other')).id, 'Elsewhere');
    await failsWith(call(tok, 'POST /projects/columns/{column_id}/moves', { column_id: done.id, position: `after:${other.id}` }), 422);
    assert.deepEqual(await order(), ['To do', 'Doing', 'Done'], 'a refused move changes nothing');
    const renamed = await call(tok, 'PATCH /projects/columns/{column_id}', { column_id: doing.id, name: 'In progress' });
    check('PATCH', '/projects/columns/{column_id}', 200, renamed.data);
    check('GET', '/projects/columns/{column_id}', 200, (await call(tok, 'GET /projects/columns/{column_id}', { column_id: doing.id })).data);
    assert.equal((await call(tok, 'DELETE /projects/columns/{column_id}', { column_id: todo.id })).status, 204);
    assert.deepEqual(await order(), ['In progress', 'Done']);
    await failsWith(call(tok, 'GET /projects/columns/{column_id}', { column_id: todo.id }), 404);
  });

  test('cards: notes on top, issue cards and their rules, archive, edit, moves between columns, delete', async () => {
    const org = await createOrgWithOwner(t, ['repo', 'user', 'admin:org', 'delete_repo']);
    const tok = org.owner.token;
    const p = await orgProject(org);
    const todo = await column(tok, p.id, 'To do');
    const done = await column(tok, p.id, 'Done');
    const first = await call(tok, 'POST /projects/columns/{column_id}/cards', { column_id: todo.id, note: 'First' });
    assert.equal(first.status, 201);
    check('POST', '/projects/columns/{column_id}/cards', 201, first.data);
    assert.deepEqual([first.data.column_name, first.data.project_id, first.data.column_url, first.data.archived], ['To do', String(p.id), todo.url, false]);
    const second = await note(tok, todo.id, 'Second');
    assert.deepEqual(await cardIds(tok, todo.id), [second.id, first.data.id], 'a new card goes on top');

    const r = await createRepo(t, org.owner, { org: org.login });
    const issue = await createIssue(t, tok, r);
    const card = await call(tok, 'POST /projects/columns/{column_id}/cards', { column_id: todo.id, content_id: issue.id, content_type: 'Issue' });
    assert.equal(card.data.content_url, `${t.baseUrl}/repos/${r.owner}/${r.repo}/issues/${issue.number}`);
    assert.equal(card.data.note, null);
    const twice = await failsWith(call(tok, 'POST /projects/columns/{column_id}/cards', { column_id: done.id, content_id: issue.id, content_type: 'Issue' }), 422);
    assert.equal(twice.errors?.[0]?.message, 'Project already has the associated issue');
    await failsWith(call(tok, 'POST /projects/columns/{column_id}/cards', { column_id: done.id, content_id: issue.id, content_type: 'PullRequest' }), 422);
    await failsWith(call(tok, 'POST /projects/columns/{column_id}/cards', { column_id: done.id, content_id: issue.id, content_type: 'Commit' }), 422);
    const stranger = await createUser(t);
    const foreign = await createIssue(t, stranger.token, await createRepo(t, stranger));
    await failsWith(call(tok, 'POST /projects/columns/{column_id}/cards', { column_id: done.id, content_id: foreign.id, content_type: 'Issue' }), 422);
    // A repository project holds only its own repository's issues.
    const repoProject = (await call(tok, 'POST /repos/{owner}/{repo}/projects', { owner: r.owner, repo: r.repo, name: 'Repo board' })).data;
    const repoColumn = await column(tok, repoProject.id, 'Triage');
    const otherRepo = await createRepo(t, org.owner, { org: org.login });
    const otherIssue = await createIssue(t, tok, otherRepo);
    await failsWith(call(tok, 'POST /projects/columns/{column_id}/cards', { column_id: repoColumn.id, content_id: otherIssue.id, content_type: 'Issue' }), 422);
    assert.deepEqual(await cardIds(tok, done.id), [], 'refused cards are not made');

    const edited = await call(tok, 'PATCH /projects/columns/cards/{card_id}', { card_id: second.id, note: 'Second, edited', archived: true });
    check('PATCH', '/projects/columns/cards/{card_id}', 200, edited.data);
    assert.deepEqual([edited.data.note, edited.data.archived], ['Second, edited', true]);
    assert.deepEqual(await cardIds(tok, todo.id), [card.data.id, first.data.id]);
    assert.deepEqual(await cardIds(tok, todo.id, 'archived'), [second.id]);
    await failsWith(call(tok, 'PATCH /projects/columns/cards/{card_id}', { card_id: card.data.id, note: 'issues have none' }), 422);

    const mv = await call(tok, 'POST /projects/columns/cards/{card_id}/moves', { card_id: first.data.id, position: 'top', column_id: done.id });
    assert.deepEqual([mv.status, mv.data], [201, {}]);
    const movedCard = (await call(tok, 'GET /projects/columns/cards/{card_id}', { card_id: first.data.id })).data;
    check('GET', '/projects/columns/cards/{card_id}', 200, movedCard);
    assert.equal(movedCard.column_name, 'Done');
    await call(tok, 'POST /projects/columns/cards/{card_id}/moves', { card_id: card.data.id, position: `after:${first.data.id}`, column_id: done.id });
    assert.deepEqual(await cardIds(tok, done.id), [first.data.id, card.data.id]);
    await call(tok, 'POST /projects/columns/cards/{card_id}/moves', { card_id: card.data.id, position: 'top' });
    assert.deepEqual(await cardIds(tok, done.id), [card.data.id, first.data.id]);
    await failsWith(call(tok, 'POST /projects/columns/cards/{card_id}/moves', { card_id: card.data.id, position: 'top', column_id: repoColumn.id }), 422);
    await failsWith(call(tok, 'POST /projects/columns/cards/{card_id}/moves', { card_id: card.data.id, position: 'sideways' }), 422);

    // GraphQL: the issue shows its card.
    const data = await gql(t, tok)<Json>(`query($o: String!, $n: String!, $i: Int!) { repository(owner: $o, name: $n) { issue(number: $i) {
      projectCards(first: 5) { totalCount nodes { id note isArchived column { name project { name number } } content { __typename ... on Issue { number } } } } } } }`, { o: r.owner, n: r.repo, i: issue.number });
    const cards = data.repository.issue.projectCards;
    assert.equal(cards.totalCount, 1);
    assert.deepEqual(cards.nodes[0], { id: card.data.node_id, note: null, isArchived: false, column: { name: 'Done', project: { name: 'Board', number: p.number } }, content: { __typename: 'Issue', number: issue.number } });

    // The issue's timeline shows the card's life; a removed card says so.
    const timeline = async (n: number) => (await t.octokit(tok).rest.issues.listEvents({ owner: r.owner, repo: r.repo, issue_number: n })).data as Json[];
    const board = (await timeline(issue.number)).filter((e) => e.event.endsWith('project'));
    assert.deepEqual(board.map((e) => [e.event, e.project_card.column_name, e.project_card.previous_column_name]), [
      ['added_to_project', 'To do', undefined], ['moved_columns_in_project', 'Done', 'To do'],
    ]);
    assert.deepEqual([board[0].project_card.id, board[0].project_card.project_id, board[0].project_card.project_url, board[0].actor.login], [card.data.id, p.id, p.url, org.owner.login]);
    const issue2 = await createIssue(t, tok, r);
    const card2 = (await call(tok, 'POST /projects/columns/{column_id}/cards', { column_id: todo.id, content_id: issue2.id, content_type: 'Issue' })).data;
    await call(tok, 'DELETE /projects/columns/cards/{card_id}', { card_id: card2.id });
    assert.deepEqual((await timeline(issue2.number)).map((e) => e.event), ['added_to_project', 'removed_from_project']);
    // Deleting a column, or a whole board, removes its cards from the issues' timelines too.
    const temp = await column(tok, p.id, 'Temp');
    await call(tok, 'POST /projects/columns/{column_id}/cards', { column_id: temp.id, content_id: issue2.id, content_type: 'Issue' });
    await call(tok, 'DELETE /projects/columns/{column_id}', { column_id: temp.id });
    const other = await orgProject(org, 'Short-lived');
    const otherCol = await column(tok, other.id, 'Only');
    await call(tok, 'POST /projects/columns/{column_id}/cards', { column_id: otherCol.id, content_id: issue2.id, content_type: 'Issue' });
    await call(tok, 'DELETE /projects/{project_id}', { project_id: other.id });
    const removals = (await timeline(issue2.number)).filter((e) => e.event === 'removed_from_project');
    assert.deepEqual(removals.map((e) => [e.project_card.column_name, e.project_card.project_id]), [['To do', p.id], ['Temp', p.id], ['Only', other.id]]);

    // On a public board, a card of a private repository keeps its place but not its content_url for those who may not read it.
    await call(tok, 'PATCH /projects/{project_id}', { project_id: p.id, private: false });
    const closed = await createRepo(t, org.owner, { org: org.login, private: true });
    const secretIssue = await createIssue(t, tok, closed);
    const secretCard = (await call(tok, 'POST /projects/columns/{column_id}/cards', { column_id: todo.id, content_id: secretIssue.id, content_type: 'Issue' })).data;
    const seenByStranger = (await call(stranger.token, 'GET /projects/columns/cards/{card_id}', { card_id: secretCard.id })).data;
    assert.equal(seenByStranger.content_url, undefined);
    assert.equal(secretCard.content_url, `${t.baseUrl}/repos/${closed.owner}/${closed.repo}/issues/${secretIssue.number}`);

    // Deleting the issue's repository removes its cards.
    await t.octokit(tok).rest.repos.delete({ owner: r.owner, repo: r.repo });
    assert.deepEqual(await cardIds(tok, done.id), [first.data.id]);
    assert.equal((await call(tok, 'DELETE /projects/columns/cards/{card_id}', { card_id: first.data.id })).status, 204);
    await failsWith(call(tok, 'GET /projects/columns/cards/{card_id}', { card_id: first.data.id }), 404);
  });

  test('order holds under 20 concurrent moves', async () => {
    const alice = await createUser(t);
    const p = (await call(alice.token, 'POST /user/projects', { name: 'Busy' })).data;
    const a = await column(alice.token, p.id, 'A');
    const b = await column(alice.token, p.id, 'B');
    // Two anchors that never move, so that every after:<id> names a card of the target column.
    const anchorA = (await note(alice.token, a.id, 'anchor A')).id;
    const anchorB = (await note(alice.token, b.id, 'anchor B')).id;
    const cards: number[] = [anchorA, anchorB];
    const moving: number[] = [];
    for (let i = 0; i < 10; i++) moving.push((await note(alice.token, a.id, `card ${i}`)).id);
    cards.push(...moving);
    const moves = Array.from({ length: 20 }, (_, i) => {
      const toA = i % 2 === 1;
      return call(alice.token, 'POST /projects/columns/cards/{card_id}/moves', {
        card_id: moving[i % moving.length], column_id: toA ? a.id : b.id,
        position: i % 3 === 0 ? 'top' : i % 3 === 1 ? 'bottom' : `after:${toA ? anchorA : anchorB}`,
      });
    });
    assert.ok((await Promise.all(moves)).every((m) => m.status === 201));
    const inA = await cardIds(alice.token, a.id);
    const inB = await cardIds(alice.token, b.id);
    assert.deepEqual([...inA, ...inB].sort((x, y) => x - y), [...cards].sort((x, y) => x - y), 'every card is in exactly one column');
    const rows = await t.server.ctx.db.selectFrom('project_cards').select(['column_id', 'position']).where('project_id', '=', p.id).orderBy('position').execute();
    for (const col of [a.id, b.id]) {
      assert.deepEqual(rows.filter((r) => r.column_id === col).map((r) => Number(r.position)), [...Array((col === a.id ? inA : inB).length).keys()], 'positions are dense and distinct');
    }
    // The column a card leaves closes its gap too.
    await call(alice.token, 'POST /projects/columns/cards/{card_id}/moves', { card_id: inA[0], position: 'bottom', column_id: b.id });
    const leftA = await t.server.ctx.db.selectFrom('project_cards').select('position').where('column_id', '=', a.id).orderBy('position').execute();
    assert.deepEqual(leftA.map((r) => Number(r.position)), [...Array(inA.length - 1).keys()]);
  });
});

describe('project webhooks', () => {
  test('project, project_column and project_card events reach organization and repository hooks in the published shape', async () => {
    const org = await createOrgWithOwner(t, ['repo', 'user', 'admin:org', 'admin:org_hook']);
    const tok = org.owner.token;
    const orgRx = await pool.start();
    const events = ['project', 'project_column', 'project_card'];
    await t.octokit(tok).rest.orgs.createWebhook({ org: org.login, name: 'web', events, config: { url: orgRx.url(), content_type: 'json' } });
    const isBoard = (x: Received) => events.includes(headerOf(x, 'x-service-event') ?? '');

    const p = await orgProject(org, 'Hooked', 'first body');
    await call(tok, 'PATCH /projects/{project_id}', { project_id: p.id, name: 'Hooked, renamed', state: 'closed' });
    await call(tok, 'PATCH /projects/{project_id}', { project_id: p.id, state: 'open' });
    const a = await column(tok, p.id, 'A');
    const b = await column(tok, p.id, 'B');
    await call(tok, 'PATCH /projects/columns/{column_id}', { column_id: a.id, name: 'A2' });
    await call(tok, 'POST /projects/columns/{column_id}/moves', { column_id: b.id, position: 'first' });
    const c1 = await note(tok, a.id, 'one');
    const c2 = await note(tok, a.id, 'two');
    await call(tok, 'PATCH /projects/columns/cards/{card_id}', { card_id: c1.id, note: 'one, edited' });
    await call(tok, 'POST /projects/columns/cards/{card_id}/moves', { card_id: c2.id, position: 'top', column_id: b.id });
    await call(tok, 'DELETE /projects/columns/cards/{card_id}', { card_id: c2.id });
    await call(tok, 'DELETE /projects/columns/{column_id}', { column_id: b.id });
    await call(tok, 'DELETE /projects/{project_id}', { project_id: p.id });

    const got = (await orgRx.waitFor(15, isBoard)).map((x) => ({ event: headerOf(x, 'x-service-event'), body: JSON.parse(x.body) as Json }));
    assert.deepEqual(got.map((g) => `${g.event}.${g.body.action}`), [
      'project.created', 'project.edited', 'project.closed', 'project.reopened',
      'project_column.created', 'project_column.created', 'project_column.edited', 'project_column.moved',
      'project_card.created', 'project_card.created', 'project_card.edited', 'project_card.moved', 'project_card.deleted',
      'project_column.deleted', 'project.deleted',
    ]);
    for (const g of got) {
      assertMatchesWebhookSchema(g.event!, g.body.action, g.body);
      assert.equal(g.body.organization.login, org.login);
      assert.equal(g.body.sender.login, org.owner.login);
    }
    const by = (name: string) => got.find((g) => `${g.event}.${g.body.action}` === name)!.body;
    assert.deepEqual(by('project.edited').changes, { name: { from: 'Hooked' } });
    assert.equal(by('project.closed').project.state, 'closed');
    assert.deepEqual(by('project_column.edited').changes, { name: { from: 'A' } });
    assert.equal(by('project_column.moved').project_column.after_id, null);
    assert.deepEqual(by('project_card.edited').changes, { note: { from: 'one' } });
    const moved = by('project_card.moved');
    assert.deepEqual([moved.changes, moved.project_card.column_id, moved.project_card.after_id], [{ column_id: { from: a.id } }, b.id, null]);
    assert.equal(by('project_card.created').project_card.after_id, null);

    // A repository project's events go to the repository's hooks, with the repository.
    const r = await createRepo(t, org.owner, { org: org.login });
    const repoRx = await pool.start();
    await t.octokit(tok).rest.repos.createWebhook({ owner: r.owner, repo: r.repo, events: ['project'], config: { url: repoRx.url(), content_type: 'json' } });
    await call(tok, 'POST /repos/{owner}/{repo}/projects', { owner: r.owner, repo: r.repo, name: 'Repo hooked' });
    const [repoEvent] = await repoRx.waitFor(1, (x) => headerOf(x, 'x-service-event') === 'project');
    const body = JSON.parse(repoEvent!.body) as Json;
    assertMatchesWebhookSchema('project', 'created', body);
    assert.deepEqual([body.action, body.repository.id, body.project.name], ['created', r.id, 'Repo hooked']);
  });
});

describe('GraphQL boards', () => {
  test('projects and project(number:) on organization, repository and user; columns, cards, node(id:); hidden ones absent', async () => {
    const org = await createOrgWithOwner(t);
    const tok = org.owner.token;
    const open = await orgProject(org, 'Alpha board');
    const shut = await orgProject(org, 'Beta board');
    await call(tok, 'PATCH /projects/{project_id}', { project_id: shut.id, state: 'closed' });
    const col = await column(tok, open.id, 'Todo');
    const n1 = await note(tok, col.id, 'one');
    const n2 = await note(tok, col.id, 'two');
    await call(tok, 'PATCH /projects/columns/cards/{card_id}', { card_id: n1.id, archived: true });
    const q = `query($login: String!) { organization(login: $login) {
      all: projects(first: 10) { totalCount nodes { name state closed } }
      open: projects(first: 10, states: [OPEN]) { nodes { name } }
      found: projects(first: 10, search: "beta") { nodes { name } }
      project(number: 1) { id databaseId name number url resourcePath viewerCanUpdate creator { login }
        columns(first: 5) { nodes { name databaseId cards(first: 5, archivedStates: [NOT_ARCHIVED]) { totalCount nodes { note isArchived } } } } }
      missing: project(number: 99) { id } } }`;
    const data = await gql(t, tok)<Json>(q, { login: org.login });
    const o = data.organization;
    assert.deepEqual(o.all.nodes, [{ name: 'Alpha board', state: 'OPEN', closed: false }, { name: 'Beta board', state: 'CLOSED', closed: true }]);
    assert.deepEqual(o.open.nodes, [{ name: 'Alpha board' }]);
    assert.deepEqual(o.found.nodes, [{ name: 'Beta board' }]);
    assert.deepEqual(o.project, {
      id: open.node_id, databaseId: open.id, name: 'Alpha board', number: 1, url: open.html_url, resourcePath: `/orgs/${org.login}/projects/1`,
      viewerCanUpdate: true, creator: { login: org.owner.login },
      columns: { nodes: [{ name: 'Todo', databaseId: col.id, cards: { totalCount: 1, nodes: [{ note: 'two', isArchived: false }] } }] },
    });
    assert.equal(o.missing, null);
    const node = await gql(t, tok)<Json>('query($id: ID!) { node(id: $id) { ... on ProjectCard { note project { name } } } }', { id: n2.node_id });
    assert.deepEqual(node.node, { note: 'two', project: { name: 'Alpha board' } });

    const outsider = await createUser(t);
    const hidden = await gql(t, outsider.token)<Json>('query($login: String!) { organization(login: $login) { projects(first: 5) { totalCount } project(number: 1) { id } } }', { login: org.login });
    assert.deepEqual(hidden, { organization: { projects: { totalCount: 0 }, project: null } }, 'private boards are hidden from outsiders');
    await assert.rejects(gql(t, outsider.token)('query($id: ID!) { node(id: $id) { id } }', { id: open.node_id }), /Could not resolve to a node/);

    // createIssue / updateIssue projectIds: a card on top of the board's first column; an update's list replaces the set.
    const orgRepo = await createRepo(t, org.owner, { org: org.login });
    const repoId = (await gql(t, tok)<Json>('query($o: String!, $n: String!) { repository(owner: $o, name: $n) { id } }', { o: orgRepo.owner, n: orgRepo.repo })).repository.id;
    const made = await gql(t, tok)<Json>('mutation($i: CreateIssueInput!) { createIssue(input: $i) { issue { id number projectCards(first: 5) { nodes { column { name } } } } } }',
      { i: { repositoryId: repoId, title: 'Planned', projectIds: [open.node_id] } });
    assert.deepEqual(made.createIssue.issue.projectCards.nodes, [{ column: { name: 'Todo' } }]);
    const cleared = await gql(t, tok)<Json>('mutation($i: UpdateIssueInput!) { updateIssue(input: $i) { issue { projectCards(first: 5) { totalCount } } } }',
      { i: { id: made.createIssue.issue.id, projectIds: [] } });
    assert.equal(cleared.updateIssue.issue.projectCards.totalCount, 0);
    const empty = await orgProject(org, 'No columns');
    await assert.rejects(gql(t, tok)('mutation($i: CreateIssueInput!) { createIssue(input: $i) { issue { id } } }',
      { i: { repositoryId: repoId, title: 'Refused', projectIds: [empty.node_id] } }), /no column/);
    const member = await addMember(t, org);
    await call(tok, 'PATCH /projects/{project_id}', { project_id: open.id, organization_permission: 'read' });
    await assert.rejects(gql(t, member.token)('mutation($i: CreateIssueInput!) { createIssue(input: $i) { issue { id } } }',
      { i: { repositoryId: repoId, title: 'Refused too', projectIds: [open.node_id] } }), /Could not resolve to a node/);
    assert.deepEqual((await t.octokit(tok).rest.issues.listForRepo({ owner: orgRepo.owner, repo: orgRepo.repo })).data.map((i) => i.title), ['Planned'], 'refused creations made nothing');

    const alice = await createUser(t);
    const r = await createRepo(t, alice);
    await call(alice.token, 'POST /repos/{owner}/{repo}/projects', { owner: r.owner, repo: r.repo, name: 'Repo board' });
    await call(alice.token, 'POST /user/projects', { name: 'My board' });
    const mine = await gql(t, alice.token)<Json>('query($o: String!, $n: String!) { repository(owner: $o, name: $n) { projects(first: 5) { nodes { name } } } user(login: $o) { project(number: 1) { name url } } }', { o: r.owner, n: r.repo });
    assert.deepEqual(mine.repository.projects.nodes, [{ name: 'Repo board' }]);
    assert.deepEqual(mine.user.project, { name: 'My board', url: `${t.baseUrl}/users/${alice.login}/projects/1` });
  });
});

describe('bad input', () => {
  test('no 5xx on any project route with wrong types, NUL, huge numbers or bad ids', async () => {
    const org = await createOrgWithOwner(t);
    const tok = org.owner.token;
    const p = await orgProject(org, 'Fuzz');
    const col = await column(tok, p.id, 'Col');
    const card = await note(tok, col.id, 'Card');
    const ids: Record<string, string> = { org: org.login, owner: org.owner.login, repo: 'none', username: org.owner.login, team_slug: 'none', project_id: String(p.id), column_id: String(col.id), card_id: String(card.id) };
    const routes = `POST /orgs/{org}/projects
      POST /user/projects
      PATCH /projects/{project_id}
      POST /projects/{project_id}/columns
      PATCH /projects/columns/{column_id}
      POST /projects/columns/{column_id}/moves
      POST /projects/columns/{column_id}/cards
      PATCH /projects/columns/cards/{card_id}
      POST /projects/columns/cards/{card_id}/moves
      PUT /projects/{project_id}/collaborators/{username}
      PUT /orgs/{org}/teams/{team_slug}/projects/{project_id}
      GET /orgs/{org}/projects
      GET /users/{username}/projects
      GET /projects/{project_id}/collaborators
      GET /projects/columns/{column_id}/cards`.split('\n').map((l) => l.trim().split(' ') as [string, string]);
    const fields = ['name', 'body', 'state', 'organization_permission', 'private', 'position', 'column_id', 'note', 'content_id', 'content_type', 'archived', 'permission'];
    const values: unknown[] = [null, -1, 1.5, '', [], {}, true, '\u0000', 99999999999999999999, 'after:99999999999999999999'];
    const queries = ['?state=weird', '?per_page=abc', '?page=-1', '?archived_state=x', '?affiliation=x'];
    const fill = (path: string, over: Record<string, string> = {}) => path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(over[k] ?? ids[k]!));
    const bad: string[] = [];
    const hit = async (method: string, url: string, body?: unknown) => {
      const res = await t.request(url, { method, token: tok, ...(body !== undefined ? { json: body } : {}) });
      if (res.status >= 500) bad.push(`${res.status} ${method} ${url} ${JSON.stringify(body)} → ${(await res.text()).slice(0, 200)}`);
      else await res.arrayBuffer();
    };
    for (const [method, path] of routes) {
      if (method === 'GET') for (const q of queries) await hit(method, fill(path) + q);
      else for (const f of fields) for (const v of values) await hit(method, fill(path), { [f]: v });
      for (const k of [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)) {
        for (const b of ['abc', '-1', '0', '99999999999999999999', '%00']) await hit(method, fill(path, { [k]: b }), method === 'GET' ? undefined : {});
      }
    }
    assert.deepEqual(bad.slice(0, 10), []);
  });
});
