// Issue #22: a GitHub App's webhook URL is judged when saved as a repository hook's is
// (hooks.address-guard.ts): a URL whose host is a loopback, private or link-local address
// literal is refused with the same 422 — registering the app from a manifest (on the
// confirmation page and on confirming) or by hand, changing its settings, converting a
// manifest code of an app whose URL the allow-list no longer permits, and PATCH
// /app/hook/config — unless WHARF_WEBHOOK_ALLOWED_HOSTS allows it; a rejected request
// changes nothing, and a host name is saved (it is judged at delivery).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { csrfIn, setPassword, WebClient } from './helpers/web.ts';
import { appJwt, convert, createFromManifest, manifestOf, registerAppByManifest, type ConvertedApp } from './helpers/apps.ts';

const PASSWORD = 'correct horse battery';
const ALLOWED = '127.0.0.2';
const refusal = (host: string) => `url is not supported because it isn't reachable over the public Internet (${host})`;

let t: TestServer;
let alice: CreatedUser;
let web: WebClient;
let bot: ConvertedApp;

before(async () => {
  t = await startTestServer({ env: { WHARF_WEBHOOK_ALLOWED_HOSTS: ALLOWED, WHARF_WEBHOOK_POLL_MS: '60000' } });
  alice = await createUser(t);
  await setPassword(t, alice.login, PASSWORD);
  web = new WebClient(t);
  await web.signIn(alice.login, PASSWORD);
  bot = await registerAppByManifest(t, web, manifestOf('Guarded Bot'));
});
after(async () => { await t?.close(); });

const jwt = () => ({ authorization: `Bearer ${appJwt(bot.pem, bot.id, Date.now())}` });
const hookConfig = async () => (await (await t.request('/app/hook/config', { headers: jwt() })).json()) as { url: string };

test('PATCH /app/hook/config: a forbidden address literal is refused with the repository hooks\' 422 body; nothing changes', async () => {
  const { data: repo } = await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'hooked' });
  for (const [url, host] of [['http://127.0.0.1:9/x', '127.0.0.1'], ['http://[::1]/x', '::1'], ['https://10.0.0.1/x', '10.0.0.1'], ['http://169.254.169.254/latest', '169.254.169.254']] as const) {
    const res = await t.request('/app/hook/config', { method: 'PATCH', headers: jwt(), json: { url } });
    assert.equal(res.status, 422, url);
    const body = await res.json() as Record<string, unknown>;
    assert.deepEqual(body.errors, [{ resource: 'Hook', field: 'url', code: 'custom', message: refusal(host) }]);
    // The same answer a repository hook gets for the URL.
    const repoHook = await t.request(`/repos/${alice.login}/${repo.name}/hooks`, { method: 'POST', token: alice.token, json: { config: { url } } });
    assert.equal(repoHook.status, 422);
    const { documentation_url: _a, ...mine } = body;
    const { documentation_url: _b, ...theirs } = await repoHook.json() as Record<string, unknown>;
    assert.deepEqual(mine, theirs);
  }
  assert.equal((await hookConfig()).url, 'https://bot.example/hook', 'unchanged');
  // Every problem at once.
  const both = await t.request('/app/hook/config', { method: 'PATCH', headers: jwt(), json: { url: 'http://127.0.0.1/x', content_type: 'xml' } });
  assert.deepEqual(((await both.json()) as { errors: { field: string }[] }).errors.map((e) => e.field).sort(), ['content_type', 'url']);
  // The allow-list's address, and a name (judged when a delivery resolves it), are saved.
  for (const url of [`http://${ALLOWED}:9/hook`, 'http://hooks.internal.example/x']) {
    const ok = await t.request('/app/hook/config', { method: 'PATCH', headers: jwt(), json: { url } });
    assert.equal(ok.status, 200, await ok.text());
    assert.equal((await hookConfig()).url, url);
  }
});

test('registering from a manifest: refused on the confirmation page and on confirming; nothing registered', async () => {
  const manifest = manifestOf('Loopback Bot', { hook_attributes: { url: 'http://127.0.0.1:8080/hook' } });
  const shown = await web.post('/settings/apps/new', { manifest: JSON.stringify(manifest), state: 's' });
  assert.equal(shown.status, 422);
  assert.ok(shown.body.includes(refusal('127.0.0.1').replace(/'/g, '&#39;')) || shown.body.includes(refusal('127.0.0.1')), shown.body.slice(0, 3000));
  // Confirmed without the page (a token from another page): refused all the same.
  const page = await web.post('/settings/apps/new', { manifest: JSON.stringify(manifestOf('Other Bot')), state: 's' });
  const confirmed = await web.post('/settings/apps/new', { manifest: JSON.stringify(manifest), state: 's', confirm: '1', authenticity_token: csrfIn(page.body) });
  assert.equal(confirmed.status, 422);
  assert.equal((await t.request('/apps/loopback-bot', { token: alice.token })).status, 404, 'nothing registered');
  // The allowed address is registered.
  const allowed = await registerAppByManifest(t, web, manifestOf('Allowed Bot', { hook_attributes: { url: `http://${ALLOWED}/hook` } }));
  assert.equal(allowed.slug, 'allowed-bot');
});

test('registering and changing an app on the settings form: refused; nothing changes', async () => {
  const form = await web.get('/settings/apps/new');
  const fields = {
    authenticity_token: csrfIn(form.body), owner: alice.login, name: 'Form Bot', url: 'https://form.example',
    webhook_url: 'http://192.168.1.1/hook', webhook_active: '1', permissions: 'issues: read', events: 'issues',
  };
  const made = await web.post('/settings/apps/new', fields);
  assert.equal(made.status, 422);
  assert.ok(made.body.includes('192.168.1.1'), made.body.slice(0, 3000));
  assert.equal((await t.request('/apps/form-bot', { token: alice.token })).status, 404);

  const settings = await web.get(`/settings/apps/${bot.slug}`);
  const before = await hookConfig();
  const saved = await web.post(`/settings/apps/${bot.slug}`, {
    authenticity_token: csrfIn(settings.body), url: 'https://bot.example', webhook_url: 'http://[fe80::1]/hook', webhook_active: '1',
    permissions: 'issues: write\ncontents: read\nmetadata: read', events: 'issues',
  });
  assert.equal(saved.status, 422);
  assert.ok(saved.body.includes('fe80::1'), saved.body.slice(0, 3000));
  assert.deepEqual(await hookConfig(), before);
});

test('converting the code of an app whose URL the allow-list no longer permits: refused, the code kept', async () => {
  const code = await createFromManifest(web, manifestOf('Narrowed Bot', { hook_attributes: { url: `http://${ALLOWED}/hook` } }));
  // The same data, served with an allow-list that no longer names the address (the operator narrowed it).
  const narrowed = await startTestServer({ shareWith: t, env: { WHARF_WEBHOOK_POLL_MS: '60000' } });
  try {
    const res = await narrowed.request(`/app-manifests/${code}/conversions`, { method: 'POST' });
    assert.equal(res.status, 422);
    assert.deepEqual(((await res.json()) as { errors: unknown[] }).errors, [
      { resource: 'Integration', field: 'hook_attributes.url', code: 'custom', message: refusal(ALLOWED) },
    ]);
  } finally {
    await narrowed.close();
  }
  // Nothing was taken: where the address is allowed, the code still converts.
  assert.equal((await convert(t, code)).slug, 'narrowed-bot');
});
