// The REST conventions every route shares (src/http/).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './helpers/server.ts';
import { rawRequest } from './helpers/raw-http.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

describe('REST conventions', () => {
  let t: TestServer;
  let alice: CreatedUser;

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t, ['user']);
  });
  after(() => t.close());

  test('a request without User-Agent is refused with 403 naming the header', async () => {
    const res = await rawRequest(t.baseUrl, 'GET', `/users/${alice.login}`);
    assert.equal(res.status, 403);
    const body = JSON.parse(res.body);
    assert.match(body.message, /User-Agent/);
    assert.equal(typeof body.documentation_url, 'string');
  });

  test('invalid JSON is a 400 "Problems parsing JSON" and changes nothing', async () => {
    const res = await t.request('/user', { method: 'PATCH', token: alice.token, body: '{"name": "x"', headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 400);
    const body = await res.json();
    assert.equal(body.message, 'Problems parsing JSON');
    assert.equal(typeof body.documentation_url, 'string');
    const { data } = await t.octokit(alice.token).rest.users.getAuthenticated();
    assert.equal(data.name, null);
  });

  test('JSON that is not an object is a 400 "Body should be a JSON object"', async () => {
    for (const body of ['[1,2]', '"text"', '42', 'null']) {
      const res = await t.request('/user', { method: 'PATCH', token: alice.token, body, headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 400, body);
      assert.equal((await res.json()).message, 'Body should be a JSON object');
    }
  });

  test('a body is JSON whatever its Content-Type', async () => {
    const res = await t.request('/user', { method: 'PATCH', token: alice.token, body: '{"location":"Harbour"}', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(res.status, 200);
    assert.equal((await res.json()).location, 'Harbour');
  });

  test('validation failures are 422 "Validation Failed" with errors[] of resource, field, code', async () => {
    const res = await t.request('/admin/users', { method: 'POST', token: ADMIN_TOKEN, json: { email: 5 } });
    assert.equal(res.status, 422);
    const body = await res.json();
    assert.equal(body.message, 'Validation Failed');
    assert.equal(typeof body.documentation_url, 'string');
    assert.deepEqual(body.errors.find((e: { field: string }) => e.field === 'login'), { resource: 'User', field: 'login', code: 'missing_field' });
    const email = body.errors.find((e: { field: string }) => e.field === 'email');
    assert.equal(email.code, 'invalid');
    assert.equal(email.resource, 'User');
  });

  test('every answer carries its request id under both names, X-Service-Request-Id and upstream\'s X-GitHub-Request-Id', async () => {
    const ids = new Set<string>();
    for (const [path, status] of [[`/users/${alice.login}`, 200], ['/no/such/route', 404]] as const) {
      const res = await t.request(path);
      assert.equal(res.status, status);
      const id = res.headers.get('x-service-request-id');
      assert.ok(id);
      assert.equal(res.headers.get('x-github-request-id'), id);
      ids.add(id);
    }
    assert.equal(ids.size, 2);
  });

  test('unknown routes are 404 in the same error shape', async () => {
    const res = await t.request('/no/such/route');
    assert.equal(res.status, 404);
    const body = await res.json();
    assert.equal(body.message, 'Not Found');
    assert.equal(typeof body.documentation_url, 'string');
  });

  test('blank fields are null, timestamps YYYY-MM-DDTHH:MM:SSZ', async () => {
    const res = await t.request(`/users/${alice.login}`);
    const body = await res.json();
    for (const field of ['name', 'company', 'blog', 'bio', 'twitter_username', 'hireable']) {
      assert.ok(field in body, field);
      assert.equal(body[field], null, field);
    }
    assert.match(body.created_at, TIMESTAMP);
    assert.match(body.updated_at, TIMESTAMP);
  });

  test('HEAD answers a GET route with its headers and no body', async () => {
    const get = await t.request(`/users/${alice.login}`);
    const head = await t.request(`/users/${alice.login}`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
    assert.equal(head.headers.get('etag'), get.headers.get('etag'));
    assert.equal(head.headers.get('content-type'), get.headers.get('content-type'));
  });

  test('POST is accepted wherever PATCH is', async () => {
    const res = await t.request('/user', { method: 'POST', token: alice.token, json: { company: 'Dockside' } });
    assert.equal(res.status, 200);
    const { data } = await t.octokit(alice.token).rest.users.getAuthenticated();
    assert.equal(data.company, 'Dockside');
  });

  test('PUT works with Content-Length: 0 and no body', async () => {
    const bob = await createUser(t, []);
    const res = await rawRequest(t.baseUrl, 'PUT', `/users/${bob.login}/site_admin`, {
      'user-agent': 'raw', authorization: `token ${ADMIN_TOKEN}`, 'content-length': '0',
    });
    assert.equal(res.status, 204);
    const { data } = await t.octokit().rest.users.getByUsername({ username: bob.login });
    assert.equal(data.site_admin, true);
  });

  test('a body holding a NUL character is a 422 naming the field (raw blob content excepted)', async () => {
    const owner = await createUser(t, ['repo']);
    const kit = t.octokit(owner.token);
    const { data: repo } = await kit.rest.repos.createForAuthenticatedUser({ name: `nul-${Date.now()}`, auto_init: true });
    const title = await t.request(`/repos/${owner.login}/${repo.name}/issues`, { method: 'POST', token: owner.token, json: { title: 'a\u0000b' } });
    assert.equal(title.status, 422);
    const body = await title.json() as { message: string; errors: { resource: string; field: string; code: string }[] };
    assert.equal(body.message, 'Validation Failed');
    assert.deepEqual(body.errors.map((e) => [e.resource, e.field, e.code]), [['Issue', 'title', 'invalid']]);
    const nested = await t.request(`/repos/${owner.login}/${repo.name}/issues`, { method: 'POST', token: owner.token, json: { title: 'ok', labels: ['fine', 'x\u0000'] } });
    assert.equal(nested.status, 422);
    assert.equal((await nested.json() as { errors: { field: string }[] }).errors[0]!.field, 'labels[1]');
    assert.equal((await kit.rest.issues.listForRepo({ owner: owner.login, repo: repo.name, state: 'all' })).data.length, 0);
    const blob = await kit.rest.git.createBlob({ owner: owner.login, repo: repo.name, content: 'a\u0000b', encoding: 'utf-8' });
    assert.equal(blob.status, 201);
    const back = await kit.rest.git.getBlob({ owner: owner.login, repo: repo.name, file_sha: blob.data.sha });
    assert.equal(Buffer.from(back.data.content, 'base64').toString('utf8'), 'a\u0000b');
  });

  test('ETag on every response; If-None-Match answers 304 without spending the rate limit', async () => {
    const first = await t.request(`/users/${alice.login}`, { token: alice.token });
    const etag = first.headers.get('etag');
    assert.ok(etag);
    const remaining = Number(first.headers.get('x-ratelimit-remaining'));
    const again = await t.request(`/users/${alice.login}`, { token: alice.token, headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
    assert.equal(Number(again.headers.get('x-ratelimit-remaining')), remaining);
    const next = await t.request(`/users/${alice.login}`, { token: alice.token });
    assert.equal(Number(next.headers.get('x-ratelimit-remaining')), remaining - 1);
    const error = await t.request('/no/such/route');
    assert.ok(error.headers.get('etag'));
  });

  test('Last-Modified follows updated_at; If-Modified-Since answers 304', async () => {
    const first = await t.request(`/users/${alice.login}`);
    const lastModified = first.headers.get('last-modified');
    assert.ok(lastModified);
    const body = await first.json();
    assert.equal(new Date(lastModified).toISOString().replace('.000', ''), body.updated_at);
    const again = await t.request(`/users/${alice.login}`, { headers: { 'if-modified-since': lastModified } });
    assert.equal(again.status, 304);
    const older = await t.request(`/users/${alice.login}`, { headers: { 'if-modified-since': new Date(Date.parse(lastModified) - 60_000).toUTCString() } });
    assert.equal(older.status, 200);
  });

  test('X-Service-Media-Type names the representation; vnd.github is an alias of vnd.service', async () => {
    const plain = await t.request('/users');
    assert.equal(plain.headers.get('x-service-media-type'), 'service.v3; format=json');
    const full = await t.request('/users', { headers: { accept: 'application/vnd.github.v3.full+json' } });
    assert.equal(full.headers.get('x-service-media-type'), 'service.v3; param=full; format=json');
    const service = await t.request('/users', { headers: { accept: 'application/vnd.service.v3+json' } });
    assert.equal(service.headers.get('x-service-media-type'), 'service.v3; format=json');
    const unknown = await t.request('/users', { headers: { accept: 'text/weird' } });
    assert.equal(unknown.status, 200);
    assert.equal(unknown.headers.get('x-service-media-type'), 'service.v3; format=json');
  });

  test('X-Service-Api-Version 2022-11-28 is accepted; any other value is a 400 naming the supported versions', async () => {
    const ok = await t.request('/users', { headers: { 'x-service-api-version': '2022-11-28' } });
    assert.equal(ok.status, 200);
    const bad = await t.request('/users', { headers: { 'x-service-api-version': '2019-01-01' } });
    assert.equal(bad.status, 400);
    const body = await bad.json();
    assert.match(body.message, /2019-01-01/);
    assert.match(body.message, /2022-11-28/);
  });

  test('every *_url is absolute; optional segments are RFC 6570 templates', async () => {
    const body = await (await t.request(`/users/${alice.login}`)).json();
    for (const [k, v] of Object.entries(body)) {
      if (k.endsWith('_url') && k !== 'gravatar_id') assert.ok(String(v).startsWith(t.baseUrl), `${k}=${v}`);
    }
    assert.ok(body.following_url.endsWith('/following{/other_user}'));
    assert.ok(body.starred_url.endsWith('/starred{/owner}{/repo}'));
  });

  test('routes answer again under /api/v3, and Link keeps the prefix', async () => {
    const res = await t.request(`/api/v3/users/${alice.login}`);
    assert.equal(res.status, 200);
    assert.equal((await res.json()).login, alice.login);
    const list = await t.request('/api/v3/users?per_page=1');
    assert.match(list.headers.get('link') ?? '', new RegExp(`<${t.baseUrl}/api/v3/users\\?`));
  });

  test('credentials in the query string are refused with a 400', async () => {
    const res = await t.request(`/user?access_token=${alice.token}`);
    assert.equal(res.status, 400);
    assert.match((await res.json()).message, /Authorization header/);
    const secret = await t.request('/users?client_id=x&client_secret=y');
    assert.equal(secret.status, 400);
  });
});

describe('REST conventions under a configured base URL', () => {
  test('*_url fields are built from WHARF_BASE_URL', async () => {
    const t = await startTestServer({ env: { WHARF_BASE_URL: 'https://wharf.example.test/' } });
    try {
      const body = await (await t.request('/users/admin')).json();
      assert.equal(body.url, 'https://wharf.example.test/users/admin');
      assert.equal(body.html_url, 'https://wharf.example.test/admin');
    } finally {
      await t.close();
    }
  });
});
