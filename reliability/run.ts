// npm run reliability: the reliability suites of issue #22 § 1 against Wharf as
// `npm start` runs it (the bundle scripts/build.mjs makes), each figure with PASS, MISS
// or info, in one table at the end; the exit status is 1 when any figure is a MISS.
// Separate from `npm test`: a full run kills and restarts the server many times.
//
// Suites (RELIABILITY_SUITES, comma-separated; all by default):
//   crash      (reliability/crash.ts): kill -9 under concurrent write load, restart on
//              the same data, then every acknowledged write must be there
//   faults     (reliability/faults.ts): PostgreSQL restarted (a private cluster), the
//              data dir's disk full, webhook receivers that hang, reset or crawl
//   secrets    (reliability/secrets.ts): every secret a run makes, searched for in
//              responses, deliveries, logs, the database and the data dir
//   ssrf       (reliability/ssrf.ts): webhooks and imports pointed at loopback,
//              private and link-local addresses in every spelling, and redirects
//   fuzz       (reliability/fuzz.ts): malformed requests generated from the route table
//              and its schemas over every route, and abusive GraphQL: no 5xx, no
//              partial write, memory flat
//   authz      (reliability/authz.ts): every route × actor × private/public repository
//              against its authorization rule, and GraphQL node(id:); Wharf in-process
//              (the route table is the app's), so RELIABILITY_WHARF_ENTRY does not apply
//   processes  (reliability/cluster.ts): 3 Wharf processes behind nginx on one
//              PostgreSQL, shared data dir and Redis behave as one (PostgreSQL only)
//
// Environment (defaults in brackets):
//   RELIABILITY_DIALECTS       comma-separated: sqlite, postgres [sqlite,postgres]
//   RELIABILITY_DATABASE_URL   PostgreSQL database in which each run makes a fresh schema,
//                              dropped afterwards [postgres://postgres@127.0.0.1:5432/test]
//   RELIABILITY_KILLS          SIGKILLs per dialect [20]
//   RELIABILITY_REPOS          repositories written to [2]
//   RELIABILITY_ISSUE_WORKERS  concurrent issue creators [2]
//   RELIABILITY_MIN_LOAD_MS / RELIABILITY_MAX_LOAD_MS  load between kills, chosen at random [200 / 2000]
//   RELIABILITY_WHARF_ENTRY    what to run instead of the bundle (a .ts entry runs through tsx)
//   RELIABILITY_KEEP=1         keep the PostgreSQL schemas (to look at after a MISS)
//   RELIABILITY_FAULT_PARTS    faults: postgres-restart, disk, webhooks [all]
//   RELIABILITY_PG_RESTARTS / RELIABILITY_PG_OUTAGE_MS  faults: restarts of each kind, downtime [3 / 3000]
//   RELIABILITY_DISK_FULL_MS / RELIABILITY_DISK_MIB     faults: how long the disk stays full, its size [5000 / 24]
//   RELIABILITY_HOOK_ISSUES / RELIABILITY_BAD_HOOKS     faults: issues per phase, hooks per bad receiver [20 / 3]
//   RELIABILITY_PG_BIN         faults: where initdb and pg_ctl are [/usr/lib/postgresql/*/bin]
//   RELIABILITY_FUZZ_REQUESTS  fuzz: REST requests [100000]; RELIABILITY_FUZZ_GRAPHQL GraphQL calls [a tenth]
//   RELIABILITY_FUZZ_SEED / RELIABILITY_FUZZ_CONCURRENCY / RELIABILITY_FUZZ_HEAP_MB  fuzz [1 / 16 / 256]
//   RELIABILITY_AUTHZ_REPOSITORIES  authz: of user/private, user/public, org/private, org/public [all]
//   RELIABILITY_AUTHZ_CONCURRENCY   authz: requests in flight [16]
//   RELIABILITY_REDIS_URL      Redis for the processes suite [redis://127.0.0.1:6379]
//   RELIABILITY_PUSH_ROUNDS    processes: rounds of racing pushes to one branch [10]
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLED_WHARF, stopAll, wharfArgs } from '../bench/children.ts';
import { runAuthz } from './authz.ts';
import { runCluster } from './cluster.ts';
import { runCrash } from './crash.ts';
import { runFuzz } from './fuzz.ts';
import { FAULT_PARTS, runFaults, type FaultPart } from './faults.ts';
import { runSecrets } from './secrets.ts';
import { runSsrf } from './ssrf.ts';
import { missed, printFigures, type Figure } from './figures.ts';

const SUITES = ['crash', 'faults', 'secrets', 'ssrf', 'fuzz', 'authz', 'processes'];
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return n;
}

async function main(): Promise<number> {
  const dialects = (process.env.RELIABILITY_DIALECTS ?? 'sqlite,postgres').split(',').map((s) => s.trim()).filter(Boolean);
  for (const d of dialects) if (d !== 'sqlite' && d !== 'postgres') throw new Error(`RELIABILITY_DIALECTS: unknown dialect "${d}" (sqlite, postgres)`);
  const databaseUrl = process.env.RELIABILITY_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const kills = Math.round(envNumber('RELIABILITY_KILLS', 20));
  const serverArgs = wharfArgs(ROOT, process.env.RELIABILITY_WHARF_ENTRY || BUNDLED_WHARF);
  const figures: Figure[] = [];
  const progress = (line: string) => process.stderr.write(`${line}\n`);
  const suites = (process.env.RELIABILITY_SUITES ?? SUITES.join(',')).split(',').map((s) => s.trim()).filter(Boolean);
  for (const s of suites) if (!SUITES.includes(s)) throw new Error(`RELIABILITY_SUITES: unknown suite "${s}" (${SUITES.join(', ')})`);
  const keep = process.env.RELIABILITY_KEEP === '1';
  /** Runs one suite; a suite that throws is a MISS of its own, and the others still run. */
  const run = async (suite: string, fn: () => Promise<Figure[]>) => {
    try {
      figures.push(...await fn());
    } catch (err) {
      figures.push({ suite, name: 'suite ran to the end', value: 'no', pass: false, detail: err instanceof Error ? err.message : String(err) });
    }
  };
  if (suites.includes('crash')) {
    for (const dialect of dialects as ('sqlite' | 'postgres')[]) {
      await run(`crash (${dialect})`, async () => {
        const r = await runCrash({
          serverArgs, cwd: ROOT, dialect, databaseUrl, kills,
          repos: Math.round(envNumber('RELIABILITY_REPOS', 2)),
          issueWorkers: Math.round(envNumber('RELIABILITY_ISSUE_WORKERS', 2)),
          minLoadMs: envNumber('RELIABILITY_MIN_LOAD_MS', 200),
          maxLoadMs: envNumber('RELIABILITY_MAX_LOAD_MS', 2000),
          progress,
        });
        progress(`crash (${dialect}): ${r.kills} kills, ${r.acknowledged} of ${r.attempted} writes acknowledged, ${r.seconds.toFixed(0)} s`);
        return r.figures;
      });
    }
  }
  const faultParts = (process.env.RELIABILITY_FAULT_PARTS ?? FAULT_PARTS.join(',')).split(',').map((s) => s.trim()).filter(Boolean);
  for (const p of faultParts) if (!FAULT_PARTS.includes(p as FaultPart)) throw new Error(`RELIABILITY_FAULT_PARTS: unknown part "${p}" (${FAULT_PARTS.join(', ')})`);
  for (const dialect of dialects as ('sqlite' | 'postgres')[]) {
    if (suites.includes('faults')) {
      await run(`faults (${dialect})`, async () => (await runFaults({
        serverArgs, cwd: ROOT, dialect, databaseUrl, progress, parts: faultParts as FaultPart[],
        postgres: { restarts: Math.round(envNumber('RELIABILITY_PG_RESTARTS', 3)), outageMs: envNumber('RELIABILITY_PG_OUTAGE_MS', 3000) },
        disk: { fullMs: envNumber('RELIABILITY_DISK_FULL_MS', 5000), sizeMiB: envNumber('RELIABILITY_DISK_MIB', 24) },
        webhooks: { issues: Math.round(envNumber('RELIABILITY_HOOK_ISSUES', 20)), badHooksEach: Math.round(envNumber('RELIABILITY_BAD_HOOKS', 3)) },
      })).figures);
    }
    if (suites.includes('secrets')) await run(`secrets (${dialect})`, async () => (await runSecrets({ serverArgs, cwd: ROOT, dialect, databaseUrl, progress })).figures);
    if (suites.includes('fuzz')) {
      await run(`fuzz (${dialect})`, async () => {
        const r = await runFuzz({
          serverArgs, cwd: ROOT, dialect, databaseUrl, progress,
          requests: Math.round(envNumber('RELIABILITY_FUZZ_REQUESTS', 100_000)),
          ...(process.env.RELIABILITY_FUZZ_GRAPHQL ? { graphqlRequests: Math.round(envNumber('RELIABILITY_FUZZ_GRAPHQL', 0)) } : {}),
          seed: Math.round(envNumber('RELIABILITY_FUZZ_SEED', 1)),
          concurrency: Math.round(envNumber('RELIABILITY_FUZZ_CONCURRENCY', 16)),
          heapMb: Math.round(envNumber('RELIABILITY_FUZZ_HEAP_MB', 256)),
        });
        progress(`fuzz (${dialect}): ${r.requests} requests + ${r.graphqlRequests} GraphQL over ${r.routes} routes, ${r.seconds.toFixed(0)} s`);
        return r.figures;
      });
    }
    if (suites.includes('authz')) {
      await run(`authz (${dialect})`, async () => {
        const r = await runAuthz({
          dialect, databaseUrl, keep, progress,
          repositories: process.env.RELIABILITY_AUTHZ_REPOSITORIES?.split(',').map((s) => s.trim()).filter(Boolean),
          concurrency: Math.round(envNumber('RELIABILITY_AUTHZ_CONCURRENCY', 16)),
        });
        progress(`authz (${dialect}): ${r.cells} cells, ${r.seconds.toFixed(0)} s`);
        return r.figures;
      });
    }
    if (suites.includes('ssrf')) await run(`ssrf (${dialect})`, async () => (await runSsrf({ serverArgs, cwd: ROOT, dialect, databaseUrl, progress })).figures);
  }
  if (suites.includes('processes') && dialects.includes('postgres')) {
    await run('processes', async () => (await runCluster({
      serverArgs, cwd: ROOT, databaseUrl,
      redisUrl: process.env.RELIABILITY_REDIS_URL ?? 'redis://127.0.0.1:6379',
      pushRounds: Math.round(envNumber('RELIABILITY_PUSH_ROUNDS', 10)),
      progress,
    })).figures);
  }
  console.log('');
  printFigures(figures);
  const misses = missed(figures);
  console.log(`\n${misses.length === 0 ? 'PASS' : `MISS (${misses.length})`}: ${figures.filter((f) => f.pass === true).length} figures pass, ${misses.length} miss, ${figures.filter((f) => f.pass === null).length} reported`);
  return misses.length === 0 ? 0 : 1;
}

main().then(async (code) => {
  await stopAll();
  process.exit(code);
}, async (err: unknown) => {
  console.error(err);
  await stopAll();
  process.exit(2);
});
