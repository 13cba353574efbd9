// npm test: the whole suite on SQLite and, when WHARF_TEST_DATABASE_URL names a
// PostgreSQL server, again on PostgreSQL. The PostgreSQL run gets a database of its
// own, dropped afterwards; test servers take schemas in it from a pool that test
// processes share (test/helpers/pg-schemas.ts), emptied rather than migrated anew.
// Schemas tests make themselves are kept (WHARF_TEST_KEEP_SCHEMAS) and go with the database.
//
// Each test file runs from a bundle (scripts/bundle.mjs): loading the sources through
// tsx cost each file's process ~2 s more CPU. So do the programs tests start as child
// processes (src/main.ts, cli/main.ts: test/helpers/programs.ts).
//
// Files run four at a time, longest first (test/durations.json, seconds per file from
// a recorded run): a long file started last would otherwise run alone at the end.
// WHARF_TEST_RECORD_DURATIONS=1 rewrites that file from the run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { bundle } from './bundle.mjs';

const DURATIONS = 'test/durations.json';
const BUILD_DIR = '.test-build';
const PROGRAMS = ['src/main.ts', 'cli/main.ts'];
const only = process.argv.slice(2);
const listed = only.length ? only : fs.readdirSync('test').filter((f) => f.endsWith('.test.ts')).map((f) => path.join('test', f));
const recorded = fs.existsSync(DURATIONS) ? JSON.parse(fs.readFileSync(DURATIONS, 'utf8')) : {};
const record = process.env.WHARF_TEST_RECORD_DURATIONS === '1';

/** Longest first; a file without a figure (new) counts as longest. */
function ordered(dialect) {
  const seconds = recorded[dialect] ?? {};
  const cost = (f) => seconds[f] ?? Number.MAX_SAFE_INTEGER;
  return [...listed].sort((a, b) => cost(b) - cost(a) || a.localeCompare(b));
}

/** Seconds per file, as test/helpers/record-duration.mjs wrote them. */
function durationsOf(log) {
  return Object.fromEntries(fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line) => {
    const [output, seconds] = line.split('\t');
    return [path.relative(BUILD_DIR, output).replace(/\.mjs$/, '.ts'), Number(seconds)];
  }));
}

function runSuite(dialect, env) {
  const files = ordered(dialect);
  console.log(`\n# ${dialect}: ${files.length} test files`);
  const log = path.join(os.tmpdir(), `wharf-durations-${process.pid}-${dialect}.tsv`);
  const recorder = record ? ['--import', './test/helpers/record-duration.mjs'] : [];
  const res = spawnSync(process.execPath, ['--enable-source-maps', ...recorder, '--test', '--test-concurrency=4', '--test-force-exit', '--test-reporter=spec', ...files.map((f) => bundleOf.get(f))], {
    stdio: 'inherit',
    env: {
      ...process.env, ...env, WHARF_TEST_DIALECT: dialect, WHARF_TEST_BUILD_DIR: path.resolve(BUILD_DIR),
      ...(record ? { WHARF_TEST_DURATIONS_LOG: log } : {}),
    },
  });
  if (record && fs.existsSync(log)) {
    recorded[dialect] = Object.fromEntries(Object.entries({ ...recorded[dialect], ...durationsOf(log) }).sort());
    fs.writeFileSync(DURATIONS, `${JSON.stringify(recorded, null, 2)}\n`);
    fs.rmSync(log, { force: true });
  }
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

const bundled = await bundle({ entryPoints: [...listed, ...PROGRAMS], outdir: BUILD_DIR, splitting: true });
const bundleOf = new Map(listed.map((f, i) => [f, bundled[i]]));
let ok = runSuite('sqlite', {});
const serverUrl = process.env.WHARF_TEST_DATABASE_URL;
if (serverUrl) {
  ok = (await withRunDatabase(serverUrl, (url) => runSuite('postgres', { WHARF_TEST_DATABASE_URL: url, WHARF_TEST_KEEP_SCHEMAS: '1' }))) && ok;
}
process.exit(ok ? 0 : 1);
