// Whole answers kept until the database changes (src/http/answer-cache.ts): a second
// GET of a record is sent from memory with the first one's bytes and ETag, while what
// belongs to each request (its id, the rate limit) is its own; any write, another
// connection's commit, another caller or another media type gets a fresh answer.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { startTestServer, testDialect, type TestServer } from './helpers/server.ts';
import { createToken, createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo, type CreatedRepo } from './factories/repos.ts';

const sqlite = testDialect() === 'sqlite';

describe('answers kept until the database changes', () => {
  let t: TestServer;
  let owner: CreatedUser;
  let outsider: CreatedUser;
  let repo: CreatedRepo;
  const hits = () => t.server.app.answers!.hits;
  const get = (pathname: string, token?: string, headers: Record<string, string> = {}) => t.request(pathname, { token, headers });

  before(async () => {
    t = await startTestServer();
    owner = await createUser(t);
    outsider = await createUser(t);
    repo = await createRepo(t, owner, { private: true });
  });
  after(() => t.close());

  test('on PostgreSQL nothing is kept: other processes write unseen', { skip: sqlite && 'PostgreSQL only' }, async () => {
    assert.equal(t.server.app.answers, null);
  });

  test('a second GET is the first answer, with its ETag and Last-Modified; request id and rate limit are its own', { skip: !sqlite && 'SQLite only' }, async () => {
    const url = `/repos/${repo.owner}/${repo.repo}`;
    const first = await get(url, owner.token);
    assert.equal(first.status, 200);
    const before = hits();
    const second = await get(url, owner.token);
    assert.equal(hits(), before + 1, 'the second answer was a kept one');
    assert.equal(second.status, 200);
    assert.equal(await second.text(), await first.text());
    for (const h of ['etag', 'last-modified', 'content-type', 'x-oauth-scopes', 'x-accepted-oauth-scopes', 'x-github-media-type', 'x-service-media-type']) {
      assert.equal(second.headers.get(h), first.headers.get(h), h);
    }
    assert.notEqual(second.headers.get('x-github-request-id'), first.headers.get('x-github-request-id'));
    assert.equal(Number(second.headers.get('x-ratelimit-remaining')), Number(first.headers.get('x-ratelimit-remaining')) - 1);
    assert.equal(Number(second.headers.get('x-ratelimit-used')), Number(first.headers.get('x-ratelimit-used')) + 1);

    // A kept answer still answers a conditional GET with 304, which does not count.
    const again = await get(url, owner.token, { 'if-none-match': first.headers.get('etag')! });
    assert.equal(again.status, 304);
    assert.equal(again.headers.get('x-ratelimit-remaining'), second.headers.get('x-ratelimit-remaining'));
  });

  test('a write forgets: the next GET shows it, and is kept again after', { skip: !sqlite && 'SQLite only' }, async () => {
    const url = `/repos/${repo.owner}/${repo.repo}`;
    await get(url, owner.token);
    await t.octokit(owner.token).rest.repos.update({ owner: repo.owner, repo: repo.repo, description: 'changed by PATCH' });
    const before = hits();
    const fresh = await (await get(url, owner.token)).json() as { description: string };
    assert.equal(fresh.description, 'changed by PATCH');
    assert.equal(hits(), before, 'built afresh');
    await get(url, owner.token);
    assert.equal(hits(), before + 1);
  });

  test('another connection\'s commit (the CLI, a restore) forgets too', { skip: !sqlite && 'SQLite only' }, async () => {
    const url = `/repos/${repo.owner}/${repo.repo}`;
    await get(url, owner.token);
    await get(url, owner.token);
    const other = new SqliteDatabase(path.join(t.dataDir, 'wharf.sqlite'));
    try {
      other.prepare('UPDATE repositories SET description = ? WHERE id = ?').run('changed by another process', repo.id);
    } finally {
      other.close();
    }
    const body = await (await get(url, owner.token)).json() as { description: string };
    assert.equal(body.description, 'changed by another process');
  });

  test('each caller gets their own answer: an outsider, anonymous, the owner\'s scope-less token', { skip: !sqlite && 'SQLite only' }, async () => {
    const url = `/repos/${repo.owner}/${repo.repo}`;
    assert.equal((await get(url, owner.token)).status, 200);
    assert.equal((await get(url, owner.token)).status, 200);
    assert.equal((await get(url, outsider.token)).status, 404);
    assert.equal((await get(url)).status, 404);
    const bare = await createToken(t, owner.login, []);
    assert.equal((await get(url, bare)).status, 404, 'a private repository needs the repo scope');
    const other = await createToken(t, owner.login, ['repo']);
    const withOther = await get(url, other);
    assert.equal(withOther.status, 200);
    assert.equal(withOther.headers.get('x-oauth-scopes'), 'repo');
  });

  test('each media type gets its own answer', { skip: !sqlite && 'SQLite only' }, async () => {
    const kit = t.octokit(owner.token);
    const { data: issue } = await kit.rest.issues.create({ owner: repo.owner, repo: repo.repo, title: 'kept', body: 'some **bold** text' });
    const url = `/repos/${repo.owner}/${repo.repo}/issues/${issue.number}`;
    const raw = await (await get(url, owner.token)).json() as Record<string, unknown>;
    await get(url, owner.token);
    const html = await (await get(url, owner.token, { accept: 'application/vnd.github.html+json' })).json() as Record<string, unknown>;
    assert.equal(raw.body, 'some **bold** text');
    assert.equal(raw.body_html, undefined);
    assert.match(String(html.body_html), /<strong>bold<\/strong>/);
    assert.equal(html.body, undefined);
  });

  test('only 200s are kept: a 404 is built afresh each time', { skip: !sqlite && 'SQLite only' }, async () => {
    const url = `/repos/${repo.owner}/${repo.repo}/issues/999`;
    const before = hits();
    assert.equal((await get(url, owner.token)).status, 404);
    assert.equal((await get(url, owner.token)).status, 404);
    assert.equal(hits(), before);
  });
});
