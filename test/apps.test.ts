// Apps: the manifest flow on the settings pages (a user's and an organization's), the
// single-use one-hour code and its conversion into credentials, GET /apps/{slug}
// (public to anyone, private to its owner), the app's JSON web token (RS256 by one of
// its keys, upstream's time rules and 401 messages, TestClock) and its private keys
// generated and revoked on the app's page.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { startTestServer, TestClock, type TestServer } from './helpers/server.ts';
import { createOrg, createUser, type CreatedUser } from './factories/accounts.ts';
import { csrfIn, setPassword, WebClient } from './helpers/web.ts';
import { appJwt, convert, createFromManifest, manifestOf, registerAppByManifest, type ConvertedApp } from './helpers/apps.ts';

const PASSWORD = 'correct horse battery';

describe('apps: manifest flow, app records, JSON web tokens', () => {
  const clock = new TestClock(Date.now());
  let t: TestServer;
  let alice: CreatedUser;
  let mallory: CreatedUser;
  let aliceWeb: WebClient;
  let malloryWeb: WebClient;
  let org: { login: string; id: number };
  let bot: ConvertedApp;

  const bearer = (jwt: string) => ({ headers: { authorization: `Bearer ${jwt}` } });

  before(async () => {
    t = await startTestServer({ clock });
    alice = await createUser(t);
    mallory = await createUser(t);
    for (const u of [alice, mallory]) await setPassword(t, u.login, PASSWORD);
    aliceWeb = new WebClient(t);
    malloryWeb = new WebClient(t);
    await aliceWeb.signIn(alice.login, PASSWORD);
    await malloryWeb.signIn(mallory.login, PASSWORD);
    org = await createOrg(t, alice.login);
    bot = await registerAppByManifest(t, aliceWeb, manifestOf('Harbour Bot'));
  });
  after(async () => { await t.close(); });

  test('the conversion hands over the app with its client secret, webhook secret and private key', async () => {
    assert.equal(bot.slug, 'harbour-bot');
    assert.equal(bot.name, 'Harbour Bot');
    assert.equal(bot.owner?.login, alice.login);
    assert.match(bot.client_id, /^Iv1\./);
    assert.match(bot.client_secret, /^[0-9a-f]{40}$/);
    assert.match(bot.webhook_secret ?? '', /^[0-9a-f]{40}$/);
    assert.match(bot.pem, /^-----BEGIN RSA PRIVATE KEY-----/);
    assert.deepEqual(bot.permissions, { metadata: 'read', issues: 'write', contents: 'read' });
    assert.deepEqual(bot.events, ['issues']);
    assert.equal(bot.installations_count, 0);
    assert.equal(bot.html_url, `${t.baseUrl}/apps/harbour-bot`);
  });

  test('the confirmation page shows what the manifest asks for; a code converts once, within the hour', async () => {
    const shown = await aliceWeb.post('/settings/apps/new', { manifest: JSON.stringify(manifestOf('Shown <App>')), state: 'x' });
    assert.equal(shown.status, 200);
    assert.match(shown.body, /Shown &lt;App&gt;/);
    assert.match(shown.body, /data-permission="issues">issues: write/);
    const code = await createFromManifest(aliceWeb, manifestOf('Once Only'));
    await convert(t, code);
    const again = await t.request(`/app-manifests/${code}/conversions`, { method: 'POST' });
    assert.equal(again.status, 404);
    assert.equal(((await again.json()) as { message: string }).message, 'Not Found');

    const late = await createFromManifest(aliceWeb, manifestOf('Too Late'));
    clock.advance(60 * 60 * 1000 + 1000);
    assert.equal((await t.request(`/app-manifests/${late}/conversions`, { method: 'POST' })).status, 404);
    assert.equal((await t.request('/app-manifests/nosuchcode/conversions', { method: 'POST' })).status, 404);
  });

  test('a bad manifest is a 422 page and registers nothing; confirming needs the page\'s CSRF token', async () => {
    const bad: unknown[] = ['{not json', '[]', { url: 'https://x.example' }, { name: 'No Url' }, { name: 'Bad Perm', url: 'https://x.example', default_permissions: { issues: 'owner' } },
      { name: 'Bad Event', url: 'https://x.example', hook_attributes: { url: 'https://x.example/h' }, default_events: ['nope'] }, { name: 'Harbour Bot', url: 'https://x.example', redirect_url: 'https://x.example/r' }];
    for (const m of bad) {
      const manifest = typeof m === 'string' ? m : JSON.stringify(m);
      const shown = await aliceWeb.post('/settings/apps/new', { manifest, state: 's' });
      if (shown.status === 200) {
        // Well-formed but taken: refused on confirming.
        const res = await aliceWeb.post('/settings/apps/new', { manifest, state: 's', confirm: '1', authenticity_token: csrfIn(shown.body) });
        assert.equal(res.status, 422, manifest);
        assert.match(res.body, /Name is already in use/);
      } else {
        assert.equal(shown.status, 422, manifest);
      }
    }
    const shown = await aliceWeb.post('/settings/apps/new', { manifest: JSON.stringify(manifestOf('No Csrf')), state: 's' });
    const forged = await aliceWeb.post('/settings/apps/new', { manifest: JSON.stringify(manifestOf('No Csrf')), state: 's', confirm: '1' });
    assert.equal(forged.status, 403);
    assert.equal((await t.request('/apps/no-csrf', { token: alice.token })).status, 404);
    assert.equal(shown.status, 200);
  });

  test('signed out, the manifest is carried through sign-in', async () => {
    const res = await new WebClient(t).post('/settings/apps/new', { manifest: JSON.stringify(manifestOf('Later')), state: 'abc' });
    assert.equal(res.status, 302);
    const back = decodeURIComponent(new URL(res.location!, t.baseUrl).searchParams.get('return_to')!);
    const shown = await aliceWeb.get(back);
    assert.equal(shown.status, 200);
    assert.match(shown.body, /id="app-name">Later</);
  });

  test('an organization\'s app is registered by its owner only', async () => {
    const path = `/organizations/${org.login}/settings/apps/new`;
    const orgApp = await registerAppByManifest(t, aliceWeb, manifestOf('Org Crane', { public: true }), path);
    assert.equal(orgApp.owner?.login, org.login);
    assert.equal(orgApp.owner?.type, 'Organization');
    const refused = await malloryWeb.post(path, { manifest: JSON.stringify(manifestOf('Stolen')), state: 's' });
    assert.equal(refused.status, 404);
  });

  test('GET /apps/{slug}: a public app to anyone, a private one to its owner only', async () => {
    await registerAppByManifest(t, aliceWeb, manifestOf('Open Quay', { public: true }));
    const open = await t.request('/apps/open-quay');
    assert.equal(open.status, 200);
    const body = (await open.json()) as ConvertedApp;
    assert.equal(body.slug, 'open-quay');
    assert.equal('client_secret' in body, false);
    assert.equal('pem' in body, false);
    assert.equal((await t.request('/apps/harbour-bot')).status, 404);
    assert.equal((await t.request('/apps/harbour-bot', { token: mallory.token })).status, 404);
    const own = await t.request('/apps/harbour-bot', { token: alice.token });
    assert.equal(own.status, 200);
    assert.equal(((await own.json()) as ConvertedApp).id, bot.id);
    assert.equal((await t.request('/apps/harbour-bot', bearer(appJwt(bot.pem, bot.id, clock.now().getTime())))).status, 200);
  });

  test('GET /app with a JWT by the app id or the client id; upstream\'s 401s for bad ones', async () => {
    const now = clock.now().getTime();
    const kit = t.octokit(appJwt(bot.pem, bot.id, now));
    const { data } = await kit.rest.apps.getAuthenticated();
    assert.equal(data!.id, bot.id);
    assert.equal(data!.slug, 'harbour-bot');
    const byClientId = await t.request('/app', bearer(appJwt(bot.pem, bot.client_id, now)));
    assert.equal(byClientId.status, 200);
    // The app's own budget, as large as a user's (not the anonymous one of its address).
    const userLimit = (await t.request('/user', { token: alice.token })).headers.get('x-ratelimit-limit');
    assert.equal(byClientId.headers.get('x-ratelimit-limit'), userLimit);
    const usedBefore = Number(byClientId.headers.get('x-ratelimit-used'));
    assert.equal(Number((await t.request('/app', bearer(appJwt(bot.pem, bot.id, now)))).headers.get('x-ratelimit-used')), usedBefore + 1);

    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const nowS = Math.floor(now / 1000);
    const cases: [string, string][] = [
      [appJwt(other, bot.id, now), 'A JSON web token could not be decoded'],
      [appJwt(bot.pem, bot.id, now, { iat: nowS - 700, exp: nowS - 100 }), "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires."],
      [appJwt(bot.pem, bot.id, now, { iat: nowS - 60, exp: nowS + 600 }), "'Expiration time' claim ('exp') is too far in the future"],
      [appJwt(bot.pem, bot.id, now, { iat: nowS + 120, exp: nowS + 300 }), "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued."],
      [appJwt(bot.pem, 987654321, now), 'Integration not found'],
      [appJwt(bot.pem, bot.id, now).replace(/\.[^.]+$/, '.AAAA'), 'A JSON web token could not be decoded'],
    ];
    for (const [jwt, message] of cases) {
      const res = await t.request('/app', bearer(jwt));
      assert.equal(res.status, 401, message);
      assert.equal(((await res.json()) as { message: string }).message, message);
    }
    // Within the minute of skew a token just past its exp still works; then it does not.
    const jwt = appJwt(bot.pem, bot.id, now, { iat: nowS - 60, exp: nowS + 60 });
    clock.advance(90_000);
    assert.equal((await t.request('/app', bearer(jwt))).status, 200);
    clock.advance(60_000);
    assert.equal((await t.request('/app', bearer(jwt))).status, 401);
  });

  test('a JWT is no credential elsewhere; a user token is none for /app', async () => {
    const jwt = appJwt(bot.pem, bot.id, clock.now().getTime());
    // A valid JWT elsewhere: 401 saying that a JWT was sent where an installation token is needed.
    for (const path of ['/user', `/repos/${alice.login}/nothing-here`]) {
      const res = await t.request(path, bearer(jwt));
      assert.equal(res.status, 401, path);
      assert.match(((await res.json()) as { message: string }).message, /JSON web token.*use an installation access token/, path);
    }
    const graphql = await t.request('/graphql', { method: 'POST', ...bearer(jwt), json: { query: '{ viewer { login } }' } });
    assert.equal(graphql.status, 401);
    const asUser = await t.request('/app', { token: alice.token });
    assert.equal(asUser.status, 401);
    assert.equal(((await asUser.json()) as { message: string }).message, 'A JSON web token could not be decoded');
    assert.equal((await t.request('/app')).status, 401);
  });

  test('the app reads and changes its webhook configuration with its JWT; the secret never shows', async () => {
    const jwt = () => ({ authorization: `Bearer ${appJwt(bot.pem, bot.id, clock.now().getTime())}` });
    const read = async () => (await (await t.request('/app/hook/config', { headers: jwt() })).json()) as Record<string, unknown>;
    assert.deepEqual(await read(), { url: 'https://bot.example/hook', content_type: 'json', insecure_ssl: '0', secret: '********' });
    const bad = await t.request('/app/hook/config', { method: 'PATCH', headers: jwt(), json: { url: 'ftp://x', content_type: 'xml', insecure_ssl: '2', secret: 7 } });
    assert.equal(bad.status, 422);
    assert.deepEqual(((await bad.json()) as { errors: { field: string }[] }).errors.map((e) => e.field), ['url', 'content_type', 'insecure_ssl', 'secret']);
    assert.equal((await read()).url, 'https://bot.example/hook', 'a rejected change changes nothing');
    // (Octokit's updateWebhookConfigForApp takes `url` as the request's address, so plain fetch here.)
    const changed = await t.request('/app/hook/config', { method: 'PATCH', headers: jwt(), json: { url: 'https://bot.example/hook2', content_type: 'form', insecure_ssl: 1 } });
    assert.deepEqual(await changed.json(), { url: 'https://bot.example/hook2', content_type: 'form', insecure_ssl: '1', secret: '********' });
    const cleared = await t.request('/app/hook/config', { method: 'PATCH', headers: jwt(), json: { secret: null } });
    assert.equal(((await cleared.json()) as { secret: unknown }).secret, null);
    assert.equal((await t.request('/app/hook/config', { token: alice.token })).status, 401);
  });

  test('an app registered and edited by hand on the settings pages; bad input changes nothing', async () => {
    const form = await aliceWeb.get('/settings/apps/new');
    assert.equal(form.status, 200);
    const csrf = csrfIn(form.body);
    const fields = {
      authenticity_token: csrf, owner: org.login, name: 'Hand Made', url: 'https://hand.example', description: 'By <hand>',
      webhook_url: 'https://hand.example/hook', webhook_active: '1', permissions: 'issues: read\npull_requests: write', events: 'issues, pull_request',
    };
    for (const bad of [{ permissions: 'issues read' }, { permissions: 'issues: owner' }, { url: '' }, { events: 'nope' }, { owner: mallory.login }]) {
      const res = await aliceWeb.post('/settings/apps/new', { ...fields, ...bad });
      assert.equal(res.status, 422, JSON.stringify(bad));
    }
    assert.equal((await t.request('/apps/hand-made', { token: alice.token })).status, 404, 'nothing registered');
    const made = await aliceWeb.post('/settings/apps/new', fields);
    assert.equal(made.status, 201, made.body.slice(0, 1500));
    assert.match(made.body, /id="client-secret">[0-9a-f]{40}</);
    assert.match(made.body, /By &lt;hand&gt;/);
    const got = (await (await t.request('/apps/hand-made', { token: alice.token })).json()) as ConvertedApp;
    assert.equal(got.owner?.login, org.login);
    assert.deepEqual(got.permissions, { metadata: 'read', issues: 'read', pull_requests: 'write' });
    assert.deepEqual(got.events, ['issues', 'pull_request']);

    const page = await aliceWeb.get('/settings/apps/hand-made');
    const edit = { ...fields, authenticity_token: csrfIn(page.body), description: 'Edited', permissions: 'issues: write' };
    const badEdit = await aliceWeb.post('/settings/apps/hand-made', { ...edit, url: 'nope' });
    assert.equal(badEdit.status, 422);
    assert.equal(((await (await t.request('/apps/hand-made', { token: alice.token })).json()) as ConvertedApp).description, 'By <hand>');
    assert.equal((await malloryWeb.post('/settings/apps/hand-made', { ...edit, authenticity_token: csrfIn((await malloryWeb.get('/settings/apps')).body) })).status, 404);
    const edited = await aliceWeb.post('/settings/apps/hand-made', edit);
    assert.equal(edited.status, 200);
    const after = (await (await t.request('/apps/hand-made', { token: alice.token })).json()) as ConvertedApp;
    assert.equal(after.description, 'Edited');
    assert.deepEqual(after.permissions, { metadata: 'read', issues: 'write' });
    const secret1 = /id="client-secret">([0-9a-f]{40})</.exec(made.body)![1];
    const regenerated = await aliceWeb.post('/settings/apps/hand-made/secret', { authenticity_token: csrfIn(page.body) });
    const secret2 = /id="client-secret">([0-9a-f]{40})</.exec(regenerated.body)![1];
    assert.ok(secret2 && secret2 !== secret1);
  });

  test('keys: a new private key is shown once and signs; a revoked key stops signing', async () => {
    const page = await aliceWeb.get('/settings/apps/harbour-bot');
    assert.equal(page.status, 200);
    const firstKey = /data-key-id="(\d+)"/.exec(page.body)![1]!;
    const made = await aliceWeb.post('/settings/apps/harbour-bot/keys', { authenticity_token: csrfIn(page.body) });
    assert.equal(made.status, 201);
    const pem = /<pre class="secret" id="private-key">([^<]+)<\/pre>/.exec(made.body)![1]!;
    assert.doesNotMatch((await aliceWeb.get('/settings/apps/harbour-bot')).body, /BEGIN RSA PRIVATE KEY/);
    const now = clock.now().getTime();
    assert.equal((await t.request('/app', bearer(appJwt(pem, bot.id, now)))).status, 200);
    assert.equal((await malloryWeb.get('/settings/apps/harbour-bot')).status, 404);
    const revoked = await aliceWeb.post(`/settings/apps/harbour-bot/keys/${firstKey}/delete`, { authenticity_token: csrfIn(page.body) });
    assert.equal(revoked.status, 200);
    assert.equal((await t.request('/app', bearer(appJwt(bot.pem, bot.id, now)))).status, 401);
    assert.equal((await t.request('/app', bearer(appJwt(pem, bot.id, now)))).status, 200);
    bot = { ...bot, pem };
  });
});
