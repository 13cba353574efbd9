// npm test: the whole suite on SQLite and, when WHARF_TEST_DATABASE_URL names a
// PostgreSQL server, again on PostgreSQL. The PostgreSQL run gets a database of its
// own, dropped afterwards; each test server makes a schema in it. Schemas are not
// dropped one by one: Kysely's migrator inspects every schema of the database, and a
// schema dropped by a parallel test file in the middle of that makes it fail.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

const only = process.argv.slice(2);
const files = only.length ? only : fs.readdirSync('test').filter((f) => f.endsWith('.test.ts')).sort().map((f) => path.join('test', f));

function runSuite(dialect, env) {
  console.log(`\n# ${dialect}: ${files.length} test files`);
  const res = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=4', '--test-force-exit', '--test-reporter=spec', ...files], {
    stdio: 'inherit',
    env: { ...process.env, ...env, WHARF_TEST_DIALECT: dialect },
  });
  return res.status === 0;
}

async function withRunDatabase(serverUrl, fn) {
  const name = `wharf_run_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return fn(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

let ok = runSuite('sqlite', {});
const serverUrl = process.env.WHARF_TEST_DATABASE_URL;
if (serverUrl) {
  ok = (await withRunDatabase(serverUrl, (url) => runSuite('postgres', { WHARF_TEST_DATABASE_URL: url, WHARF_TEST_KEEP_SCHEMAS: '1' }))) && ok;
}
process.exit(ok ? 0 : 1);
