// Organizations, memberships, members and teams, through Octokit and plain fetch.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, uniqueLogin } from './factories/accounts.ts';
import { addMember, createOrgWithOwner, createTeam } from './factories/orgs.ts';
import { failsWith, type ErrorBody } from './helpers/failures.ts';

let t: TestServer;

before(async () => { t = await startTestServer(); });
after(async () => { await t.close(); });


const PUBLIC_ORG_KEYS = [
  'login', 'id', 'node_id', 'url', 'repos_url', 'events_url', 'hooks_url', 'issues_url', 'members_url',
  'public_members_url', 'avatar_url', 'description', 'name', 'company', 'blog', 'location', 'email',
  'twitter_username', 'is_verified', 'has_organization_projects', 'has_repository_projects', 'public_repos',
  'public_gists', 'followers', 'following', 'html_url', 'created_at', 'updated_at', 'archived_at', 'type',
  'members_can_delete_issues', 'members_can_fork_private_repositories',
];
const OWNER_ORG_KEYS = [
  'total_private_repos', 'owned_private_repos', 'private_gists', 'disk_usage', 'collaborators', 'billing_email',
  'plan', 'default_repository_permission', 'members_can_create_repositories', 'two_factor_requirement_enabled',
  'members_allowed_repository_creation_type', 'members_can_create_public_repositories',
  'members_can_create_private_repositories', 'members_can_create_internal_repositories', 'web_commit_signoff_required',
  'members_can_create_pages', 'members_can_create_public_pages', 'members_can_create_private_pages',
  'default_repository_branch', 'members_can_delete_repositories', 'members_can_change_repo_visibility',
  'members_can_invite_outside_collaborators', 'deploy_keys_enabled_for_repositories',
  // Kept by the billing module (advanced security).
  'advanced_security_enabled_for_new_repositories',
];
const ORG_SIMPLE_KEYS = PUBLIC_ORG_KEYS.slice(0, 12);
const TEAM_KEYS = [
  'id', 'node_id', 'url', 'members_url', 'name', 'description', 'permission', 'privacy', 'notification_setting',
  'html_url', 'repositories_url', 'slug', 'type', 'organization_id', 'permissions', 'parent',
];
const TEAM_FULL_KEYS = [...TEAM_KEYS, 'members_count', 'repos_count', 'created_at', 'updated_at', 'organization'];
const sorted = (keys: string[]) => [...keys].sort();

/** A request the typed Octokit methods would not let through (invalid values); returns status and body. */
async function send(method: string, path: string, token: string, json?: unknown): Promise<{ status: number; body: ErrorBody }> {
  const res = await t.request(path, { method, token, ...(json === undefined ? {} : { json }) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as ErrorBody };
}

/** Fields newer than the installed Octokit types (team-member role and inherited, team permissions). */
const extra = (x: object) => x as { role?: string; inherited?: boolean; permissions?: Record<string, boolean> };

describe('GET /orgs/{org}', () => {
  test('anyone sees the public record, every field present and blanks null', async () => {
    const org = await createOrgWithOwner(t);
    const { data } = await t.octokit().rest.orgs.get({ org: org.login });
    assert.deepEqual(sorted(Object.keys(data)), sorted(PUBLIC_ORG_KEYS));
    assert.equal(data.login, org.login);
    assert.equal(data.id, org.id);
    assert.equal(data.type, 'Organization');
    assert.equal(data.url, `${t.baseUrl}/orgs/${org.login}`);
    assert.equal(data.members_url, `${t.baseUrl}/orgs/${org.login}/members{/member}`);
    assert.equal(data.node_id, Buffer.from(`012:Organization${org.id}`).toString('base64'));
    for (const k of ['description', 'name', 'company', 'blog', 'location', 'email', 'twitter_username', 'archived_at'] as const) {
      assert.equal(data[k], null, k);
    }
    assert.equal(data.public_repos, 0);
    assert.equal(data.is_verified, false);
    assert.equal(data.has_organization_projects, true);
    // Wharf's fixed policies, the same for every organization: no issue deletion; private repositories may be forked.
    assert.equal(data.members_can_delete_issues, false);
    assert.equal(data.members_can_fork_private_repositories, true);
  });

  test('owners with admin:org also see the owner-only fields', async () => {
    const org = await createOrgWithOwner(t);
    const { data } = await t.octokit(org.owner.token).rest.orgs.get({ org: org.login });
    assert.deepEqual(sorted(Object.keys(data)), sorted([...PUBLIC_ORG_KEYS, ...OWNER_ORG_KEYS]));
    assert.equal(data.billing_email, null);
    assert.equal(data.default_repository_permission, 'read');
    assert.equal(data.members_allowed_repository_creation_type, 'all');
    assert.equal(data.two_factor_requirement_enabled, false);
    assert.equal(data.total_private_repos, 0);
    assert.equal(typeof data.plan?.name, 'string');
    assert.equal(data.plan?.filled_seats, 1, 'the owner fills the one seat');
    assert.equal(data.plan?.seats, 1);
    // No Pages sites in Wharf: no member may create one.
    assert.deepEqual([data.members_can_create_pages, data.members_can_create_public_pages, data.members_can_create_private_pages], [false, false, false]);
    assert.equal(data.default_repository_branch, 'main', 'what new repositories start on');
    assert.deepEqual([data.members_can_delete_repositories, data.members_can_change_repo_visibility, data.members_can_invite_outside_collaborators, data.deploy_keys_enabled_for_repositories], [true, true, true, true]);
    await addMember(t, org);
    const { data: grown } = await t.octokit(org.owner.token).rest.orgs.get({ org: org.login });
    assert.equal(grown.plan?.filled_seats, 2);
    assert.equal(grown.plan?.seats, 2, 'no seats sold or capped: the organization has the seats its members fill');
    const { data: asAdmin } = await t.octokit(ADMIN_TOKEN).rest.orgs.get({ org: org.login });
    assert.ok('billing_email' in asAdmin, 'site admins see what owners see');
  });

  test('members, and owners whose token lacks admin:org, see the public record only', async () => {
    const org = await createOrgWithOwner(t);
    const member = await addMember(t, org);
    const { data } = await t.octokit(member.token).rest.orgs.get({ org: org.login });
    assert.deepEqual(sorted(Object.keys(data)), sorted(PUBLIC_ORG_KEYS));
    const reader = await createUser(t, ['read:org']);
    await t.octokit(org.owner.token).rest.orgs.setMembershipForUser({ org: org.login, username: reader.login, role: 'admin' });
    const { data: limited } = await t.octokit(reader.token).rest.orgs.get({ org: org.login });
    assert.equal('billing_email' in limited, false);
  });

  test('an unknown organization, or a user login, is 404', async () => {
    const user = await createUser(t);
    await failsWith(t.octokit().rest.orgs.get({ org: uniqueLogin('nope') }), 404);
    await failsWith(t.octokit().rest.orgs.get({ org: user.login }), 404);
  });

  test('Last-Modified and ETag answer conditional requests', async () => {
    const org = await createOrgWithOwner(t);
    const res = await t.request(`/orgs/${org.login}`);
    assert.equal(res.status, 200);
    const etag = res.headers.get('etag');
    const lastModified = res.headers.get('last-modified');
    assert.ok(etag && lastModified);
    assert.equal((await t.request(`/orgs/${org.login}`, { headers: { 'if-none-match': etag } })).status, 304);
    assert.equal((await t.request(`/orgs/${org.login}`, { headers: { 'if-modified-since': lastModified } })).status, 304);
  });
});

describe('PATCH /orgs/{org}', () => {
  test('an owner updates profile and settings; GET shows them', async () => {
    const org = await createOrgWithOwner(t);
    const ok = t.octokit(org.owner.token);
    const { data } = await ok.rest.orgs.update({
      org: org.login, name: 'Acme Corp', company: 'Acme', email: 'hello@acme.test', blog: 'https://acme.test',
      location: 'Basel', twitter_username: 'acme', description: 'We make everything', billing_email: 'billing@acme.test',
      default_repository_permission: 'write', has_organization_projects: false, has_repository_projects: false,
      web_commit_signoff_required: true,
    });
    assert.equal(data.name, 'Acme Corp');
    assert.equal(data.billing_email, 'billing@acme.test');
    const { data: got } = await ok.rest.orgs.get({ org: org.login });
    assert.equal(got.name, 'Acme Corp');
    assert.equal(got.company, 'Acme');
    assert.equal(got.email, 'hello@acme.test');
    assert.equal(got.blog, 'https://acme.test');
    assert.equal(got.location, 'Basel');
    assert.equal(got.twitter_username, 'acme');
    assert.equal(got.description, 'We make everything');
    assert.equal(got.billing_email, 'billing@acme.test');
    assert.equal(got.default_repository_permission, 'write');
    assert.equal(got.has_organization_projects, false);
    assert.equal(got.has_repository_projects, false);
    assert.equal(got.web_commit_signoff_required, true);
    // The simple record in lists carries the new description.
    const { data: mine } = await ok.rest.orgs.listForAuthenticatedUser();
    assert.equal(mine.find((o) => o.login === org.login)?.description, 'We make everything');
  });

  test('omitted fields stay, null and empty strings clear', async () => {
    const org = await createOrgWithOwner(t);
    const ok = t.octokit(org.owner.token);
    await ok.rest.orgs.update({ org: org.login, company: 'Acme', location: 'Basel' });
    const res = await t.request(`/orgs/${org.login}`, { method: 'PATCH', token: org.owner.token, json: { company: null, location: '' } });
    assert.equal(res.status, 200);
    const { data } = await ok.rest.orgs.get({ org: org.login });
    assert.equal(data.company, null);
    assert.equal(data.location, null);
    await ok.rest.orgs.update({ org: org.login, name: 'Kept' });
    assert.equal((await ok.rest.orgs.get({ org: org.login })).data.name, 'Kept');
  });

  test('POST is accepted as PATCH', async () => {
    const org = await createOrgWithOwner(t);
    const res = await t.request(`/orgs/${org.login}`, { method: 'POST', token: org.owner.token, json: { description: 'via post' } });
    assert.equal(res.status, 200);
    assert.equal((await t.octokit().rest.orgs.get({ org: org.login })).data.description, 'via post');
  });

  test('the repository creation switches follow upstream', async () => {
    const org = await createOrgWithOwner(t);
    const ok = t.octokit(org.owner.token);
    let { data } = await ok.rest.orgs.update({ org: org.login, members_allowed_repository_creation_type: 'private' });
    assert.equal(data.members_can_create_repositories, true);
    assert.equal(data.members_can_create_public_repositories, false);
    assert.equal(data.members_can_create_private_repositories, true);
    assert.equal(data.members_allowed_repository_creation_type, 'private');
    ({ data } = await ok.rest.orgs.update({ org: org.login, members_can_create_repositories: false }));
    assert.equal(data.members_can_create_private_repositories, false);
    assert.equal(data.members_can_create_internal_repositories, false);
    assert.equal(data.members_allowed_repository_creation_type, 'none');
    ({ data } = await ok.rest.orgs.update({ org: org.login, members_can_create_repositories: true, members_can_create_internal_repositories: false }));
    assert.equal(data.members_can_create_public_repositories, true);
    assert.equal(data.members_can_create_internal_repositories, false);
    assert.equal(data.members_allowed_repository_creation_type, 'all');
  });

  test('a member who is not an owner gets 403, a non-member 403, an anonymous caller 401', async () => {
    const org = await createOrgWithOwner(t);
    const member = await addMember(t, org);
    const outsider = await createUser(t);
    await failsWith(t.octokit(member.token).rest.orgs.update({ org: org.login, name: 'x' }), 403);
    await failsWith(t.octokit(outsider.token).rest.orgs.update({ org: org.login, name: 'x' }), 403);
    await failsWith(t.octokit().rest.orgs.update({ org: org.login, name: 'x' }), 401);
    assert.equal((await t.octokit().rest.orgs.get({ org: org.login })).data.name, null);
  });

  test('a site admin may update any organization', async () => {
    const org = await createOrgWithOwner(t);
    const { data } = await t.octokit(ADMIN_TOKEN).rest.orgs.update({ org: org.login, name: 'By admin' });
    assert.equal(data.name, 'By admin');
  });

  test('a token without admin:org gets 403 naming the scopes', async () => {
    const org = await createOrgWithOwner(t);
    const reader = await createUser(t, ['read:org']);
    await t.octokit(org.owner.token).rest.orgs.setMembershipForUser({ org: org.login, username: reader.login, role: 'admin' });
    const res = await t.request(`/orgs/${org.login}`, { method: 'PATCH', token: reader.token, json: { name: 'x' } });
    assert.equal(res.status, 403);
    assert.match(res.headers.get('x-accepted-oauth-scopes') ?? '', /admin:org/);
  });

  test('invalid values are 422 with errors naming the field', async () => {
    const org = await createOrgWithOwner(t);
    const ok = t.octokit(org.owner.token);
    let body = (await send('PATCH', `/orgs/${org.login}`, org.owner.token, { default_repository_permission: 'owner' })).body;
    assert.equal(body.errors?.[0]?.resource, 'Organization');
    assert.equal(body.errors?.[0]?.field, 'default_repository_permission');
    body = await failsWith(ok.rest.orgs.update({ org: org.login, billing_email: 'not-an-email' }), 422);
    assert.deepEqual(body.errors?.map((e) => [e.field, e.code]), [['billing_email', 'invalid']]);
    await failsWith(ok.rest.orgs.update({ org: org.login, description: 'x'.repeat(161) }), 422);
    assert.equal((await send('PATCH', `/orgs/${org.login}`, org.owner.token, { has_organization_projects: 'yes' })).status, 422);
    assert.equal((await send('PATCH', `/orgs/${org.login}`, org.owner.token, { members_allowed_repository_creation_type: 'some' })).status, 422);
    const { data } = await ok.rest.orgs.get({ org: org.login });
    assert.equal(data.billing_email, null, 'nothing was written');
  });

  test('an unknown organization is 404', async () => {
    const user = await createUser(t);
    await failsWith(t.octokit(user.token).rest.orgs.update({ org: uniqueLogin('nope'), name: 'x' }), 404);
  });
});

describe('organizations of a user', () => {
  test('GET /user/orgs lists every organization of the caller', async () => {
    const a = await createOrgWithOwner(t);
    const user = await addMember(t, a);
    const b = await createOrgWithOwner(t);
    await t.octokit(b.owner.token).rest.orgs.setMembershipForUser({ org: b.login, username: user.login });
    const { data } = await t.octokit(user.token).rest.orgs.listForAuthenticatedUser();
    assert.deepEqual(data.map((o) => o.login), [a.login, b.login]);
    assert.deepEqual(sorted(Object.keys(data[0]!)), sorted(ORG_SIMPLE_KEYS));
  });

  test('GET /user/orgs needs user or read:org, and authentication', async () => {
    const org = await createOrgWithOwner(t);
    const repoOnly = await addMember(t, org, 'member', ['repo']);
    await failsWith(t.octokit(repoOnly.token).rest.orgs.listForAuthenticatedUser(), 403);
    const reader = await addMember(t, org, 'member', ['read:org']);
    assert.equal((await t.octokit(reader.token).rest.orgs.listForAuthenticatedUser()).data.length, 1);
    await failsWith(t.octokit().rest.orgs.listForAuthenticatedUser(), 401);
  });

  test('GET /users/{username}/orgs lists public memberships only, whoever asks', async () => {
    const a = await createOrgWithOwner(t);
    const user = await addMember(t, a);
    const b = await createOrgWithOwner(t);
    await t.octokit(b.owner.token).rest.orgs.setMembershipForUser({ org: b.login, username: user.login });
    assert.deepEqual((await t.octokit(user.token).rest.orgs.listForUser({ username: user.login })).data, []);
    await t.octokit(user.token).rest.orgs.setPublicMembershipForAuthenticatedUser({ org: b.login, username: user.login });
    for (const token of [undefined, user.token, a.owner.token]) {
      const { data } = await t.octokit(token).rest.orgs.listForUser({ username: user.login });
      assert.deepEqual(data.map((o) => o.login), [b.login]);
    }
    await failsWith(t.octokit().rest.orgs.listForUser({ username: uniqueLogin('ghost') }), 404);
  });
});

describe('organization memberships', () => {
  test('an owner adds a member: active at once, role member by default', async () => {
    const org = await createOrgWithOwner(t);
    const user = await createUser(t);
    const { data } = await t.octokit(org.owner.token).rest.orgs.setMembershipForUser({ org: org.login, username: user.login });
    assert.deepEqual(sorted(Object.keys(data)), sorted(['url', 'state', 'role', 'organization_url', 'organization', 'user', 'direct_membership']));
    assert.equal(data.direct_membership, true, 'no enterprise teams: every membership is direct');
    assert.equal(data.state, 'active');
    assert.equal(data.role, 'member');
    assert.equal(data.url, `${t.baseUrl}/orgs/${org.login}/memberships/${user.login}`);
    assert.equal(data.organization_url, `${t.baseUrl}/orgs/${org.login}`);
    assert.equal(data.organization.login, org.login);
    assert.equal(data.user?.login, user.login);
    const { data: got } = await t.octokit(org.owner.token).rest.orgs.getMembershipForUser({ org: org.login, username: user.login });
    assert.equal(got.role, 'member');
    const { data: promoted } = await t.octokit(org.owner.token).rest.orgs.setMembershipForUser({ org: org.login, username: user.login, role: 'admin' });
    assert.equal(promoted.role, 'admin');
    // The new owner may now do what owners do.
    await t.octokit(user.token).rest.orgs.update({ org: org.login, name: 'Promoted' });
  });

  test('PUT with an empty body adds a member', async () => {
    const org = await createOrgWithOwner(t);
    const user = await createUser(t);
    const res = await t.request(`/orgs/${org.login}/memberships/${user.login}`, {
      method: 'PUT', token: org.owner.token, headers: { 'content-length': '0' },
    });
    assert.equal(res.status, 200);
    assert.equal((await res.json() as { role: string }).role, 'member');
  });

  test('only owners set memberships; bad users and roles are refused', async () => {
    const org = await createOrgWithOwner(t);
    const member = await addMember(t, org);
    const user = await createUser(t);
    await failsWith(t.octokit(member.token).rest.orgs.setMembershipForUser({ org: org.login, username: user.login }), 403);
    await failsWith(t.octokit(user.token).rest.orgs.setMembershipForUser({ org: org.login, username: user.login }), 403);
    const ok = t.octokit(org.owner.token);
    await failsWith(ok.rest.orgs.setMembershipForUser({ org: org.login, username: uniqueLogin('ghost') }), 404);
    const other = await createOrgWithOwner(t);
    await failsWith(ok.rest.orgs.setMembershipForUser({ org: org.login, username: other.login }), 422);
    const body = (await send('PUT', `/orgs/${org.login}/memberships/${user.login}`, org.owner.token, { role: 'owner' })).body;
    assert.equal(body.errors?.[0]?.field, 'role');
    await failsWith(ok.rest.orgs.getMembershipForUser({ org: org.login, username: user.login }), 404);
  });

  test('members see memberships, outsiders get 404, everyone sees their own', async () => {
    const org = await createOrgWithOwner(t);
    const member = await addMember(t, org);
    const outsider = await createUser(t);
    const { data } = await t.octokit(member.token).rest.orgs.getMembershipForUser({ org: org.login, username: org.owner.login });
    assert.equal(data.role, 'admin');
    await failsWith(t.octokit(outsider.token).rest.orgs.getMembershipForUser({ org: org.login, username: org.owner.login }), 404);
    await failsWith(t.octokit(outsider.token).rest.orgs.getMembershipForUser({ org: org.login, username: outsider.login }), 404);
    const own = await t.octokit(member.token).rest.orgs.getMembershipForUser({ org: org.login, username: member.login });
    assert.equal(own.data.state, 'active');
    await failsWith(t.octokit().rest.orgs.getMembershipForUser({ org: org.login, username: member.login }), 401);
  });

  test('removing a membership takes the user out of the organization and its teams', async () => {
    const org = await createOrgWithOwner(t);
    const member = await addMember(t, org);
    const team = await createTeam(t, org.owner.token, org.login, { privacy: 'closed' });
    const ok = t.octokit(org.owner.token);
    await ok.rest.teams.addOrUpdateMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: member.login });
    await failsWith(t.octokit(member.token).rest.orgs.removeMembershipForUser({ org: org.login, username: org.owner.login }), 403);
    const res = await ok.rest.orgs.removeMembershipForUser({ org: org.login, username: member.login });
    assert.equal(res.status, 204);
    await failsWith(ok.rest.orgs.getMembershipForUser({ org: org.login, username: member.login }), 404);
    await failsWith(ok.rest.teams.getMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: member.login }), 404);
    await failsWith(ok.rest.orgs.removeMembershipForUser({ org: org.login, username: member.login }), 404);
  });

  test('the last owner can be neither removed nor demoted', async () => {
    const org = await createOrgWithOwner(t);
    const ok = t.octokit(org.owner.token);
    let body = await failsWith(ok.rest.orgs.removeMembershipForUser({ org: org.login, username: org.owner.login }), 403);
    assert.match(body.message, /last owner/);
    body = await failsWith(ok.rest.orgs.setMembershipForUser({ org: org.login, username: org.owner.login, role: 'member' }), 403);
    assert.match(body.message, /last owner/);
    await failsWith(ok.rest.orgs.removeMember({ org: org.login, username: org.owner.login }), 403);
    assert.equal((await ok.rest.orgs.getMembershipForUser({ org: org.login, username: org.owner.login })).data.role, 'admin');
    // With a second owner, the first may step down.
    const second = await addMember(t, org, 'admin');
    const { data } = await ok.rest.orgs.setMembershipForUser({ org: org.login, username: org.owner.login, role: 'member' });
    assert.equal(data.role, 'member');
    await failsWith(t.octokit(second.token).rest.orgs.removeMembershipForUser({ org: org.login, username: second.login }), 403);
  });

  test('the authenticated user lists, reads and accepts their memberships', async () => {
    const org = await createOrgWithOwner(t);
    const member = await addMember(t, org);
    const mk = t.octokit(member.token);
    const { data: all } = await mk.rest.orgs.listMembershipsForAuthenticatedUser();
    assert.deepEqual(all.map((m) => [m.organization.login, m.state, m.role]), [[org.login, 'active', 'member']]);
    assert.equal((await mk.rest.orgs.listMembershipsForAuthenticatedUser({ state: 'active' })).data.length, 1);
    assert.equal((await mk.rest.orgs.listMembershipsForAuthenticatedUser({ state: 'pending' })).data.length, 0);
    assert.equal((await send('GET', '/user/memberships/orgs?state=gone', member.token)).status, 422);
    const { data: one } = await mk.rest.orgs.getMembershipForAuthenticatedUser({ org: org.login });
    assert.equal(one.user?.login, member.login);
    const { data: accepted } = await mk.rest.orgs.updateMembershipForAuthenticatedUser({ org: org.login, state: 'active' });
    assert.equal(accepted.state, 'active');
    assert.equal((await send('PATCH', `/user/memberships/orgs/${org.login}`, member.token, { state: 'pending' })).status, 422);
    const outsider = await createUser(t);
    await failsWith(t.octokit(outsider.token).rest.orgs.getMembershipForAuthenticatedUser({ org: org.login }), 404);
    await failsWith(t.octokit(outsider.token).rest.orgs.updateMembershipForAuthenticatedUser({ org: org.login, state: 'active' }), 404);
  });
});

describe('members', () => {
  test('members see concealed members; others see public members only', async () => {
    const org = await createOrgWithOwner(t);
    const concealed = await addMember(t, org);
    const visible = await addMember(t, org);
    await t.octokit(visible.token).rest.orgs.setPublicMembershipForAuthenticatedUser({ org: org.login, username: visible.login });
    const outsider = await createUser(t);
    const logins = async (token?: string) => (await t.octokit(token).rest.orgs.listMembers({ org: org.login })).data.map((u) => u.login);
    assert.deepEqual(await logins(concealed.token), [org.owner.login, concealed.login, visible.login]);
    assert.deepEqual(await logins(outsider.token), [visible.login]);
    assert.deepEqual(await logins(), [visible.login]);
    // A member whose token may not read organization data is treated as an outsider.
    const repoOnly = await addMember(t, org, 'member', ['repo']);
    assert.deepEqual(await logins(repoOnly.token), [visible.login]);
    const { data: pub } = await t.octokit().rest.orgs.listPublicMembers({ org: org.login });
    assert.deepEqual(pub.map((u) => u.login), [visible.login]);
  });

  test('role and filter narrow the list; the 2FA filters are for owners', async () => {
    const org = await createOrgWithOwner(t);
    const member = await addMember(t, org);
    const ok = t.octokit(org.owner.token);
    assert.deepEqual((await ok.rest.orgs.listMembers({ org: org.login, role: 'admin' })).data.map((u) => u.login), [org.owner.login]);
    assert.deepEqual((await ok.rest.orgs.listMembers({ org: org.login, role: 'member' })).data.map((u) => u.login), [member.login]);
    assert.equal((await ok.rest.orgs.listMembers({ org: org.login, filter: '2fa_disabled' })).data.length, 2);
    const body = await failsWith(t.octokit(member.token).rest.orgs.listMembers({ org: org.login, filter: '2fa_disabled' }), 422);
    assert.equal(body.message, 'Only owners can use this filter.');
    assert.equal((await send('GET', `/orgs/${org.login}/members?role=owner`, org.owner.token)).status, 422);
  });

  test('the members list pages with Link', async () => {
    const org = await createOrgWithOwner(t);
    for (let i = 0; i < 4; i++) await addMember(t, org);
    const res = await t.request(`/orgs/${org.login}/members?per_page=2`, { token: org.owner.token });
    assert.equal(res.status, 200);
    assert.equal((await res.json() as unknown[]).length, 2);
    const link = res.headers.get('link') ?? '';
    assert.match(link, /[?&]page=2[^>]*>; rel="next"/);
    assert.match(link, /[?&]page=3[^>]*>; rel="last"/);
    const last = await t.request(`/orgs/${org.login}/members?per_page=2&page=3`, { token: org.owner.token });
    assert.equal((await last.json() as unknown[]).length, 1);
    assert.match(last.headers.get('link') ?? '', /rel="first"/);
    const all = await t.octokit(org.owner.token).paginate(t.octokit(org.owner.token).rest.orgs.listMembers, { org: org.login, per_page: 2 });
    assert.equal(all.length, 5);
    assert.equal(new Set(all.map((u) => u.login)).size, 5);
  });

  test('a member checks membership (204/404); anyone else is redirected to the public check', async () => {
    const org = await createOrgWithOwner(t);
    const concealed = await addMember(t, org);
    const visible = await addMember(t, org);
    await t.octokit(visible.token).rest.orgs.setPublicMembershipForAuthenticatedUser({ org: org.login, username: visible.login });
    const outsider = await createUser(t);
    const mk = t.octokit(concealed.token);
    assert.equal((await mk.rest.orgs.checkMembershipForUser({ org: org.login, username: org.owner.login })).status, 204);
    await failsWith(mk.rest.orgs.checkMembershipForUser({ org: org.login, username: outsider.login }), 404);
    const res = await t.request(`/orgs/${org.login}/members/${concealed.login}`, { token: outsider.token, redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), `${t.baseUrl}/orgs/${org.login}/public_members/${concealed.login}`);
    // Following the redirect: a concealed member is not found, a public one is.
    await failsWith(t.octokit(outsider.token).rest.orgs.checkMembershipForUser({ org: org.login, username: concealed.login }), 404);
    assert.equal((await t.octokit().rest.orgs.checkMembershipForUser({ org: org.login, username: visible.login })).status, 204);
  });

  test('an owner removes a member; members may not', async () => {
    const org = await createOrgWithOwner(t);
    const a = await addMember(t, org);
    const b = await addMember(t, org);
    await failsWith(t.octokit(a.token).rest.orgs.removeMember({ org: org.login, username: b.login }), 403);
    assert.equal((await t.octokit(org.owner.token).rest.orgs.removeMember({ org: org.login, username: b.login })).status, 204);
    const { data } = await t.octokit(org.owner.token).rest.orgs.listMembers({ org: org.login });
    assert.deepEqual(data.map((u) => u.login), [org.owner.login, a.login]);
  });

  test('each member publicizes and conceals only their own membership', async () => {
    const org = await createOrgWithOwner(t);
    const member = await addMember(t, org);
    const outsider = await createUser(t);
    const mk = t.octokit(member.token);
    await failsWith(mk.rest.orgs.checkPublicMembershipForUser({ org: org.login, username: member.login }), 404);
    assert.equal((await mk.rest.orgs.setPublicMembershipForAuthenticatedUser({ org: org.login, username: member.login })).status, 204);
    assert.equal((await t.octokit().rest.orgs.checkPublicMembershipForUser({ org: org.login, username: member.login })).status, 204);
    await failsWith(mk.rest.orgs.setPublicMembershipForAuthenticatedUser({ org: org.login, username: org.owner.login }), 403);
    await failsWith(mk.rest.orgs.removePublicMembershipForAuthenticatedUser({ org: org.login, username: org.owner.login }), 403);
    await failsWith(t.octokit(outsider.token).rest.orgs.setPublicMembershipForAuthenticatedUser({ org: org.login, username: outsider.login }), 403);
    assert.equal((await mk.rest.orgs.removePublicMembershipForAuthenticatedUser({ org: org.login, username: member.login })).status, 204);
    await failsWith(t.octokit().rest.orgs.checkPublicMembershipForUser({ org: org.login, username: member.login }), 404);
  });
});

describe('teams', () => {
  test('creating a team: 201 team-full, slug from the name, upstream defaults', async () => {
    const org = await createOrgWithOwner(t);
    const { status, data } = await t.octokit(org.owner.token).rest.teams.create({ org: org.login, name: 'My TEam Näme', description: 'The team' });
    assert.equal(status, 201);
    assert.deepEqual(sorted(Object.keys(data)), sorted(TEAM_FULL_KEYS));
    assert.equal(data.slug, 'my-team-name');
    assert.equal(data.name, 'My TEam Näme');
    assert.equal(data.privacy, 'secret');
    assert.equal(data.permission, 'pull');
    assert.equal(data.notification_setting, 'notifications_enabled');
    assert.equal(data.parent, null);
    assert.equal(data.type, 'organization');
    assert.equal(data.url, `${t.baseUrl}/organizations/${org.id}/team/${data.id}`);
    assert.equal(data.members_url, `${data.url}/members{/member}`);
    assert.equal(data.html_url, `${t.baseUrl}/orgs/${org.login}/teams/my-team-name`);
    assert.equal(data.node_id, Buffer.from(`04:Team${data.id}`).toString('base64'));
    assert.equal(data.repos_count, 0);
    assert.equal(data.members_count, 1, 'the creator is a member');
    assert.equal(data.organization.login, org.login);
    assert.deepEqual(sorted(Object.keys(data.organization)), sorted(PUBLIC_ORG_KEYS));
    assert.equal(data.organization.members_can_fork_private_repositories, true);
    const { data: got } = await t.octokit(org.owner.token).rest.teams.getByName({ org: org.login, team_slug: 'my-team-name' });
    assert.equal(got.description, 'The team');
  });

  test('the creator becomes a maintainer; listed maintainers too', async () => {
    const org = await createOrgWithOwner(t);
    const creator = await addMember(t, org);
    const other = await addMember(t, org);
    const team = await createTeam(t, creator.token, org.login, { maintainers: [other.login] });
    const ok = t.octokit(org.owner.token);
    const { data: members } = await ok.rest.teams.listMembersInOrg({ org: org.login, team_slug: team.slug });
    assert.deepEqual(members.map((m) => [m.login, extra(m).role]), [[creator.login, 'maintainer'], [other.login, 'maintainer']]);
    const { data: m } = await ok.rest.teams.getMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: creator.login });
    assert.deepEqual(m, { url: `${t.baseUrl}/organizations/${org.id}/team/${team.id}/memberships/${creator.login}`, role: 'maintainer', state: 'active' });
  });

  test('names and slugs are unique in the organization (422 already_exists)', async () => {
    const org = await createOrgWithOwner(t);
    const ok = t.octokit(org.owner.token);
    await ok.rest.teams.create({ org: org.login, name: 'Core Team' });
    let body = await failsWith(ok.rest.teams.create({ org: org.login, name: 'Core Team' }), 422);
    assert.deepEqual(body.errors?.map((e) => [e.resource, e.field, e.code]), [['Team', 'name', 'already_exists']]);
    body = await failsWith(ok.rest.teams.create({ org: org.login, name: 'core-team' }), 422);
    assert.equal(body.errors?.[0]?.code, 'already_exists');
    // Another organization may use the name.
    const other = await createOrgWithOwner(t);
    assert.equal((await t.octokit(other.owner.token).rest.teams.create({ org: other.login, name: 'Core Team' })).status, 201);
  });

  test('invalid team input is 422', async () => {
    const org = await createOrgWithOwner(t);
    const outsider = await createUser(t);
    const ok = t.octokit(org.owner.token);
    let { status, body } = await send('POST', `/orgs/${org.login}/teams`, org.owner.token, { description: 'no name' });
    assert.equal(status, 422);
    assert.deepEqual(body.errors?.map((e) => [e.resource, e.field, e.code]), [['Team', 'name', 'missing_field']]);
    assert.equal((await send('POST', `/orgs/${org.login}/teams`, org.owner.token, { name: 'x1', privacy: 'public' })).status, 422);
    assert.equal((await send('POST', `/orgs/${org.login}/teams`, org.owner.token, { name: 'x2', permission: 'admin' })).status, 422);
    await failsWith(ok.rest.teams.create({ org: org.login, name: '!!!' }), 422);
    body = await failsWith(ok.rest.teams.create({ org: org.login, name: 'x3', repo_names: [`${org.login}/nothing`] }), 422);
    assert.equal(body.errors?.[0]?.field, 'repo_names');
    body = await failsWith(ok.rest.teams.create({ org: org.login, name: 'x4', maintainers: [outsider.login] }), 422);
    assert.equal(body.errors?.[0]?.field, 'maintainers');
    await failsWith(ok.rest.teams.create({ org: org.login, name: 'x5', parent_team_id: 999999 }), 422);
    const { data: teams } = await ok.rest.teams.list({ org: org.login });
    assert.deepEqual(teams, [], 'nothing was created');
  });

  test('outsiders may not create teams', async () => {
    const org = await createOrgWithOwner(t);
    const outsider = await createUser(t);
    await failsWith(t.octokit(outsider.token).rest.teams.create({ org: org.login, name: 'Intruders' }), 403);
    await failsWith(t.octokit().rest.teams.create({ org: org.login, name: 'Intruders' }), 401);
  });

  test('nested teams are closed: the default for a child, and a secret child or parent is refused', async () => {
    const org = await createOrgWithOwner(t);
    const ok = t.octokit(org.owner.token);
    const parent = await createTeam(t, org.owner.token, org.login, { privacy: 'closed' });
    const { data: child } = await ok.rest.teams.create({ org: org.login, name: uniqueLogin('child'), parent_team_id: parent.id });
    assert.equal(child.privacy, 'closed');
    assert.equal(child.parent?.id, parent.id);
    assert.equal(child.parent?.slug, parent.slug);
    await failsWith(ok.rest.teams.create({ org: org.login, name: uniqueLogin('c'), parent_team_id: parent.id, privacy: 'secret' }), 422);
    const secret = await createTeam(t, org.owner.token, org.login);
    await failsWith(ok.rest.teams.create({ org: org.login, name: uniqueLogin('c'), parent_team_id: secret.id }), 422);
    const { data: children } = await ok.rest.teams.listChildInOrg({ org: org.login, team_slug: parent.slug });
    assert.deepEqual(children.map((c) => c.id), [child.id]);
    assert.deepEqual(sorted(Object.keys(children[0]!)), sorted(TEAM_KEYS));
  });

  test('secret teams are visible to owners and their members only', async () => {
    const org = await createOrgWithOwner(t);
    const insider = await addMember(t, org);
    const member = await addMember(t, org);
    const outsider = await createUser(t);
    const closed = await createTeam(t, org.owner.token, org.login, { name: 'a-closed', privacy: 'closed' });
    const secret = await createTeam(t, org.owner.token, org.login, { name: 'b-secret' });
    const mine = await createTeam(t, insider.token, org.login, { name: 'c-mine' });
    const slugs = async (token: string) => (await t.octokit(token).rest.teams.list({ org: org.login })).data.map((x) => x.slug);
    assert.deepEqual(await slugs(org.owner.token), [closed.slug, secret.slug, mine.slug]);
    assert.deepEqual(await slugs(ADMIN_TOKEN), [closed.slug, secret.slug, mine.slug]);
    assert.deepEqual(await slugs(insider.token), [closed.slug, mine.slug]);
    assert.deepEqual(await slugs(member.token), [closed.slug]);
    await failsWith(t.octokit(member.token).rest.teams.getByName({ org: org.login, team_slug: secret.slug }), 404);
    await failsWith(t.octokit(member.token).rest.teams.listMembersInOrg({ org: org.login, team_slug: secret.slug }), 404);
    assert.equal((await t.octokit(member.token).rest.teams.getByName({ org: org.login, team_slug: closed.slug })).data.id, closed.id);
    await failsWith(t.octokit(outsider.token).rest.teams.list({ org: org.login }), 403);
    await failsWith(t.octokit(outsider.token).rest.teams.getByName({ org: org.login, team_slug: closed.slug }), 404);
    await failsWith(t.octokit().rest.teams.list({ org: org.login }), 401);
    const { data: list } = await t.octokit(org.owner.token).rest.teams.list({ org: org.login });
    assert.deepEqual(sorted(Object.keys(list[0]!)), sorted(TEAM_KEYS));
    assert.deepEqual(extra(list[0]!).permissions, { pull: true, triage: false, push: false, maintain: false, admin: false });
  });

  test('the team list pages with Link', async () => {
    const org = await createOrgWithOwner(t);
    for (let i = 0; i < 3; i++) await createTeam(t, org.owner.token, org.login);
    const res = await t.request(`/orgs/${org.login}/teams?per_page=2`, { token: org.owner.token });
    assert.match(res.headers.get('link') ?? '', /page=2[^>]*>; rel="last"/);
    const all = await t.octokit(org.owner.token).paginate(t.octokit(org.owner.token).rest.teams.list, { org: org.login, per_page: 2 });
    assert.equal(all.length, 3);
  });

  test('owners and maintainers edit a team; renaming moves the slug', async () => {
    const org = await createOrgWithOwner(t);
    const maintainer = await addMember(t, org);
    const plain = await addMember(t, org);
    const team = await createTeam(t, maintainer.token, org.login, { name: 'Before', privacy: 'closed' });
    await t.octokit(org.owner.token).rest.teams.addOrUpdateMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: plain.login });
    await failsWith(t.octokit(plain.token).rest.teams.updateInOrg({ org: org.login, team_slug: team.slug, name: 'x' }), 403);
    const { data } = await t.octokit(maintainer.token).rest.teams.updateInOrg({
      org: org.login, team_slug: team.slug, name: 'After Party', description: 'new', permission: 'push', notification_setting: 'notifications_disabled',
    });
    assert.equal(data.slug, 'after-party');
    assert.equal(data.permission, 'push');
    assert.deepEqual(extra(data).permissions, { pull: true, triage: true, push: true, maintain: false, admin: false });
    await failsWith(t.octokit(org.owner.token).rest.teams.getByName({ org: org.login, team_slug: 'before' }), 404);
    const { data: got } = await t.octokit(org.owner.token).rest.teams.getByName({ org: org.login, team_slug: 'after-party' });
    assert.equal(got.description, 'new');
    assert.equal(got.notification_setting, 'notifications_disabled');
    const other = await createTeam(t, org.owner.token, org.login, { name: 'Taken' });
    const body = await failsWith(t.octokit(org.owner.token).rest.teams.updateInOrg({ org: org.login, team_slug: 'after-party', name: other.name }), 422);
    assert.equal(body.errors?.[0]?.code, 'already_exists');
    // Renaming to its own name in another case keeps the team.
    assert.equal((await t.octokit(org.owner.token).rest.teams.updateInOrg({ org: org.login, team_slug: 'after-party', name: 'AFTER party' })).data.slug, 'after-party');
  });

  test('parents can be set and cleared, never in a cycle or on a secret team', async () => {
    const org = await createOrgWithOwner(t);
    const ok = t.octokit(org.owner.token);
    const a = await createTeam(t, org.owner.token, org.login, { privacy: 'closed' });
    const b = await createTeam(t, org.owner.token, org.login, { privacy: 'closed' });
    const { data } = await ok.rest.teams.updateInOrg({ org: org.login, team_slug: b.slug, parent_team_id: a.id });
    assert.equal(data.parent?.id, a.id);
    await failsWith(ok.rest.teams.updateInOrg({ org: org.login, team_slug: a.slug, parent_team_id: b.id }), 422);
    await failsWith(ok.rest.teams.updateInOrg({ org: org.login, team_slug: a.slug, parent_team_id: a.id }), 422);
    await failsWith(ok.rest.teams.updateInOrg({ org: org.login, team_slug: a.slug, privacy: 'secret' }), 422);
    await failsWith(ok.rest.teams.updateInOrg({ org: org.login, team_slug: b.slug, privacy: 'secret' }), 422);
    const { data: cleared } = await ok.rest.teams.updateInOrg({ org: org.login, team_slug: b.slug, parent_team_id: null });
    assert.equal(cleared.parent, null);
    assert.equal((await ok.rest.teams.updateInOrg({ org: org.login, team_slug: b.slug, privacy: 'secret' })).data.privacy, 'secret');
  });

  test('deleting a team: owners delete its children too; plain members may not', async () => {
    const org = await createOrgWithOwner(t);
    const member = await addMember(t, org);
    const ok = t.octokit(org.owner.token);
    const parent = await createTeam(t, org.owner.token, org.login, { privacy: 'closed' });
    const child = await createTeam(t, org.owner.token, org.login, { parent_team_id: parent.id });
    const grandchild = await createTeam(t, org.owner.token, org.login, { parent_team_id: child.id });
    const keep = await createTeam(t, org.owner.token, org.login, { privacy: 'closed' });
    await failsWith(t.octokit(member.token).rest.teams.deleteInOrg({ org: org.login, team_slug: parent.slug }), 403);
    assert.equal((await ok.rest.teams.deleteInOrg({ org: org.login, team_slug: parent.slug })).status, 204);
    for (const gone of [parent, child, grandchild]) await failsWith(ok.rest.teams.getByName({ org: org.login, team_slug: gone.slug }), 404);
    assert.deepEqual((await ok.rest.teams.list({ org: org.login })).data.map((x) => x.id), [keep.id]);
  });

  test('team memberships: add, change role, read, remove', async () => {
    const org = await createOrgWithOwner(t);
    const maintainer = await addMember(t, org);
    const member = await addMember(t, org);
    const team = await createTeam(t, maintainer.token, org.login, { privacy: 'closed' });
    const mk = t.octokit(maintainer.token);
    const { data } = await mk.rest.teams.addOrUpdateMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: member.login });
    assert.deepEqual(data, { url: `${t.baseUrl}/organizations/${org.id}/team/${team.id}/memberships/${member.login}`, role: 'member', state: 'active' });
    const changed = await mk.rest.teams.addOrUpdateMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: member.login, role: 'maintainer' });
    assert.equal(changed.data.role, 'maintainer');
    const { data: members } = await mk.rest.teams.listMembersInOrg({ org: org.login, team_slug: team.slug, role: 'maintainer' });
    assert.deepEqual(members.map((m) => m.login), [maintainer.login, member.login]);
    assert.equal(extra(members[0]!).inherited, false);
    await mk.rest.teams.addOrUpdateMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: member.login, role: 'member' });
    assert.deepEqual((await mk.rest.teams.listMembersInOrg({ org: org.login, team_slug: team.slug, role: 'member' })).data.map((m) => m.login), [member.login]);
    assert.equal((await mk.rest.teams.getByName({ org: org.login, team_slug: team.slug })).data.members_count, 2);
    await failsWith(t.octokit(member.token).rest.teams.removeMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: maintainer.login }), 403);
    assert.equal((await mk.rest.teams.removeMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: member.login })).status, 204);
    await failsWith(mk.rest.teams.getMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: member.login }), 404);
    assert.equal((await send('PUT', `/orgs/${org.login}/teams/${team.slug}/memberships/${member.login}`, maintainer.token, { role: 'owner' })).status, 422);
    await failsWith(mk.rest.teams.addOrUpdateMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: uniqueLogin('ghost') }), 404);
    const otherOrg = await createOrgWithOwner(t);
    await failsWith(t.octokit(org.owner.token).rest.teams.addOrUpdateMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: otherOrg.login }), 422);
  });

  test('owners are reported as maintainers of their teams', async () => {
    const org = await createOrgWithOwner(t);
    const team = await createTeam(t, org.owner.token, org.login);
    const second = await addMember(t, org, 'admin');
    await t.octokit(org.owner.token).rest.teams.addOrUpdateMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: second.login, role: 'member' });
    const { data } = await t.octokit(org.owner.token).rest.teams.getMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: second.login });
    assert.equal(data.role, 'maintainer');
  });

  test('an owner may add someone outside the organization, who joins it; a maintainer may not', async () => {
    const org = await createOrgWithOwner(t);
    const maintainer = await addMember(t, org);
    const team = await createTeam(t, maintainer.token, org.login, { privacy: 'closed' });
    const newcomer = await createUser(t);
    await failsWith(t.octokit(maintainer.token).rest.teams.addOrUpdateMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: newcomer.login }), 403);
    await failsWith(t.octokit(org.owner.token).rest.orgs.getMembershipForUser({ org: org.login, username: newcomer.login }), 404);
    const { data } = await t.octokit(org.owner.token).rest.teams.addOrUpdateMembershipForUserInOrg({ org: org.login, team_slug: team.slug, username: newcomer.login });
    assert.equal(data.state, 'active');
    const { data: m } = await t.octokit(org.owner.token).rest.orgs.getMembershipForUser({ org: org.login, username: newcomer.login });
    assert.deepEqual([m.state, m.role], ['active', 'member']);
  });

  test('members of child teams are members of the parent, marked inherited', async () => {
    const org = await createOrgWithOwner(t);
    const ok = t.octokit(org.owner.token);
    const member = await addMember(t, org);
    const parent = await createTeam(t, org.owner.token, org.login, { privacy: 'closed' });
    const child = await createTeam(t, org.owner.token, org.login, { parent_team_id: parent.id });
    await ok.rest.teams.addOrUpdateMembershipForUserInOrg({ org: org.login, team_slug: child.slug, username: member.login });
    const { data } = await ok.rest.teams.listMembersInOrg({ org: org.login, team_slug: parent.slug });
    assert.deepEqual(data.map((m) => [m.login, extra(m).inherited]), [[org.owner.login, false], [member.login, true]]);
    const { data: m } = await ok.rest.teams.getMembershipForUserInOrg({ org: org.login, team_slug: parent.slug, username: member.login });
    assert.equal(m.role, 'member');
  });

  test('GET /user/teams lists the caller\'s teams with their organization', async () => {
    const a = await createOrgWithOwner(t);
    const b = await createOrgWithOwner(t);
    const user = await addMember(t, a);
    await t.octokit(b.owner.token).rest.orgs.setMembershipForUser({ org: b.login, username: user.login });
    const ta = await createTeam(t, user.token, a.login);
    const tb = await createTeam(t, user.token, b.login, { privacy: 'closed' });
    await createTeam(t, a.owner.token, a.login);
    const { data } = await t.octokit(user.token).rest.teams.listForAuthenticatedUser();
    assert.deepEqual(data.map((x) => [x.id, x.organization.login]), [[ta.id, a.login], [tb.id, b.login]]);
    assert.deepEqual(sorted(Object.keys(data[0]!)), sorted(TEAM_FULL_KEYS));
    const noScope = await addMember(t, a, 'member', ['gist']);
    await failsWith(t.octokit(noScope.token).rest.teams.listForAuthenticatedUser(), 403);
  });

  test('teams are also addressed by organization and team id', async () => {
    const org = await createOrgWithOwner(t);
    const member = await addMember(t, org);
    const team = await createTeam(t, org.owner.token, org.login, { privacy: 'closed' });
    const base = `/organizations/${org.id}/team/${team.id}`;
    const got = await t.request(base, { token: org.owner.token });
    assert.equal(got.status, 200);
    const bySlug = (await t.octokit(org.owner.token).rest.teams.getByName({ org: org.login, team_slug: team.slug })).data;
    assert.deepEqual(await got.json(), bySlug);
    const patched = await t.request(base, { method: 'PATCH', token: org.owner.token, json: { description: 'by id' } });
    assert.equal(patched.status, 200);
    assert.equal((await t.octokit(org.owner.token).rest.teams.getByName({ org: org.login, team_slug: team.slug })).data.description, 'by id');
    const put = await t.request(`${base}/memberships/${member.login}`, { method: 'PUT', token: org.owner.token, json: { role: 'maintainer' } });
    assert.equal(put.status, 200);
    assert.equal((await (await t.request(`${base}/memberships/${member.login}`, { token: member.token })).json() as { role: string }).role, 'maintainer');
    assert.equal((await t.request(`${base}/memberships/${member.login}`, { method: 'DELETE', token: org.owner.token })).status, 204);
    const other = await createOrgWithOwner(t);
    assert.equal((await t.request(`/organizations/${other.id}/team/${team.id}`, { token: ADMIN_TOKEN })).status, 404);
    assert.equal((await t.request(base, { method: 'DELETE', token: org.owner.token })).status, 204);
    assert.equal((await t.request(base, { token: org.owner.token })).status, 404);
  });
});
