// Code search's count index (migration 0052, SQLite; issue #16): a keyword of letters,
// digits and underscores is found and scored from each file's counts of its runs of
// those characters instead of from its text. Files pushed with git hold keywords in
// any case, inside longer identifiers, overlapping themselves (aa in aaaa) and
// joined by underscores. Checked: the answers from the counts are those read from
// the text (the counts emptied and the worker stopped, search reads the text; the
// worker started, it writes them again and search answers alike); the counts are
// those of the text after a push that changes a file, and a deleted file's counts go.
// On PostgreSQL (no count index) the same searches answer alike.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo, type CreatedRepo } from './factories/repos.ts';
import { cloneUrl, gitOk, tempDir } from './helpers/git.ts';

type Json = Record<string, any>;

const FILES: Record<string, string> = {
  'src/calls.ts': 'function Function FUNCTION functional myFunction\nfunction_call(aaaa, aaa);\n',
  'docs/aa-notes.md': 'aa AA aA, and foo_bar_baz.\n',
  'lib/x_y.ts': 'const x_y = foo_bar_baz; // FOO_BAR 42answer\n',
};

const QUERIES = [
  'function', 'Function in:file', 'aa', 'aaa', 'aa in:file', 'foo_bar', 'function return', 'functional OR aa',
  'aa NOT aaa', '42answer', 'x_y', 'function sort:indexed',
];

describe('code search count index', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let repo: CreatedRepo;
  let work: string;
  const env = { WHARF_RATE_LIMIT_SEARCH_AUTHENTICATED: '100000' };

  const search = async (q: string) => {
    const res = await t.request(`/search/code?per_page=100&q=${encodeURIComponent(`${q} user:${alice.login}`)}`, { token: alice.token });
    assert.equal(res.status, 200, q);
    const body = await res.json() as Json;
    return { total: body.total_count as number, items: (body.items as Json[]).map((i) => `${i.repository.name}/${i.path} ${i.score}`) };
  };
  const answers = async () => Object.fromEntries(await Promise.all(QUERIES.map(async (q) => [q, await search(q)] as const)));

  async function push(files: Record<string, string | null>, message: string): Promise<void> {
    for (const [p, content] of Object.entries(files)) {
      const full = path.join(work, p);
      if (content === null) fs.rmSync(full);
      else {
        fs.mkdirSync(path.dirname(full), { recursive: true });
        fs.writeFileSync(full, content);
      }
    }
    await gitOk(['add', '-A'], { cwd: work });
    await gitOk(['commit', '-q', '-m', message], { cwd: work });
    await gitOk(['push', '-q', 'origin', 'HEAD'], { cwd: work });
    await t.server.searchIndex.idle();
  }

  /** By file path, its runs' counts as the index holds them (SQLite). */
  async function indexedCounts(): Promise<Map<string, Record<string, number>>> {
    const rows = await sql<{ path: string; token: string; n: number }>`SELECT c.path, t.token, k.n FROM search_code_counts k
      JOIN search_code c ON c.id = k.file_id JOIN search_code_tokens t ON t.id = k.token_id
      WHERE c.repository_id = ${repo.id} ORDER BY c.path, t.token`.execute(t.server.ctx.db);
    const out = new Map<string, Record<string, number>>();
    for (const r of rows.rows) out.set(r.path, { ...out.get(r.path), [r.token]: Number(r.n) });
    return out;
  }

  /** The same, counted here from the text the index holds. */
  async function textCounts(): Promise<Map<string, Record<string, number>>> {
    const rows = await sql<{ path: string; content: string }>`SELECT c.path, t.content FROM search_code c
      JOIN search_code_text t ON t.rowid = c.id WHERE c.repository_id = ${repo.id} ORDER BY c.path`.execute(t.server.ctx.db);
    const out = new Map<string, Record<string, number>>();
    for (const r of rows.rows) {
      const counts: Record<string, number> = {};
      for (const m of r.content.toLowerCase().matchAll(/[a-z0-9_]+/g)) counts[m[0]] = (counts[m[0]] ?? 0) + 1;
      out.set(r.path, Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1))));
    }
    return out;
  }

  before(async () => {
    t = await startTestServer({ env });
    alice = await createUser(t);
    repo = await createRepo(t, alice, { name: 'counted' });
    // A second repository, so that the search scans more than one (the counted scan).
    const other = await createRepo(t, alice, { name: 'other' });
    const otherWork = tempDir();
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, alice.login, other.repo, alice.login, alice.token), otherWork]);
    fs.writeFileSync(path.join(otherWork, 'c.js'), 'function f() { return function () { return 1; }; }\n');
    await gitOk(['add', '-A'], { cwd: otherWork });
    await gitOk(['commit', '-q', '-m', 'C'], { cwd: otherWork });
    await gitOk(['push', '-q', 'origin', 'HEAD'], { cwd: otherWork });
    work = tempDir();
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, alice.login, repo.repo, alice.login, alice.token), work]);
    await push(FILES, 'Files');
  });
  after(() => t.close());

  test('keywords are ranked by their occurrences in the text, in any case, without overlap', async () => {
    assert.deepEqual(await search('function'), {
      // function, Function, FUNCTION, functional, myFunction, function_call: 6 (the path does not hold it).
      total: 2, items: ['counted/src/calls.ts 6', 'other/c.js 2'],
    });
    // aaaa holds aa twice, aaa once; the file name holds aa (5 + 5).
    assert.deepEqual(await search('aa'), { total: 2, items: ['counted/docs/aa-notes.md 13', 'counted/src/calls.ts 3'] });
    assert.deepEqual(await search('aaa'), { total: 1, items: ['counted/src/calls.ts 2'] });
    assert.deepEqual(await search('foo_bar'), { total: 2, items: ['counted/lib/x_y.ts 2', 'counted/docs/aa-notes.md 1'] });
  });

  test('the answers from the counts are those read from the text, and a data dir without counts catches up', async (c) => {
    const counted = await answers();
    if (t.server.ctx.dialect !== 'sqlite') return c.skip('PostgreSQL has no count index');
    assert.deepEqual(await indexedCounts(), await textCounts());
    // As a data dir of before migration 0052: no counts, every file listed for them.
    await t.server.searchIndex.stop();
    const db = t.server.ctx.db;
    await sql`DELETE FROM search_code_counts`.execute(db);
    await sql`INSERT INTO search_code_uncounted (rowid) SELECT id FROM search_code`.execute(db);
    assert.deepEqual(await answers(), counted, 'read from the text');
    t.server.searchIndex.start();
    await t.server.searchIndex.idle();
    const left = await sql<{ n: number }>`SELECT count(*) AS n FROM search_code_uncounted`.execute(db);
    assert.equal(Number(left.rows[0]!.n), 0);
    assert.deepEqual(await indexedCounts(), await textCounts());
    assert.deepEqual(await answers(), counted, 'counted again');
  });

  test('a push that changes a file changes its counts, and a deleted file\'s counts go', async () => {
    const db = t.server.ctx.db;
    const before = t.server.ctx.dialect === 'sqlite'
      ? new Map((await db.selectFrom('search_code').select(['id', 'path']).where('repository_id', '=', repo.id).execute()).map((r) => [r.path, Number(r.id)]))
      : null;
    await push({ 'src/calls.ts': 'function once;\n', 'docs/aa-notes.md': null }, 'Fewer');
    assert.deepEqual(await search('function'), { total: 2, items: ['other/c.js 2', 'counted/src/calls.ts 1'] });
    assert.deepEqual(await search('aa'), { total: 0, items: [] });
    assert.deepEqual(await search('foo_bar'), { total: 1, items: ['counted/lib/x_y.ts 2'] });
    if (!before) return;
    assert.deepEqual(await indexedCounts(), await textCounts());
    assert.deepEqual((await indexedCounts()).get('src/calls.ts'), { function: 1, once: 1 });
    const gone = await sql<{ n: number }>`SELECT count(*) AS n FROM search_code_counts WHERE file_id IN (${before.get('docs/aa-notes.md')!}, ${before.get('src/calls.ts')!})`.execute(db);
    assert.equal(Number(gone.rows[0]!.n), 0, 'the counts of the rows replaced and removed');
  });
});
