// The SQLite read cache (src/db/sqlite-read-cache.ts) answers a repeated read from
// memory, and never an answer that a write, another connection's commit or a rolled
// back transaction has made wrong. Driven through Kysely, as every module reads.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { withStatementCache } from '../src/db/database.ts';
import { SqliteReadCache } from '../src/db/sqlite-read-cache.ts';

interface Db {
  people: { id: number; name: string };
  rate_limits: { bucket: string; used: number; reset_at: number };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('SQLite read cache', () => {
  let dir: string;
  let file: SqliteDatabase.Database;
  let cache: SqliteReadCache;
  let db: Kysely<Db>;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-read-cache-'));
    file = new SqliteDatabase(path.join(dir, 'db.sqlite'));
    file.pragma('journal_mode = WAL');
    file.exec('CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL); CREATE TABLE rate_limits (bucket TEXT PRIMARY KEY, used INTEGER, reset_at INTEGER)');
    file.exec("INSERT INTO people VALUES (1, 'ada'), (2, 'grace')");
    cache = new SqliteReadCache(file);
    db = new Kysely<Db>({ dialect: new SqliteDialect({ database: withStatementCache(file, cache) }) });
  });
  after(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const nameOf = async (id: number) => (await db.selectFrom('people').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name;

  test('a repeated read is answered from memory, with the same rows', async () => {
    await nextTurn();
    assert.equal(await nameOf(1), 'ada');
    const hits = cache.hits;
    assert.equal(await nameOf(1), 'ada');
    assert.equal(cache.hits, hits + 1);
  });

  test('callers get copies: changing a returned row changes no later answer', async () => {
    await nameOf(2);
    const hits = cache.hits;
    const row = await db.selectFrom('people').select('name').where('id', '=', 2).executeTakeFirstOrThrow();
    assert.equal(cache.hits, hits + 1);
    row.name = 'changed by the caller';
    assert.equal(await nameOf(2), 'grace');
  });

  test('a write through this connection forgets every answer, of any table', async () => {
    assert.equal(await nameOf(1), 'ada');
    await db.insertInto('people').values({ id: 3, name: 'katherine' }).execute();
    const misses = cache.misses;
    assert.equal(await nameOf(1), 'ada');
    assert.equal(cache.misses, misses + 1, 'the insert into another row forgot the answer');
    await db.updateTable('people').set({ name: 'ada lovelace' }).where('id', '=', 1).execute();
    assert.equal(await nameOf(1), 'ada lovelace');
  });

  test("another connection's commit is seen from the next turn of the event loop", async () => {
    assert.equal(await nameOf(2), 'grace');
    const other = new SqliteDatabase(path.join(dir, 'db.sqlite'));
    try {
      other.prepare("UPDATE people SET name = 'grace hopper' WHERE id = 2").run();
    } finally {
      other.close();
    }
    await nextTurn();
    assert.equal(await nameOf(2), 'grace hopper');
  });

  test('what a rolled-back transaction read of its own writes is never answered afterwards', async () => {
    assert.equal(await nameOf(3), 'katherine');
    await assert.rejects(db.transaction().execute(async (tx) => {
      await tx.updateTable('people').set({ name: 'uncommitted' }).where('id', '=', 3).execute();
      const inside = await tx.selectFrom('people').select('name').where('id', '=', 3).executeTakeFirstOrThrow();
      assert.equal(inside.name, 'uncommitted');
      throw new Error('roll back');
    }), /roll back/);
    assert.equal(await nameOf(3), 'katherine');
  });

  test('the generation moves on with every write and rollback, and with nothing else', async () => {
    await nextTurn();
    const start = cache.currentGeneration();
    await nameOf(1);
    await db.transaction().execute(async (tx) => { await tx.selectFrom('people').select('id').execute(); });
    assert.equal(cache.currentGeneration(), start, 'reads and a read-only transaction change nothing');
    // Whole answers built while a transaction was open may show its writes: its rollback must move on.
    await assert.rejects(db.transaction().execute(async () => { throw new Error('roll back'); }), /roll back/);
    const afterRollback = cache.currentGeneration();
    assert.ok(afterRollback > start, 'a rollback moves on');
    await db.updateTable('people').set({ name: 'ada lovelace' }).where('id', '=', 1).execute();
    assert.ok(cache.currentGeneration() > afterRollback, 'a write moves on');
  });

  test('a read-only transaction forgets nothing', async () => {
    assert.equal(await nameOf(1), 'ada lovelace');
    await db.transaction().execute(async (tx) => { await tx.selectFrom('people').select('id').execute(); });
    const hits = cache.hits;
    assert.equal(await nameOf(1), 'ada lovelace');
    assert.equal(cache.hits, hits + 1);
  });

  test('rate-limit counters forget nothing, and their reads are never remembered', async () => {
    assert.equal(await nameOf(1), 'ada lovelace');
    const count = async () => (await db.selectFrom('rate_limits').select('used').where('bucket', '=', 'b').executeTakeFirst())?.used;
    for (let i = 1; i <= 3; i++) {
      await db.insertInto('rate_limits').values({ bucket: 'b', used: 1, reset_at: 100 })
        .onConflict((oc) => oc.column('bucket').doUpdateSet({ used: sql`rate_limits.used + 1` })).execute();
      assert.equal(await count(), i);
    }
    const hits = cache.hits;
    assert.equal(await nameOf(1), 'ada lovelace');
    assert.equal(cache.hits, hits + 1, 'the counter writes left the other answers remembered');
  });
});

describe('SQLite read cache: bounded by bytes', () => {
  let dir: string;
  let file: SqliteDatabase.Database;
  let cache: SqliteReadCache;
  let db: Kysely<Db>;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-read-cache-bytes-'));
    file = new SqliteDatabase(path.join(dir, 'db.sqlite'));
    file.exec('CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL); CREATE TABLE rate_limits (bucket TEXT PRIMARY KEY, used INTEGER, reset_at INTEGER)');
    const insert = file.prepare('INSERT INTO people VALUES (?, ?)');
    // Rows of ~3 KB as counted (1,500 characters at two bytes); one of ~10 KB.
    for (let id = 1; id <= 10; id++) insert.run(id, `${id}`.padEnd(1500, 'x'));
    insert.run(99, 'y'.repeat(5000));
    cache = new SqliteReadCache(file, { maxBytes: 16_000, maxEntryBytes: 8_000 });
    db = new Kysely<Db>({ dialect: new SqliteDialect({ database: withStatementCache(file, cache) }) });
  });
  after(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const read = async (id: number) => (await db.selectFrom('people').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name;
  const isHit = async (id: number) => { const hits = cache.hits; await read(id); return cache.hits === hits + 1; };

  test('an answer larger than an entry may be is never remembered', async () => {
    await nextTurn();
    await read(99);
    assert.equal(await isHit(99), false);
    assert.equal(cache.bytes, 0);
  });

  test('the oldest answers go once the bytes held pass the bound, however few the rows', async () => {
    for (let id = 1; id <= 10; id++) await read(id);
    assert.ok(cache.bytes <= 16_000, `${cache.bytes} bytes held`);
    assert.equal(await isHit(10), true);
    assert.equal(await isHit(1), false);
  });
});
