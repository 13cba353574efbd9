// The blame page of the web interface (the file view's blame link): each hunk of
// consecutive lines beside the commit that last changed them (short sha to the commit
// page, summary, author linked when a Wharf user's address, date, the blame before it);
// at any ref; too large and binary files refused with a message; 404 wherever the file
// view is 404. A file's blame read again starts no git of its own.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { BROWSER, setPassword, WebClient } from './helpers/web.ts';
import { gitOk } from './helpers/git.ts';
import { cloneAs, commitFiles, push, type Clone } from './factories/pulls.ts';
import { gitProcessesStarted } from '../src/git/run.ts';
import { parseBlame } from '../src/git/blame.ts';
import { MAX_BLAME_LINES } from '../src/modules/web/blame.service.ts';

const PASSWORD = 'correct horse battery';

interface Hunk { sha: string; start: number; lines: string[]; html: string }

/** The hunks of a blame page: each tbody's commit, first line number and lines' text. */
function hunksOf(html: string): Hunk[] {
  return [...html.matchAll(/<tbody class="hunk" data-commit="([0-9a-f]+)" data-start="(\d+)">([\s\S]*?)<\/tbody>/g)].map((m) => ({
    sha: m[1]!, start: Number(m[2]), html: m[3]!,
    lines: [...m[3]!.matchAll(/<pre>([^<]*)<\/pre>/g)].map((l) => l[1]!.replace(/&quot;/g, '"').replace(/&#x27;/g, '\'').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')),
  }));
}

describe('web blame page', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let bob: CreatedUser;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  let anon: WebClient;
  let clone: Clone;
  let base: string;
  const repo = 'ledger';
  const sha = { first: '', other: '', third: '' };

  const page = (c: WebClient, p: string) => c.get(p, { accept: BROWSER });

  async function commitAs(author: string, files: Record<string, string>, message: string): Promise<string> {
    await commitFiles(clone, files, message);
    await gitOk(['commit', '-q', '--amend', '--no-edit', `--author=${author}`], { cwd: clone.dir });
    return (await gitOk(['rev-parse', 'HEAD'], { cwd: clone.dir })).trim();
  }

  before(async () => {
    t = await startTestServer();
    alice = await createUser(t);
    bob = await createUser(t);
    await setPassword(t, alice.login, PASSWORD);
    await setPassword(t, bob.login, PASSWORD);
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: repo, auto_init: true });
    clone = await cloneAs(t, alice.login, repo, alice);
    base = `/${alice.login}/${repo}`;
    sha.first = await commitAs(`Alice <${alice.login}@example.com>`, { 'src/app.ts': 'one\ntwo\nthree\nfour\nfive\n' }, 'First cut');
    await gitOk(['tag', 'v1', sha.first], { cwd: clone.dir });
    sha.other = await commitAs('Other Person <other@example.org>', { 'src/app.ts': 'one\nTWO <b>\nTHREE\nfour\nfive\n' }, 'Shout the middle');
    sha.third = await commitAs(`Alice <${alice.login}@example.com>`, { 'src/app.ts': 'one\nTWO <b>\nTHREE\nfour\nfive\nsix\nseven\n' }, 'Add the end');
    await commitFiles(clone, {
      'big.txt': Array.from({ length: MAX_BLAME_LINES + 1 }, (_, i) => `line ${i}`).join('\n') + '\n',
      'image.bin': 'GIF89a\0\0\0binary',
    }, 'Large and binary');
    await push(clone, 'main');
    await gitOk(['push', '-q', 'origin', 'v1'], { cwd: clone.dir });
    await t.octokit(alice.token).rest.repos.createForAuthenticatedUser({ name: 'vault', private: true, auto_init: true });
    aliceWeb = new WebClient(t);
    bobWeb = new WebClient(t);
    anon = new WebClient(t);
    assert.equal((await aliceWeb.signIn(alice.login, PASSWORD)).status, 303);
    assert.equal((await bobWeb.signIn(bob.login, PASSWORD)).status, 303);
  });
  after(async () => { await t.close(); });

  test('the file view links to the blame; each hunk beside the commit that last changed it', async () => {
    const blob = await page(anon, `${base}/blob/main/src/app.ts`);
    assert.equal(blob.status, 200);
    assert.match(blob.body, new RegExp(`href="${base}/blame/main/src/app.ts" id="blame-link">Blame<`));

    const res = await page(anon, `${base}/blame/main/src/app.ts`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    const hunks = hunksOf(res.body);
    assert.deepEqual(hunks.map((h) => [h.sha, h.start, h.lines]), [
      [sha.first, 1, ['one']],
      [sha.other, 2, ['TWO <b>', 'THREE']],
      [sha.first, 4, ['four', 'five']],
      [sha.third, 6, ['six', 'seven']],
    ]);
    assert.match(res.body, /7 lines · 3 commits/);
    assert.doesNotMatch(res.body, /<b>/, 'the lines are escaped');
    assert.match(res.body, /id="L7">7</);

    const [first, other, , third] = hunks;
    assert.match(first!.html, /<td rowSpan="1" class="blame-commit">/i);
    assert.match(other!.html, /<td rowSpan="2" class="blame-commit">/i, 'one commit cell for the hunk');
    assert.match(other!.html, new RegExp(`href="${base}/commit/${sha.other}" class="sha"><code>${sha.other.slice(0, 7)}</code></a> <span class="summary">Shout the middle</span>`));
    assert.match(other!.html, /<span class="author">Other Person<\/span> · <time dateTime="\d{4}-/, 'an address no Wharf user has: the name');
    assert.match(other!.html, new RegExp(`href="${base}/blame/${sha.first}/src/app.ts" class="blame-prior"`), 'the blame before this commit');
    assert.match(third!.html, new RegExp(`href="/${alice.login}" class="author">${alice.login}</a>`), 'alice\'s address: her profile');
    assert.doesNotMatch(first!.html, /blame-prior/, 'the first commit of the file has nothing before it');
  });

  test('at another ref (a tag, a commit) through the switcher; links of the toolbar', async () => {
    const res = await page(anon, `${base}/blame/main/src/app.ts`);
    assert.match(res.body, new RegExp(`href="${base}/blame/v1/src/app.ts"`), 'the tag in the switcher');
    assert.match(res.body, new RegExp(`href="${base}/blob/main/src/app.ts" id="blob-link"`));
    assert.match(res.body, new RegExp(`href="${base}/raw/main/src/app.ts" id="raw-link"`));
    const tag = await page(anon, `${base}/blame/v1/src/app.ts`);
    assert.equal(tag.status, 200);
    assert.deepEqual(hunksOf(tag.body).map((h) => [h.sha, h.start, h.lines.length]), [[sha.first, 1, 5]]);
    const prior = await page(anon, `${base}/blame/${sha.first}/src/app.ts`);
    assert.equal(prior.status, 200);
    assert.deepEqual(hunksOf(prior.body).map((h) => h.sha), [sha.first]);
  });

  test('a file over the line bound and a binary file are refused with a message', async () => {
    const big = await page(anon, `${base}/blame/main/big.txt`);
    assert.equal(big.status, 200);
    assert.match(big.body, new RegExp(`id="blame-refused">This file has ${MAX_BLAME_LINES + 1} lines: files over ${MAX_BLAME_LINES} lines are too large to blame\\.`));
    assert.equal(hunksOf(big.body).length, 0);
    const bin = await page(anon, `${base}/blame/main/image.bin`);
    assert.equal(bin.status, 200);
    assert.match(bin.body, /id="blame-refused">Binary files cannot be blamed\./);
  });

  test('404 where the file view is 404: unknown path, ref, directory; a private repository to outsiders', async () => {
    for (const p of [`${base}/blame/main/nope.ts`, `${base}/blame/nobranch/src/app.ts`, `${base}/blame/main/src`, `${base}/blame/main`]) {
      assert.equal((await page(anon, p)).status, 404, p);
    }
    const secret = `/${alice.login}/vault/blame/main/README.md`;
    assert.equal((await page(anon, secret)).status, 404);
    assert.equal((await page(bobWeb, secret)).status, 404);
    const own = await page(aliceWeb, secret);
    assert.equal(own.status, 200);
    assert.equal(hunksOf(own.body).length, 1);
  });

  test('a blame read again starts no git of its own (no more than the file view reading the same file)', async () => {
    const at = `${sha.third}/src/app.ts`;
    await page(anon, `${base}/blame/${at}`);
    await page(anon, `${base}/blob/${at}`);
    await t.server.searchIndex.idle();
    const count = async (p: string) => {
      const before = gitProcessesStarted();
      assert.equal((await page(anon, p)).status, 200);
      return gitProcessesStarted() - before;
    };
    assert.equal(await count(`${base}/blame/${at}`), await count(`${base}/blob/${at}`));
  });

  test('porcelain parsing: groups split by git are one hunk; a quoted previous path is not linked', () => {
    const a = 'a'.repeat(40);
    const b = 'b'.repeat(40);
    const out = [
      `${a} 1 1 1`, 'author A', 'author-mail <a@x>', 'author-time 100', 'summary first', 'boundary', 'filename f', '\tx',
      `${b} 2 2 1`, 'author B', 'author-mail <b@x>', 'author-time 200', 'summary second', `previous ${a} "odd\\tname"`, 'filename f', '\ty',
      `${a} 2 3 2`, '\tz', `${a} 3 4`, '\tw', '',
    ].join('\n');
    const parsed = parseBlame(out);
    assert.deepEqual(parsed.hunks, [{ sha: a, start: 1, lines: ['x'] }, { sha: b, start: 2, lines: ['y'] }, { sha: a, start: 3, lines: ['z', 'w'] }]);
    assert.equal(parsed.commits.get(b)!.previous, null);
    assert.equal(parsed.commits.get(a)!.authorEmail, 'a@x');
    assert.equal(parsed.commits.get(a)!.authorTime, 100);
  });
});
