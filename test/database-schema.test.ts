// WHARF_DATABASE_SCHEMA with capitals: the migrator creates the schema under its quoted
// name, so the connections' search_path must quote it too (unquoted, PostgreSQL folds it
// to lower case and the server started on a schema that does not exist).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { createServer } from '../src/server.ts';
import { ADMIN_TOKEN, testDialect, USER_AGENT } from './helpers/server.ts';

test('a schema name with capitals is used as written', { skip: testDialect() !== 'postgres' ? 'PostgreSQL schemas only' : false }, async () => {
  const url = process.env.WHARF_TEST_DATABASE_URL!;
  const schema = `Wharf_Case_${randomBytes(4).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-schema-'));
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const config = loadConfig({
      PORT: '0', WHARF_DATA_DIR: dataDir, DATABASE_URL: url, WHARF_DATABASE_SCHEMA: schema, WHARF_ADMIN_TOKEN: ADMIN_TOKEN,
      LOG_LEVEL: 'silent', WHARF_BASE_URL: 'http://127.0.0.1:1',
    });
    const server = await createServer(config, { logger: false });
    try {
      const res = await server.app.inject({ url: '/user', headers: { authorization: `token ${ADMIN_TOKEN}`, 'user-agent': USER_AGENT } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json<{ login: string }>().login, 'admin');
    } finally {
      await server.close();
    }
    const { rows } = await admin.query<{ table_schema: string }>(`SELECT DISTINCT table_schema FROM information_schema.tables WHERE table_name = 'users' AND lower(table_schema) = lower($1)`, [schema]);
    assert.deepEqual(rows.map((r) => r.table_schema), [schema], 'one schema, named as configured');
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
    await admin.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema.toLowerCase())} CASCADE`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
