// Long path parameters (src/http): a name longer than any that can exist is not found,
// as upstream answers it (404 with the spec's error body), never Fastify's 414; past
// the router's limit the answer is the same, and a URL that does not decode is a 400.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo } from './factories/repos.ts';
import { MAX_PARAM_LENGTH } from '../src/http/conventions.ts';

describe('long path parameters', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let repo: string;
  const long = 'a'.repeat(150);

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t, ['repo', 'user']);
    repo = (await createRepo(t, alice)).repo;
  });
  after(() => t.close());

  async function assertNotFound(path: string, init: { method?: string; json?: unknown } = {}, message = 'Not Found') {
    const res = await t.request(path, { token: alice.token, ...init });
    assert.equal(res.status, 404, `${init.method ?? 'GET'} ${path.slice(0, 80)}…`);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = await res.json();
    assert.equal(body.message, message);
    assert.equal(body.documentation_url, 'https://docs.github.com/rest');
    assert.equal(body.code, undefined, 'not Fastify\'s body');
  }

  test('a 150-character owner, username, organization or repository is 404 Not Found', async () => {
    await assertNotFound(`/users/${long}`);
    await assertNotFound(`/orgs/${long}`);
    await assertNotFound(`/repos/${long}/${repo}`);
    await assertNotFound(`/repos/${alice.login}/${long}`);
    await assertNotFound(`/repos/${long}/${long}/issues`);
    await assertNotFound(`/api/v3/repos/${alice.login}/${long}`);
    await assertNotFound(`/repos/${alice.login}/${long}/issues`, { method: 'POST', json: { title: 'x' } });
    // A route whose schema bounds the name (an app's slug) answers the same.
    await assertNotFound(`/apps/${long}`);
    // Long branch names reach their route (and are not found there).
    await assertNotFound(`/repos/${alice.login}/${repo}/branches/${'b'.repeat(300)}/protection`, {}, 'Branch not protected');
  });

  test('past the router\'s limit: still 404 in the spec\'s body', async () => {
    const huge = 'x'.repeat(MAX_PARAM_LENGTH + 1);
    await assertNotFound(`/users/${huge}`);
    await assertNotFound(`/repos/${alice.login}/${huge}`, { method: 'DELETE' });
    const res = await t.request(`/users/${huge}`, { token: alice.token });
    assert.ok(res.headers.get('x-service-request-id'));
  });

  test('a parameter that does not decode is a 400 in the spec\'s body', async () => {
    const res = await t.request('/users/%E0%A4%A', { token: alice.token });
    assert.equal(res.status, 400);
    const body = await res.json();
    assert.equal(body.message, 'Bad Request');
    assert.equal(body.documentation_url, 'https://docs.github.com/rest');
  });

  test('names at the edge still work', async () => {
    const res = await t.request(`/repos/${alice.login}/${repo}`, { token: alice.token });
    assert.equal(res.status, 200);
  });
});
