// Repository and organization webhooks (configuration, ping, test) through Octokit,
// plain fetch and the stored state.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './helpers/server.ts';
import { assertMatchesOpenApi } from './helpers/openapi.ts';
import { failsWith } from './helpers/failures.ts';
import { createToken, createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo } from './factories/repos.ts';
import { requestJson } from './helpers/json-request.ts';
import { addMember, createOrgWithOwner, type CreatedOrg } from './factories/orgs.ts';
import { listEvents, recordEvent } from '../src/events/outbox.ts';
import { isSealed } from '../src/domain/secret-box.ts';
import { openSecret } from '../src/modules/hooks/hooks.secrets.ts';

let t: TestServer;

before(async () => { t = await startTestServer(); });
after(async () => { await t.close(); });

const REPO_HOOK = '/repos/{owner}/{repo}/hooks/{hook_id}';
// Hook URLs here never resolve (.invalid): the hooks are delivered to (a ping greets each
// new one), and those deliveries fail without reaching anyone. last_response moves with
// them, so records are compared without it.

const ORG_HOOK = '/orgs/{org}/hooks/{hook_id}';

const send = (method: string, path: string, token: string | undefined, json?: unknown) => requestJson(t, method, path, token, json);

/** A hook record without last_response, which the (failing) deliveries keep changing. */
function sansResponse<T extends object>(h: T): Omit<T, 'last_response'> {
  const { last_response: _, ...rest } = h as T & { last_response?: unknown };
  return rest;
}

/**
 * The hook's row with its secret opened: the column holds it sealed with the server's
 * key (issue #11, finding 11), never as the plaintext the assertions compare with.
 */
async function hookRow(id: number) {
  const row = await t.server.ctx.db.selectFrom('hooks').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row?.config_secret) return row;
  assert.ok(isSealed(row.config_secret), `the stored secret is sealed: ${row.config_secret}`);
  return { ...row, config_secret: openSecret(t.server.ctx, row.config_secret) };
}

const newRepo = (owner: CreatedUser, name?: string, priv = false) => createRepo(t, owner, { name, private: priv });

const tokenFor = (login: string, scopes: string[]) => createToken(t, login, scopes);

describe('repository webhooks', () => {
  test('create with defaults, get, list: the record upstream shows, the secret masked', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const created = await kit.rest.repos.createWebhook({ owner: r.owner, repo: r.repo, config: { url: 'https://example.invalid/hook', secret: 's3cret' } });
    assert.equal(created.status, 201);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/hooks', 201, created.data);
    const h = created.data;
    const base = `${t.baseUrl}/repos/${r.owner}/${r.repo}/hooks/${h.id}`;
    assert.equal(h.type, 'Repository');
    assert.equal(h.name, 'web');
    assert.equal(h.active, true);
    assert.deepEqual(h.events, ['push']);
    assert.deepEqual(h.config, { content_type: 'json', insecure_ssl: '0', url: 'https://example.invalid/hook', secret: '********' });
    assert.equal(h.url, base);
    assert.equal(h.test_url, `${base}/test`);
    assert.equal(h.ping_url, `${base}/pings`);
    assert.equal(h.deliveries_url, `${base}/deliveries`);
    assert.deepEqual(h.last_response, { code: null, status: 'unused', message: null });
    assert.match(h.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(created.headers.location, base);

    const row = await hookRow(h.id);
    assert.equal(row?.config_secret, 's3cret');
    assert.equal(row?.scope, 'repository');
    assert.equal(row?.target_id, r.id);
    assert.ok(!JSON.stringify(h).includes('s3cret'));

    const got = await kit.rest.repos.getWebhook({ owner: r.owner, repo: r.repo, hook_id: h.id });
    assertMatchesOpenApi('GET', REPO_HOOK, 200, got.data);
    assert.deepEqual(sansResponse(got.data), sansResponse(h));

    const listed = await kit.rest.repos.listWebhooks({ owner: r.owner, repo: r.repo });
    assertMatchesOpenApi('GET', '/repos/{owner}/{repo}/hooks', 200, listed.data);
    assert.deepEqual(listed.data.map(sansResponse), [sansResponse(h)]);
  });

  test('explicit fields: form, insecure_ssl as a number, "*" events, inactive, no secret', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const res = await send('POST', `/repos/${r.owner}/${r.repo}/hooks`, alice.token, {
      name: 'web', active: false, events: ['*', 'push'], config: { url: 'http://example.invalid/x', content_type: 'form', insecure_ssl: 1 },
    });
    assert.equal(res.status, 201);
    assertMatchesOpenApi('POST', '/repos/{owner}/{repo}/hooks', 201, res.body);
    assert.equal(res.body.active, false);
    assert.deepEqual(res.body.events, ['*']);
    assert.deepEqual(res.body.config, { content_type: 'form', insecure_ssl: '1', url: 'http://example.invalid/x' });
  });

  test('lists page with Link headers', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    for (let i = 0; i < 3; i++) await kit.rest.repos.createWebhook({ owner: r.owner, repo: r.repo, config: { url: `https://example.invalid/${i}` } });
    const first = await kit.rest.repos.listWebhooks({ owner: r.owner, repo: r.repo, per_page: 2 });
    assert.equal(first.data.length, 2);
    assert.match(first.headers.link ?? '', /rel="next"/);
    assert.match(first.headers.link ?? '', /rel="last"/);
    const second = await kit.rest.repos.listWebhooks({ owner: r.owner, repo: r.repo, per_page: 2, page: 2 });
    assert.deepEqual(second.data.map((h) => h.config.url), ['https://example.invalid/2']);
  });

  test('422 for a missing or non-http URL, bad content_type, insecure_ssl, name, events', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const path = `/repos/${r.owner}/${r.repo}/hooks`;
    const missing = await failsWith(kit.rest.repos.createWebhook({ owner: r.owner, repo: r.repo, config: {} }), 422);
    assert.equal(missing.errors?.[0]?.resource, 'Hook');
    assert.match(missing.errors?.[0]?.message ?? '', /URL/);
    await failsWith(kit.rest.repos.createWebhook({ owner: r.owner, repo: r.repo } as never), 422);
    for (const url of ['ftp://example.invalid/x', 'not a url', 'javascript:alert(1)']) {
      const body = await failsWith(kit.rest.repos.createWebhook({ owner: r.owner, repo: r.repo, config: { url } }), 422);
      assert.equal(body.message, 'Validation Failed');
    }
    const bad = [
      { config: { url: 'https://e.example/', content_type: 'xml' } },
      { config: { url: 'https://e.example/', insecure_ssl: '2' } },
      { config: { url: 'https://e.example/', insecure_ssl: true } },
      { name: 'travis', config: { url: 'https://e.example/' } },
      { events: ['Push!'], config: { url: 'https://e.example/' } },
      { events: 'push', config: { url: 'https://e.example/' } },
      { active: 'yes', config: { url: 'https://e.example/' } },
    ];
    for (const json of bad) assert.equal((await send('POST', path, alice.token, json)).status, 422, JSON.stringify(json));
    assert.deepEqual((await kit.rest.repos.listWebhooks({ owner: r.owner, repo: r.repo })).data, []);
  });

  test('the same URL with overlapping events is refused; disjoint events may share it', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const url = 'https://example.invalid/shared';
    const a = await kit.rest.repos.createWebhook({ owner: r.owner, repo: r.repo, config: { url }, events: ['push', 'issues'] });
    const dup = await failsWith(kit.rest.repos.createWebhook({ owner: r.owner, repo: r.repo, config: { url }, events: ['issues'] }), 422);
    assert.equal(dup.errors?.[0]?.message, 'Hook already exists on this repository');
    await failsWith(kit.rest.repos.createWebhook({ owner: r.owner, repo: r.repo, config: { url }, events: ['*'] }), 422);
    await failsWith(kit.rest.repos.createWebhook({ owner: r.owner, repo: r.repo, config: { url } }), 422);
    const b = await kit.rest.repos.createWebhook({ owner: r.owner, repo: r.repo, config: { url }, events: ['pull_request'] });
    assert.equal(b.status, 201);
    // Editing into an overlap is refused too.
    await failsWith(kit.rest.repos.updateWebhook({ owner: r.owner, repo: r.repo, hook_id: b.data.id, add_events: ['push'] }), 422);
    // Another repository may use the same URL.
    const other = await newRepo(alice);
    assert.equal((await kit.rest.repos.createWebhook({ owner: other.owner, repo: other.repo, config: { url } })).status, 201);
    assert.deepEqual((await hookRow(a.data.id))?.events, JSON.stringify(['push', 'issues']));
  });

  test('update: events replace, add_events and remove_events edit, active toggles', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const { data: h } = await kit.rest.repos.createWebhook({ owner: r.owner, repo: r.repo, config: { url: 'https://example.invalid/e', secret: 'keep' } });
    const replaced = await kit.rest.repos.updateWebhook({ owner: r.owner, repo: r.repo, hook_id: h.id, events: ['issues', 'pull_request'], active: false });
    assertMatchesOpenApi('PATCH', REPO_HOOK, 200, replaced.data);
    assert.deepEqual(replaced.data.events, ['issues', 'pull_request']);
    assert.equal(replaced.data.active, false);
    // No config sent: the secret stays.
    assert.equal(replaced.data.config.secret, '********');
    const edited = await kit.rest.repos.updateWebhook({ owner: r.owner, repo: r.repo, hook_id: h.id, add_events: ['push', 'issues'], remove_events: ['pull_request'] });
    assert.deepEqual(edited.data.events, ['issues', 'push']);
    assert.equal(edited.data.active, false);
    assert.equal((await hookRow(h.id))?.config_secret, 'keep');
    const all = await kit.rest.repos.updateWebhook({ owner: r.owner, repo: r.repo, hook_id: h.id, add_events: ['*'] });
    assert.deepEqual(all.data.events, ['*']);
    // POST works where PATCH does.
    const viaPost = await send('POST', `/repos/${r.owner}/${r.repo}/hooks/${h.id}`, alice.token, { active: true });
    assert.equal(viaPost.status, 200);
    assert.equal(viaPost.body.active, true);
  });

  test('update: config without a secret removes it; with one replaces it; url is required in config', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const { data: h } = await kit.rest.repos.createWebhook({
      owner: r.owner, repo: r.repo, config: { url: 'https://example.invalid/s', secret: 'one', content_type: 'form' },
    });
    const replaced = await kit.rest.repos.updateWebhook({ owner: r.owner, repo: r.repo, hook_id: h.id, config: { url: 'https://example.invalid/s', secret: 'two' } });
    assert.equal(replaced.data.config.secret, '********');
    assert.equal((await hookRow(h.id))?.config_secret, 'two');
    // The whole config is replaced: content_type is back to its default.
    assert.equal(replaced.data.config.content_type, 'json');

    const removed = await kit.rest.repos.updateWebhook({ owner: r.owner, repo: r.repo, hook_id: h.id, config: { url: 'https://example.invalid/moved', insecure_ssl: '1' } });
    assertMatchesOpenApi('PATCH', REPO_HOOK, 200, removed.data);
    assert.deepEqual(removed.data.config, { content_type: 'json', insecure_ssl: '1', url: 'https://example.invalid/moved' });
    assert.equal((await hookRow(h.id))?.config_secret, null);

    await failsWith(kit.rest.repos.updateWebhook({ owner: r.owner, repo: r.repo, hook_id: h.id, config: { secret: 'x' } as never }), 422);
    await failsWith(kit.rest.repos.updateWebhook({ owner: r.owner, repo: r.repo, hook_id: h.id, config: { url: 'file:///etc/passwd' } }), 422);
    await failsWith(kit.rest.repos.updateWebhook({ owner: r.owner, repo: r.repo, hook_id: h.id, events: ['bad event'] }), 422);
    assert.equal((await hookRow(h.id))?.config_url, 'https://example.invalid/moved');
  });

  test('delete; unknown hooks and hooks of another repository are 404', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const other = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const { data: h } = await kit.rest.repos.createWebhook({ owner: r.owner, repo: r.repo, config: { url: 'https://example.invalid/d' } });
    await failsWith(kit.rest.repos.getWebhook({ owner: other.owner, repo: other.repo, hook_id: h.id }), 404);
    await failsWith(kit.rest.repos.deleteWebhook({ owner: other.owner, repo: other.repo, hook_id: h.id }), 404);
    await failsWith(kit.rest.repos.pingWebhook({ owner: other.owner, repo: other.repo, hook_id: h.id }), 404);
    const del = await kit.rest.repos.deleteWebhook({ owner: r.owner, repo: r.repo, hook_id: h.id });
    assert.equal(del.status, 204);
    assert.equal(await hookRow(h.id), undefined);
    await failsWith(kit.rest.repos.getWebhook({ owner: r.owner, repo: r.repo, hook_id: h.id }), 404);
    await failsWith(kit.rest.repos.updateWebhook({ owner: r.owner, repo: r.repo, hook_id: h.id, active: false }), 404);
    await failsWith(kit.rest.repos.deleteWebhook({ owner: r.owner, repo: r.repo, hook_id: h.id }), 404);
    await failsWith(kit.rest.repos.testPushWebhook({ owner: r.owner, repo: r.repo, hook_id: h.id }), 404);
    await failsWith(kit.rest.repos.listWebhooks({ owner: r.owner, repo: 'no-such-repo' }), 404);
  });

  test('rights: admins only (403 for readers and writers, 404 for private repositories one cannot see)', async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const pub = await newRepo(alice);
    const priv = await newRepo(alice, undefined, true);
    const kit = t.octokit(alice.token);
    const { data: h } = await kit.rest.repos.createWebhook({ owner: pub.owner, repo: pub.repo, config: { url: 'https://example.invalid/r' } });
    const bobKit = t.octokit(bob.token);
    const denied = await failsWith(bobKit.rest.repos.listWebhooks({ owner: pub.owner, repo: pub.repo }), 403);
    assert.match(denied.message, /admin/);
    await failsWith(bobKit.rest.repos.getWebhook({ owner: pub.owner, repo: pub.repo, hook_id: h.id }), 403);
    await failsWith(bobKit.rest.repos.createWebhook({ owner: pub.owner, repo: pub.repo, config: { url: 'https://example.invalid/b' } }), 403);
    await failsWith(bobKit.rest.repos.deleteWebhook({ owner: pub.owner, repo: pub.repo, hook_id: h.id }), 403);
    await failsWith(bobKit.rest.repos.listWebhooks({ owner: priv.owner, repo: priv.repo }), 404);

    // A collaborator with write access is still not an admin.
    await kit.rest.repos.addCollaborator({ owner: pub.owner, repo: pub.repo, username: bob.login, permission: 'push' });
    const invitations = await bobKit.rest.repos.listInvitationsForAuthenticatedUser();
    for (const inv of invitations.data) await bobKit.rest.repos.acceptInvitationForAuthenticatedUser({ invitation_id: inv.id });
    await failsWith(bobKit.rest.repos.updateWebhook({ owner: pub.owner, repo: pub.repo, hook_id: h.id, active: false }), 403);
    await failsWith(bobKit.rest.repos.pingWebhook({ owner: pub.owner, repo: pub.repo, hook_id: h.id }), 403);

    // Anonymous callers need to sign in.
    assert.equal((await send('GET', `/repos/${pub.owner}/${pub.repo}/hooks`, undefined)).status, 401);
    assert.equal((await hookRow(h.id))?.active, 1);
  });

  test('scopes: read:repo_hook reads, write:repo_hook writes, others are refused with the accepted scopes', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice, undefined, true);
    const { data: h } = await t.octokit(alice.token).rest.repos.createWebhook({ owner: r.owner, repo: r.repo, config: { url: 'https://example.invalid/sc' } });
    const read = await tokenFor(alice.login, ['read:repo_hook']);
    const write = await tokenFor(alice.login, ['write:repo_hook']);
    const admin = await tokenFor(alice.login, ['admin:repo_hook']);
    const none = await tokenFor(alice.login, ['user']);

    const got = await send('GET', `/repos/${r.owner}/${r.repo}/hooks/${h.id}`, read);
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('x-accepted-oauth-scopes'), 'read:repo_hook, repo');
    const refused = await send('PATCH', `/repos/${r.owner}/${r.repo}/hooks/${h.id}`, read, { active: false });
    assert.equal(refused.status, 403);
    assert.equal(refused.headers.get('x-accepted-oauth-scopes'), 'write:repo_hook, repo');
    assert.equal((await send('POST', `/repos/${r.owner}/${r.repo}/hooks/${h.id}/pings`, read)).status, 403);

    const patched = await send('PATCH', `/repos/${r.owner}/${r.repo}/hooks/${h.id}`, write, { active: false });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.active, false);
    const created = await send('POST', `/repos/${r.owner}/${r.repo}/hooks`, admin, { config: { url: 'https://example.invalid/sc2' } });
    assert.equal(created.status, 201);

    const noScope = await send('GET', `/repos/${r.owner}/${r.repo}/hooks`, none);
    assert.equal(noScope.status, 403);
    const pubRepo = await newRepo(alice);
    const pubNoScope = await send('GET', `/repos/${pubRepo.owner}/${pubRepo.repo}/hooks`, none);
    assert.equal(pubNoScope.status, 403);
    assert.equal(pubNoScope.headers.get('x-accepted-oauth-scopes'), 'read:repo_hook, repo');
  });

  test('a new active hook is pinged; ping records another ping event for the hook', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const { data: h } = await kit.rest.repos.createWebhook({ owner: r.owner, repo: r.repo, config: { url: 'https://example.invalid/p' } });
    await kit.rest.repos.createWebhook({ owner: r.owner, repo: r.repo, active: false, config: { url: 'https://example.invalid/off' } });
    assert.equal((await listEvents(t.server.ctx, { event: 'ping', repositoryId: r.id })).length, 1, 'inactive hooks are not greeted');
    const pinged = await kit.rest.repos.pingWebhook({ owner: r.owner, repo: r.repo, hook_id: h.id });
    assert.equal(pinged.status, 204);
    const events = await listEvents(t.server.ctx, { event: 'ping', repositoryId: r.id });
    assert.equal(events.length, 2);
    for (const e of events) {
      assert.equal(e.payload.hook_id, h.id);
      assert.equal(e.actorId, alice.id);
      assert.equal(typeof e.payload.zen, 'string');
      assert.equal((e.payload.hook as { ping_url: string }).ping_url, h.ping_url);
    }
  });

  test('test re-sends the latest push to a push hook; 204 without a push or a push subscription', async () => {
    const alice = await createUser(t);
    const r = await newRepo(alice);
    const kit = t.octokit(alice.token);
    const { data: h } = await kit.rest.repos.createWebhook({ owner: r.owner, repo: r.repo, config: { url: 'https://example.invalid/t' } });
    const { data: issuesOnly } = await kit.rest.repos.createWebhook({ owner: r.owner, repo: r.repo, config: { url: 'https://example.invalid/t2' }, events: ['issues'] });

    assert.equal((await kit.rest.repos.testPushWebhook({ owner: r.owner, repo: r.repo, hook_id: h.id })).status, 204);
    assert.equal((await listEvents(t.server.ctx, { event: 'push', repositoryId: r.id })).length, 0);

    await recordEvent(t.server.ctx, { event: 'push', repositoryId: r.id, actorId: alice.id, payload: { ref: 'refs/heads/main', after: 'a'.repeat(40) } });
    assert.equal((await kit.rest.repos.testPushWebhook({ owner: r.owner, repo: r.repo, hook_id: issuesOnly.id })).status, 204);
    assert.equal((await listEvents(t.server.ctx, { event: 'push', repositoryId: r.id })).length, 1);

    assert.equal((await kit.rest.repos.testPushWebhook({ owner: r.owner, repo: r.repo, hook_id: h.id })).status, 204);
    const pushes = await listEvents(t.server.ctx, { event: 'push', repositoryId: r.id });
    assert.equal(pushes.length, 2);
    // The same push, addressed to this hook alone.
    assert.deepEqual(pushes[1]!.payload, { ref: 'refs/heads/main', after: 'a'.repeat(40), hook_id: h.id });
    assert.equal(pushes[1]!.actorId, alice.id);
  });
});

describe('organization webhooks', () => {
  let org: CreatedOrg;
  before(async () => { org = await createOrgWithOwner(t, ['repo', 'admin:org', 'admin:org_hook']); });

  test('owners create, get, list, update, ping and delete', async () => {
    const kit = t.octokit(org.owner.token);
    const created = await kit.rest.orgs.createWebhook({ org: org.login, name: 'web', config: { url: 'https://example.invalid/org', secret: 'x' }, events: ['push', 'member'] });
    assert.equal(created.status, 201);
    assertMatchesOpenApi('POST', '/orgs/{org}/hooks', 201, created.data);
    const h = created.data;
    const base = `${t.baseUrl}/orgs/${org.login}/hooks/${h.id}`;
    assert.equal(h.type, 'Organization');
    assert.equal(h.url, base);
    assert.equal(h.ping_url, `${base}/pings`);
    assert.deepEqual(h.config, { content_type: 'json', insecure_ssl: '0', url: 'https://example.invalid/org', secret: '********' });
    assert.deepEqual((h as unknown as { last_response: unknown }).last_response, { code: null, status: 'unused', message: null });
    assert.equal((await hookRow(h.id))?.scope, 'organization');

    const got = await kit.rest.orgs.getWebhook({ org: org.login, hook_id: h.id });
    assertMatchesOpenApi('GET', ORG_HOOK, 200, got.data);
    assert.deepEqual(sansResponse(got.data), sansResponse(h));
    const listed = await kit.rest.orgs.listWebhooks({ org: org.login });
    assertMatchesOpenApi('GET', '/orgs/{org}/hooks', 200, listed.data);
    assert.deepEqual(listed.data.map((x) => x.id), [h.id]);

    await failsWith(kit.rest.orgs.createWebhook({ org: org.login, name: 'web', config: { url: 'https://example.invalid/org' }, events: ['member'] }), 422)
      .then((b) => assert.equal(b.errors?.[0]?.message, 'Hook already exists on this organization'));
    await failsWith(kit.rest.orgs.createWebhook({ org: org.login, name: 'web', config: { url: 'mailto:x@example.invalid' } }), 422);

    const updated = await kit.rest.orgs.updateWebhook({ org: org.login, hook_id: h.id, events: ['organization'], config: { url: 'https://example.invalid/org2' } });
    assertMatchesOpenApi('PATCH', ORG_HOOK, 200, updated.data);
    assert.deepEqual(updated.data.events, ['organization']);
    assert.equal(updated.data.config.secret, undefined);
    assert.equal((await hookRow(h.id))?.config_secret, null);

    assert.equal((await kit.rest.orgs.pingWebhook({ org: org.login, hook_id: h.id })).status, 204);
    const pings = (await listEvents(t.server.ctx, { event: 'ping' })).filter((e) => e.organizationId === org.id);
    assert.deepEqual(pings.map((p) => p.payload.hook_id), [h.id, h.id], 'one when created, one asked for');

    assert.equal((await kit.rest.orgs.deleteWebhook({ org: org.login, hook_id: h.id })).status, 204);
    await failsWith(kit.rest.orgs.getWebhook({ org: org.login, hook_id: h.id }), 404);
    await failsWith(kit.rest.orgs.deleteWebhook({ org: org.login, hook_id: h.id }), 404);
  });

  test('repository hooks are not organization hooks, and the reverse', async () => {
    const kit = t.octokit(org.owner.token);
    const { data: repo } = await kit.rest.repos.createInOrg({ org: org.login, name: `hooked-${Date.now()}` });
    const { data: rh } = await kit.rest.repos.createWebhook({ owner: org.login, repo: repo.name, config: { url: 'https://example.invalid/rh' } });
    await failsWith(kit.rest.orgs.getWebhook({ org: org.login, hook_id: rh.id }), 404);
    const { data: oh } = await kit.rest.orgs.createWebhook({ org: org.login, name: 'web', config: { url: 'https://example.invalid/rh' } });
    await failsWith(kit.rest.repos.getWebhook({ owner: org.login, repo: repo.name, hook_id: oh.id }), 404);
  });

  test('members get 403, unknown organizations 404, tokens without admin:org_hook a scope error', async () => {
    const member = await addMember(t, org, 'member', ['repo', 'admin:org', 'admin:org_hook']);
    const denied = await failsWith(t.octokit(member.token).rest.orgs.listWebhooks({ org: org.login }), 403);
    assert.match(denied.message, /organization owner/);
    await failsWith(t.octokit(member.token).rest.orgs.createWebhook({ org: org.login, name: 'web', config: { url: 'https://example.invalid/m' } }), 403);
    await failsWith(t.octokit(org.owner.token).rest.orgs.listWebhooks({ org: 'no-such-org-anywhere' }), 404);
    const user = await createUser(t, ['admin:org_hook']);
    await failsWith(t.octokit(user.token).rest.orgs.listWebhooks({ org: user.login }), 404);

    const weak = await tokenFor(org.owner.login, ['repo', 'admin:org']);
    const res = await send('GET', `/orgs/${org.login}/hooks`, weak);
    assert.equal(res.status, 403);
    assert.equal(res.headers.get('x-accepted-oauth-scopes'), 'admin:org_hook');

    // Site admins count as owners.
    const asAdmin = await t.octokit(ADMIN_TOKEN).rest.orgs.listWebhooks({ org: org.login });
    assert.equal(asAdmin.status, 200);
  });
});
