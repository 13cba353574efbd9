// npm run bench: throughput and latency of Wharf's main reads, and in the same run a
// bare node:http server answering the same bytes from memory (the ceiling). The
// figure to improve is the ratio of Wharf's req/s to the bare server's.
//
// Environment:
//   BENCH_SECONDS          measured seconds per scenario and server (default 10)
//   BENCH_WARMUP_SECONDS   unmeasured load before each measurement (default 3)
//   BENCH_CONNECTIONS      concurrent connections (default 32)
//   BENCH_PROFILE=1        run Wharf under node --cpu-prof and print where its time went
//   BENCH_PROFILE_DIR      where to keep the .cpuprofile (default: a temp dir, kept)
//   BENCH_WHARF_ENTRY      script to run instead of src/main.ts, to measure a variant
//   BENCH_EVENT_ITEMS      issues created in the event-throughput scenario (default 1000)
//   BENCH_EVENT_CONCURRENCY  creates in flight at once there (default 4)
//   BENCH_ONLY=events      run the event-throughput scenario alone
//   (issues: bench/issues.ts, also runnable alone; BENCH_ISSUES_SEED, BENCH_ISSUES_WRITES there)
//   (100 issues through GraphQL against REST, 16 connections: bench/graphql-issues.ts, also runnable alone)
//
// Wharf runs on SQLite in a fresh temp data dir; its rate limits are raised so that
// the run never meets them (the counter is still incremented on every request).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { cpuTimeMs, freePort, onExit, startChild, stopAll, waitForHttp, type Child } from './children.ts';
import { measureEventThroughput, printEventThroughput, type EventThroughput } from './events.ts';
import { measureIssues, printIssues, type IssueBenchResult } from './issues.ts';
import { measureGraphQLIssues, printGraphQLIssues, type GraphQLIssuesResult } from './graphql-issues.ts';
import { summarizeProfile } from './profile.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const USER_AGENT = 'wharf-bench/1.0';
const BENCH_LOGIN = 'bench-user';

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return n;
}

const SECONDS = envNumber('BENCH_SECONDS', 10);
const WARMUP_SECONDS = envNumber('BENCH_WARMUP_SECONDS', 3);
const CONNECTIONS = Math.round(envNumber('BENCH_CONNECTIONS', 32));
const PROFILE = process.env.BENCH_PROFILE === '1' || process.env.BENCH_PROFILE === 'true';
const WHARF_ENTRY = process.env.BENCH_WHARF_ENTRY || 'src/main.ts';
const EVENT_ITEMS = Math.round(envNumber('BENCH_EVENT_ITEMS', 1000));
const EVENT_CONCURRENCY = Math.round(envNumber('BENCH_EVENT_CONCURRENCY', 4));
const ONLY_EVENTS = process.env.BENCH_ONLY === 'events';

interface Scenario {
  name: string;
  /** Unique per scenario: the bare server answers by URL (GraphQL scenarios add a query string). */
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
  /** A GraphQL scenario: the name of the REST scenario that fetches the same data. */
  sameDataAs?: string;
}

interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** CPU time the server process spent per request (µs), or null without /proc. */
  cpuUsPerRequest: number | null;
}

interface ScenarioResult {
  scenario: string;
  path: string;
  wharf: Measurement;
  bare: Measurement;
  ratio: number;
}

interface Fixture {
  status: number;
  headers: [string, string][];
  body: string;
}

/** Environment of a child: the parent's, minus anything that would point Wharf elsewhere. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(DATABASE_URL|REDIS_URL|WHARF_|PORT$|HOST$|LOG_LEVEL$|NODE_OPTIONS$)/.test(k)) env[k] = v;
  }
  return { ...env, ...extra };
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** One autocannon run; latency percentiles from every response's own timing (sub-ms precision). */
async function load(url: string, headers: Record<string, string>, seconds: number, server: Child, scenario: Scenario): Promise<Measurement> {
  const cpuBefore = cpuTimeMs(server.process.pid);
  let latencies = new Float64Array(1 << 16);
  let n = 0;
  const request = scenario.method === 'POST' ? { method: 'POST', body: scenario.body, headers: { ...headers, 'content-type': 'application/json' } } : { headers };
  const instance = autocannon({ url, connections: CONNECTIONS, duration: seconds, ...request });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode < 200 || statusCode >= 300) return;
    if (n === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[n++] = responseTime;
  });
  const result = await instance;
  const cpuAfter = cpuTimeMs(server.process.pid);
  const sorted = latencies.subarray(0, n).sort();
  return {
    rps: result.requests.average,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    cpuUsPerRequest: cpuBefore !== null && cpuAfter !== null && result.requests.total > 0
      ? ((cpuAfter - cpuBefore) * 1000) / result.requests.total
      : null,
  };
}

async function measure(server: Child, base: string, scenario: Scenario, headers: Record<string, string>): Promise<Measurement> {
  await load(`${base}${scenario.path}`, headers, WARMUP_SECONDS, server, scenario);
  return load(`${base}${scenario.path}`, headers, SECONDS, server, scenario);
}

async function adminRequest(base: string, adminToken: string, method: string, pathname: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${base}${pathname}`, {
    method,
    headers: {
      'user-agent': USER_AGENT, authorization: `token ${adminToken}`,
      accept: 'application/vnd.github+json', 'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${pathname} answered ${res.status}: ${text}`);
  return JSON.parse(text) as unknown;
}

// Hop-by-hop and per-response headers node:http adds by itself.
const NOT_REPLAYED = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

async function record(base: string, scenario: Scenario, headers: Record<string, string>): Promise<Fixture> {
  const res = scenario.method === 'POST'
    ? await fetch(`${base}${scenario.path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: scenario.body })
    : await fetch(`${base}${scenario.path}`, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`${scenario.method ?? 'GET'} ${scenario.path} answered ${res.status}: ${body.toString('utf8')}`);
  // A GraphQL answer is 200 even when the query failed: a failed one would measure nothing.
  if (scenario.method === 'POST' && (JSON.parse(body.toString('utf8')) as { errors?: unknown }).errors) {
    throw new Error(`POST ${scenario.path} answered errors: ${body.toString('utf8')}`);
  }
  const kept: [string, string][] = [];
  res.headers.forEach((value, name) => { if (!NOT_REPLAYED.has(name)) kept.push([name, value]); });
  return { status: res.status, headers: kept, body: body.toString('base64') };
}

function figures(m: Measurement) {
  return {
    rps: Math.round(m.rps), requests: m.requests, p50: +m.p50.toFixed(3), p99: +m.p99.toFixed(3),
    cpuUsPerRequest: m.cpuUsPerRequest === null ? null : Math.round(m.cpuUsPerRequest), non2xx: m.non2xx, errors: m.errors,
  };
}

function fmt(n: number, digits: number): string {
  return Number.isFinite(n) ? n.toFixed(digits) : '-';
}

function printTable(results: ScenarioResult[]): void {
  const header = ['scenario', 'server', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'non-2xx', 'errors', 'wharf/bare'];
  const row = (name: string, server: string, m: Measurement, ratio: string) => [
    name, server, fmt(m.rps, 0), fmt(m.p50, 2), fmt(m.p99, 2), fmt(m.cpuUsPerRequest ?? NaN, 0), String(m.non2xx), String(m.errors), ratio,
  ];
  const rows = results.flatMap((r) => [row(r.scenario, 'wharf', r.wharf, fmt(r.ratio, 3)), row('', 'bare node:http', r.bare, '')]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

const BENCH_REPO = 'bench-private';
/** Repositories of the bench user listed by the list scenarios (GraphQL and REST alike). */
const LISTED_REPOS = 30;
const CLONE_REPO = 'bench-history';
const CLONE_COMMITS = 1000;
const CLONE_RUNS = 3;

function apiHeaders(token: string): Record<string, string> {
  return { 'user-agent': USER_AGENT, authorization: `token ${token}`, accept: 'application/vnd.github+json', 'content-type': 'application/json' };
}

/** A private repository with a first commit, and a 4 KB blob in it. */
async function prepareRepository(base: string, token: string): Promise<{ blobSha: string }> {
  const post = async (pathname: string, body: unknown) => {
    const res = await fetch(`${base}${pathname}`, { method: 'POST', headers: apiHeaders(token), body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`POST ${pathname} answered ${res.status}: ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  await post('/user/repos', { name: BENCH_REPO, private: true, auto_init: true });
  for (let i = 1; i < LISTED_REPOS; i++) await post('/user/repos', { name: `bench-listed-${i}`, private: i % 2 === 0, description: `Listed repository ${i}` });
  const blob = await post(`/repos/${BENCH_LOGIN}/${BENCH_REPO}/git/blobs`, { content: randomBytes(3072).toString('base64'), encoding: 'utf-8' });
  return { blobSha: String(blob.sha) };
}

function run(cmd: string, args: string[], options: { cwd?: string; input?: string } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: options.cwd, stdio: ['pipe', 'ignore', 'pipe'], env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')}: ${stderr}`))));
    child.stdin.end(options.input ?? '');
  });
}

async function timed(fn: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** A 1,000-commit history pushed to Wharf, then cloned from Wharf and from a file:// URL. */
async function measureClone(work: string, base: string, token: string): Promise<{ wharfMs: number; fileMs: number }> {
  const source = path.join(work, 'history.git');
  await run('git', ['init', '-q', '--bare', source]);
  let stream = '';
  for (let i = 1; i <= CLONE_COMMITS; i++) {
    const content = `line ${i}\n${randomBytes(64).toString('hex')}\n`;
    stream += `commit refs/heads/main\nmark :${i}\ncommitter Bench <bench@example.com> ${1700000000 + i} +0000\ndata ${`commit ${i}`.length}\ncommit ${i}\n`;
    if (i > 1) stream += `from :${i - 1}\n`;
    stream += `M 100644 inline file-${i % 50}.txt\ndata ${Buffer.byteLength(content)}\n${content}\n`;
  }
  await run('git', ['--git-dir', source, 'fast-import', '--quiet'], { input: stream });
  const res = await fetch(`${base}/user/repos`, { method: 'POST', headers: apiHeaders(token), body: JSON.stringify({ name: CLONE_REPO, private: true }) });
  if (!res.ok) throw new Error(`creating ${CLONE_REPO}: ${res.status}`);
  const remote = new URL(`${base}/${BENCH_LOGIN}/${CLONE_REPO}.git`);
  remote.username = BENCH_LOGIN;
  remote.password = token;
  await run('git', ['--git-dir', source, 'push', '-q', remote.toString(), 'main']);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const wharf: number[] = [];
  const file: number[] = [];
  for (let i = 0; i < CLONE_RUNS; i++) {
    wharf.push(await timed(() => run('git', ['clone', '-q', '--bare', remote.toString(), path.join(work, `w${i}.git`)])));
    file.push(await timed(() => run('git', ['clone', '-q', '--bare', `file://${source}`, path.join(work, `f${i}.git`)])));
  }
  return { wharfMs: median(wharf), fileMs: median(file) };
}

/**
 * GraphQL queries for the same data as REST scenarios: one repository as GET
 * /repos/{owner}/{repo} shows it, and the list GET /user/repos answers.
 */
function graphqlScenarios(): Scenario[] {
  const repositoryFields = 'id databaseId name nameWithOwner description url sshUrl isPrivate isFork isArchived visibility createdAt updatedAt pushedAt diskUsage stargazerCount forkCount hasIssuesEnabled hasWikiEnabled viewerPermission licenseInfo { key } owner { id login avatarUrl }';
  return [
    {
      name: 'POST /graphql repository', path: '/graphql?bench=repository', method: 'POST', sameDataAs: 'GET /repos/{owner}/{repo} (private)',
      body: JSON.stringify({ query: `query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { ${repositoryFields} } }`, variables: { owner: BENCH_LOGIN, name: BENCH_REPO } }),
    },
    {
      name: 'POST /graphql viewer.repositories (30)', path: '/graphql?bench=repositories', method: 'POST', sameDataAs: 'GET /user/repos (30)',
      body: JSON.stringify({ query: `query($n: Int!) { viewer { repositories(first: $n, orderBy: {field: NAME, direction: ASC}) { totalCount nodes { ${repositoryFields} } } } }`, variables: { n: LISTED_REPOS } }),
    },
  ];
}

interface SameData {
  graphql: string;
  rest: string;
  throughputRatio: number;
  graphqlP99: number;
  restP99: number;
}

function graphqlAgainstRest(scenarios: Scenario[], results: ScenarioResult[]): SameData[] {
  return scenarios.flatMap((s) => {
    const g = results.find((r) => r.scenario === s.name);
    const r = results.find((x) => x.scenario === s.sameDataAs);
    if (!s.sameDataAs || !g || !r) return [];
    return [{ graphql: s.name, rest: r.scenario, throughputRatio: g.wharf.rps / r.wharf.rps, graphqlP99: g.wharf.p99, restP99: r.wharf.p99 }];
  });
}

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-bench-'));
  onExit(() => fs.rmSync(work, { recursive: true, force: true }));
  const profileDir = PROFILE ? path.resolve(process.env.BENCH_PROFILE_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-profile-'))) : null;
  let wharf: Child | null = null;
  let bare: Child | null = null;
  try {
    const adminToken = `whp_${randomBytes(18).toString('hex')}`;
    const wharfPort = await freePort();
    const wharfBase = `http://127.0.0.1:${wharfPort}`;
    wharf = startChild('wharf', [
      ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
      '--import', 'tsx', WHARF_ENTRY,
    ], {
      cwd: ROOT,
      env: childEnv({
        PORT: String(wharfPort),
        HOST: '127.0.0.1',
        WHARF_DATA_DIR: path.join(work, 'data'),
        WHARF_ADMIN_TOKEN: adminToken,
        LOG_LEVEL: 'warn',
        // As `npm start` runs it: graphql-js skips its development-mode checks.
        NODE_ENV: process.env.NODE_ENV ?? 'production',
        WHARF_RATE_LIMIT_AUTHENTICATED: '1000000000',
        WHARF_RATE_LIMIT_UNAUTHENTICATED: '1000000000',
        WHARF_RATE_LIMIT_OAUTH_APP: '1000000000',
        // The event scenario's receiver listens on loopback.
        WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      }),
    });
    await waitForHttp(wharf, `${wharfBase}/meta`);

    await adminRequest(wharfBase, adminToken, 'POST', '/admin/users', { login: BENCH_LOGIN, email: `${BENCH_LOGIN}@example.com` });
    const auth = await adminRequest(wharfBase, adminToken, 'POST', `/admin/users/${BENCH_LOGIN}/authorizations`, { scopes: ['user', 'repo'] });
    const token = (auth as { token: string }).token;
    const headers = { 'user-agent': USER_AGENT, accept: 'application/vnd.github+json', authorization: `token ${token}` };

    const repo = await prepareRepository(wharfBase, token);
    const scenarios: Scenario[] = [
      { name: 'GET /user', path: '/user' },
      { name: 'GET /users/{username}', path: `/users/${BENCH_LOGIN}` },
      { name: 'GET /repos/{owner}/{repo} (private)', path: `/repos/${BENCH_LOGIN}/${BENCH_REPO}` },
      { name: 'GET …/git/blobs/{sha} (4 KB)', path: `/repos/${BENCH_LOGIN}/${BENCH_REPO}/git/blobs/${repo.blobSha}` },
      { name: 'GET /user/repos (30)', path: `/user/repos?per_page=${LISTED_REPOS}&sort=full_name` },
      ...graphqlScenarios(),
    ];
    const fixtures: Record<string, Fixture> = {};
    for (const s of ONLY_EVENTS ? [] : scenarios) fixtures[s.path] = await record(wharfBase, s, headers);
    const fixturesFile = path.join(work, 'fixtures.json');
    fs.writeFileSync(fixturesFile, JSON.stringify(fixtures));

    const barePort = await freePort();
    const bareBase = `http://127.0.0.1:${barePort}`;
    bare = startChild('bare server', ['bench/bare-server.mjs', fixturesFile, String(barePort)], { cwd: ROOT, env: childEnv({}) });
    await waitForHttp(bare, `${bareBase}/`);

    console.log(`# ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s per run, node ${process.version}, ${os.cpus().length} CPUs (load generator shares them)${PROFILE ? ', Wharf under --cpu-prof' : ''}${WHARF_ENTRY !== 'src/main.ts' ? `, Wharf entry ${WHARF_ENTRY}` : ''}`);
    const results: ScenarioResult[] = [];
    for (const s of ONLY_EVENTS ? [] : scenarios) {
      process.stderr.write(`measuring ${s.name} …\n`);
      const w = await measure(wharf, wharfBase, s, headers);
      const b = await measure(bare, bareBase, s, headers);
      results.push({ scenario: s.name, path: s.path, wharf: w, bare: b, ratio: w.rps / b.rps });
    }
    console.log('');
    printTable(results);
    const sameData = graphqlAgainstRest(scenarios, results);
    console.log('');
    for (const c of sameData) {
      console.log(`${c.graphql} vs ${c.rest}: GraphQL/REST throughput ${fmt(c.throughputRatio, 3)}, p99 ${fmt(c.graphqlP99, 2)} ms vs ${fmt(c.restP99, 2)} ms`);
    }
    for (const r of results) {
      for (const [who, m] of [['wharf', r.wharf], ['bare', r.bare]] as const) {
        if (m.non2xx > 0 || m.errors > 0) console.log(`warning: ${r.scenario} on ${who}: ${m.non2xx} non-2xx answers, ${m.errors} errors`);
      }
    }

    let clone = { wharfMs: NaN, fileMs: NaN };
    if (!ONLY_EVENTS) {
      process.stderr.write('measuring git clone of a 1,000-commit repository …\n');
      clone = await measureClone(work, wharfBase, token);
      console.log('');
      console.log(`git clone, ${CLONE_COMMITS} commits (median of ${CLONE_RUNS}): wharf ${clone.wharfMs.toFixed(0)} ms, file:// ${clone.fileMs.toFixed(0)} ms, ratio ${(clone.wharfMs / clone.fileMs).toFixed(2)}`);
    }

    process.stderr.write(`measuring event throughput (${EVENT_ITEMS} creates, 5 hooks) …\n`);
    const events: EventThroughput = await measureEventThroughput(wharfBase, token, BENCH_LOGIN, EVENT_ITEMS, EVENT_CONCURRENCY, wharf.process.pid);
    console.log('');
    printEventThroughput(events);

    let issues: IssueBenchResult | null = null;
    if (!ONLY_EVENTS) {
      issues = await measureIssues({ base: wharfBase, token, login: BENCH_LOGIN, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, connections: CONNECTIONS });
      console.log('');
      printIssues(issues);
    }

    let graphqlIssues: GraphQLIssuesResult | null = null;
    if (!ONLY_EVENTS) {
      graphqlIssues = await measureGraphQLIssues({ base: wharfBase, token, login: BENCH_LOGIN, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS });
      console.log('');
      printGraphQLIssues(graphqlIssues);
    }

    await bare.stop();
    await wharf.stop(30_000);
    if (profileDir) {
      // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main thread
      // (the other one is tsx's module loader); newest first.
      const isMain = (f: string) => f.split('.')[4] === '0';
      const files = fs.readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile'))
        .sort((a, b) => Number(isMain(b)) - Number(isMain(a))
          || fs.statSync(path.join(profileDir, b)).mtimeMs - fs.statSync(path.join(profileDir, a)).mtimeMs)
        .map((f) => path.join(profileDir, f));
      console.log('');
      console.log(files[0] ? summarizeProfile(files[0]) : `no .cpuprofile written in ${profileDir}`);
    }

    console.log('');
    console.log(JSON.stringify({
      connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, node: process.version,
      cpus: os.cpus().length, profiled: PROFILE,
      scenarios: results.map((r) => ({
        scenario: r.scenario,
        wharf: figures(r.wharf),
        bare: figures(r.bare),
        ratio: +r.ratio.toFixed(3),
      })),
      graphqlVsRest: sameData.map((c) => ({ ...c, throughputRatio: +c.throughputRatio.toFixed(3), graphqlP99: +c.graphqlP99.toFixed(3), restP99: +c.restP99.toFixed(3) })),
      issues,
      graphqlIssues,
      clone: { commits: CLONE_COMMITS, runs: CLONE_RUNS, wharfMs: Math.round(clone.wharfMs), fileMs: Math.round(clone.fileMs), ratio: +(clone.wharfMs / clone.fileMs).toFixed(2) },
      events: {
        write: events.write, items: events.items, hooks: events.hooks, deliveries: events.deliveries,
        allDeliveredMs: Math.round(events.allDeliveredMs), drainMs: Math.round(events.drainMs),
        createMeanMs: { without: +events.without.mean.toFixed(3), with: +events.with.mean.toFixed(3) },
        createP99Ms: { without: +events.without.p99.toFixed(3), with: +events.with.p99.toFixed(3) },
        addedLatency: +events.addedLatency.toFixed(3),
        cpuMsPerCreate: events.cpuMsPerItem && { without: +events.cpuMsPerItem.without.toFixed(3), with: +events.cpuMsPerItem.with.toFixed(3) },
      },
    }));
  } finally {
    await stopAll();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack ?? err.message : err);
  process.exitCode = 1;
});
