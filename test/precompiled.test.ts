// Queries compiled once (src/db/precompiled.ts) are compiled once per dialect: the
// reliability runner opens SQLite and then PostgreSQL in one process, and a query compiled
// for SQLite (`?` placeholders) sent to PostgreSQL failed there with "syntax error at end
// of input" (the full `npm run reliability` found it in its authorization suite).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../src/db/schema.ts';
import type { Executor } from '../src/db/database.ts';
import { precompile } from '../src/db/precompiled.ts';

const PG_URL = process.env.WHARF_TEST_DATABASE_URL;

test('one precompiled query answers on SQLite, then on PostgreSQL, then on SQLite again, in one process', { skip: PG_URL ? false : 'needs WHARF_TEST_DATABASE_URL (a PostgreSQL server)' }, async () => {
  const echo = precompile<[string], { v: string }>(1, (db, value) => db.selectNoFrom((eb) => eb.val(value).as('v')));
  const sqlite = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }) });
  const postgres = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: PG_URL, max: 1 }) }) });
  try {
    assert.deepEqual(await echo(sqlite as Executor, 'first'), [{ v: 'first' }]);
    assert.deepEqual(await echo(postgres as Executor, 'second'), [{ v: 'second' }]);
    assert.deepEqual(await echo(sqlite as Executor, 'third'), [{ v: 'third' }]);
  } finally {
    await sqlite.destroy();
    await postgres.destroy();
  }
});
