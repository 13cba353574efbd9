// The manifest flow in headless Chromium, as an app's author meets it: a page on the
// app's own site posts the manifest form to /settings/apps/new; Wharf has the user sign
// in, shows what the app asks for, and on confirmation sends the browser to redirect_url
// with the code and the state; the app's site converts the code into its credentials.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { CHROMIUM, chromiumMissing, setPassword } from './helpers/web.ts';
import { appJwt, convert, type ConvertedApp } from './helpers/apps.ts';

const PASSWORD = 'correct horse battery';

/** HTML attribute text (the manifest is JSON inside value="…"). */
const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

describe('apps: the manifest flow in a browser', { skip: chromiumMissing ? 'chromium is not installed' : false }, () => {
  let t: TestServer;
  let alice: CreatedUser;
  let browser: Browser;
  let site: Server;
  let siteUrl: string;
  /** Query strings the app's redirect_url received. */
  const arrivals: URLSearchParams[] = [];
  /** The app the first test registers; the second installs it. */
  let registered: ConvertedApp | null = null;
  /** A browser signed in as alice, kept from the first test for the second. */
  let signedIn: Awaited<ReturnType<Browser['newContext']>> | null = null;

  before(async () => {
    // The app's site, its webhook URL too, is on loopback: allowed as webhook tests allow it.
    t = await startTestServer({ env: { WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' } });
    alice = await createUser(t);
    await setPassword(t, alice.login, PASSWORD);
    // The app's own site: the form page, and the redirect_url that receives the code.
    site = createServer((req, res) => {
      const url = new URL(req.url ?? '/', siteUrl);
      if (url.pathname === '/created') {
        arrivals.push(url.searchParams);
        res.writeHead(200, { 'content-type': 'text/html' }).end('<p id="arrived">thanks</p>');
        return;
      }
      const manifest = JSON.stringify({
        name: 'Browser Built', url: `${siteUrl}/`, redirect_url: `${siteUrl}/created`,
        hook_attributes: { url: `${siteUrl}/hook` }, public: false,
        default_permissions: { issues: 'write', metadata: 'read' }, default_events: ['issues'],
      });
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Register</title>
<form method="post" action="${t.baseUrl}/settings/apps/new">
<input type="hidden" name="manifest" value="${attr(manifest)}">
<input type="hidden" name="state" value="abc123">
<button id="register" type="submit">Register the app</button>
</form>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  after(async () => {
    await signedIn?.close().catch(() => undefined);
    await browser?.close();
    await new Promise<void>((resolve) => site.close(() => resolve()));
    await t.close();
  });

  test('post the manifest, sign in, confirm, land on redirect_url with code and state, convert', async () => {
    const context = await browser.newContext();
    const p = await context.newPage();
    await p.goto(`${siteUrl}/`);
    await p.click('#register');
    // Not signed in: Wharf asks first, keeping the manifest for afterwards.
    await p.waitForSelector('#login_field');
    await p.fill('#login_field', alice.login);
    await p.fill('#password', PASSWORD);
    await p.click('#sign-in');
    await p.waitForSelector('#create-app');
    assert.equal(await p.textContent('#app-name'), 'Browser Built');
    assert.equal(await p.textContent('#app-owner'), alice.login);
    const permissions = await p.$$eval('#permissions li', (lis) => lis.map((li) => li.getAttribute('data-permission')));
    assert.ok(permissions.includes('issues'));
    await p.click('#create-app');
    await p.waitForSelector('#arrived');
    signedIn = context;

    assert.equal(arrivals.length, 1);
    const arrived = arrivals[0]!;
    assert.equal(arrived.get('state'), 'abc123');
    const code = arrived.get('code');
    assert.ok(code);
    const app = await convert(t, code);
    assert.equal(app.name, 'Browser Built');
    assert.equal(app.owner?.login, alice.login);
    assert.equal(app.permissions.issues, 'write');
    assert.match(app.pem, /BEGIN RSA PRIVATE KEY|BEGIN PRIVATE KEY/);
    // The code works once.
    assert.equal((await t.request(`/app-manifests/${code}/conversions`, { method: 'POST' })).status, 404);
    registered = app;
  });

  test('the install page: only selected repositories, the permissions shown; the installation and its token reach just those', async () => {
    assert.ok(registered && signedIn, 'the manifest test ran first');
    const app = registered;
    const made = async (name: string) => {
      const res = await t.request('/user/repos', { method: 'POST', token: alice.token, json: { name, private: true } });
      assert.equal(res.status, 201);
      return ((await res.json()) as { id: number }).id;
    };
    const pier = await made('pier');
    await made('quay');
    const p = await signedIn.newPage();
    await p.goto(`${t.baseUrl}/apps/${app.slug}/installations/new`);
    assert.equal(await p.textContent('#install-target'), alice.login);
    const permissions = await p.$$eval('#permissions li', (lis) => lis.map((li) => li.getAttribute('data-permission')));
    assert.ok(permissions.includes('issues'));
    await p.check('input[name="repository_selection"][value="selected"]');
    await p.check(`input[name="repo_${pier}"]`);
    await p.click('#install');
    await p.waitForSelector('#installation-id');
    const installationId = Number(await p.textContent('#installation-id'));
    await signedIn.close();

    const jwt = appJwt(app.pem, app.id, Date.now());
    const listed = await t.request('/app/installations', { headers: { authorization: `Bearer ${jwt}` } });
    const installs = (await listed.json()) as Array<{ id: number; repository_selection: string; account: { login: string } }>;
    assert.deepEqual(installs.map((i) => [i.id, i.repository_selection, i.account.login]), [[installationId, 'selected', alice.login]]);
    const minted = await t.request(`/app/installations/${installationId}/access_tokens`, { method: 'POST', headers: { authorization: `Bearer ${jwt}` } });
    assert.equal(minted.status, 201);
    const { token } = (await minted.json()) as { token: string };
    const reach = await t.request('/installation/repositories', { token });
    const body = (await reach.json()) as { total_count: number; repositories: Array<{ name: string }> };
    assert.deepEqual(body.repositories.map((r) => r.name), ['pier']);
    assert.equal((await t.request(`/repos/${alice.login}/quay`, { token })).status, 404);
  });
});
