// App webhooks: an app's one hook hears of its own installations (installation,
// installation_repositories) and of the events it subscribed to in the repositories
// its installations reach, each with the installation, signed with the app's webhook
// secret, through the same delivery path as repository hooks; the app reads and
// redelivers its deliveries with its JWT. Raised permissions wait for the owner's
// acceptance (new_permissions_accepted) before any token gets them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { verify } from '@octokit/webhooks-methods';
import { startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo, type CreatedRepo } from './factories/repos.ts';
import { createIssue } from './factories/issues.ts';
import { csrfIn, signedInAs, WebClient } from './helpers/web.ts';
import { appJwt, installOn, manifestOf, registerAppByManifest, type ConvertedApp } from './helpers/apps.ts';
import { headerOf, Receiver, type Received } from './helpers/webhook-receiver.ts';
import { assertMatchesWebhookSchema } from './helpers/webhook-schema.ts';
import { receivableEvents } from '../src/modules/apps/app-events.ts';

const PASSWORD = 'correct horse battery';
const ENV = {
  WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,::1',
  WHARF_WEBHOOK_RETRY_BASE_MS: '100',
  WHARF_WEBHOOK_MAX_ATTEMPTS: '3',
  WHARF_WEBHOOK_TIMEOUT_MS: '5000',
  WHARF_WEBHOOK_POLL_MS: '200',
};

type Payload = Record<string, unknown> & { action?: string; installation?: { id: number; node_id?: string }; repository?: { id: number } };
const payloadOf = (r: Received) => JSON.parse(r.body) as Payload;
const isEvent = (event: string, action?: string) => (r: Received) =>
  headerOf(r, 'x-github-event') === event && (action === undefined || payloadOf(r).action === action);

describe('apps: webhooks', () => {
  const clock = new TestClock(Date.now());
  const receiver = new Receiver();
  let t: TestServer;
  let alice: CreatedUser;
  let web: WebClient;
  let bot: ConvertedApp;
  let inside: CreatedRepo;
  let outside: CreatedRepo;
  let installationId: number;

  const asApp = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    t.request(path, { ...init, headers: { authorization: `Bearer ${appJwt(bot.pem, bot.id, clock.now().getTime())}` } });
  /** The next delivery matching `match`, after the `seen` ones already taken. */
  async function next(match: (r: Received) => boolean): Promise<Received> {
    const all = await receiver.waitFor(1, match);
    return all[all.length - 1]!;
  }

  before(async () => {
    await receiver.start();
    t = await startTestServer({ clock, env: ENV });
    alice = await createUser(t);
    web = await signedInAs(t, alice.login, PASSWORD);
    inside = await createRepo(t, alice);
    outside = await createRepo(t, alice);
    bot = await registerAppByManifest(t, web, manifestOf('Hook Bot', { hook_attributes: { url: receiver.url() } }));
    const page = await web.get(`/apps/${bot.slug}/installations/new`);
    const res = await web.post(`/apps/${bot.slug}/installations/new`, {
      authenticity_token: csrfIn(page.body), repository_selection: 'selected', [`repo_${inside.id}`]: '1',
    });
    assert.ok(res.status === 201 || res.status === 200, res.body.slice(0, 2000));
    installationId = Number(/id="installation-id">(\d+)</.exec(res.body)![1]);
  });
  after(async () => { await t.close(); await receiver.stop(); });

  test('installation created: the whole installation, its repositories, signed with the app\'s secret', async () => {
    const r = await next(isEvent('installation', 'created'));
    const body = payloadOf(r);
    assert.equal(body.installation!.id, installationId);
    assert.deepEqual((body.repositories as { id: number }[]).map((x) => x.id), [inside.id]);
    assert.equal((body.sender as { login: string }).login, alice.login);
    assert.ok(await verify(bot.webhook_secret!, r.body, headerOf(r, 'x-hub-signature-256')!), 'signature verifies with the app\'s webhook secret');
    assert.equal(headerOf(r, 'x-github-hook-installation-target-type'), 'integration');
    assert.equal(headerOf(r, 'x-github-hook-installation-target-id'), String(bot.id));
    assertMatchesWebhookSchema('installation', 'created', body);
  });

  test('an issue in an installed repository reaches the app with the installation; one outside does not', async () => {
    await createIssue(t, alice.token, { owner: alice.login, repo: outside.repo }, { title: 'outside' });
    await createIssue(t, alice.token, { owner: alice.login, repo: inside.repo }, { title: 'inside' });
    const r = await next(isEvent('issues', 'opened'));
    const body = payloadOf(r);
    assert.equal(body.repository!.id, inside.id);
    assert.equal((body.issue as { title: string }).title, 'inside');
    assert.deepEqual(body.installation, { id: installationId, node_id: Buffer.from(`023:IntegrationInstallation${installationId}`).toString('base64') });
    assert.ok(await verify(bot.webhook_secret!, r.body, headerOf(r, 'x-hub-signature-256')!));
    assertMatchesWebhookSchema('issues', 'opened', body);
    // Deliveries of one hook go in order: had the outside issue been sent, it came first.
    assert.equal(receiver.received.filter((r) => r.path === '/hook' && isEvent('issues')(r)).length, 1);
  });

  test('GET /app/hook/deliveries lists, shows and redelivers, with the JWT', async () => {
    const list = await asApp('/app/hook/deliveries?per_page=1');
    assert.equal(list.status, 200);
    const [latest] = (await list.json()) as { id: number; guid: string; event: string; installation_id: number | null; redelivery: boolean }[];
    assert.equal(latest!.event, 'issues');
    assert.equal(latest!.installation_id, installationId);
    assert.match(list.headers.get('link') ?? '', /cursor=v1_\d+/);
    const one = await asApp(`/app/hook/deliveries/${latest!.id}`);
    assert.equal(one.status, 200);
    const detail = (await one.json()) as { request: { payload: Payload; headers: Record<string, string> } };
    assert.equal(detail.request.payload.installation!.id, installationId);
    assert.equal((await asApp('/app/hook/deliveries/999999')).status, 404);
    assert.equal((await t.request('/app/hook/deliveries', { token: alice.token })).status, 401);
    const redo = await asApp(`/app/hook/deliveries/${latest!.id}/attempts`, { method: 'POST' });
    assert.equal(redo.status, 202);
    const again = await receiver.waitFor(2, (r) => headerOf(r, 'x-github-delivery') === latest!.guid);
    assert.equal(again.length, 2);
    assert.equal((await asApp('/app/hook/deliveries/999999/attempts', { method: 'POST' })).status, 404);
  });

  test('installation_repositories added and removed', async () => {
    const add = await t.request(`/user/installations/${installationId}/repositories/${outside.id}`, { method: 'PUT', token: alice.token });
    assert.equal(add.status, 204, await add.clone().text());
    const added = payloadOf(await next(isEvent('installation_repositories', 'added')));
    assert.deepEqual((added.repositories_added as { id: number }[]).map((x) => x.id), [outside.id]);
    assert.equal(added.repository_selection, 'selected');
    assertMatchesWebhookSchema('installation_repositories', 'added', added);
    await createIssue(t, alice.token, { owner: alice.login, repo: outside.repo }, { title: 'now inside' });
    const issue = payloadOf(await next((r) => isEvent('issues', 'opened')(r) && payloadOf(r).repository?.id === outside.id));
    assert.equal(issue.installation!.id, installationId);
    const del = await t.request(`/user/installations/${installationId}/repositories/${outside.id}`, { method: 'DELETE', token: alice.token });
    assert.equal(del.status, 204);
    const removed = payloadOf(await next(isEvent('installation_repositories', 'removed')));
    assert.deepEqual((removed.repositories_removed as { id: number }[]).map((x) => x.id), [outside.id]);
    assertMatchesWebhookSchema('installation_repositories', 'removed', removed);
  });

  test('suspend, unsuspend and delete: events; nothing of the repositories while suspended', async () => {
    assert.equal((await asApp(`/app/installations/${installationId}/suspended`, { method: 'PUT' })).status, 204);
    const suspended = payloadOf(await next(isEvent('installation', 'suspend')));
    assert.ok((suspended.installation as unknown as { suspended_at: string | null }).suspended_at);
    assertMatchesWebhookSchema('installation', 'suspend', suspended);
    // A repository hook on the same receiver tells when the issue's event was fanned out
    // (who receives it is decided then): the installation is unsuspended after that.
    const hook = await t.request(`/repos/${alice.login}/${inside.repo}/hooks`, {
      method: 'POST', token: alice.token, json: { config: { url: receiver.url('/repo'), content_type: 'json' }, events: ['issues'] },
    });
    assert.equal(hook.status, 201);
    await createIssue(t, alice.token, { owner: alice.login, repo: inside.repo }, { title: 'while suspended' });
    const titled = (r: Received) => isEvent('issues')(r) && (payloadOf(r).issue as { title: string }).title === 'while suspended';
    await receiver.waitFor(1, (r) => r.path === '/repo' && titled(r));
    assert.equal((await asApp(`/app/installations/${installationId}/suspended`, { method: 'DELETE' })).status, 204);
    payloadOf(await next(isEvent('installation', 'unsuspend')));
    assert.ok(!receiver.received.some((r) => r.path === '/hook' && titled(r)));
    assert.equal((await asApp(`/app/installations/${installationId}`, { method: 'DELETE' })).status, 204);
    const deleted = payloadOf(await next(isEvent('installation', 'deleted')));
    assert.equal(deleted.installation!.id, installationId);
    assertMatchesWebhookSchema('installation', 'deleted', deleted);
  });

  test('an app registered before app hooks existed (no hook row) gets its hook at its next install', async () => {
    const old = await registerAppByManifest(t, web, manifestOf('Old Crane', { hook_attributes: { url: receiver.url('/old') } }));
    await t.server.ctx.db.deleteFrom('hooks').where('scope', '=', 'app').where('target_id', '=', old.id).execute();
    const page = await web.get(`/apps/${old.slug}/installations/new`);
    const res = await web.post(`/apps/${old.slug}/installations/new`, {
      authenticity_token: csrfIn(page.body), repository_selection: 'selected', [`repo_${inside.id}`]: '1',
    });
    assert.ok(res.status === 201 || res.status === 200, res.body.slice(0, 2000));
    const [created] = await receiver.waitFor(1, (r) => r.path === '/old' && isEvent('installation', 'created')(r));
    assert.ok(await verify(old.webhook_secret!, created!.body, headerOf(created!, 'x-hub-signature-256')!), 'signed with the stored secret');
  });

  test('the events an installation receives are limited by its permissions', async () => {
    assert.deepEqual(receivableEvents(['issues', 'push', 'star'], { issues: 'read' }), ['issues', 'star']);
    // Through the server: an app subscribed to issues without the issues permission,
    // installed on every repository, gets the star after the issue, and not the issue.
    const crane = await registerAppByManifest(t, web, manifestOf('Star Crane', {
      hook_attributes: { url: receiver.url('/crane') }, default_permissions: { contents: 'read' }, default_events: ['issues', 'star'],
    }));
    const page = await web.get(`/apps/${crane.slug}/installations/new`);
    const res = await web.post(`/apps/${crane.slug}/installations/new`, { authenticity_token: csrfIn(page.body), repository_selection: 'all' });
    assert.ok(res.status === 201 || res.status === 200, res.body.slice(0, 2000));
    await createIssue(t, alice.token, { owner: alice.login, repo: outside.repo }, { title: 'not for the crane' });
    assert.equal((await t.request(`/user/starred/${alice.login}/${outside.repo}`, { method: 'PUT', token: alice.token })).status, 204);
    const star = await receiver.waitFor(1, (r) => r.path === '/crane' && isEvent('star')(r));
    assert.equal(payloadOf(star[0]!).repository!.id, outside.id);
    assert.ok(!receiver.received.some((r) => r.path === '/crane' && isEvent('issues')(r)));

    // PATCH /app/hook/config moves the hook and changes its secret; deliveries follow.
    const jwt = { authorization: `Bearer ${appJwt(crane.pem, crane.id, clock.now().getTime())}` };
    const patched = await t.request('/app/hook/config', { method: 'PATCH', headers: jwt, json: { url: receiver.url('/moved'), secret: 'fresh secret' } });
    assert.equal(patched.status, 200, await patched.clone().text());
    assert.equal((await t.request(`/user/starred/${alice.login}/${inside.repo}`, { method: 'PUT', token: alice.token })).status, 204);
    const [moved] = await receiver.waitFor(1, (r) => r.path === '/moved' && isEvent('star')(r));
    assert.equal(payloadOf(moved!).repository!.id, inside.id);
    assert.ok(await verify('fresh secret', moved!.body, headerOf(moved!, 'x-hub-signature-256')!));
    assert.ok(!await verify(crane.webhook_secret!, moved!.body, headerOf(moved!, 'x-hub-signature-256')!));
  });

  test('outdated installations lag the app\'s permissions; deleting the app says deleted for each installation and ends its credentials', async () => {
    const doomed = await registerAppByManifest(t, web, manifestOf('Doomed Bot', { hook_attributes: { url: receiver.url() } }));
    const doomedId = await installOn(web, doomed.slug, [inside.id]);
    const jwt = () => ({ authorization: `Bearer ${appJwt(doomed.pem, doomed.id, clock.now().getTime())}` });
    const listed = async (outdated: string) => ((await (await t.request(`/app/installations?outdated=${outdated}`, { headers: jwt() })).json()) as { id: number }[]).map((i) => i.id);
    assert.deepEqual(await listed('true'), []);
    assert.deepEqual(await listed('false'), [doomedId]);
    const page = await web.get(`/settings/apps/${doomed.slug}`);
    const saved = await web.post(`/settings/apps/${doomed.slug}`, {
      authenticity_token: csrfIn(page.body), url: 'https://bot.example', webhook_url: receiver.url(), webhook_active: '1',
      permissions: 'issues: write\ncontents: read\nmetadata: read\npull_requests: read', events: 'issues',
    });
    assert.equal(saved.status, 200, saved.body.slice(0, 500));
    assert.deepEqual(await listed('true'), [doomedId], 'the installation has not accepted pull_requests yet');
    assert.deepEqual(await listed('false'), []);

    const tokenRes = await t.request(`/app/installations/${doomedId}/access_tokens`, { method: 'POST', headers: jwt() });
    const { token } = (await tokenRes.json()) as { token: string };
    const settings = await web.get(`/settings/apps/${doomed.slug}`);
    const refused = await web.post(`/settings/apps/${doomed.slug}/delete`, { authenticity_token: csrfIn(settings.body), verify: 'not its name' });
    assert.equal(refused.status, 422);
    assert.match(refused.body, /Type the name of the app/);
    assert.equal((await t.request('/app', { headers: jwt() })).status, 200, 'a refused deletion changes nothing');

    const deleted = await web.post(`/settings/apps/${doomed.slug}/delete`, { authenticity_token: csrfIn(settings.body), verify: 'Doomed Bot' });
    assert.equal(deleted.status, 200);
    assert.match(deleted.body, /Deleted Doomed Bot/);
    const r = await next((x) => isEvent('installation', 'deleted')(x) && payloadOf(x).installation?.id === doomedId);
    assert.equal(headerOf(r, 'x-github-hook-installation-target-id'), String(doomed.id));
    assert.ok(await verify(doomed.webhook_secret!, r.body, headerOf(r, 'x-hub-signature-256')!));
    assert.equal((await t.request('/app', { headers: jwt() })).status, 401);
    assert.equal((await t.request('/installation/repositories', { token })).status, 401);
    assert.equal((await web.get(`/settings/apps/${doomed.slug}`)).status, 404);
    // The name stays taken by the bot that keeps the app's records.
    const again = await web.post('/settings/apps/new', { manifest: JSON.stringify(manifestOf('Doomed Bot')), state: 's' });
    const confirmed = await web.post('/settings/apps/new', { manifest: JSON.stringify(manifestOf('Doomed Bot')), state: 's', confirm: '1', authenticity_token: csrfIn(again.body) });
    assert.equal(confirmed.status, 422);
  });

  test('raised permissions: tokens keep the old ones until the owner accepts on the install page; acceptance says new_permissions_accepted', async () => {
    const raise = await registerAppByManifest(t, web, manifestOf('Raise Bot', {
      hook_attributes: { url: receiver.url('/raise') }, default_permissions: { issues: 'read', contents: 'read' },
    }));
    const id = await installOn(web, raise.slug, [inside.id]);
    const jwt = () => ({ authorization: `Bearer ${appJwt(raise.pem, raise.id, clock.now().getTime())}` });
    const mint = async (json: unknown = {}) => t.request(`/app/installations/${id}/access_tokens`, { method: 'POST', headers: jwt(), json });
    const tokenOf = async () => ((await (await mint()).json()) as { token: string; permissions: Record<string, string> });
    const fileIssue = (token: string) => t.request(`/repos/${alice.login}/${inside.repo}/issues`, { method: 'POST', token, json: { title: 'raised?' } });
    const earlier = await tokenOf();
    assert.equal((await fileIssue(earlier.token)).status, 403);

    const settings = await web.get(`/settings/apps/${raise.slug}`);
    const saved = await web.post(`/settings/apps/${raise.slug}`, {
      authenticity_token: csrfIn(settings.body), url: 'https://bot.example', webhook_url: receiver.url('/raise'), webhook_active: '1',
      permissions: 'issues: write\ncontents: read\nmetadata: read', events: 'issues',
    });
    assert.equal(saved.status, 200, saved.body.slice(0, 500));
    // Not accepted yet: the installation, its tokens old and new, keep issues: read.
    const installation = (await (await t.request(`/app/installations/${id}`, { headers: jwt() })).json()) as { permissions: Record<string, string> };
    assert.equal(installation.permissions.issues, 'read');
    assert.equal((await fileIssue(earlier.token)).status, 403);
    const pending = await tokenOf();
    assert.equal(pending.permissions.issues, 'read');
    assert.equal((await fileIssue(pending.token)).status, 403);
    assert.equal((await mint({ permissions: { issues: 'write' } })).status, 422);
    assert.ok(!receiver.received.some((r) => r.path === '/raise' && isEvent('installation', 'new_permissions_accepted')(r)));

    // The owner accepts by installing again (the page shows the app's present permissions).
    const page = await web.get(`/apps/${raise.slug}/installations/new`);
    assert.match(page.body, /data-permission="issues">issues: write</);
    assert.equal(await installOn(web, raise.slug, [inside.id]), id, 'the same installation, reconfigured');
    const accepted = payloadOf(await next((r) => r.path === '/raise' && isEvent('installation', 'new_permissions_accepted')(r)));
    assert.equal(accepted.installation!.id, id);
    assert.equal((accepted.installation as unknown as { permissions: Record<string, string> }).permissions.issues, 'write');
    assert.equal((accepted.sender as { login: string }).login, alice.login);
    assertMatchesWebhookSchema('installation', 'new_permissions_accepted', accepted);
    // Tokens are snapshots: those minted before keep what they had; new ones have the accepted permissions.
    assert.equal((await fileIssue(pending.token)).status, 403);
    const later = await tokenOf();
    assert.equal(later.permissions.issues, 'write');
    assert.equal((await fileIssue(later.token)).status, 201);
  });
});
