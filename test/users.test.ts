// Users: profiles, the authenticated user, the users list.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo } from './factories/repos.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';

const SUMMARY_FIELDS = [
  'login', 'id', 'node_id', 'avatar_url', 'gravatar_id', 'url', 'html_url', 'followers_url', 'following_url', 'gists_url',
  'starred_url', 'subscriptions_url', 'organizations_url', 'repos_url', 'events_url', 'received_events_url', 'type', 'site_admin',
  'user_view_type',
];
const DETAIL_FIELDS = [
  ...SUMMARY_FIELDS, 'name', 'company', 'blog', 'location', 'email', 'bio', 'twitter_username', 'hireable', 'notification_email', 'public_repos',
  'public_gists', 'followers', 'following', 'created_at', 'updated_at',
];
const PRIVATE_FIELDS = ['private_gists', 'total_private_repos', 'owned_private_repos', 'disk_usage', 'collaborators', 'two_factor_authentication', 'plan'];

describe('users', () => {
  let t: TestServer;
  let alice: CreatedUser;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t, ['user']);
  });
  after(() => t.close());

  test('GET /users/{username}: the detailed public record, every field present', async () => {
    const { data, status } = await t.octokit().rest.users.getByUsername({ username: alice.login });
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(data).sort(), [...DETAIL_FIELDS].sort());
    assert.equal(data.type, 'User');
    assert.equal(data.node_id, Buffer.from(`04:User${alice.id}`).toString('base64'));
    assertMatchesOpenApi('GET', '/users/{username}', 200, data);
  });

  test('public_repos counts the public repositories the account owns, not the private ones', async () => {
    const owner = await createUser(t, ['repo']);
    const count = async () => (await t.octokit().rest.users.getByUsername({ username: owner.login })).data.public_repos;
    assert.equal(await count(), 0);
    await createRepo(t, owner, { name: 'open-a' });
    await createRepo(t, owner, { name: 'open-b' });
    await createRepo(t, owner, { name: 'closed', private: true });
    assert.equal(await count(), 2);
  });

  test('the published-schema check itself rejects a record missing a field', () => {
    assert.throws(() => assertMatchesOpenApi('GET', '/users/{username}', 200, { login: 'x', id: 1 }));
  });

  test('logins are case-insensitive; an unknown user is 404', async () => {
    const { data } = await t.octokit().rest.users.getByUsername({ username: alice.login.toUpperCase() });
    assert.equal(data.login, alice.login);
    const res = await t.request('/users/nobody-here');
    assert.equal(res.status, 404);
  });

  test('GET /user with the user scope adds the private fields', async () => {
    const { data } = await t.octokit(alice.token).rest.users.getAuthenticated();
    assert.deepEqual(Object.keys(data).sort(), [...DETAIL_FIELDS, ...PRIVATE_FIELDS].sort());
    assert.deepEqual(Object.keys(data.plan!).sort(), ['collaborators', 'name', 'private_repos', 'space']);
    assertMatchesOpenApi('GET', '/user', 200, data);
  });

  test('PATCH /user updates the profile and keeps omitted fields', async () => {
    const octokit = t.octokit(alice.token);
    const { data } = await octokit.rest.users.updateAuthenticated({
      name: 'Alice Quay', blog: 'https://alice.example', company: 'Wharf', location: 'Pier 4', bio: 'Ships code', hireable: true, twitter_username: 'alice_q',
    });
    assert.equal(data.name, 'Alice Quay');
    assert.equal(data.hireable, true);
    assertMatchesOpenApi('PATCH', '/user', 200, data);
    await octokit.rest.users.updateAuthenticated({ bio: 'Still shipping' });
    const { data: after } = await t.octokit().rest.users.getByUsername({ username: alice.login });
    assert.equal(after.name, 'Alice Quay');
    assert.equal(after.bio, 'Still shipping');
    assert.equal(after.twitter_username, 'alice_q');
    assert.equal(after.blog, 'https://alice.example');
  });

  test('PATCH /user with null or "" clears a field', async () => {
    const octokit = t.octokit(alice.token);
    await octokit.rest.users.updateAuthenticated({ location: 'Somewhere' });
    await t.request('/user', { method: 'PATCH', token: alice.token, json: { location: null, company: '' } });
    const { data } = await octokit.rest.users.getAuthenticated();
    assert.equal(data.location, null);
    assert.equal(data.company, null);
  });

  test('PATCH /user rejects bad values with 422 and writes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ bio: 'x'.repeat(161) }, 'bio'],
      [{ twitter_username: 'not valid!' }, 'twitter_username'],
      [{ hireable: 'yes' }, 'hireable'],
      [{ email: 'not-an-email' }, 'email'],
      [{ name: 5, location: 'Nowhere' }, 'name'],
    ];
    const before = await (await t.request('/user', { token: alice.token })).json();
    for (const [body, field] of cases) {
      const res = await t.request('/user', { method: 'PATCH', token: alice.token, json: body });
      assert.equal(res.status, 422, JSON.stringify(body));
      const err = await res.json();
      assert.equal(err.message, 'Validation Failed');
      assert.ok(err.errors.some((e: { field: string; code: string }) => e.field === field && e.code === 'invalid'), JSON.stringify(err));
    }
    const afterAll = await (await t.request('/user', { token: alice.token })).json();
    assert.deepEqual(afterAll, before);
  });

  test('the email stays hidden while its visibility is private', async () => {
    const octokit = t.octokit(alice.token);
    const email = `${alice.login}@example.com`;
    assert.equal((await t.octokit().rest.users.getByUsername({ username: alice.login })).data.email, email);
    const { data } = await octokit.rest.users.setPrimaryEmailVisibilityForAuthenticatedUser({ visibility: 'private' });
    assert.deepEqual(data, [{ email, primary: true, verified: true, visibility: 'private' }]);
    assert.equal((await t.octokit().rest.users.getByUsername({ username: alice.login })).data.email, null);
    const emails = await octokit.rest.users.listEmailsForAuthenticatedUser();
    assert.equal(emails.data[0]!.email, email);
    await octokit.rest.users.setPrimaryEmailVisibilityForAuthenticatedUser({ visibility: 'public' });
    assert.equal((await t.octokit().rest.users.getByUsername({ username: alice.login })).data.email, email);
    const bad = await t.request('/user/email/visibility', { method: 'PATCH', token: alice.token, json: { visibility: 'secret' } });
    assert.equal(bad.status, 422);
  });

  test('notification_email: the primary address to the user alone (with the user scope), null to everyone else', async () => {
    const email = `${alice.login}@example.com`;
    assert.equal((await t.octokit(alice.token).rest.users.getAuthenticated()).data.notification_email, email);
    assert.equal((await t.octokit().rest.users.getByUsername({ username: alice.login })).data.notification_email, null);
    assert.equal((await t.octokit(alice.token).rest.users.getByUsername({ username: alice.login })).data.notification_email, null);
    // Without the user scope GET /user is the public view.
    const bare = await createUser(t, []);
    assert.equal((await t.octokit(bare.token).rest.users.getAuthenticated()).data.notification_email, null);
    // A private address is still the user's own.
    await t.octokit(alice.token).rest.users.setPrimaryEmailVisibilityForAuthenticatedUser({ visibility: 'private' });
    const { data } = await t.octokit(alice.token).rest.users.getAuthenticated();
    assert.equal(data.email, null);
    assert.equal(data.notification_email, email);
    await t.octokit(alice.token).rest.users.setPrimaryEmailVisibilityForAuthenticatedUser({ visibility: 'public' });
  });

  test('GET /users pages through since only, in signup order, with Link', async () => {
    for (let i = 0; i < 4; i++) await createUser(t, []);
    const first = await t.request('/users?per_page=2');
    const page = await first.json();
    assert.equal(page.length, 2);
    assert.deepEqual(Object.keys(page[0]).sort(), [...SUMMARY_FIELDS].sort());
    assert.equal(page[0].user_view_type, 'public', 'Wharf has no private profiles');
    assertMatchesOpenApi('GET', '/users', 200, page);
    const link = first.headers.get('link') ?? '';
    assert.match(link, new RegExp(`since=${page[1].id}`));
    assert.match(link, /rel="next"/);
    const all = await t.octokit().paginate('GET /users', { per_page: 2 });
    const ids = all.map((u) => u.id);
    assert.deepEqual(ids, [...ids].sort((a, b) => a - b));
    assert.ok(all.length >= 6);
    const since = await (await t.request(`/users?since=${page[1].id}&per_page=100`)).json();
    assert.ok(since.every((u: { id: number }) => u.id > page[1].id));
    // page is not how this list pages: it is ignored.
    const paged = await (await t.request('/users?per_page=2&page=3')).json();
    assert.deepEqual(paged.map((u: { id: number }) => u.id), page.map((u: { id: number }) => u.id));
  });

  test('avatar_url answers an image', async () => {
    const { data } = await t.octokit().rest.users.getByUsername({ username: alice.login });
    const res = await fetch(data.avatar_url, { headers: { 'user-agent': 'test' } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /image\/svg\+xml/);
    assert.match(await res.text(), /^<svg/);
  });
});
