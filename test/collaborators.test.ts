// Collaborators, repository invitations and custom repository roles.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ADMIN_TOKEN, startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addMember, createOrgWithOwner, createTeam, type CreatedOrg } from './factories/orgs.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { rawRequest } from './helpers/raw-http.ts';
import { git, gitOk, tempDir, cloneUrl } from './helpers/git.ts';
import { listEvents } from '../src/events/outbox.ts';

const DAY = 24 * 60 * 60 * 1000;

interface ErrorBody {
  message: string;
  errors?: { resource: string; field: string; code: string; message?: string }[];
}

async function errorOf(res: Response): Promise<ErrorBody> {
  return (await res.json()) as ErrorBody;
}

describe('collaborators', () => {
  let t: TestServer;
  let alice: CreatedUser;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
  });
  after(() => t.close());

  /** Invites `user` to owner/repo as `by`, then accepts as `user`. */
  async function inviteAndAccept(by: CreatedUser, owner: string, repo: string, user: CreatedUser, permission?: string): Promise<void> {
    const { status, data } = await t.octokit(by.token).rest.repos.addCollaborator({ owner, repo, username: user.login, ...(permission ? { permission } : {}) });
    assert.equal(status, 201);
    const accepted = await t.octokit(user.token).rest.repos.acceptInvitationForAuthenticatedUser({ invitation_id: data!.id });
    assert.equal(accepted.status, 204);
  }

  async function pushCommit(owner: string, repo: string, user: CreatedUser, file: string) {
    const dir = tempDir();
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, owner, repo, user.login, user.token), dir]);
    fs.writeFileSync(path.join(dir, file), `${file}\n`);
    await gitOk(['add', file], { cwd: dir });
    await gitOk(['commit', '-q', '-m', `Add ${file}`], { cwd: dir });
    return git(['push', '-q', 'origin', 'HEAD:main'], { cwd: dir });
  }

  test('invitation lifecycle: 201 invitation, nothing granted until accepted, then push over git and private reads', async () => {
    const bob = await createUser(t);
    const octokit = t.octokit(alice.token);
    const { data: pub } = await octokit.rest.repos.createForAuthenticatedUser({ name: 'quay', auto_init: true });
    await octokit.rest.repos.createForAuthenticatedUser({ name: 'vault', private: true, auto_init: true });

    const invited = await octokit.rest.repos.addCollaborator({ owner: alice.login, repo: 'quay', username: bob.login });
    assert.equal(invited.status, 201);
    assertMatchesOpenApi('PUT', '/repos/{owner}/{repo}/collaborators/{username}', 201, invited.data);
    const inv = invited.data!;
    assert.equal(inv.invitee?.login, bob.login);
    assert.equal(inv.inviter?.login, alice.login);
    assert.equal(inv.permissions, 'write');
    assert.equal(inv.repository.full_name, `${alice.login}/quay`);
    assert.equal(inv.url, `${t.baseUrl}/user/repository_invitations/${inv.id}`);
    assert.equal(inv.html_url, `${t.baseUrl}/${alice.login}/quay/invitations`);
    assert.equal(inv.expired, false);
    assert.ok(inv.node_id);

    // Not yet a collaborator: the push is refused, the check says 404.
    const refused = await pushCommit(alice.login, 'quay', bob, 'before.txt');
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /403|denied/i);
    assert.equal((await t.request(`/repos/${alice.login}/quay/collaborators/${bob.login}`, { token: alice.token })).status, 404);

    const promote = await t.request(`/repos/${alice.login}/quay/invitations/${inv.id}`, { method: 'PATCH', token: alice.token, json: { permissions: 'admin' } });
    assert.equal(promote.status, 422, 'personal repositories have one collaborator role');
    const mine = await t.octokit(bob.token).rest.repos.listInvitationsForAuthenticatedUser();
    assertMatchesOpenApi('GET', '/user/repository_invitations', 200, mine.data);
    assert.deepEqual(mine.data.map((i) => i.id), [inv.id]);
    const theirs = await octokit.rest.repos.listInvitations({ owner: alice.login, repo: 'quay' });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/invitations', 200, theirs.data);
    assert.deepEqual(theirs.data.map((i) => i.invitee?.login), [bob.login]);

    const accepted = await t.octokit(bob.token).rest.repos.acceptInvitationForAuthenticatedUser({ invitation_id: inv.id });
    assert.equal(accepted.status, 204);
    const pushed = await pushCommit(alice.login, 'quay', bob, 'after.txt');
    assert.equal(pushed.code, 0, pushed.stderr);
    assert.equal((await octokit.rest.repos.checkCollaborator({ owner: alice.login, repo: 'quay', username: bob.login })).status, 204);
    assert.deepEqual((await t.octokit(bob.token).rest.repos.listInvitationsForAuthenticatedUser()).data, []);
    assert.deepEqual((await octokit.rest.repos.listInvitations({ owner: alice.login, repo: 'quay' })).data, []);
    const added = await listEvents(t.server.ctx, { event: 'member', repositoryId: pub.id });
    assert.deepEqual(added.map((e) => [e.action, (e.payload.member as { login: string }).login]), [['added', bob.login]]);

    // A private repository: invisible before accepting, readable after.
    assert.equal((await t.request(`/repos/${alice.login}/vault`, { token: bob.token })).status, 404);
    await inviteAndAccept(alice, alice.login, 'vault', bob);
    const seen = await t.octokit(bob.token).rest.repos.get({ owner: alice.login, repo: 'vault' });
    assert.deepEqual(seen.data.permissions, { admin: false, maintain: false, push: true, triage: true, pull: true });
  });

  test('PUT with Content-Length: 0 invites with push; inviting again updates the open invitation', async () => {
    const carol = await createUser(t);
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'bare-put' });
    const res = await rawRequest(t.baseUrl, 'PUT', `/repos/${alice.login}/bare-put/collaborators/${carol.login}`, {
      'user-agent': 'wharf-tests', authorization: `token ${alice.token}`, 'content-length': '0',
    });
    assert.equal(res.status, 201, res.body);
    const first = JSON.parse(res.body);
    assert.equal(first.permissions, 'write');
    const again = await t.octokit(alice.token).rest.repos.addCollaborator({ owner: alice.login, repo: 'bare-put', username: carol.login });
    assert.equal(again.status, 201);
    assert.equal(again.data!.id, first.id);
    assert.equal((await t.octokit(alice.token).rest.repos.listInvitations({ owner: alice.login, repo: 'bare-put' })).data.length, 1);
  });

  test('PUT errors: unknown user 404, owner or self 422, organizations 422, permissions on personal repositories 422; nothing changes', async () => {
    const dan = await createUser(t);
    const { login: orgLogin } = await createOrgWithOwner(t);
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'strict' });
    const put = (username: string, body?: unknown, token = alice.token) =>
      t.request(`/repos/${alice.login}/strict/collaborators/${username}`, { method: 'PUT', token, ...(body === undefined ? {} : { json: body }) });
    assert.equal((await put('no-such-user-anywhere')).status, 404);
    const self = await put(alice.login);
    assert.equal(self.status, 422);
    assert.equal((await errorOf(self)).errors?.[0]?.field, 'collaborator');
    const owner = await put(alice.login, {}, ADMIN_TOKEN);
    assert.equal(owner.status, 422);
    assert.match((await errorOf(owner)).errors?.[0]?.message ?? '', /owner/);
    assert.equal((await put(orgLogin)).status, 422);
    const pull = await put(dan.login, { permission: 'admin' });
    assert.equal(pull.status, 422);
    assert.equal((await errorOf(pull)).errors?.[0]?.field, 'permission');
    assert.equal((await put(dan.login, { permission: 5 })).status, 422);
    assert.equal((await put(dan.login, { permission: 'push' }, dan.token)).status, 403, 'only admins may invite');
    assert.deepEqual((await t.octokit(alice.token).rest.repos.listInvitations({ owner: alice.login, repo: 'strict' })).data, []);
    assert.deepEqual((await t.octokit(dan.token).rest.repos.listInvitationsForAuthenticatedUser()).data, []);
  });

  test('reading collaborators needs push access: 401 anonymous, 404 hidden, 403 readers, 200 writers', async () => {
    const erin = await createUser(t);
    const frank = await createUser(t);
    const octokit = t.octokit(alice.token);
    await octokit.rest.repos.createForAuthenticatedUser({ name: 'open-dock' });
    await octokit.rest.repos.createForAuthenticatedUser({ name: 'closed-dock', private: true });
    const list = `/repos/${alice.login}/open-dock/collaborators`;
    assert.equal((await t.request(list)).status, 401);
    assert.equal((await t.request(`/repos/${alice.login}/closed-dock/collaborators`, { token: erin.token })).status, 404);
    const reader = await t.request(list, { token: erin.token });
    assert.equal(reader.status, 403);
    assert.equal((await errorOf(reader)).message, 'Must have push access to view repository collaborators.');
    assert.equal((await t.request(`${list}/${alice.login}`, { token: erin.token })).status, 403);
    assert.equal((await t.request(`${list}/${alice.login}/permission`, { token: erin.token })).status, 403);
    await inviteAndAccept(alice, alice.login, 'open-dock', frank);
    const { data } = await t.octokit(frank.token).rest.repos.listCollaborators({ owner: alice.login, repo: 'open-dock' });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/collaborators', 200, data);
    assert.deepEqual(data.map((c) => [c.login, c.role_name]), [[alice.login, 'admin'], [frank.login, 'write']]);
    assert.deepEqual(data[1]!.permissions, { pull: true, triage: true, push: true, maintain: false, admin: false });
    // Personal repositories: the owner is a direct collaborator, not an outside one.
    const direct = await octokit.rest.repos.listCollaborators({ owner: alice.login, repo: 'open-dock', affiliation: 'direct' });
    assert.deepEqual(direct.data.map((c) => c.login), [alice.login, frank.login]);
    const outside = await octokit.rest.repos.listCollaborators({ owner: alice.login, repo: 'open-dock', affiliation: 'outside' });
    assert.deepEqual(outside.data.map((c) => c.login), [frank.login]);
    assert.equal((await t.request(`${list}?affiliation=everyone`, { token: alice.token })).status, 422);
  });

  test('permission level: legacy permission, role_name and the collaborator record', async () => {
    const gina = await createUser(t);
    const octokit = t.octokit(alice.token);
    await octokit.rest.repos.createForAuthenticatedUser({ name: 'levels' });
    await octokit.rest.repos.createForAuthenticatedUser({ name: 'levels-private', private: true });
    const own = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner: alice.login, repo: 'levels', username: alice.login });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/collaborators/{username}/permission', 200, own.data);
    assert.deepEqual([own.data.permission, own.data.role_name, own.data.user?.login], ['admin', 'admin', alice.login]);
    const outsider = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner: alice.login, repo: 'levels', username: gina.login });
    assert.deepEqual([outsider.data.permission, outsider.data.role_name], ['read', 'read'], 'everyone reads a public repository');
    const none = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner: alice.login, repo: 'levels-private', username: gina.login });
    assert.deepEqual([none.data.permission, none.data.user?.permissions?.pull], ['none', false]);
    await inviteAndAccept(alice, alice.login, 'levels-private', gina);
    const write = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner: alice.login, repo: 'levels-private', username: gina.login });
    assert.deepEqual([write.data.permission, write.data.role_name], ['write', 'write']);
    assert.equal((await t.request(`/repos/${alice.login}/levels/collaborators/no-such-user-anywhere/permission`, { token: alice.token })).status, 404);
  });

  describe('organization repositories', () => {
    let org: CreatedOrg;
    let member: CreatedUser;
    let teamMember: CreatedUser;
    let outsider: CreatedUser;

    before(async () => {
      org = await createOrgWithOwner(t);
      member = await addMember(t, org);
      teamMember = await addMember(t, org);
      outsider = await createUser(t);
      const ownerKit = t.octokit(org.owner.token);
      // Members get nothing from the base permission: team access is then visible on its own.
      await ownerKit.rest.orgs.update({ org: org.login, default_repository_permission: 'none' });
      const team = await createTeam(t, org.owner.token, org.login);
      await ownerKit.rest.teams.addOrUpdateMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: teamMember.login });
      await ownerKit.rest.repos.createInOrg({ org: org.login, name: 'harbour', private: true, team_id: team.id, auto_init: true });
    });

    test('members are added directly (204, no invitation); outside collaborators are invited', async () => {
      const ownerKit = t.octokit(org.owner.token);
      const direct = await ownerKit.rest.repos.addCollaborator({ owner: org.login, repo: 'harbour', username: member.login, permission: 'maintain' });
      assert.equal(direct.status, 204);
      assert.deepEqual((await ownerKit.rest.repos.listInvitations({ owner: org.login, repo: 'harbour' })).data, []);
      const seen = await t.octokit(member.token).rest.repos.get({ owner: org.login, repo: 'harbour' });
      assert.equal(seen.data.permissions?.maintain, true);
      await inviteAndAccept(org.owner, org.login, 'harbour', outsider, 'triage');
      const events = await listEvents(t.server.ctx, { event: 'member', repositoryId: seen.data.id });
      assert.deepEqual(events.map((e) => [e.action, (e.payload.member as { login: string }).login]), [['added', member.login], ['added', outsider.login]]);
      assert.deepEqual(events[0]!.payload.changes, { permission: { to: 'maintain' }, role_name: { to: 'maintain' } });
      assert.equal(events[0]!.organizationId, org.id);

      // An existing collaborator's permission is updated with a 204.
      const again = await ownerKit.rest.repos.addCollaborator({ owner: org.login, repo: 'harbour', username: outsider.login, permission: 'push' });
      assert.equal(again.status, 204);
      const level = await ownerKit.rest.repos.getCollaboratorPermissionLevel({ owner: org.login, repo: 'harbour', username: outsider.login });
      assert.deepEqual([level.data.permission, level.data.role_name], ['write', 'write']);
      const edited = (await listEvents(t.server.ctx, { event: 'member', repositoryId: seen.data.id })).at(-1)!;
      assert.equal(edited.action, 'edited');
      assert.deepEqual(edited.payload.changes, { permission: { from: 'triage', to: 'write' }, role_name: { from: 'triage', to: 'write' } });
    });

    test('affiliations: all (owners, teams, collaborators), direct, outside; permission filter; Link', async () => {
      const ownerKit = t.octokit(org.owner.token);
      const all = await ownerKit.rest.repos.listCollaborators({ owner: org.login, repo: 'harbour' });
      assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/collaborators', 200, all.data);
      const summary = (list: { login: string; role_name: string }[]) => list.map((c) => `${c.login}:${c.role_name}`).sort();
      assert.deepEqual(summary(all.data), [
        `${org.owner.login}:admin`, `${member.login}:maintain`, `${teamMember.login}:read`, `${outsider.login}:write`,
      ].sort());
      const direct = await ownerKit.rest.repos.listCollaborators({ owner: org.login, repo: 'harbour', affiliation: 'direct' });
      assert.deepEqual(summary(direct.data), [`${member.login}:maintain`, `${outsider.login}:write`].sort());
      const outside = await ownerKit.rest.repos.listCollaborators({ owner: org.login, repo: 'harbour', affiliation: 'outside' });
      assert.deepEqual(summary(outside.data), [`${outsider.login}:write`]);
      const maintainers = await ownerKit.rest.repos.listCollaborators({ owner: org.login, repo: 'harbour', permission: 'maintain' });
      assert.deepEqual(summary(maintainers.data), [`${org.owner.login}:admin`, `${member.login}:maintain`].sort());
      const page = await t.request(`/repos/${org.login}/harbour/collaborators?per_page=3`, { token: org.owner.token });
      assert.equal(((await page.json()) as unknown[]).length, 3);
      assert.match(page.headers.get('link') ?? '', /page=2.*rel="next".*rel="last"/);
      const second = await t.request(`/repos/${org.login}/harbour/collaborators?per_page=3&page=2`, { token: org.owner.token });
      assert.equal(((await second.json()) as unknown[]).length, 1);
      assert.equal((await ownerKit.rest.repos.checkCollaborator({ owner: org.login, repo: 'harbour', username: teamMember.login })).status, 204);
      const stranger = await createUser(t);
      assert.equal((await t.request(`/repos/${org.login}/harbour/collaborators/${stranger.login}`, { token: org.owner.token })).status, 404);
    });

    test('the base role bounds what members may be given; outside collaborators are not bound', async () => {
      const ownerKit = t.octokit(org.owner.token);
      await ownerKit.rest.orgs.update({ org: org.login, default_repository_permission: 'write' });
      try {
        const low = await addMember(t, org);
        const res = await t.request(`/repos/${org.login}/harbour/collaborators/${low.login}`, { method: 'PUT', token: org.owner.token, json: { permission: 'pull' } });
        assert.equal(res.status, 422);
        assert.equal((await errorOf(res)).errors?.[0]?.message, `Cannot assign ${low.login} permission of read`);
        const ok = await ownerKit.rest.repos.addCollaborator({ owner: org.login, repo: 'harbour', username: low.login, permission: 'admin' });
        assert.equal(ok.status, 204);
        const reader = await createUser(t);
        const invited = await ownerKit.rest.repos.addCollaborator({ owner: org.login, repo: 'harbour', username: reader.login, permission: 'pull' });
        assert.equal(invited.status, 201);
        assert.equal(invited.data!.permissions, 'read');
        const unknown = await t.request(`/repos/${org.login}/harbour/collaborators/${reader.login}`, { method: 'PUT', token: org.owner.token, json: { permission: 'no-such-role' } });
        assert.equal(unknown.status, 422);
        assert.equal((await errorOf(unknown)).errors?.[0]?.field, 'permission');
      } finally {
        await ownerKit.rest.orgs.update({ org: org.login, default_repository_permission: 'none' });
      }
    });

    test('invitations: admins update and delete them, invitees decline; nobody else touches them', async () => {
      const ownerKit = t.octokit(org.owner.token);
      const henry = await createUser(t);
      const ivy = await createUser(t);
      const { data: h } = await ownerKit.rest.repos.addCollaborator({ owner: org.login, repo: 'harbour', username: henry.login, permission: 'pull' });
      const updated = await ownerKit.rest.repos.updateInvitation({ owner: org.login, repo: 'harbour', invitation_id: h!.id, permissions: 'admin' });
      assertMatchesOpenApi('PATCH', '/repos/{owner}/{repo}/invitations/{invitation_id}', 200, updated.data);
      assert.equal(updated.data.permissions, 'admin');
      const bad = await t.request(`/repos/${org.login}/harbour/invitations/${h!.id}`, { method: 'PATCH', token: org.owner.token, json: { permissions: 'owner' } });
      assert.equal(bad.status, 422);
      assert.equal((await t.request(`/repos/${org.login}/harbour/invitations/999999`, { method: 'PATCH', token: org.owner.token, json: {} })).status, 404);
      assert.equal((await t.request('/user/repository_invitations/99999999999999999999', { method: 'PATCH', token: henry.token })).status, 422, 'no 500 for ids past the integer range');
      assert.equal((await t.request(`/repos/${org.login}/harbour/invitations`, { token: member.token })).status, 403, 'maintainers are not admins');
      assert.equal((await t.request(`/repos/${org.login}/harbour/invitations/${h!.id}`, { method: 'DELETE', token: member.token })).status, 403);
      // Someone else's invitation is not found.
      assert.equal((await t.request(`/user/repository_invitations/${h!.id}`, { method: 'PATCH', token: ivy.token })).status, 404);
      assert.equal((await ownerKit.rest.repos.deleteInvitation({ owner: org.login, repo: 'harbour', invitation_id: h!.id })).status, 204);
      assert.deepEqual((await t.octokit(henry.token).rest.repos.listInvitationsForAuthenticatedUser()).data, []);
      assert.equal((await t.request(`/user/repository_invitations/${h!.id}`, { method: 'PATCH', token: henry.token })).status, 404);

      const { data: i } = await ownerKit.rest.repos.addCollaborator({ owner: org.login, repo: 'harbour', username: ivy.login, permission: 'push' });
      assert.equal((await t.octokit(ivy.token).rest.repos.declineInvitationForAuthenticatedUser({ invitation_id: i!.id })).status, 204);
      assert.equal((await t.request(`/repos/${org.login}/harbour`, { token: ivy.token })).status, 404, 'declining grants nothing');
      const open = (await ownerKit.rest.repos.listInvitations({ owner: org.login, repo: 'harbour' })).data.map((x) => x.invitee?.login);
      assert.ok(!open.includes(henry.login) && !open.includes(ivy.login), JSON.stringify(open));
    });

    test('removal: admins remove collaborators, a collaborator removes themselves, others are refused', async () => {
      const ownerKit = t.octokit(org.owner.token);
      const jack = await createUser(t);
      const kate = await createUser(t);
      await inviteAndAccept(org.owner, org.login, 'harbour', jack, 'push');
      await inviteAndAccept(org.owner, org.login, 'harbour', kate, 'push');
      const refused = await t.request(`/repos/${org.login}/harbour/collaborators/${kate.login}`, { method: 'DELETE', token: jack.token });
      assert.equal(refused.status, 403);
      assert.equal((await ownerKit.rest.repos.removeCollaborator({ owner: org.login, repo: 'harbour', username: jack.login })).status, 204);
      assert.equal((await t.request(`/repos/${org.login}/harbour`, { token: jack.token })).status, 404);
      assert.equal((await t.octokit(kate.token).rest.repos.removeCollaborator({ owner: org.login, repo: 'harbour', username: kate.login })).status, 204);
      assert.equal((await t.request(`/repos/${org.login}/harbour`, { token: kate.token })).status, 404);
      const { data: repo } = await ownerKit.rest.repos.get({ owner: org.login, repo: 'harbour' });
      const removed = (await listEvents(t.server.ctx, { event: 'member', repositoryId: repo.id })).filter((e) => e.action === 'removed');
      assert.deepEqual(removed.map((e) => (e.payload.member as { login: string }).login), [jack.login, kate.login]);
      assert.equal((await t.request(`/repos/${org.login}/harbour/collaborators/no-such-user-anywhere`, { method: 'DELETE', token: org.owner.token })).status, 404);
      assert.equal((await t.request(`/repos/${org.login}/harbour/collaborators/${org.login}`, { method: 'DELETE', token: org.owner.token })).status, 422, 'the owner stays');
      // Removing someone who was only invited cancels the invitation.
      const { data: inv } = await ownerKit.rest.repos.addCollaborator({ owner: org.login, repo: 'harbour', username: jack.login });
      assert.equal((await ownerKit.rest.repos.removeCollaborator({ owner: org.login, repo: 'harbour', username: jack.login })).status, 204);
      assert.equal((await t.request(`/user/repository_invitations/${inv!.id}`, { method: 'PATCH', token: jack.token })).status, 404);
    });

    test('custom repository roles: CRUD, validation, owners only', async () => {
      const ownerKit = t.octokit(org.owner.token);
      const base = `/orgs/${org.login}/custom-repository-roles`;
      const created = await ownerKit.request('POST /orgs/{org}/custom-repository-roles', {
        org: org.login, name: 'Release Manager', description: 'Ships releases', base_role: 'write', permissions: ['add_label', 'add_label'],
      });
      assert.equal(created.status, 201);
      assertMatchesOpenApi('POST', '/orgs/{org}/custom-repository-roles', 201, created.data, 'ghes-3.19');
      assert.deepEqual(created.data.permissions, ['add_label']);
      assert.equal(created.data.organization.login, org.login);
      const list = await ownerKit.request('GET /orgs/{org}/custom-repository-roles', { org: org.login });
      assertMatchesOpenApi('GET', '/orgs/{org}/custom-repository-roles', 200, list.data, 'ghes-3.19');
      assert.equal(list.data.total_count, 1);
      const one = await ownerKit.request('GET /orgs/{org}/custom-repository-roles/{role_id}', { org: org.login, role_id: created.data.id });
      assertMatchesOpenApi('GET', '/orgs/{org}/custom-repository-roles/{role_id}', 200, one.data, 'ghes-3.19');
      const cases: [unknown, string, string][] = [
        [{ name: 'release manager', base_role: 'read', permissions: [] }, 'name', 'already_exists'],
        [{ name: 'Admin', base_role: 'read', permissions: [] }, 'name', 'invalid'],
        [{ name: '  ', base_role: 'read', permissions: [] }, 'name', 'invalid'],
        [{ name: 'Boss', base_role: 'admin', permissions: [] }, 'base_role', 'invalid'],
        [{ name: 'Boss', base_role: 'read' }, 'permissions', 'missing_field'],
        [{ name: 'Boss', base_role: 'read', permissions: ['Not A Permission'] }, 'permissions', 'invalid'],
      ];
      for (const [body, field, code] of cases) {
        const res = await t.request(base, { method: 'POST', token: org.owner.token, json: body });
        assert.equal(res.status, 422, JSON.stringify(body));
        assert.ok((await errorOf(res)).errors?.some((e) => e.field === field && e.code === code), JSON.stringify(body));
      }
      assert.equal((await ownerKit.request('GET /orgs/{org}/custom-repository-roles', { org: org.login })).data.total_count, 1, 'rejected requests create nothing');
      assert.equal((await t.request(base, { method: 'POST', token: member.token, json: { name: 'Mine', base_role: 'read', permissions: [] } })).status, 403);
      assert.equal((await t.request(base, { token: teamMember.token })).status, 403, 'members who administer no repository may not read them');
      const repoAdmin = await addMember(t, org);
      await ownerKit.rest.repos.addCollaborator({ owner: org.login, repo: 'harbour', username: repoAdmin.login, permission: 'admin' });
      assert.equal((await t.request(base, { token: member.token })).status, 403, 'maintainers may not read them');
      assert.equal((await t.request(base, { token: repoAdmin.token })).status, 200, 'a repository admin may read them');
      assert.equal((await t.request(`${base}/999999`, { token: org.owner.token })).status, 404);
      const patched = await ownerKit.request('PATCH /orgs/{org}/custom-repository-roles/{role_id}', { org: org.login, role_id: created.data.id, description: null });
      assertMatchesOpenApi('PATCH', '/orgs/{org}/custom-repository-roles/{role_id}', 200, patched.data, 'ghes-3.19');
      assert.equal(patched.data.description, null);
      assert.equal(patched.data.name, 'Release Manager', 'omitted fields are kept');
      assert.equal((await t.request(`${base}/${created.data.id}`, { method: 'DELETE', token: member.token })).status, 403);
      assert.equal((await ownerKit.request('DELETE /orgs/{org}/custom-repository-roles/{role_id}', { org: org.login, role_id: created.data.id })).status, 204);
      assert.equal((await t.request(`${base}/${created.data.id}`, { token: org.owner.token })).status, 404);
    });

    test('a custom role grants its base role everywhere; changing or deleting the role follows through', async () => {
      const ownerKit = t.octokit(org.owner.token);
      const { data: role } = await ownerKit.request('POST /orgs/{org}/custom-repository-roles', {
        org: org.login, name: 'Deployer', base_role: 'write', permissions: ['add_assignee'],
      });
      const liam = await createUser(t);
      const { data: inv } = await ownerKit.rest.repos.addCollaborator({ owner: org.login, repo: 'harbour', username: liam.login, permission: 'deployer' });
      assert.equal(inv!.permissions, 'write', 'an invitation shows the custom role\'s base role');
      await t.octokit(liam.token).rest.repos.acceptInvitationForAuthenticatedUser({ invitation_id: inv!.id });
      const level = await ownerKit.rest.repos.getCollaboratorPermissionLevel({ owner: org.login, repo: 'harbour', username: liam.login });
      assert.deepEqual([level.data.permission, level.data.role_name], ['write', 'Deployer']);
      const seen = await t.octokit(liam.token).rest.repos.get({ owner: org.login, repo: 'harbour' });
      assert.equal(seen.data.permissions?.push, true);
      const pushed = await pushCommit(org.login, 'harbour', liam, 'deploy.txt');
      assert.equal(pushed.code, 0, pushed.stderr);

      await ownerKit.request('PATCH /orgs/{org}/custom-repository-roles/{role_id}', { org: org.login, role_id: role.id, base_role: 'read' });
      const demoted = await t.octokit(liam.token).rest.repos.get({ owner: org.login, repo: 'harbour' });
      assert.deepEqual([demoted.data.permissions?.pull, demoted.data.permissions?.push], [true, false]);
      const listed = await ownerKit.rest.repos.listCollaborators({ owner: org.login, repo: 'harbour', affiliation: 'outside' });
      assert.equal(listed.data.find((c) => c.login === liam.login)?.role_name, 'Deployer');

      // With a base role of write, members may not be given a role inheriting read.
      await ownerKit.rest.orgs.update({ org: org.login, default_repository_permission: 'write' });
      try {
        const mia = await addMember(t, org);
        const res = await t.request(`/repos/${org.login}/harbour/collaborators/${mia.login}`, { method: 'PUT', token: org.owner.token, json: { permission: 'Deployer' } });
        assert.equal(res.status, 422);
        assert.equal((await errorOf(res)).errors?.[0]?.message, `Cannot assign ${mia.login} permission of Deployer`);
      } finally {
        await ownerKit.rest.orgs.update({ org: org.login, default_repository_permission: 'none' });
      }

      await ownerKit.request('DELETE /orgs/{org}/custom-repository-roles/{role_id}', { org: org.login, role_id: role.id });
      const after = await ownerKit.rest.repos.getCollaboratorPermissionLevel({ owner: org.login, repo: 'harbour', username: liam.login });
      assert.deepEqual([after.data.permission, after.data.role_name], ['read', 'read'], 'holders keep the inherited base role');
      assert.equal((await t.request(`/repos/${org.login}/harbour`, { token: liam.token })).status, 200);
    });

    test('PUT accepts the older `permissions` field and upstream\'s role names read and write', async () => {
      const ownerKit = t.octokit(org.owner.token);
      const [pat, quinn] = [await createUser(t), await createUser(t)];
      const legacy = await t.request(`/repos/${org.login}/harbour/collaborators/${pat.login}`, { method: 'PUT', token: org.owner.token, json: { permissions: 'triage' } });
      assert.equal(legacy.status, 201);
      assert.equal(((await legacy.json()) as { permissions: string }).permissions, 'triage');
      const named = await ownerKit.rest.repos.addCollaborator({ owner: org.login, repo: 'harbour', username: quinn.login, permission: 'read' });
      assert.equal(named.data!.permissions, 'read');
    });

    test('custom role names are refused on personal repositories', async () => {
      await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'personal-roles' });
      const nora = await createUser(t);
      const res = await t.request(`/repos/${alice.login}/personal-roles/collaborators/${nora.login}`, { method: 'PUT', token: alice.token, json: { permission: 'Deployer' } });
      assert.equal(res.status, 422);
    });
  });

  test('answering invitations needs the repo (or repo:invite) scope', async () => {
    const scoped = await createUser(t, ['repo:invite']);
    const unscoped = await createUser(t, ['user']);
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'scoped' });
    const { data: inv } = await t.octokit(alice.token).rest.repos.addCollaborator({ owner: alice.login, repo: 'scoped', username: scoped.login });
    assert.equal((await t.request('/user/repository_invitations', { token: unscoped.token })).status, 403);
    assert.equal((await t.request('/user/repository_invitations')).status, 401);
    assert.equal((await t.octokit(scoped.token).rest.repos.listInvitationsForAuthenticatedUser()).data.length, 1);
    assert.equal((await t.octokit(scoped.token).rest.repos.acceptInvitationForAuthenticatedUser({ invitation_id: inv!.id })).status, 204);
  });
});

describe('collaborator invitation limits', () => {
  let t: TestServer;
  const clock = new TestClock();
  let org: CreatedOrg;

  before(async () => {
    t = await startTestServer({ clock });
    org = await createOrgWithOwner(t);
    await t.octokit(org.owner.token).rest.repos.createInOrg({ org: org.login, name: 'busy' });
  });
  after(() => t.close());

  test('50 invitations per repository per 24 hours; deleting does not refund; members are not counted', async () => {
    const admin = t.octokit(ADMIN_TOKEN);
    const ownerKit = t.octokit(org.owner.token);
    const invite = (login: string) => t.request(`/repos/${org.login}/busy/collaborators/${login}`, { method: 'PUT', token: org.owner.token });
    const logins: string[] = [];
    for (let i = 0; i < 52; i++) {
      const { data } = await admin.request('POST /admin/users', { login: `invitee-${process.pid}-${i}`, email: `invitee-${i}@example.com` });
      logins.push(data.login);
    }
    let firstId = 0;
    for (const login of logins.slice(0, 50)) {
      const res = await invite(login);
      assert.equal(res.status, 201, login);
      firstId ||= ((await res.json()) as { id: number }).id;
    }
    const over = await invite(logins[50]!);
    assert.equal(over.status, 422);
    assert.match((await errorOf(over)).errors?.[0]?.message ?? '', /at most 50 invitations .* 24 hours/);
    assert.equal((await ownerKit.rest.repos.deleteInvitation({ owner: org.login, repo: 'busy', invitation_id: firstId })).status, 204);
    assert.equal((await invite(logins[50]!)).status, 422, 'a deleted invitation still counts');
    const member = await addMember(t, org);
    assert.equal((await invite(member.login)).status, 204, 'members are added without an invitation');
    clock.advance(DAY + 1000);
    assert.equal((await invite(logins[50]!)).status, 201);
    assert.equal((await invite(logins[51]!)).status, 201);
  });

  test('invitations expire after seven days: hidden from the invitee, not acceptable, marked for admins', async () => {
    const olive = await createUser(t);
    const { data: inv } = await t.octokit(org.owner.token).rest.repos.addCollaborator({ owner: org.login, repo: 'busy', username: olive.login });
    clock.advance(7 * DAY + 1000);
    assert.deepEqual((await t.octokit(olive.token).rest.repos.listInvitationsForAuthenticatedUser()).data, []);
    assert.equal((await t.request(`/user/repository_invitations/${inv!.id}`, { method: 'PATCH', token: olive.token })).status, 404);
    const listed = await t.octokit(org.owner.token).rest.repos.listInvitations({ owner: org.login, repo: 'busy', per_page: 100 });
    assert.equal(listed.data.find((i) => i.id === inv!.id)?.expired, true);
    // Inviting again replaces the expired invitation with a fresh one.
    const again = await t.octokit(org.owner.token).rest.repos.addCollaborator({ owner: org.login, repo: 'busy', username: olive.login });
    assert.notEqual(again.data!.id, inv!.id);
    assert.equal(again.data!.expired, false);
    assert.equal((await t.octokit(olive.token).rest.repos.acceptInvitationForAuthenticatedUser({ invitation_id: again.data!.id })).status, 204);
  });
});
