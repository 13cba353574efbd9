// Test servers on PostgreSQL take schemas other test processes left (test/helpers/pg-schemas.ts):
// an emptied schema must be what a new one is once migrated, to the row and the sequence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startTestServer, testDialect, type TestServer } from './helpers/server.ts';
import { describeSchema, emptySchema } from './helpers/pg-schemas.ts';
import { createUser } from './factories/accounts.ts';
import { createIssue, createRepo } from './factories/issues.ts';

const skip = testDialect() !== 'postgres' ? 'PostgreSQL schemas only' : false;

async function rowCounts(c: pg.Client, schema: string): Promise<Record<string, number>> {
  const { rows } = await c.query<{ relname: string }>(`SELECT relname FROM pg_class WHERE relnamespace = $1::regnamespace AND relkind = 'r' ORDER BY 1`, [schema]);
  const out: Record<string, number> = {};
  for (const { relname } of rows) {
    out[relname] = (await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(relname)}`)).rows[0]!.n;
  }
  return out;
}

const migrations = (c: pg.Client, schema: string) =>
  c.query<{ name: string; timestamp: string }>(`SELECT name, timestamp FROM ${pg.escapeIdentifier(schema)}.kysely_migration ORDER BY name`).then((r) => r.rows);

/** What a server's first requests leave: ids from the sequences, and the first-start setup. */
async function firstWrites(t: TestServer) {
  const user = await createUser(t);
  const repo = await createRepo(t, user);
  const issue = await createIssue(t, user.token, repo);
  return { user: user.id, repo: repo.id, issue: issue.id };
}

test('an emptied schema is a newly migrated one (structure, rows, sequences; the migrator finds nothing to do), and a changed one is not emptied', { skip }, async () => {
  const url = process.env.WHARF_TEST_DATABASE_URL!;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-emptied-'));
  let used: TestServer | undefined;
  let fresh: TestServer | undefined;
  let again: TestServer | undefined;
  let freshSchema: string | undefined;
  try {
    // A schema new to this test (keepSchema: never a reused one), migrated by the server.
    fresh = await startTestServer({ keepSchema: true });
    freshSchema = fresh.pgSchema!;
    const freshRows = await rowCounts(c, freshSchema);
    const freshIds = await firstWrites(fresh);
    await fresh.close();
    fresh = undefined;
    // A schema that served a server, which wrote to it; then emptied.
    used = await startTestServer();
    const schema = used.pgSchema!;
    await firstWrites(used);
    await firstWrites(used);
    await used.close();
    used = undefined;
    assert.notDeepEqual(await rowCounts(c, schema), freshRows, 'the server wrote rows');
    assert.equal(await emptySchema(url, schema), true);

    assert.deepEqual(await describeSchema(c, schema), await describeSchema(c, freshSchema));
    const emptied = await rowCounts(c, schema);
    assert.deepEqual(Object.entries(emptied).filter(([, n]) => n > 0).map(([t]) => t).sort(), ['kysely_migration', 'kysely_migration_lock']);
    const applied = await migrations(c, schema);
    assert.deepEqual(applied.map((m) => m.name), (await migrations(c, freshSchema)).map((m) => m.name));

    // A server on it: its migrator runs and changes nothing; ids start where a new schema's do.
    again = await startTestServer({ shareWith: { dataDir, pgSchema: schema } as TestServer });
    assert.deepEqual(await migrations(c, schema), applied);
    assert.deepEqual(await firstWrites(again), freshIds);

    // A schema whose structure a test changed is not emptied (it would be dropped instead).
    const changed = pg.escapeIdentifier(freshSchema);
    await c.query(`CREATE INDEX users_extra ON ${changed}.users (id)`);
    assert.equal(await emptySchema(url, freshSchema), false);
    await c.query(`DROP INDEX ${changed}.users_extra`);
    await c.query(`ALTER TABLE ${changed}.users ALTER COLUMN login DROP NOT NULL`);
    assert.equal(await emptySchema(url, freshSchema), false);
    assert.ok((await rowCounts(c, freshSchema)).users! > 0, 'a refused schema is left as it was');
    // Put back as it was, it is like the template again.
    await c.query(`ALTER TABLE ${changed}.users ALTER COLUMN login SET NOT NULL`);
    assert.equal(await emptySchema(url, freshSchema), true);
    assert.equal((await rowCounts(c, freshSchema)).users, 0);
  } finally {
    await again?.close();
    await used?.close();
    await fresh?.close();
    if (freshSchema) await c.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(freshSchema)} CASCADE`);
    fs.rmSync(dataDir, { recursive: true, force: true });
    await c.end();
  }
});
