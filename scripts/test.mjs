// npm test: the whole suite on SQLite and, when WHARF_TEST_DATABASE_URL names a
// PostgreSQL database, again on PostgreSQL (each server in a schema of its own).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const only = process.argv.slice(2);
const files = only.length ? only : fs.readdirSync('test').filter((f) => f.endsWith('.test.ts')).sort().map((f) => path.join('test', f));
const dialects = ['sqlite'];
if (process.env.WHARF_TEST_DATABASE_URL) dialects.push('postgres');

let failed = false;
for (const dialect of dialects) {
  console.log(`\n# ${dialect}: ${files.length} test files`);
  const res = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=4', '--test-reporter=spec', ...files], {
    stdio: 'inherit',
    env: { ...process.env, WHARF_TEST_DIALECT: dialect },
  });
  if (res.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
