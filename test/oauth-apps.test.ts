// OAuth apps registered on the settings pages (a user's own, an organization's by its
// owners), the client secret shown once, regenerated and stored hashed; the site-admin
// API lists and deletes any app.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser } from 'playwright-core';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './helpers/server.ts';
import { createOrg, createUser, type CreatedUser } from './factories/accounts.ts';
import { CHROMIUM, chromiumMissing, csrfIn, registerApp, setPassword, WebClient } from './helpers/web.ts';

const PASSWORD = 'correct horse battery';

interface AdminApp { id: number; client_id: string; name: string; callback_url: string; description: string | null; owner: { login: string } | null }

async function adminList(t: TestServer): Promise<AdminApp[]> {
  const res = await t.request('/admin/oauth-apps?per_page=100', { token: ADMIN_TOKEN });
  assert.equal(res.status, 200);
  return (await res.json()) as AdminApp[];
}

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

const APP = { name: 'Harbour CI', url: 'https://ci.example', callback_url: 'https://ci.example/callback', description: 'Builds & <tests>' };

describe('OAuth app settings', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let mallory: CreatedUser;
  let aliceWeb: WebClient;
  let malloryWeb: WebClient;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    mallory = await createUser(t);
    for (const u of [alice, mallory]) await setPassword(t, u.login, PASSWORD);
    aliceWeb = new WebClient(t);
    malloryWeb = new WebClient(t);
    assert.equal((await aliceWeb.signIn(alice.login, PASSWORD)).status, 303);
    assert.equal((await malloryWeb.signIn(mallory.login, PASSWORD)).status, 303);
  });
  after(async () => { await t.close(); });

  test('the pages need a signed-in user', async () => {
    for (const path of ['/settings/developers', '/settings/applications/new', '/settings/applications/1']) {
      const res = await new WebClient(t).get(path);
      assert.equal(res.status, 302, path);
      assert.equal(res.location, `/login?return_to=${encodeURIComponent(path)}`);
    }
  });

  test('register: the secret is shown once, escaped input, client credentials identify the app; regenerate kills the old secret', async () => {
    const { id, clientId, secret, body } = await registerApp(aliceWeb, APP);
    assert.match(body, /Builds &amp; &lt;tests&gt;/);
    assert.doesNotMatch(body, /<tests>/);
    const again = await aliceWeb.get(`/settings/applications/${id}`);
    assert.equal(again.status, 200);
    assert.doesNotMatch(again.body, new RegExp(secret), 'the secret is shown only once');
    const listed = (await adminList(t)).find((a) => a.id === id)!;
    assert.deepEqual({ ...listed, owner: listed.owner?.login }, {
      ...listed, client_id: clientId, name: 'Harbour CI', callback_url: 'https://ci.example/callback', description: 'Builds & <tests>', owner: alice.login,
    });
    assert.equal(JSON.stringify(listed).includes(secret), false);

    assert.equal((await t.request('/rate_limit', { headers: { authorization: basic(clientId, secret) } })).status, 200);
    const regenerated = await aliceWeb.post(`/settings/applications/${id}/secret`, { authenticity_token: csrfIn(again.body) });
    assert.equal(regenerated.status, 200);
    const fresh = /id="client-secret">([0-9a-f]{40})</.exec(regenerated.body)![1]!;
    assert.notEqual(fresh, secret);
    assert.equal((await t.request('/rate_limit', { headers: { authorization: basic(clientId, secret) } })).status, 401);
    assert.equal((await t.request('/rate_limit', { headers: { authorization: basic(clientId, fresh) } })).status, 200);
  });

  test('bad input is a 422 page and registers nothing; edits are checked the same way', async () => {
    const before = (await adminList(t)).length;
    const form = await aliceWeb.get('/settings/applications/new');
    const csrf = csrfIn(form.body);
    const bad: Record<string, string>[] = [
      { ...APP, name: '  ' },
      { ...APP, url: 'not a url' },
      { ...APP, callback_url: 'javascript:alert(1)' },
      { ...APP, callback_url: 'https://ci.example/cb#frag' },
      { ...APP, name: 'x'.repeat(101) },
      { ...APP, description: 'd'.repeat(401) },
      { ...APP, owner: mallory.login },
      { name: 'Only a name' },
    ];
    for (const fields of bad) {
      const res = await aliceWeb.post('/settings/applications/new', { authenticity_token: csrf, ...fields });
      assert.equal(res.status, 422, JSON.stringify(fields).slice(0, 80));
      assert.match(res.body, /class="flash error"/);
    }
    assert.equal((await adminList(t)).length, before);

    const { id } = await registerApp(aliceWeb, { ...APP, name: 'Editable' });
    const pageBody = (await aliceWeb.get(`/settings/applications/${id}`)).body;
    const refused = await aliceWeb.post(`/settings/applications/${id}`, { authenticity_token: csrfIn(pageBody), ...APP, callback_url: 'ftp://x' });
    assert.equal(refused.status, 422);
    assert.equal((await adminList(t)).find((a) => a.id === id)!.name, 'Editable');
    const ok = await aliceWeb.post(`/settings/applications/${id}`, { authenticity_token: csrfIn(pageBody), ...APP, name: 'Edited', callback_url: 'https://ci.example/new' });
    assert.equal(ok.status, 200);
    const after = (await adminList(t)).find((a) => a.id === id)!;
    assert.equal(after.name, 'Edited');
    assert.equal(after.callback_url, 'https://ci.example/new');
  });

  test("another user can neither see nor change someone's app; forms without CSRF change nothing", async () => {
    const { id, clientId, secret } = await registerApp(aliceWeb, { ...APP, name: 'Private matter' });
    const mPage = await malloryWeb.get('/settings/developers');
    assert.doesNotMatch(mPage.body, /Private matter/);
    const csrf = csrfIn(mPage.body);
    assert.equal((await malloryWeb.get(`/settings/applications/${id}`)).status, 404);
    assert.equal((await malloryWeb.post(`/settings/applications/${id}`, { authenticity_token: csrf, ...APP, name: 'Pwned' })).status, 404);
    assert.equal((await malloryWeb.post(`/settings/applications/${id}/secret`, { authenticity_token: csrf })).status, 404);
    assert.equal((await malloryWeb.post(`/settings/applications/${id}/delete`, { authenticity_token: csrf })).status, 404);
    // Alice's own browser, without the token (as a forged cross-site form would be).
    assert.equal((await aliceWeb.post(`/settings/applications/${id}/delete`, {})).status, 403);
    assert.equal((await aliceWeb.post(`/settings/applications/${id}/secret`, { authenticity_token: csrf })).status, 403, "another session's token");
    assert.equal((await aliceWeb.post(`/settings/applications/${id}`, { ...APP, name: 'Pwned' })).status, 403);
    assert.equal((await adminList(t)).find((a) => a.id === id)!.name, 'Private matter');
    assert.equal((await t.request('/rate_limit', { headers: { authorization: basic(clientId, secret) } })).status, 200);
    for (const path of ['/settings/applications/abc', '/settings/applications/99999999', `/settings/applications/${'9'.repeat(40)}`]) {
      const res = await aliceWeb.get(path);
      assert.ok(res.status === 404 || res.status === 422, `${path} → ${res.status}`);
    }
  });

  test('organization owners manage the organization\'s apps; members do not', async () => {
    const org = await createOrg(t, alice.login);
    await t.octokit(ADMIN_TOKEN).request('PUT /orgs/{org}/memberships/{username}', { org: org.login, username: mallory.login, role: 'member' });
    await t.octokit(mallory.token).request('PATCH /user/memberships/orgs/{org}', { org: org.login, state: 'active' });
    const newForm = await aliceWeb.get('/settings/applications/new');
    assert.match(newForm.body, new RegExp(`<option value="${org.login}"`));
    const { id } = await registerApp(aliceWeb, { ...APP, owner: org.login, name: 'Org app' });
    assert.equal((await adminList(t)).find((a) => a.id === id)!.owner!.login, org.login);
    const mForm = await malloryWeb.get('/settings/applications/new');
    assert.doesNotMatch(mForm.body, new RegExp(`<option value="${org.login}"`));
    assert.equal((await malloryWeb.get(`/settings/applications/${id}`)).status, 404);
    const refused = await malloryWeb.post('/settings/applications/new', { authenticity_token: csrfIn(mForm.body), ...APP, owner: org.login });
    assert.equal(refused.status, 422);
  });

  test('delete: the app and its client credentials are gone', async () => {
    const { id, clientId, secret } = await registerApp(aliceWeb, { ...APP, name: 'Short-lived' });
    const pageBody = (await aliceWeb.get(`/settings/applications/${id}`)).body;
    const res = await aliceWeb.post(`/settings/applications/${id}/delete`, { authenticity_token: csrfIn(pageBody) });
    assert.equal(res.status, 200);
    assert.match(res.body, /Deleted Short-lived/);
    assert.equal((await adminList(t)).some((a) => a.id === id), false);
    assert.equal((await t.request('/rate_limit', { headers: { authorization: basic(clientId, secret) } })).status, 401);
  });

  test('site-admin API: list and delete any app; nobody else may', async () => {
    const { id, clientId, secret } = await registerApp(malloryWeb, { ...APP, name: 'Mallory app' });
    assert.equal((await t.request('/admin/oauth-apps', { token: alice.token })).status, 403);
    assert.equal((await t.request(`/admin/oauth-apps/${id}`, { method: 'DELETE', token: alice.token })).status, 403);
    assert.equal((await t.request('/admin/oauth-apps')).status, 401);
    assert.equal((await t.request('/admin/oauth-apps?per_page=0', { token: ADMIN_TOKEN })).status, 422);
    assert.equal((await t.request('/admin/oauth-apps?since=x', { token: ADMIN_TOKEN })).status, 422);
    assert.equal((await t.request('/admin/oauth-apps/x', { method: 'DELETE', token: ADMIN_TOKEN })).status, 422);
    assert.equal((await t.request('/admin/oauth-apps/999999', { method: 'DELETE', token: ADMIN_TOKEN })).status, 404);
    assert.ok((await adminList(t)).some((a) => a.id === id));
    const page1 = (await (await t.request('/admin/oauth-apps?per_page=1', { token: ADMIN_TOKEN })).json()) as AdminApp[];
    const page2 = (await (await t.request(`/admin/oauth-apps?per_page=1&since=${page1[0]!.id}`, { token: ADMIN_TOKEN })).json()) as AdminApp[];
    assert.ok(page2[0]!.id > page1[0]!.id);
    assert.equal((await t.request(`/admin/oauth-apps/${id}`, { method: 'DELETE', token: ADMIN_TOKEN })).status, 204);
    assert.equal((await adminList(t)).some((a) => a.id === id), false);
    assert.equal((await t.request('/rate_limit', { headers: { authorization: basic(clientId, secret) } })).status, 401);
  });

  describe('in headless Chromium', { skip: chromiumMissing ? 'chromium is not installed' : false }, () => {
    let browser: Browser;
    before(async () => { browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }); });
    after(async () => { await browser?.close(); });

    test('register an app, copy its secret, see it listed', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${t.baseUrl}/settings/developers`);
      await page.fill('#login_field', alice.login);
      await page.fill('#password', PASSWORD);
      await page.click('#sign-in');
      await page.waitForURL(`${t.baseUrl}/settings/developers`);
      await page.click('#new-oauth-app');
      await page.fill('#oauth_application_name', 'From the browser');
      await page.fill('#oauth_application_url', 'https://browser.example');
      await page.fill('#oauth_application_callback_url', 'https://browser.example/cb');
      await page.click('#register-app');
      const secret = (await page.textContent('#client-secret'))!;
      const clientId = (await page.textContent('#client-id'))!;
      assert.match(secret, /^[0-9a-f]{40}$/);
      assert.equal((await t.request('/rate_limit', { headers: { authorization: basic(clientId, secret) } })).status, 200);
      await page.goto(`${t.baseUrl}/settings/developers`);
      assert.equal(await page.textContent('#oauth-apps >> text=From the browser'), 'From the browser');
      await context.close();
    });
  });
});
