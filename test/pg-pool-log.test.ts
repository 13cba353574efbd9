// Issue #22: a PostgreSQL connection that breaks (here: ended by pg_terminate_backend,
// as a restart or a cut network would) is logged through the logger Wharf hands the
// pool (the app's pino logger), with its code and message and nothing of the connection
// string. Runs where a PostgreSQL server is named (WHARF_TEST_DATABASE_URL).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.ts';
import { eventually } from './helpers/webhook-receiver.ts';

const base = process.env.WHARF_TEST_DATABASE_URL;

test('a lost PostgreSQL connection is logged, without the password', { skip: base ? false : 'no PostgreSQL (WHARF_TEST_DATABASE_URL)' }, async () => {
  const name = `wharf-pool-log-${randomBytes(4).toString('hex')}`;
  // A password in the URL (the test server trusts local connections and ignores it): it must not be logged.
  const url = new URL(base!);
  url.password = 'sekrit-pool-password';
  url.searchParams.set('application_name', name);
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  const handle = openDatabase({ databaseUrl: url.toString(), dataDir: '', log: { warn: (fields, message) => lines.push({ fields, message }) } });
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    // A connection opened and back in the pool, idle.
    await sql`SELECT 1`.execute(handle.db);
    const ended = await admin.query('SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1', [name]);
    assert.equal(ended.rows.length, 1, 'the pool\'s one connection found');
    const line = await eventually(async () => lines[0], 10_000, 'the lost connection logged');
    assert.equal(line.message, 'PostgreSQL connection lost');
    assert.equal(line.fields.code, '57P01', JSON.stringify(line));
    assert.match(String(line.fields.error), /terminating connection due to administrator command/);
    assert.doesNotMatch(JSON.stringify(lines), /sekrit|postgres:\/\//);
    // The pool goes on: the next query opens a new connection.
    const again = await sql<{ n: number }>`SELECT 2 AS n`.execute(handle.db);
    assert.equal(again.rows[0]!.n, 2);
    assert.equal(lines.length, 1, 'logged once');
  } finally {
    await admin.end();
    await handle.close();
  }
});
