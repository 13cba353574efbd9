// Issue #22 § 2, the several-processes suite's short profile: 3 Wharf processes (as
// child processes) behind nginx on one PostgreSQL schema, one shared data dir and Redis
// for rate-limit counters — the README's recipe — checked as reliability/cluster.ts
// says: rate limits, lockout and issue numbers hold across the processes under 200
// requests at once, pushes to one branch from two processes have one winner and one
// push event each, and kill -9 of one process loses no acknowledged write.
// PostgreSQL only: several processes share a PostgreSQL database, never a SQLite file.
// `npm run reliability` runs the same suite with more push rounds and a longer kill.
//
// Two bugs this suite found: processes starting at once on a fresh database each tried
// to create the bootstrap admin, and all but one exited (admin.service bootstrapAdmin);
// and two processes settling pushes to one repository at once each recorded both
// (the ref recording lock was the process's own; now also a PostgreSQL advisory lock:
// git-http.service withRefRecordingLock).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { programArgs } from './helpers/programs.ts';
import { testDialect } from './helpers/server.ts';
import { runCluster } from '../reliability/cluster.ts';
import { nginxBinary } from '../reliability/nginx.ts';
import { printFigures, verdict, type Figure } from '../reliability/figures.ts';

const skip = testDialect() !== 'postgres' ? 'several processes share PostgreSQL only (this runs in the PostgreSQL pass)'
  : !nginxBinary() ? 'nginx is not installed (.ci/run installs it)' : false;

let figures: Figure[] = [];
let table = '';

before(async () => {
  if (skip) return;
  const result = await runCluster({
    serverArgs: programArgs('src/main.ts'),
    cwd: process.cwd(),
    databaseUrl: process.env.WHARF_TEST_DATABASE_URL!,
    redisUrl: process.env.WHARF_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    pushRounds: 2,
    killLoadMs: 1500,
  });
  figures = result.figures;
  const lines: string[] = [];
  printFigures(figures, (l) => lines.push(l));
  table = lines.join('\n');
}, { timeout: 240_000 });

test('3 processes behind nginx behave as one Wharf: every figure passes', { skip }, () => {
  assert.ok(figures.length >= 20, `too few figures:\n${table}`);
  const misses = figures.filter((f) => f.pass === false);
  assert.deepEqual(misses.map((f) => `${f.name}: ${f.value} ${verdict(f)}`), [], table);
});
