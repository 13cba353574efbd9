// Whole answers kept until the database or a ref changes (src/http/answer-cache.ts): a
// second GET of a record is sent from memory with the first one's bytes and ETag, while
// what belongs to each request (its id, the rate limit) is its own; any write, another
// connection's commit, a push, another caller or another media type gets a fresh answer.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { AnswerCache, type CachedAnswer } from '../src/http/answer-cache.ts';
import { beginRefWrite, refsGeneration } from '../src/git/ref-writes.ts';
import { cloneUrl, gitOk, tempDir } from './helpers/git.ts';
import { startTestServer, testDialect, type TestServer } from './helpers/server.ts';
import { eventually } from './helpers/webhook-receiver.ts';
import { createToken, createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo, type CreatedRepo } from './factories/repos.ts';

const sqlite = testDialect() === 'sqlite';

describe('the answer cache\'s generation rules', () => {
  const answer = (text: string): CachedAnswer => ({ headers: {}, body: Buffer.from(text), etag: `W/"${text}"`, lastModified: null });

  test('kept while the generation stays; forgotten when it moves; nothing kept or answered while it is null', () => {
    let generation: string | null = 'a';
    const cache = new AnswerCache(() => generation);
    cache.store(cache.slot('k'), answer('one'));
    assert.equal(cache.lookup('k')?.body.toString(), 'one');
    generation = null;
    assert.equal(cache.lookup('k'), null, 'a write under way: nothing answered');
    cache.store(cache.slot('k2'), answer('two'));
    generation = 'b';
    assert.equal(cache.lookup('k'), null, 'the generation moved: forgotten');
    assert.equal(cache.lookup('k2'), null, 'built while a write was under way: never kept');
  });

  test('an answer whose building a write overlapped is not kept', () => {
    let generation = 'a';
    const cache = new AnswerCache(() => generation);
    const slot = cache.slot('k');
    generation = 'b';
    cache.store(slot, answer('stale'));
    assert.equal(cache.lookup('k'), null);
  });

  test('ref writes: the refs generation is null while one is under way and moves when it ends', () => {
    const before = refsGeneration();
    assert.notEqual(before, null);
    const end = beginRefWrite();
    assert.equal(refsGeneration(), null);
    end();
    end();
    const after = refsGeneration();
    assert.ok(after !== null && after !== before);
  });

  test('bounded by bytes: the oldest answers go first', () => {
    const cache = new AnswerCache(() => 'a', 10);
    cache.store(cache.slot('k1'), answer('123456'));
    cache.store(cache.slot('k2'), answer('abcdef'));
    assert.equal(cache.lookup('k1'), null);
    assert.equal(cache.lookup('k2')?.body.toString(), 'abcdef');
  });

  test('an answer larger than an entry may be is not kept; 4 MB by default (a page of 100 pull requests is ~2.4 MB)', () => {
    const small = new AnswerCache(() => 'a', 100, 8);
    small.store(small.slot('k1'), answer('12345678'));
    small.store(small.slot('k2'), answer('123456789'));
    assert.equal(small.lookup('k1')?.body.toString(), '12345678');
    assert.equal(small.lookup('k2'), null);
    const cache = new AnswerCache(() => 'a');
    const page = 'x'.repeat(2.5 * 1024 * 1024);
    cache.store(cache.slot('pulls'), answer(page));
    assert.equal(cache.lookup('pulls')?.body.length, page.length);
  });
});

describe('answers kept until the database changes', () => {
  let t: TestServer;
  let owner: CreatedUser;
  let outsider: CreatedUser;
  let repo: CreatedRepo;
  const hits = () => t.server.app.answers!.hits;
  const get = (pathname: string, token?: string, headers: Record<string, string> = {}) => t.request(pathname, { token, headers });
  /**
   * Once background work a write started (event dispatch, indexing) has stopped writing,
   * a round of GETs of `urls` is answered from memory: resolves to the last round's
   * bodies. A write makes the rounds before it miss, so this waits for a whole round of hits.
   */
  const keptRound = (urls: string[], token: string) => eventually(async () => {
    const before = hits();
    const bodies = [];
    for (const url of urls) bodies.push(await (await get(url, token)).text());
    return hits() === before + urls.length ? bodies : undefined;
  }, 10_000, 'a round of kept answers');

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
    await keptRound([url], owner.token);
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
    await keptRound([url], owner.token);
    await t.octokit(owner.token).rest.repos.update({ owner: repo.owner, repo: repo.repo, description: 'changed by PATCH' });
    const before = hits();
    const fresh = await (await get(url, owner.token)).json() as { description: string };
    assert.equal(fresh.description, 'changed by PATCH');
    assert.equal(hits(), before, 'built afresh');
    const [kept] = await keptRound([url], owner.token);
    assert.equal((JSON.parse(kept!) as { description: string }).description, 'changed by PATCH');
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

  test('a push moves refs: contents, history, branches and pull requests answer afresh', { skip: !sqlite && 'SQLite only' }, async () => {
    const pub = await createRepo(t, owner);
    const kit = t.octokit(owner.token);
    const dir = tempDir('wharf-answer-cache-');
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, pub.owner, pub.repo, owner.login, owner.token), dir]);
    await gitOk(['-C', dir, 'checkout', '-q', '-b', 'topic']);
    await gitOk(['-C', dir, '-c', 'user.name=A', '-c', 'user.email=a@example.com', 'commit', '-q', '--allow-empty', '-m', 'topic work']);
    await gitOk(['-C', dir, 'push', '-q', 'origin', 'topic']);
    const { data: pull } = await kit.rest.pulls.create({ owner: pub.owner, repo: pub.repo, title: 'kept', head: 'topic', base: 'main' });
    const urls = {
      readme: `/repos/${pub.owner}/${pub.repo}/contents/README.md`,
      commits: `/repos/${pub.owner}/${pub.repo}/commits?sha=topic`,
      branch: `/repos/${pub.owner}/${pub.repo}/branches/topic`,
      pull: `/repos/${pub.owner}/${pub.repo}/pulls/${pull.number}`,
    };
    await keptRound(Object.values(urls), owner.token);

    await gitOk(['-C', dir, 'checkout', '-q', 'topic']);
    fs.writeFileSync(path.join(dir, 'README.md'), 'pushed after the first answers\n');
    await gitOk(['-C', dir, '-c', 'user.name=A', '-c', 'user.email=a@example.com', 'commit', '-q', '-am', 'readme on topic']);
    const head = (await gitOk(['-C', dir, 'rev-parse', 'HEAD'])).trim();
    await gitOk(['-C', dir, 'push', '-q', 'origin', 'topic', 'topic:main']);

    const readme = await (await get(urls.readme, owner.token)).json() as { content: string };
    assert.equal(Buffer.from(readme.content, 'base64').toString(), 'pushed after the first answers\n');
    const history = await (await get(urls.commits, owner.token)).json() as { sha: string }[];
    assert.equal(history[0]!.sha, head);
    const branch = await (await get(urls.branch, owner.token)).json() as { commit: { sha: string } };
    assert.equal(branch.commit.sha, head);
    const pr = await (await get(urls.pull, owner.token)).json() as { head: { sha: string } };
    assert.equal(pr.head.sha, head);
  });

  test('only 200s are kept: a 404 is built afresh each time', { skip: !sqlite && 'SQLite only' }, async () => {
    const url = `/repos/${repo.owner}/${repo.repo}/issues/999`;
    const before = hits();
    assert.equal((await get(url, owner.token)).status, 404);
    assert.equal((await get(url, owner.token)).status, 404);
    assert.equal(hits(), before);
  });
});
