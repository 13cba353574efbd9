// Code search's keyword lookup on SQLite is an FTS5 MATCH (issue #16), which folds case
// by Unicode where the LIKE it replaced folds ASCII only: the answers must be LIKE's to
// the byte. Files of text outside ASCII (İ, ß, ǅ, final sigma, dotless ı, the Kelvin
// sign and long s, which the tokenizer folds to k and s) are pushed with git and
// searched through two repositories (each word looked up once for the whole scan) and
// through one (the lookup inside the scan's statement); the files found must be those
// whose text LIKE finds. The tokenizer folding no other character to ASCII is asked of
// SQLite itself, and a data dir of before migration 0050 is upgraded and answers alike.
// On PostgreSQL (ILIKE, its own case rules) the answers that do not hang on Unicode
// case are checked, and the second server alike.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo, type CreatedRepo } from './factories/repos.ts';
import { cloneUrl, gitOk, tempDir } from './helpers/git.ts';

type Json = Record<string, any>;

/** A character some case mapping of Unicode changes. */
const CASED = /[\p{Changes_When_Casefolded}\p{Changes_When_Lowercased}\p{Changes_When_Uppercased}\p{Changes_When_Titlecased}]/u;

const FILES: Record<string, string> = {
  'kelvin-sign.txt': 'Absolute zero is 0 \u212Aelvin.\n',
  'kelvin.txt': 'Water boils at 373 kelvin, or 373 KELVIN.\n',
  'long-s.txt': 'The \u017Ftreet was paved.\n',
  'long-s-name.txt': 'const \u017Ftreet_name = 1;\n',
  'street.txt': 'The STREET was paved; street_name is kept.\n',
  'turkish.txt': 'İstanbul ılık bir şehir, DIŞ kapı.\n',
  'german.txt': 'Die Straße heißt auch STRASSE.\n',
  'digraph.txt': 'ǅemal and ǆemal.\n',
  'greek.txt': 'ΟΔΟΣ, η οδος.\n',
  'cafe.ts': 'export function brew() { return "café ☕"; } // function\n',
  'plain.ts': 'export function stir() { return Kelvin; }\n',
  'quote.txt': 'He wrote x="hello" there.\n',
};

describe('code search keywords outside ASCII', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let repo: CreatedRepo;
  const env = { WHARF_RATE_LIMIT_SEARCH_AUTHENTICATED: '100000' };
  let work: string;

  const search = async (server: TestServer, q: string) => {
    const res = await server.request(`/search/code?per_page=100&q=${encodeURIComponent(q)}`, { token: alice.token });
    assert.equal(res.status, 200, q);
    const body = await res.json() as Json;
    return { total: body.total_count as number, items: (body.items as Json[]).map((i) => `${i.repository.name}/${i.path} ${i.score}`) };
  };
  /** The paths in the first repository a keyword finds, by text alone (in:file), through both kinds of scan. */
  const found = async (server: TestServer, word: string) => {
    const scoped = `${word.includes(' ') ? `"${word}"` : word} in:file`;
    const all = await search(server, `${scoped} user:${alice.login}`);
    const one = await search(server, `${scoped} repo:${repo.owner}/${repo.repo}`);
    const paths = (r: { items: string[] }) => r.items.filter((i) => i.startsWith(`${repo.repo}/`)).map((i) => i.slice(repo.repo.length + 1).split(' ')[0]!).sort();
    assert.deepEqual(paths(one), paths(all), `${word}: one repository or two`);
    return paths(all);
  };

  async function push(files: Record<string, string>, message: string): Promise<void> {
    for (const [p, content] of Object.entries(files)) fs.writeFileSync(path.join(work, p), content);
    await gitOk(['add', '-A'], { cwd: work });
    await gitOk(['commit', '-q', '-m', message], { cwd: work });
    await gitOk(['push', '-q', 'origin', 'HEAD'], { cwd: work });
    await t.server.searchIndex.idle();
  }

  before(async () => {
    t = await startTestServer({ env });
    alice = await createUser(t);
    repo = await createRepo(t, alice, { name: 'unicode' });
    // A second repository, so that a user: search scans more than one.
    const other = await createRepo(t, alice, { name: 'other' });
    const otherWork = tempDir();
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, alice.login, other.repo, alice.login, alice.token), otherWork]);
    fs.writeFileSync(path.join(otherWork, 'notes.md'), 'Kelvin and street, in ASCII.\n');
    await gitOk(['add', '-A'], { cwd: otherWork });
    await gitOk(['commit', '-q', '-m', 'Notes'], { cwd: otherWork });
    await gitOk(['push', '-q', 'origin', 'HEAD'], { cwd: otherWork });
    work = tempDir();
    await gitOk(['clone', '-q', cloneUrl(t.baseUrl, alice.login, repo.repo, alice.login, alice.token), work]);
    await push(FILES, 'Text outside ASCII');
  });
  after(() => t.close());

  test('ASCII keywords in files of text outside ASCII are found, ranked and counted', async () => {
    assert.deepEqual(await search(t, `function user:${alice.login}`), {
      total: 2, items: ['unicode/cafe.ts 2', 'unicode/plain.ts 1'],
    });
    assert.deepEqual(await found(t, 'elvin'), ['kelvin-sign.txt', 'kelvin.txt', 'plain.ts']);
    assert.deepEqual(await found(t, 'stanbul'), ['turkish.txt']);
    assert.deepEqual(await found(t, 'treet was'), ['long-s.txt', 'street.txt']);
    assert.deepEqual(await found(t, 'Die Stra'), ['german.txt']);
  });

  test('on SQLite the files found are those whose text LIKE finds, to the byte', async (c) => {
    if (t.server.ctx.dialect !== 'sqlite') return c.skip('PostgreSQL matches with ILIKE and its own case rules');
    // What LIKE answers (ASCII folded, every other character as it is), written out for
    // the cases where a Unicode fold differs, then checked for every word against LIKE itself.
    const expected: Record<string, string[]> = {
      kelvin: ['kelvin.txt', 'plain.ts'], // not the Kelvin sign, which MATCH folds to k
      street: ['street.txt'], // not ſtreet, which MATCH folds to street
      street_name: ['street.txt'], // a LIKE wildcard in the word, and ſ
      'STREET_NAME': ['street.txt'],
      istanbul: [], // İ is not I to LIKE
      'İstanbul': ['turkish.txt'],
      'ılık': ['turkish.txt'],
      ilik: [],
      'DIŞ': ['turkish.txt'],
      'diş': [],
      'straße': ['german.txt'],
      'STRAßE': ['german.txt'],
      strasse: ['german.txt'],
      'ǆemal': ['digraph.txt'],
      'ǅemal': ['digraph.txt'],
      'Ǆemal': [],
      'οδος': ['greek.txt'],
      'οδοσ': [],
      'ΟΔΟΣ': ['greek.txt'],
      'café': ['cafe.ts'],
      'CAFÉ': [],
      'x="hello"': ['quote.txt'], // a quote in an FTS5 phrase
      'Kelvin': ['kelvin.txt', 'plain.ts'],
      '\u212Aelvin': ['kelvin-sign.txt'],
      '\u017Ftreet': ['long-s-name.txt', 'long-s.txt'],
      'zero is 0': ['kelvin-sign.txt'],
      ab: ['kelvin-sign.txt'], // too short for a trigram: LIKE alone
    };
    const ids = new Map((await t.server.ctx.db.selectFrom('search_code').select(['id', 'path']).where('repository_id', '=', repo.id).execute())
      .map((r) => [Number(r.id), r.path]));
    for (const [word, paths] of Object.entries(expected)) {
      const got = await found(t, word);
      assert.deepEqual(got, paths, word);
      // LIKE itself, as the lookup was before (a wildcard in the word checked with instr).
      const like = word.includes('_')
        ? sql<{ rowid: number }>`SELECT rowid FROM search_code_text WHERE content LIKE ${`%${word}%`} AND instr(lower(content), ${word.toLowerCase()}) > 0`
        : sql<{ rowid: number }>`SELECT rowid FROM search_code_text WHERE content LIKE ${`%${word}%`}`;
      const byLike = (await like.execute(t.server.ctx.db)).rows.map((r) => ids.get(Number(r.rowid))).filter((p) => p !== undefined).sort();
      assert.deepEqual(got, byLike, `${word}: as LIKE finds`);
    }
    // The files whose MATCH is checked against the text: those holding ſ or the Kelvin sign.
    const listed = async () => (await sql<{ rowid: number }>`SELECT rowid FROM search_code_recheck`.execute(t.server.ctx.db)).rows
      .map((r) => ids.get(Number(r.rowid))).filter((p) => p !== undefined).sort();
    assert.deepEqual(await listed(), ['kelvin-sign.txt', 'long-s-name.txt', 'long-s.txt']);
  });

  test('a file rewritten without ſ leaves the list it was checked by, and is found by MATCH', async () => {
    await push({ 'long-s.txt': 'The street was paved.\n' }, 'Modern spelling');
    const got = await found(t, 'street');
    assert.ok(got.includes('long-s.txt') && got.includes('street.txt'), got.join());
    if (t.server.ctx.dialect !== 'sqlite') return;
    assert.deepEqual(got, ['long-s.txt', 'street.txt']);
    const rows = await sql<{ path: string }>`SELECT c.path FROM search_code_recheck r JOIN search_code c ON c.id = r.rowid
      WHERE c.repository_id = ${repo.id} ORDER BY c.path`.execute(t.server.ctx.db);
    assert.deepEqual(rows.rows.map((r) => r.path), ['kelvin-sign.txt', 'long-s-name.txt']);
  });

  test('SQLite\'s trigram tokenizer folds no character outside ASCII to ASCII but ſ and the Kelvin sign', (c) => {
    if (t.server.ctx.dialect !== 'sqlite') return c.skip('a fact of SQLite\'s FTS5');
    // Its case folding is Unicode's simple folding, so it may change only a character
    // with a case mapping (Node's Unicode is no older than SQLite's tables): every one of
    // those, and every one whose decomposition reaches ASCII, is asked.
    const probe = new Database(':memory:');
    probe.exec(`CREATE VIRTUAL TABLE p USING fts5(c, tokenize = 'trigram', detail = none);
      CREATE VIRTUAL TABLE v USING fts5vocab(p, 'row')`);
    const insert = probe.prepare('INSERT INTO p (rowid, c) VALUES (?, ?)');
    probe.transaction(() => {
      for (let cp = 0x80; cp <= 0x10ffff; cp++) {
        if (cp >= 0xd800 && cp <= 0xdfff) continue;
        const ch = String.fromCodePoint(cp);
        if (CASED.test(ch) || /[\x00-\x7f]/.test(ch.normalize('NFKD'))) insert.run(cp, ch.repeat(3));
      }
    })();
    const ascii = probe.prepare('SELECT term FROM v').pluck().all().filter((term) => /^[\x00-\x7f]*$/.test(String(term)));
    probe.close();
    assert.deepEqual(ascii.sort(), ['kkk', 'sss']);
  });

  test('a data dir of before migration 0050 lists its files and answers as before', async () => {
    const queries = ['kelvin', 'street', 'street_name', 'elvin', '\u212Aelvin', 'function'];
    const was = await Promise.all(queries.map((w) => search(t, `${w} user:${alice.login}`)));
    if (t.server.ctx.dialect === 'sqlite') {
      const db = t.server.ctx.db;
      await sql`DROP TRIGGER search_code_recheck_delete`.execute(db);
      await sql`DROP TABLE search_code_recheck`.execute(db);
      await sql`DELETE FROM kysely_migration WHERE name = '0050-search-code-recheck'`.execute(db);
    }
    const upgraded = await startTestServer({ env, shareWith: t });
    try {
      for (const [i, w] of queries.entries()) assert.deepEqual(await search(upgraded, `${w} user:${alice.login}`), was[i], w);
      if (upgraded.server.ctx.dialect === 'sqlite') {
        const rows = await sql<{ path: string }>`SELECT c.path FROM search_code_recheck r JOIN search_code c ON c.id = r.rowid
          WHERE c.repository_id = ${repo.id} ORDER BY c.path`.execute(upgraded.server.ctx.db);
        assert.deepEqual(rows.rows.map((r) => r.path), ['kelvin-sign.txt', 'long-s-name.txt']);
      }
    } finally {
      await upgraded.close();
    }
  });
});
