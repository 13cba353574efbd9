// Interaction limits of organizations, repositories and the authenticated user, and
// canInteract, through Octokit, plain fetch and the service itself.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { addMember, createOrgWithOwner } from './factories/orgs.ts';
import { canInteract } from '../src/modules/interactions/interactions.service.ts';
import { reposByIds } from '../src/modules/repos/repos.service.ts';
import { failsWith, type ErrorBody } from './helpers/failures.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

let t: TestServer;
let clock: TestClock;

before(async () => {
  clock = new TestClock(Date.parse('2026-01-31T10:00:00Z'));
  t = await startTestServer({ clock });
});
after(async () => { await t.close(); });


/** A request Octokit's types would not let through; status and parsed body. */
async function send(method: string, path: string, token: string | undefined, json?: unknown): Promise<{ status: number; body: unknown; headers: Headers }> {
  const res = await t.request(path, { method, ...(token ? { token } : {}), ...(json === undefined ? {} : { json }) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

async function limitRows(scope: 'organization' | 'repository' | 'user', targetId: number) {
  return t.server.ctx.db.selectFrom('interaction_limits').selectAll().where('scope', '=', scope).where('target_id', '=', targetId).execute();
}

async function publicRepo(owner: CreatedUser, name: string, org?: string): Promise<{ id: number; owner: string; repo: string }> {
  const kit = t.octokit(owner.token);
  const { data } = org
    ? await kit.rest.repos.createInOrg({ org, name, auto_init: true })
    : await kit.rest.repos.createForAuthenticatedUser({ name, auto_init: true });
  return { id: data.id, owner: data.owner.login, repo: data.name };
}

describe('organization interaction limits', () => {
  test('owners set, read and remove the limit; {} when there is none', async () => {
    const org = await createOrgWithOwner(t);
    const kit = t.octokit(org.owner.token);
    const empty = await kit.rest.interactions.getRestrictionsForOrg({ org: org.login });
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.data, {});
    assertMatchesOpenApi('GET', '/orgs/{org}/interaction-limits', 200, empty.data);

    const set = await kit.rest.interactions.setRestrictionsForOrg({ org: org.login, limit: 'collaborators_only' });
    assert.equal(set.status, 200);
    assert.deepEqual(set.data, { limit: 'collaborators_only', origin: 'organization', expires_at: iso(clock.now().getTime() + DAY) });
    assertMatchesOpenApi('PUT', '/orgs/{org}/interaction-limits', 200, set.data);

    const got = await kit.rest.interactions.getRestrictionsForOrg({ org: org.login });
    assert.deepEqual(got.data, set.data);
    assertMatchesOpenApi('GET', '/orgs/{org}/interaction-limits', 200, got.data);

    const removed = await kit.rest.interactions.removeRestrictionsForOrg({ org: org.login });
    assert.equal(removed.status, 204);
    assert.deepEqual((await kit.rest.interactions.getRestrictionsForOrg({ org: org.login })).data, {});
    assert.equal((await limitRows('organization', org.id)).length, 0);
  });

  test('PUT again replaces the limit and its expiry; each duration sets expires_at', async () => {
    const org = await createOrgWithOwner(t);
    const kit = t.octokit(org.owner.token);
    const now = clock.now().getTime(); // 2026-01-31T10:00:00Z or later, on the same day
    const start = new Date(now);
    const expected = {
      one_day: iso(now + DAY),
      three_days: iso(now + 3 * DAY),
      one_week: iso(now + 7 * DAY),
      // Calendar months, kept within the month: 31 January + 1 month is 28 February.
      one_month: start.getUTCDate() === 31 ? `2026-02-28T${iso(now).slice(11)}` : undefined,
      six_months: start.getUTCDate() === 31 ? `2026-07-31T${iso(now).slice(11)}` : undefined,
    } as const;
    for (const [expiry, at] of Object.entries(expected)) {
      const { data } = await kit.rest.interactions.setRestrictionsForOrg({
        org: org.login, limit: 'existing_users', expiry: expiry as 'one_day',
      });
      if (at) assert.equal(data.expires_at, at, expiry);
      assert.equal(data.limit, 'existing_users');
    }
    await kit.rest.interactions.setRestrictionsForOrg({ org: org.login, limit: 'contributors_only', expiry: 'three_days' });
    const rows = await limitRows('organization', org.id);
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.limit, 'contributors_only');
    assert.equal(rows[0]!.expires_at, iso(now + 3 * DAY));
  });

  test('members who are not owners get 403, unknown organizations 404, tokens without admin:org a scope error', async () => {
    const org = await createOrgWithOwner(t);
    const member = await addMember(t, org, 'member');
    const kit = t.octokit(member.token);
    const denied = await failsWith(kit.rest.interactions.setRestrictionsForOrg({ org: org.login, limit: 'collaborators_only' }), 403);
    assert.match(denied.message, /organization owner/);
    await failsWith(kit.rest.interactions.getRestrictionsForOrg({ org: org.login }), 403);
    await failsWith(kit.rest.interactions.removeRestrictionsForOrg({ org: org.login }), 403);
    assert.equal((await limitRows('organization', org.id)).length, 0);

    await failsWith(t.octokit(org.owner.token).rest.interactions.getRestrictionsForOrg({ org: 'no-such-org-anywhere' }), 404);
    await failsWith(t.octokit(org.owner.token).rest.interactions.setRestrictionsForOrg({ org: 'no-such-org-anywhere', limit: 'existing_users' }), 404);

    const { data: weak } = await t.octokit(ADMIN_TOKEN).request('POST /admin/users/{username}/authorizations', { username: org.owner.login, scopes: ['repo'] });
    const res = await send('PUT', `/orgs/${org.login}/interaction-limits`, weak.token, { limit: 'existing_users' });
    assert.equal(res.status, 403);
    assert.equal(res.headers.get('x-accepted-oauth-scopes'), 'admin:org');

    assert.equal((await send('GET', `/orgs/${org.login}/interaction-limits`, undefined)).status, 401);
  });

  test('site admins count as owners', async () => {
    const org = await createOrgWithOwner(t);
    const { data } = await t.octokit(ADMIN_TOKEN).rest.interactions.setRestrictionsForOrg({ org: org.login, limit: 'existing_users' });
    assert.equal(data.origin, 'organization');
  });

  test('a missing or unknown limit or expiry is 422 and changes nothing', async () => {
    const org = await createOrgWithOwner(t);
    const token = org.owner.token;
    await t.octokit(token).rest.interactions.setRestrictionsForOrg({ org: org.login, limit: 'existing_users', expiry: 'one_week' });
    const before = await limitRows('organization', org.id);

    const cases: [unknown, string, string][] = [
      [{}, 'limit', 'missing_field'],
      [{ expiry: 'one_day' }, 'limit', 'missing_field'],
      [{ limit: 'everyone' }, 'limit', 'invalid'],
      [{ limit: 'collaborators_only', expiry: 'forever' }, 'expiry', 'invalid'],
      [{ limit: 'collaborators_only', expiry: 3 }, 'expiry', 'invalid'],
    ];
    for (const [body, field, code] of cases) {
      const res = await send('PUT', `/orgs/${org.login}/interaction-limits`, token, body);
      assert.equal(res.status, 422, JSON.stringify(body));
      const err = res.body as ErrorBody;
      assert.equal(err.message, 'Validation Failed');
      assert.equal(typeof err.documentation_url, 'string');
      assert.ok(err.errors?.some((e) => e.field === field && e.code === code && e.resource === 'InteractionLimit'), JSON.stringify(err));
      assertMatchesOpenApi('PUT', '/orgs/{org}/interaction-limits', 422, err);
    }
    // No body at all.
    const bare = await t.request(`/orgs/${org.login}/interaction-limits`, { method: 'PUT', token, headers: { 'content-length': '0' } });
    assert.equal(bare.status, 422);
    assert.deepEqual(await limitRows('organization', org.id), before);
  });

  test('an organization limit overwrites the limits of its repositories', async () => {
    const org = await createOrgWithOwner(t);
    const kit = t.octokit(org.owner.token);
    const a = await publicRepo(org.owner, 'dock-a', org.login);
    const b = await publicRepo(org.owner, 'dock-b', org.login);
    const elsewhere = await publicRepo(org.owner, 'own-dock');
    for (const r of [a, b, elsewhere]) await kit.rest.interactions.setRestrictionsForRepo({ owner: r.owner, repo: r.repo, limit: 'contributors_only' });
    assert.equal((await limitRows('repository', a.id)).length, 1);

    await kit.rest.interactions.setRestrictionsForOrg({ org: org.login, limit: 'existing_users' });
    assert.equal((await limitRows('repository', a.id)).length, 0);
    assert.equal((await limitRows('repository', b.id)).length, 0);
    // Another owner's repository keeps its own.
    assert.equal((await limitRows('repository', elsewhere.id)).length, 1);

    const seen = await kit.rest.interactions.getRestrictionsForRepo({ owner: a.owner, repo: a.repo });
    assert.equal(seen.data.origin, 'organization');
    // Once the organization's limit is removed, the repositories' limits do not come back.
    await kit.rest.interactions.removeRestrictionsForOrg({ org: org.login });
    assert.deepEqual((await kit.rest.interactions.getRestrictionsForRepo({ owner: a.owner, repo: a.repo })).data, {});
  });
});

describe('repository interaction limits', () => {
  test('admins set, read and remove a repository limit; readers see it', async () => {
    const alice = await createUser(t);
    const r = await publicRepo(alice, 'quay');
    const kit = t.octokit(alice.token);
    const empty = await kit.rest.interactions.getRestrictionsForRepo({ owner: r.owner, repo: r.repo });
    assert.deepEqual(empty.data, {});
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/interaction-limits', 200, empty.data);

    const set = await kit.rest.interactions.setRestrictionsForRepo({ owner: r.owner, repo: r.repo, limit: 'contributors_only', expiry: 'one_week' });
    assert.deepEqual(set.data, { limit: 'contributors_only', origin: 'repository', expires_at: iso(clock.now().getTime() + 7 * DAY) });
    assertMatchesOpenApi('PUT', '/repos/{owner}/{repo}/interaction-limits', 200, set.data);

    // Anyone who can read the repository sees the limit in force.
    const anon = await t.octokit().rest.interactions.getRestrictionsForRepo({ owner: r.owner, repo: r.repo });
    assert.deepEqual(anon.data, set.data);

    const removed = await kit.rest.interactions.removeRestrictionsForRepo({ owner: r.owner, repo: r.repo });
    assert.equal(removed.status, 204);
    assert.deepEqual((await kit.rest.interactions.getRestrictionsForRepo({ owner: r.owner, repo: r.repo })).data, {});
  });

  test('without admin rights: 403 on a public repository, 404 on a private or unknown one', async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const r = await publicRepo(alice, 'pier');
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'hidden', private: true });
    const bobKit = t.octokit(bob.token);
    const denied = await failsWith(bobKit.rest.interactions.setRestrictionsForRepo({ owner: r.owner, repo: r.repo, limit: 'collaborators_only' }), 403);
    assert.match(denied.message, /admin/);
    await failsWith(bobKit.rest.interactions.removeRestrictionsForRepo({ owner: r.owner, repo: r.repo }), 403);
    await failsWith(bobKit.rest.interactions.setRestrictionsForRepo({ owner: alice.login, repo: 'hidden', limit: 'collaborators_only' }), 404);
    await failsWith(bobKit.rest.interactions.getRestrictionsForRepo({ owner: alice.login, repo: 'hidden' }), 404);
    await failsWith(bobKit.rest.interactions.getRestrictionsForRepo({ owner: alice.login, repo: 'nowhere' }), 404);
    assert.equal((await limitRows('repository', r.id)).length, 0);

    const bad = await send('PUT', `/repos/${r.owner}/${r.repo}/interaction-limits`, alice.token, { limit: 'nobody' });
    assert.equal(bad.status, 422);
    assert.equal((await limitRows('repository', r.id)).length, 0);
  });

  test('409 while the owning organization has a limit; GET shows the organization\'s', async () => {
    const org = await createOrgWithOwner(t);
    const kit = t.octokit(org.owner.token);
    const r = await publicRepo(org.owner, 'berth', org.login);
    await kit.rest.interactions.setRestrictionsForRepo({ owner: r.owner, repo: r.repo, limit: 'contributors_only' });
    await kit.rest.interactions.setRestrictionsForOrg({ org: org.login, limit: 'collaborators_only' });
    const before = await limitRows('organization', org.id);

    const conflict = await failsWith(kit.rest.interactions.setRestrictionsForRepo({ owner: r.owner, repo: r.repo, limit: 'existing_users' }), 409);
    assert.match(conflict.message, /organization that owns this repository/);
    await failsWith(kit.rest.interactions.removeRestrictionsForRepo({ owner: r.owner, repo: r.repo }), 409);
    assert.equal((await limitRows('repository', r.id)).length, 0);
    assert.deepEqual(await limitRows('organization', org.id), before);

    const got = await kit.rest.interactions.getRestrictionsForRepo({ owner: r.owner, repo: r.repo });
    assert.deepEqual(got.data, { limit: 'collaborators_only', origin: 'organization', expires_at: before[0]!.expires_at });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/interaction-limits', 200, got.data);
  });

  test('409 while the owning user has a limit; GET shows the user\'s', async () => {
    const alice = await createUser(t);
    const kit = t.octokit(alice.token);
    const r = await publicRepo(alice, 'slip');
    await kit.rest.interactions.setRestrictionsForAuthenticatedUser({ limit: 'existing_users' });
    const conflict = await failsWith(kit.rest.interactions.setRestrictionsForRepo({ owner: r.owner, repo: r.repo, limit: 'collaborators_only' }), 409);
    assert.match(conflict.message, /user that owns this repository/);
    await failsWith(kit.rest.interactions.removeRestrictionsForRepo({ owner: r.owner, repo: r.repo }), 409);
    assert.equal((await limitRows('repository', r.id)).length, 0);
    const got = await kit.rest.interactions.getRestrictionsForRepo({ owner: r.owner, repo: r.repo });
    assert.equal(got.data.origin, 'user');
    assert.equal(got.data.limit, 'existing_users');
  });
});

describe('the authenticated user\'s interaction limits', () => {
  test('set, read and remove; 204 when there is none; the user\'s repository limits are overwritten', async () => {
    const alice = await createUser(t);
    const kit = t.octokit(alice.token);
    const none = await send('GET', '/user/interaction-limits', alice.token);
    assert.equal(none.status, 204);
    assert.equal(none.body, undefined);

    const r = await publicRepo(alice, 'mooring');
    await kit.rest.interactions.setRestrictionsForRepo({ owner: r.owner, repo: r.repo, limit: 'contributors_only' });

    const set = await kit.rest.interactions.setRestrictionsForAuthenticatedUser({ limit: 'collaborators_only', expiry: 'one_day' });
    assert.deepEqual(set.data, { limit: 'collaborators_only', origin: 'user', expires_at: iso(clock.now().getTime() + DAY) });
    assertMatchesOpenApi('PUT', '/user/interaction-limits', 200, set.data);
    assert.equal((await limitRows('repository', r.id)).length, 0);

    const got = await kit.rest.interactions.getRestrictionsForAuthenticatedUser();
    assert.equal(got.status, 200);
    assert.deepEqual(got.data, set.data);
    assertMatchesOpenApi('GET', '/user/interaction-limits', 200, got.data);

    assert.equal((await kit.rest.interactions.removeRestrictionsForAuthenticatedUser()).status, 204);
    assert.equal((await send('GET', '/user/interaction-limits', alice.token)).status, 204);
    assert.equal((await limitRows('user', alice.id)).length, 0);
  });

  test('needs authentication and a valid body', async () => {
    assert.equal((await send('PUT', '/user/interaction-limits', undefined, { limit: 'existing_users' })).status, 401);
    const alice = await createUser(t);
    const bad = await send('PUT', '/user/interaction-limits', alice.token, { limit: 'existing_users', expiry: 'two_days' });
    assert.equal(bad.status, 422);
    assert.equal((await limitRows('user', alice.id)).length, 0);
    const { data: weak } = await t.octokit(ADMIN_TOKEN).request('POST /admin/users/{username}/authorizations', { username: alice.login, scopes: ['gist'] });
    assert.equal((await send('PUT', '/user/interaction-limits', weak.token, { limit: 'existing_users' })).status, 403);
    assert.equal((await limitRows('user', alice.id)).length, 0);
  });
});

describe('expiry', () => {
  test('a limit is gone once expires_at has passed, at every level', async () => {
    const org = await createOrgWithOwner(t);
    const alice = org.owner;
    const kit = t.octokit(alice.token);
    const orgRepo = await publicRepo(alice, 'tide', org.login);
    const own = await publicRepo(alice, 'ebb');
    await kit.rest.interactions.setRestrictionsForOrg({ org: org.login, limit: 'existing_users' });
    await kit.rest.interactions.setRestrictionsForRepo({ owner: own.owner, repo: own.repo, limit: 'collaborators_only' });
    const bob = await createUser(t);
    await t.octokit(bob.token).rest.interactions.setRestrictionsForAuthenticatedUser({ limit: 'contributors_only' });

    clock.advance(DAY);
    // At exactly expires_at the limit has ended.
    assert.deepEqual((await kit.rest.interactions.getRestrictionsForOrg({ org: org.login })).data, {});
    clock.advance(-1000);
    assert.equal((await kit.rest.interactions.getRestrictionsForOrg({ org: org.login })).data.limit, 'existing_users');
    clock.advance(2000);

    assert.deepEqual((await kit.rest.interactions.getRestrictionsForOrg({ org: org.login })).data, {});
    assert.deepEqual((await kit.rest.interactions.getRestrictionsForRepo({ owner: orgRepo.owner, repo: orgRepo.repo })).data, {});
    assert.deepEqual((await kit.rest.interactions.getRestrictionsForRepo({ owner: own.owner, repo: own.repo })).data, {});
    assert.equal((await send('GET', '/user/interaction-limits', bob.token)).status, 204);
    // An expired organization limit no longer blocks the repository's own.
    const set = await kit.rest.interactions.setRestrictionsForRepo({ owner: orgRepo.owner, repo: orgRepo.repo, limit: 'contributors_only' });
    assert.equal(set.data.origin, 'repository');
  });
});

describe('canInteract', () => {
  test('applies each limit to collaborators, contributors, old and new accounts', async () => {
    const alice = await createUser(t);
    const collaborator = await createUser(t);
    const contributor = await createUser(t);
    const veteran = await createUser(t);
    const r = await publicRepo(alice, 'harbour');
    const kit = t.octokit(alice.token);
    const invited = await kit.rest.repos.addCollaborator({ owner: r.owner, repo: r.repo, username: collaborator.login });
    await t.octokit(collaborator.token).rest.repos.acceptInvitationForAuthenticatedUser({ invitation_id: invited.data!.id });
    await kit.rest.repos.createOrUpdateFileContents({
      owner: r.owner, repo: r.repo, path: 'NOTES.md', message: 'notes', content: Buffer.from('hi\n').toString('base64'),
      author: { name: 'Contributor', email: `${contributor.login.toUpperCase()}@example.com` },
    });
    // A commit on another branch does not count.
    const stranger = await createUser(t);
    const { data: head } = await kit.rest.git.getRef({ owner: r.owner, repo: r.repo, ref: 'heads/main' });
    await kit.rest.git.createRef({ owner: r.owner, repo: r.repo, ref: 'refs/heads/side', sha: head.object.sha });
    await kit.rest.repos.createOrUpdateFileContents({
      owner: r.owner, repo: r.repo, path: 'SIDE.md', message: 'side', branch: 'side', content: Buffer.from('x\n').toString('base64'),
      author: { name: 'Stranger', email: `${stranger.login}@example.com` },
    });
    clock.advance(2 * DAY);
    const newcomer = await createUser(t);
    const newContributor = await createUser(t);
    await kit.rest.repos.createOrUpdateFileContents({
      owner: r.owner, repo: r.repo, path: 'MORE.md', message: 'more', content: Buffer.from('more\n').toString('base64'),
      author: { name: 'New', email: `${newContributor.login}@example.com` },
    });

    const ctx = t.server.ctx;
    const [repo] = await reposByIds(ctx, [r.id]);
    const people = { alice, collaborator, contributor, veteran, stranger, newcomer, newContributor };
    const check = async (expected: Record<keyof typeof people, boolean>, limit?: string) => {
      for (const [name, user] of Object.entries(people)) {
        const d = await canInteract(ctx, user.id, repo!);
        assert.equal(d.allowed, expected[name as keyof typeof people], `${limit ?? 'no limit'}: ${name}`);
        assert.equal(d.limit, limit);
        if (limit) assert.equal(d.origin, 'repository');
      }
    };
    const all = { alice: true, collaborator: true, contributor: true, veteran: true, stranger: true, newcomer: true, newContributor: true };
    await check(all);

    await kit.rest.interactions.setRestrictionsForRepo({ owner: r.owner, repo: r.repo, limit: 'collaborators_only' });
    await check({ alice: true, collaborator: true, contributor: false, veteran: false, stranger: false, newcomer: false, newContributor: false }, 'collaborators_only');

    await kit.rest.interactions.setRestrictionsForRepo({ owner: r.owner, repo: r.repo, limit: 'contributors_only' });
    await check({ alice: true, collaborator: true, contributor: true, veteran: false, stranger: false, newcomer: false, newContributor: true }, 'contributors_only');

    await kit.rest.interactions.setRestrictionsForRepo({ owner: r.owner, repo: r.repo, limit: 'existing_users' });
    await check({ alice: true, collaborator: true, contributor: true, veteran: true, stranger: true, newcomer: false, newContributor: true }, 'existing_users');

    // A day later the newcomer is an existing user.
    clock.advance(DAY - 1000);
    assert.equal((await canInteract(ctx, newcomer.id, repo!)).allowed, false);
    clock.advance(1000);
    assert.equal((await canInteract(ctx, newcomer.id, repo!)).allowed, true);
  });

  test('an owner-level limit applies, with its origin; members of the organization are collaborators; private repositories are not limited', async () => {
    const org = await createOrgWithOwner(t);
    const member = await addMember(t, org, 'member');
    const outsider = await createUser(t);
    const reader = await createUser(t);
    clock.advance(2 * DAY);
    const r = await publicRepo(org.owner, 'jetty', org.login);
    // An outside collaborator with read access is a collaborator, although everyone may read.
    const invited = await t.octokit(org.owner.token).rest.repos.addCollaborator({ owner: r.owner, repo: r.repo, username: reader.login, permission: 'pull' });
    await t.octokit(reader.token).rest.repos.acceptInvitationForAuthenticatedUser({ invitation_id: invited.data!.id });
    const { data: priv } = await t.octokit(org.owner.token).rest.repos.createInOrg({ org: org.login, name: 'vault', private: true });
    await t.octokit(org.owner.token).rest.interactions.setRestrictionsForOrg({ org: org.login, limit: 'collaborators_only' });
    const ctx = t.server.ctx;
    const [repo, privateRepo] = await reposByIds(ctx, [r.id, priv.id]).then((rs) => [rs.find((x) => x.id === r.id)!, rs.find((x) => x.id === priv.id)!]);
    assert.deepEqual(await canInteract(ctx, outsider.id, repo!), { allowed: false, limit: 'collaborators_only', origin: 'organization' });
    assert.deepEqual(await canInteract(ctx, member.id, repo!), { allowed: true, limit: 'collaborators_only', origin: 'organization' });
    assert.deepEqual(await canInteract(ctx, reader.id, repo!), { allowed: true, limit: 'collaborators_only', origin: 'organization' });
    assert.deepEqual(await canInteract(ctx, org.owner.id, repo!), { allowed: true, limit: 'collaborators_only', origin: 'organization' });
    assert.deepEqual(await canInteract(ctx, outsider.id, privateRepo!), { allowed: true });
  });
});
