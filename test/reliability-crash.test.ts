// Issue #22 § 1, the crash suite's short profile: Wharf as a child process (as the
// other process tests start it: test/helpers/programs.ts) on the dialect of the test
// run, killed with SIGKILL 3 times under a small concurrent write load and started
// again on the same data dir and schema; then every acknowledged issue, comment,
// label, ref and push is there with its content, no issue number is used twice, the
// repository passes git fsck and its refs are the API's, and every acknowledged issue
// create, comment and push had its webhook delivered, no event under two delivery ids.
// `npm run reliability` runs the full suite (20 kills, both databases).
//
// A push event recorded twice was a bug this suite found: an API ref write and a git
// push to one repository at once each diffed all refs, so each recorded the other's
// change too. Now each records only its own refs, under the repository's ref
// recording lock (git-http.service withRefRecordingLock).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { programArgs } from './helpers/programs.ts';
import { testDialect } from './helpers/server.ts';
import { PUSH_EVENTS_TWICE, runCrash, type CrashResult } from '../reliability/crash.ts';
import { printFigures, verdict } from '../reliability/figures.ts';

let result: CrashResult;
let table = '';

before(async () => {
  const dialect = testDialect();
  const databaseUrl = process.env.WHARF_TEST_DATABASE_URL;
  if (dialect === 'postgres') assert.ok(databaseUrl, 'WHARF_TEST_DATABASE_URL is required for postgres tests');
  result = await runCrash({
    serverArgs: programArgs('src/main.ts'),
    cwd: process.cwd(),
    dialect,
    databaseUrl,
    kills: 3,
    repos: 1,
    issueWorkers: 1,
    minLoadMs: 300,
    maxLoadMs: 1200,
    drainTimeoutMs: 45_000,
  });
  const lines: string[] = [];
  printFigures(result.figures, (l) => lines.push(l));
  table = lines.join('\n');
}, { timeout: 150_000 });

test('crash: 3 kills -9 under write load lose no acknowledged write; numbers, repository and webhooks hold', () => {
  assert.ok(result.acknowledged > 0, `no write was acknowledged:\n${table}`);
  const misses = result.figures.filter((f) => f.pass === false);
  assert.deepEqual(misses.map((f) => `${f.name}: ${f.value} ${verdict(f)}`), [], table);
  // The checks looked at something of each kind.
  const byKind = result.figures.find((f) => f.name.includes('issues / comments / labels / refs / pushes'))!.value.split(' / ').map(Number);
  assert.ok(byKind[0]! > 0, `no issue create was acknowledged:\n${table}`);
  assert.ok(byKind[4]! > 0, `no push was acknowledged:\n${table}`);
});

test('crash: no push event is recorded twice, though API ref writes and pushes land at once', () => {
  const f = result.figures.find((x) => x.name === PUSH_EVENTS_TWICE)!;
  assert.equal(f.pass, true, `${f.value}\n${f.detail ?? ''}`);
});
