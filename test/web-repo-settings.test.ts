// The repository settings pages (#23): Access (/{o}/{r}/settings/access: collaborators,
// invitations, invite, change permission, remove) and Webhooks (/{o}/{r}/settings/hooks:
// list, create, edit, delete, a hook's deliveries with Redeliver), through the services
// the REST API uses. Each success is checked through the API; each refusal comes back
// inline and changes nothing; forged posts are refused; a collaborator without admin and
// an outsider get 404, on a private repository too.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createOrg, createUser, type CreatedUser } from './factories/accounts.ts';
import { addCollaborator, createRepo } from './factories/issues.ts';
import { BROWSER, csrfIn, setPassword, WebClient } from './helpers/web.ts';
import { eventually, ReceiverPool } from './helpers/webhook-receiver.ts';

const PASSWORD = 'correct horse battery';

describe('web: repository settings', () => {
  let t: TestServer;
  const pool = new ReceiverPool();
  let alice: CreatedUser;
  let bob: CreatedUser;
  let carol: CreatedUser;
  let dave: CreatedUser;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  let carolWeb: WebClient;
  let owner: string;
  const repo = 'quay';
  let base: string;

  const page = (c: WebClient, p: string) => c.get(p, { accept: BROWSER });
  const kit = () => t.octokit(alice.token);

  before(async () => {
    t = await startTestServer({ env: { WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,::1', WHARF_WEBHOOK_POLL_MS: '100' } });
    [alice, bob, carol, dave] = [await createUser(t), await createUser(t), await createUser(t), await createUser(t)];
    for (const u of [alice, bob, carol]) await setPassword(t, u.login, PASSWORD);
    owner = (await createOrg(t, alice.login)).login;
    await createRepo(t, alice, { name: repo, org: owner, private: true });
    await createRepo(t, alice, { name: 'vault', private: true });
    await addCollaborator(t, alice.token, { owner, repo }, carol, 'push');
    base = `/${owner}/${repo}`;
    aliceWeb = new WebClient(t);
    bobWeb = new WebClient(t);
    carolWeb = new WebClient(t);
    assert.equal((await aliceWeb.signIn(alice.login, PASSWORD)).status, 303);
    assert.equal((await bobWeb.signIn(bob.login, PASSWORD)).status, 303);
    assert.equal((await carolWeb.signIn(carol.login, PASSWORD)).status, 303);
  });
  after(async () => {
    await t.close();
    await pool.stopAll();
  });

  test('only admins: a push collaborator and an outsider get 404, on pages and posts; the Settings tab for admins', async () => {
    const home = await page(aliceWeb, base);
    assert.match(home.body, new RegExp(`<a href="${base}/settings/access">Settings</a>`));
    assert.doesNotMatch((await page(carolWeb, base)).body, /settings\/access/, 'no tab for a push collaborator');
    for (const p of ['settings/access', 'settings/hooks', 'settings/hooks/new']) {
      assert.equal((await page(carolWeb, `${base}/${p}`)).status, 404, p);
      assert.equal((await page(bobWeb, `${base}/${p}`)).status, 404, p);
      assert.equal((await page(bobWeb, `/${alice.login}/vault/${p}`)).status, 404, p);
    }
    const signedOut = await page(new WebClient(t), `${base}/settings/access`);
    assert.equal(signedOut.status, 302);
    // carol posts with her own valid token: refused as not found, nothing changed.
    const token = csrfIn((await page(carolWeb, base)).body);
    assert.equal((await carolWeb.post(`${base}/settings/access/collaborators`, { authenticity_token: token, login: dave.login, permission: 'admin' })).status, 404);
    assert.equal((await carolWeb.post(`${base}/settings/access/collaborators`, { authenticity_token: token, login: carol.login, permission: 'admin' })).status, 404);
    assert.equal((await carolWeb.post(`${base}/settings/hooks`, { authenticity_token: token, url: 'https://example.com/x', events: 'push', active: '1' })).status, 404);
    assert.deepEqual((await kit().rest.repos.listInvitations({ owner, repo })).data, []);
    assert.deepEqual((await kit().rest.repos.listWebhooks({ owner, repo })).data, []);
    assert.equal((await kit().rest.repos.getCollaboratorPermissionLevel({ owner, repo, username: carol.login })).data.permission, 'write');
  });

  test('access: lists collaborators; invite, change permission and remove, checked through the API; refusals inline', async () => {
    const shown = await page(aliceWeb, `${base}/settings/access`);
    assert.equal(shown.status, 200);
    assert.match(shown.body, new RegExp(`data-collaborator="${carol.login}"[^]*?data-permission="push">write<`));
    assert.match(shown.body, /No pending invitations/);
    const token = csrfIn(shown.body);
    const post = (path: string, form: Record<string, string>) => aliceWeb.post(`${base}/settings/access/${path}`, { authenticity_token: token, ...form });

    // Refusals: each inline, nothing changed.
    const bad = await post('collaborators', { login: bob.login, permission: 'superuser' });
    assert.equal(bad.status, 422);
    assert.match(bad.body, /role="alert">superuser is not a repository role/);
    assert.match(bad.body, new RegExp(`id="invite-login" name="login"[^>]*value="${bob.login}"`));
    const nobody = await post('collaborators', { login: 'no-such-user-here', permission: 'push' });
    assert.equal(nobody.status, 422);
    assert.match(nobody.body, /No user is called no-such-user-here\./);
    const self = await post('collaborators', { login: alice.login, permission: 'push' });
    assert.equal(self.status, 422);
    assert.match(self.body, /You cannot invite yourself to a repository\./);
    const personal = await aliceWeb.post(`/${alice.login}/vault/settings/access/collaborators`, { authenticity_token: token, login: bob.login, permission: 'admin' });
    assert.equal(personal.status, 422);
    assert.match(personal.body, /Permissions can only be chosen on organization-owned repositories/);
    assert.equal((await aliceWeb.post(`${base}/settings/access/collaborators`, { login: bob.login })).status, 403, 'no token');
    assert.equal((await post('collaborators', { login: bob.login, authenticity_token: 'a'.repeat(64) })).status, 403, 'forged token');
    assert.deepEqual((await kit().rest.repos.listInvitations({ owner, repo })).data, []);
    assert.deepEqual((await kit().rest.repos.listInvitations({ owner: alice.login, repo: 'vault' })).data, []);

    // Invite bob with triage: a pending invitation, shown on the page.
    const invited = await post('collaborators', { login: bob.login, permission: 'triage' });
    assert.equal(invited.status, 303);
    assert.equal(invited.location, `${base}/settings/access`);
    const [inv] = (await kit().rest.repos.listInvitations({ owner, repo })).data;
    assert.deepEqual([inv?.invitee?.login, inv?.permissions], [bob.login, 'triage']);
    assert.match((await page(aliceWeb, `${base}/settings/access`)).body, new RegExp(`data-invitation="${bob.login}"`));

    // Change carol's permission, then remove her.
    assert.equal((await post('collaborators', { login: carol.login, permission: 'maintain' })).status, 303);
    assert.equal((await kit().rest.repos.getCollaboratorPermissionLevel({ owner, repo, username: carol.login })).data.role_name, 'maintain');
    assert.equal((await post('collaborators/remove', { login: carol.login, authenticity_token: 'b'.repeat(64) })).status, 403);
    assert.equal((await kit().rest.repos.getCollaboratorPermissionLevel({ owner, repo, username: carol.login })).data.role_name, 'maintain');
    assert.equal((await post('collaborators/remove', { login: carol.login })).status, 303);
    await assert.rejects(kit().rest.repos.checkCollaborator({ owner, repo, username: carol.login }), { status: 404 });
    assert.doesNotMatch((await page(aliceWeb, `${base}/settings/access`)).body, new RegExp(`data-collaborator="${carol.login}"`));
    assert.equal((await page(carolWeb, base)).status, 404, 'carol lost her access to the private repository');
  });

  test('webhooks: create, edit, delete and redeliver, checked through the API; refusals inline; the secret never shown', async () => {
    const rx = await pool.start();
    const form = await page(aliceWeb, `${base}/settings/hooks/new`);
    assert.equal(form.status, 200);
    const token = csrfIn(form.body);
    const post = (path: string, f: Record<string, string>) => aliceWeb.post(`${base}/settings/hooks${path}`, { authenticity_token: token, ...f });

    const ftp = await post('', { url: 'ftp://example.com/x', content_type: 'json', secret: 'sekrit-one', events: 'push', active: '1' });
    assert.equal(ftp.status, 422);
    assert.match(ftp.body, /url is not supported because it isn&#x27;t http or https/);
    assert.match(ftp.body, /value="ftp:\/\/example.com\/x"/);
    assert.doesNotMatch(ftp.body, /sekrit-one/, 'the secret is not shown back');
    const badEvent = await post('', { url: rx.url(), content_type: 'json', events: 'Push!', active: '1' });
    assert.equal(badEvent.status, 422);
    assert.match(badEvent.body, /events contains an invalid event name/);
    assert.equal((await post('', { url: rx.url(), events: 'push', active: '1', authenticity_token: 'c'.repeat(64) })).status, 403);
    assert.deepEqual((await kit().rest.repos.listWebhooks({ owner, repo })).data, []);

    const made = await post('', { url: rx.url(), content_type: 'form', secret: 'sekrit-one', events: 'push, issues', active: '1' });
    assert.equal(made.status, 303);
    const [hook] = (await kit().rest.repos.listWebhooks({ owner, repo })).data;
    assert.ok(hook);
    assert.equal(made.location, `${base}/settings/hooks/${hook.id}`);
    assert.deepEqual([hook.config.url, hook.config.content_type, hook.config.secret, hook.events, hook.active], [rx.url(), 'form', '********', ['push', 'issues'], true]);
    const dup = await post('', { url: rx.url(), content_type: 'json', events: 'issues', active: '1' });
    assert.equal(dup.status, 422);
    assert.match(dup.body, /Hook already exists on this repository/);
    assert.equal((await kit().rest.repos.listWebhooks({ owner, repo })).data.length, 1);

    // The ping a new hook gets is listed on its page; Redeliver sends it again.
    const ids = { owner, repo, hook_id: hook.id };
    const [ping] = await eventually(async () => {
      const { data } = await kit().rest.repos.listWebhookDeliveries(ids);
      return data.length === 1 && data[0]!.status_code === 200 ? data : undefined;
    }, 10_000, 'the ping delivered');
    const list = await page(aliceWeb, `${base}/settings/hooks`);
    assert.match(list.body, new RegExp(`data-hook-id="${hook.id}"[^]*?Events: push, issues · Last response: 200`));
    const shown = await page(aliceWeb, made.location!);
    assert.doesNotMatch(shown.body, /sekrit-one/);
    assert.match(shown.body, new RegExp(`<tr data-delivery-id="${ping!.id}"><td>200</td><td>ping</td>`));
    const again = await aliceWeb.post(`${base}/settings/hooks/${hook.id}/deliveries/${ping!.id}/redeliver`, { authenticity_token: token });
    assert.equal(again.status, 303);
    const redelivered = await eventually(async () => {
      const { data } = await kit().rest.repos.listWebhookDeliveries(ids);
      return data.length === 2 ? data : undefined;
    }, 10_000, 'the redelivery listed');
    assert.deepEqual([redelivered[0]!.guid, redelivered[0]!.redelivery, redelivered[0]!.event], [ping!.guid, true, 'ping']);
    assert.equal((await aliceWeb.post(`${base}/settings/hooks/${hook.id}/deliveries/999999/redeliver`, { authenticity_token: token })).status, 404);

    // Edit: events and active change, the secret stays when its field is left empty.
    const edit = (f: Record<string, string>) => post(`/${hook.id}`, { url: rx.url(), content_type: 'form', secret: '', events: 'push, issues', ...f });
    const moved = await edit({ url: 'https://example.com/elsewhere', active: '1' });
    assert.equal(moved.status, 422, 'a new URL without the secret typed again would drop it');
    assert.match(moved.body, /Type the secret again/);
    const dupEdit = await edit({ url: 'gopher://x', secret: 'x' });
    assert.equal(dupEdit.status, 422);
    assert.deepEqual((await kit().rest.repos.getWebhook(ids)).data.config.url, rx.url());
    const saved = await edit({ events: '*' });
    assert.equal(saved.status, 303);
    const after = (await kit().rest.repos.getWebhook(ids)).data;
    assert.deepEqual([after.events, after.active, after.config.secret, after.config.url], [['*'], false, '********', rx.url()]);

    // A push collaborator can neither see nor delete it.
    await addCollaborator(t, alice.token, { owner, repo }, carol, 'push');
    assert.equal((await page(carolWeb, `${base}/settings/hooks/${hook.id}`)).status, 404);
    const carolToken = csrfIn((await page(carolWeb, base)).body);
    assert.equal((await carolWeb.post(`${base}/settings/hooks/${hook.id}/delete`, { authenticity_token: carolToken })).status, 404);
    assert.equal((await carolWeb.post(`${base}/settings/hooks/${hook.id}/deliveries/${ping!.id}/redeliver`, { authenticity_token: carolToken })).status, 404);
    assert.equal((await kit().rest.repos.listWebhookDeliveries(ids)).data.length, 2);

    assert.equal((await post(`/${hook.id}/delete`, { authenticity_token: 'd'.repeat(64) })).status, 403);
    const gone = await post(`/${hook.id}/delete`, {});
    assert.equal(gone.status, 303);
    assert.equal(gone.location, `${base}/settings/hooks`);
    assert.deepEqual((await kit().rest.repos.listWebhooks({ owner, repo })).data, []);
    assert.equal((await page(aliceWeb, `${base}/settings/hooks/${hook.id}`)).status, 404);
  });
});
