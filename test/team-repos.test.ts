// Team repository access: granting a team a repository after it was created, what the grant
// then gives the team's members (API reads and git pushes), the lists and the check.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addMember, createOrgWithOwner, createTeam, type CreatedOrg, type CreatedTeam } from './factories/orgs.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { git, gitOk, tempDir, cloneUrl } from './helpers/git.ts';

describe('team repositories', () => {
  let t: TestServer;
  let org: CreatedOrg;
  let member: CreatedUser;
  let other: CreatedUser;
  let team: CreatedTeam;

  before(async () => {
    t = await startTestServer();
    org = await createOrgWithOwner(t);
    member = await addMember(t, org);
    other = await addMember(t, org);
    const ownerKit = t.octokit(org.owner.token);
    // Members get nothing from the base permission: the team's grant is all they have.
    await ownerKit.rest.orgs.update({ org: org.login, default_repository_permission: 'none' });
    team = await createTeam(t, org.owner.token, org.login, { privacy: 'closed' });
    await ownerKit.rest.teams.addOrUpdateMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: member.login });
    await ownerKit.rest.repos.createInOrg({ org: org.login, name: 'dock', private: true, auto_init: true });
  });
  after(() => t.close());

  async function pushCommit(user: CreatedUser, file: string) {
    const dir = tempDir();
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, org.login, 'dock', user.login, user.token), dir]);
    fs.writeFileSync(path.join(dir, file), `${file}\n`);
    await gitOk(['add', file], { cwd: dir });
    await gitOk(['commit', '-q', '-m', `Add ${file}`], { cwd: dir });
    return git(['push', '-q', 'origin', 'HEAD:main'], { cwd: dir });
  }

  test('grant push, read and push over git, list, check, lower to pull, remove', async () => {
    const ownerKit = t.octokit(org.owner.token);
    const memberKit = t.octokit(member.token);
    await assert.rejects(memberKit.rest.repos.get({ owner: org.login, repo: 'dock' }), { status: 404 });

    const granted = await ownerKit.rest.teams.addOrUpdateRepoPermissionsInOrg({
      org: org.login, team_slug: team.slug, owner: org.login, repo: 'dock', permission: 'push',
    });
    assert.equal(granted.status, 204);

    const seen = await memberKit.rest.repos.get({ owner: org.login, repo: 'dock' });
    assert.deepEqual([seen.data.permissions?.push, seen.data.permissions?.admin], [true, false]);
    const pushed = await pushCommit(member, 'team.txt');
    assert.equal(pushed.code, 0, pushed.stderr);

    const listed = await memberKit.rest.teams.listReposInOrg({ org: org.login, team_slug: team.slug });
    assertMatchesOpenApi('GET', '/orgs/{org}/teams/{team_slug}/repos', 200, listed.data);
    assert.deepEqual(listed.data.map((r) => [r.full_name, r.role_name, r.permissions?.push, r.permissions?.maintain]),
      [[`${org.login}/dock`, 'write', true, false]]);
    // The id-addressed twin answers the same.
    const byIds = await t.request(`/organizations/${org.id}/team/${team.id}/repos`, { token: member.token });
    assert.equal(byIds.status, 200);
    assert.deepEqual(((await byIds.json()) as { name: string }[]).map((r) => r.name), ['dock']);
    // The team record counts its repositories.
    assert.equal((await ownerKit.rest.teams.getByName({ org: org.login, team_slug: team.slug })).data.repos_count, 1);

    const check = await ownerKit.rest.teams.checkPermissionsForRepoInOrg({ org: org.login, team_slug: team.slug, owner: org.login, repo: 'dock' });
    assert.equal(check.status, 204);
    const withRepo = await ownerKit.rest.teams.checkPermissionsForRepoInOrg({
      org: org.login, team_slug: team.slug, owner: org.login, repo: 'dock',
      headers: { accept: 'application/vnd.github.v3.repository+json' },
    });
    assert.equal(withRepo.status, 200);
    assertMatchesOpenApi('GET', '/orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}', 200, withRepo.data);
    assert.deepEqual([withRepo.data.name, withRepo.data.role_name, withRepo.data.permissions?.push], ['dock', 'write', true]);

    const teamsOfRepo = await ownerKit.rest.repos.listTeams({ owner: org.login, repo: 'dock' });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/teams', 200, teamsOfRepo.data);
    assert.deepEqual(teamsOfRepo.data.map((x) => [x.slug, x.permission, x.permissions?.push]), [[team.slug, 'push', true]]);

    // Lowered to pull: the member reads but may no longer push.
    await ownerKit.rest.teams.addOrUpdateRepoPermissionsInOrg({ org: org.login, team_slug: team.slug, owner: org.login, repo: 'dock', permission: 'pull' });
    assert.equal((await memberKit.rest.repos.get({ owner: org.login, repo: 'dock' })).data.permissions?.push, false);
    const refused = await pushCommit(member, 'again.txt');
    assert.notEqual(refused.code, 0);
    const lowered = await ownerKit.rest.teams.listReposInOrg({ org: org.login, team_slug: team.slug });
    assert.deepEqual(lowered.data.map((r) => [r.role_name, r.permissions?.pull, r.permissions?.push]), [['read', true, false]]);

    const removed = await ownerKit.rest.teams.removeRepoInOrg({ org: org.login, team_slug: team.slug, owner: org.login, repo: 'dock' });
    assert.equal(removed.status, 204);
    await assert.rejects(memberKit.rest.repos.get({ owner: org.login, repo: 'dock' }), { status: 404 });
    await assert.rejects(ownerKit.rest.teams.checkPermissionsForRepoInOrg({ org: org.login, team_slug: team.slug, owner: org.login, repo: 'dock' }), { status: 404 });
    assert.deepEqual((await ownerKit.rest.teams.listReposInOrg({ org: org.login, team_slug: team.slug })).data, []);
    assert.deepEqual((await ownerKit.rest.repos.listTeams({ owner: org.login, repo: 'dock' })).data, []);
  });

  test('id-addressed grant; no permission given takes the team\'s own', async () => {
    const res = await t.request(`/organizations/${org.id}/team/${team.id}/repos/${org.login}/dock`, { method: 'PUT', token: org.owner.token });
    assert.equal(res.status, 204);
    const listed = await t.octokit(org.owner.token).rest.teams.listReposInOrg({ org: org.login, team_slug: team.slug });
    assert.deepEqual(listed.data.map((r) => r.role_name), ['read'], 'the team\'s permission defaults to pull');
    const gone = await t.request(`/organizations/${org.id}/team/${team.id}/repos/${org.login}/dock`, { method: 'DELETE', token: org.owner.token });
    assert.equal(gone.status, 204);
  });

  test('errors: non-admin caller, repository outside the organization, bad permission, unknown team', async () => {
    const ownerKit = t.octokit(org.owner.token);
    const args = { org: org.login, team_slug: team.slug, owner: org.login, repo: 'dock' };
    // A member who cannot administer the repository (here cannot even see it): 404; one who reads it: 403.
    await assert.rejects(t.octokit(other.token).rest.teams.addOrUpdateRepoPermissionsInOrg({ ...args, permission: 'admin' }), { status: 404 });
    await ownerKit.rest.teams.addOrUpdateRepoPermissionsInOrg({ ...args, permission: 'pull' });
    await assert.rejects(t.octokit(member.token).rest.teams.addOrUpdateRepoPermissionsInOrg({ ...args, permission: 'admin' }), { status: 403 });
    await assert.rejects(t.octokit(member.token).rest.teams.removeRepoInOrg(args), { status: 403 });
    const outsider = await createUser(t);
    await assert.rejects(t.octokit(outsider.token).rest.teams.listReposInOrg({ org: org.login, team_slug: team.slug }), { status: 404 });
    await assert.rejects(t.octokit(outsider.token).rest.repos.listTeams({ owner: org.login, repo: 'dock' }), { status: 404 });

    await t.octokit(org.owner.token).rest.repos.createForAuthenticatedUser({ name: 'own-boat' });
    await assert.rejects(ownerKit.rest.teams.addOrUpdateRepoPermissionsInOrg({ ...args, owner: org.owner.login, repo: 'own-boat', permission: 'push' }), { status: 422 });
    const bad = await t.request(`/orgs/${org.login}/teams/${team.slug}/repos/${org.login}/dock`, { method: 'PUT', token: org.owner.token, json: { permission: 'superuser' } });
    assert.equal(bad.status, 422);
    await assert.rejects(ownerKit.rest.teams.addOrUpdateRepoPermissionsInOrg({ ...args, team_slug: 'no-such-team', permission: 'push' }), { status: 404 });
    await assert.rejects(ownerKit.rest.teams.listReposInOrg({ org: org.login, team_slug: 'no-such-team' }), { status: 404 });
    await assert.rejects(ownerKit.rest.teams.addOrUpdateRepoPermissionsInOrg({ ...args, repo: 'no-such-repo', permission: 'push' }), { status: 404 });
    await ownerKit.rest.teams.removeRepoInOrg(args);
  });
});
