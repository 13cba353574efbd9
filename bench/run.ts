// npm run bench: the aims of issue #12, each with its figure and PASS or MISS, in one
// table at the end (and in the JSON line, `aims`). Along the way: throughput and
// latency of Wharf's main reads and lists, and in the same run a bare node:http server
// answering the same bytes from memory (the ceiling; the figure is Wharf's req/s over
// the bare server's); GraphQL queries for the same data as the REST lists; issue pages
// and concurrent creates (bench/issues.ts); webhooks on the create path (bench/events.ts);
// git clone, fetch and push against `git http-backend` (bench/git-backend.ts), and
// Wharf's clone of the same history over SSH against its clone over HTTP (issue #24,
// bench/git-ssh.ts: a fresh ed25519 key added through POST /user/keys, known_hosts from
// GET /meta's ssh_keys, OpenSSH checking strictly; figure git.sshClone); and the
// resident memory of the Wharf process. Each aim's target is set where it is computed
// (httpAims … memoryAims below); bench/aims.ts prints them. A default run takes about
// 11 minutes on 2 cores.
//
// Environment (defaults in brackets):
//   BENCH_SECONDS          measured seconds per scenario and server [8]
//   BENCH_WARMUP_SECONDS   unmeasured load before each measurement [2]
//   BENCH_CONNECTIONS      concurrent connections [32]
//   BENCH_ONLY             comma-separated groups to run [all]: http (reads, lists,
//                          GraphQL, memory growth), issues (page 300, concurrent creates),
//                          events (hooks on the create path), git (clone, fetch, push,
//                          clone over SSH: Wharf's SSH server listens only for this group),
//                          search (repositories of node_modules source: indexing, code-search
//                          latency; bench/search.ts, issue #16), web (a repository home
//                          page of 10,000 files and commits, one request at a time;
//                          bench/web-page.ts, issue #23);
//                          aims of the groups left out print MISS "not measured"
//   BENCH_SEED_ITEMS       issues, pull requests and repositories seeded for the lists [100]
//   BENCH_GIT_COMMITS      commits of the cloned and fetched history [10000]
//   BENCH_GIT_PUSH_COMMITS commits pushed into an empty repository [1000]
//   BENCH_GIT_RUNS         runs of each git operation, the median kept [3]
//   BENCH_MEMORY_PASS_SECONDS  seconds per scenario of the 2nd and 3rd (unmeasured) passes [2]
//   BENCH_SCENARIOS        a regular expression: only the http scenarios whose names match
//                          are measured (for profiling one request; aims of the others MISS)
//   BENCH_PROFILE=1        run Wharf under node --cpu-prof and print where its time went
//                          during the measured runs (http scenarios, events, code searches), not seeding
//   BENCH_PROFILE_DIR      where to keep the .cpuprofile (default: a temp dir, kept)
//   BENCH_KEEP_WORK=1      keep the work dir (data dir, databases) for a look afterwards
//   BENCH_WHARF_ENTRY      script to run instead of npm start's bundle (.build/src/main.mjs),
//                          to measure a variant (a .ts entry runs through tsx)
//   BENCH_NODE_FLAGS       node flags for Wharf's process (e.g. --max-semi-space-size=64), for A/B runs
//   BENCH_HOME_FILES       files (and commits, one file each) of the home page's repository [10000]
//   BENCH_SEARCH_REPOS     repositories pushed for the search scenario [200]
//   BENCH_SEARCH_REPO_KB   source text per repository at most, in KB [256]
//   BENCH_SEARCH_REQUESTS  code searches per kind of query, one at a time [100]
//   BENCH_EVENT_ITEMS      issues created in the event scenario [2000]
//   BENCH_EVENT_CONCURRENCY  creates in flight at once there [BENCH_CONNECTIONS]: aim 4's
//                          hooks comparison is events.ts's, made at 32 in flight
//   BENCH_ISSUES_SEED      issues in the paged repository [10000]
//   BENCH_ISSUES_WRITES    issues created by the concurrent writers [5000]
//   (issues: bench/issues.ts, also runnable alone; the GraphQL issue scenario at 16
//   connections, bench/graphql-issues.ts, now runs alone only: aim 3 measures the same
//   query at 32 connections here)
//
// Wharf runs on SQLite in a fresh temp data dir; its rate limits are raised so that
// the run never meets them (the counter is still incremented on every request).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { BUNDLED_CLI, BUNDLED_WHARF, cpuTimeMs, freePort, onExit, rssBytes, startChild, stopAll, waitForHttp, wharfArgs, type Child } from './children.ts';
import { measureEventThroughput, printEventThroughput, type EventThroughput } from './events.ts';
import { measureIssues, printIssues, type IssueBenchResult } from './issues.ts';
import { ISSUES_QUERY } from './graphql-issues.ts';
import { measureGit, printGit, type GitFigures } from './git-backend.ts';
import { prepareSsh, type SshRemote } from './git-ssh.ts';
import { apiCall, createRepo, seedHistory, seedIssues, seedListedRepos, seedPulls, type Api, type History } from './seed.ts';
import { aim, aimsJson, printAims, unmeasured, type Aim } from './aims.ts';
import { summarizeProfile } from './profile.ts';
import { measureSearch, printSearch, searchAims, type SearchFigures } from './search.ts';
import { homePageAims, measureHomePage, printHomePage, type WebPageFigures } from './web-page.ts';

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

const SECONDS = envNumber('BENCH_SECONDS', 8);
const WARMUP_SECONDS = envNumber('BENCH_WARMUP_SECONDS', 2);
const CONNECTIONS = Math.round(envNumber('BENCH_CONNECTIONS', 32));
const PROFILE = process.env.BENCH_PROFILE === '1' || process.env.BENCH_PROFILE === 'true';
const WHARF_ENTRY = process.env.BENCH_WHARF_ENTRY || BUNDLED_WHARF;
const EVENT_ITEMS = Math.round(envNumber('BENCH_EVENT_ITEMS', 2000));
const EVENT_CONCURRENCY = Math.round(envNumber('BENCH_EVENT_CONCURRENCY', CONNECTIONS));
const SEED_ITEMS = Math.round(envNumber('BENCH_SEED_ITEMS', 100));
const GIT_COMMITS = Math.round(envNumber('BENCH_GIT_COMMITS', 10_000));
const GIT_PUSH_COMMITS = Math.round(envNumber('BENCH_GIT_PUSH_COMMITS', 1000));
const GIT_FETCH_COMMITS = 100;
const GIT_RUNS = Math.round(envNumber('BENCH_GIT_RUNS', 3));
const MEMORY_PASS_SECONDS = envNumber('BENCH_MEMORY_PASS_SECONDS', 2);
const ISSUES_SEED = Math.round(envNumber('BENCH_ISSUES_SEED', 10_000));
const ISSUES_WRITES = Math.round(envNumber('BENCH_ISSUES_WRITES', 5000));
const SEARCH_REPOS = Math.round(envNumber('BENCH_SEARCH_REPOS', 200));
const SEARCH_REPO_KB = Math.round(envNumber('BENCH_SEARCH_REPO_KB', 256));
const SEARCH_REQUESTS = Math.round(envNumber('BENCH_SEARCH_REQUESTS', 100));
const HOME_FILES = Math.round(envNumber('BENCH_HOME_FILES', 10_000));

const GROUPS = ['http', 'issues', 'events', 'git', 'search', 'web'] as const;
type Group = (typeof GROUPS)[number];
const ONLY: Set<Group> = (() => {
  const raw = process.env.BENCH_ONLY;
  if (!raw) return new Set(GROUPS);
  const picked = raw.split(',').map((s) => s.trim()).filter(Boolean);
  for (const g of picked) if (!(GROUPS as readonly string[]).includes(g)) throw new Error(`BENCH_ONLY: unknown group "${g}" (groups: ${GROUPS.join(', ')})`);
  return new Set(picked as Group[]);
})();

type Kind = 'read' | 'list' | 'graphql' | 'other';

interface Scenario {
  name: string;
  /** Unique per scenario: the bare server answers by URL (GraphQL scenarios add a query string). */
  path: string;
  kind: Kind;
  method?: 'GET' | 'POST';
  body?: string;
  /** A GraphQL scenario: the name of the REST scenario that fetches the same data. */
  sameDataAs?: string;
  /** A list: what its answer must hold before it is measured (see listCheck). */
  check?: (json: unknown) => string | null;
}

/** The CheckError of a list answer that does not hold what was seeded: the scenario is not measured. */
class CheckError extends Error {}

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
  kind: Kind;
  path: string;
  wharf: Measurement;
  /** null for GraphQL scenarios: their aim is against REST, not the bare server. */
  bare: Measurement | null;
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

// The monotonic-clock spans (µs) of Wharf's measured runs: the profile summary counts
// only the samples inside them, not seeding or warm-up. V8's profile timestamps and
// process.hrtime read the same clock (CLOCK_MONOTONIC), so the two processes agree.
const measuredSpans: [number, number][] = [];
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

async function measure(server: Child, base: string, scenario: Scenario, headers: Record<string, string>): Promise<Measurement> {
  await load(`${base}${scenario.path}`, headers, WARMUP_SECONDS, server, scenario);
  const start = nowUs();
  const m = await load(`${base}${scenario.path}`, headers, SECONDS, server, scenario);
  if (server.name === 'wharf') measuredSpans.push([start, nowUs()]);
  return m;
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
  const wrong = scenario.check?.(JSON.parse(body.toString('utf8')) as unknown);
  if (wrong) throw new CheckError(`${scenario.method ?? 'GET'} ${scenario.path}: ${wrong}`);
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
  const rows = results.flatMap((r) => [
    row(r.scenario, 'wharf', r.wharf, fmt(r.ratio, 3)),
    ...(r.bare ? [row('', 'bare node:http', r.bare, '')] : []),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

const BENCH_REPO = 'bench-private';
const PUBLIC_REPO = 'bench-pulls';
const HISTORY_REPO = 'bench-history';
const PER_PAGE = 100;

// ---------------------------------------------------------------- scenarios

const REPOSITORY_FIELDS = 'id databaseId name nameWithOwner description url sshUrl isPrivate isFork isArchived visibility createdAt updatedAt pushedAt diskUsage stargazerCount forkCount hasIssuesEnabled hasWikiEnabled viewerPermission licenseInfo { key } owner { id login avatarUrl }';

/** What GET …/pulls shows of each: its state, author, refs and both repositories, labels, assignees, reviewers. */
const PULLS_QUERY = `query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) {
  pullRequests(first: ${PER_PAGE}, states: [OPEN], orderBy: {field: CREATED_AT, direction: DESC}) { nodes {
    id databaseId number title body state isDraft locked url createdAt updatedAt closedAt mergedAt
    author { login avatarUrl } authorAssociation
    headRefName headRefOid headRepository { nameWithOwner isPrivate owner { login } }
    baseRefName baseRefOid baseRepository { nameWithOwner isPrivate owner { login } }
    labels(first: 10) { nodes { name color } }
    assignees(first: 10) { nodes { login } }
    reviewRequests(first: 10) { nodes { requestedReviewer { ... on User { login } } } }
  } } } }`;

/** What GET …/commits shows of each: sha, message, author and committer (with their users), tree, parents. */
const HISTORY_QUERY = `query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) {
  object(expression: "main") { ... on Commit { history(first: ${PER_PAGE}) { nodes {
    oid message url
    author { name email date user { login } }
    committer { name email date user { login } }
    tree { oid }
    parents(first: 5) { nodes { oid } }
  } } } } } }`;

/**
 * The answer's items (the array itself for REST, the nodes at `at` for GraphQL) number
 * `expected`; with `labelled`, each has its two labels and one assignee (REST: labels and
 * assignees arrays; GraphQL: labels.nodes and assignees.nodes).
 */
function listCheck(expected: number, labelled: boolean, at: string[] = []): (json: unknown) => string | null {
  return (json) => {
    let items: unknown = json;
    for (const key of at) items = items && typeof items === 'object' ? (items as Record<string, unknown>)[key] : undefined;
    if (!Array.isArray(items)) return `no list at ${at.join('.') || 'the top'}`;
    if (items.length !== expected) return `${items.length} items, not the ${expected} seeded`;
    if (labelled) {
      const size = (x: unknown) => (Array.isArray(x) ? x.length : x && typeof x === 'object' && Array.isArray((x as { nodes?: unknown }).nodes) ? (x as { nodes: unknown[] }).nodes.length : -1);
      const bad = items.filter((i: Record<string, unknown>) => size(i.labels) !== 2 || size(i.assignees) !== 1).length;
      if (bad) return `${bad} of ${items.length} items lack their 2 labels and 1 assignee`;
    }
    return null;
  };
}

function graphql(name: string, key: string, sameDataAs: string, query: string, variables: Record<string, unknown>, check?: Scenario['check']): Scenario {
  return { name, path: `/graphql?bench=${key}`, kind: 'graphql', method: 'POST', sameDataAs, body: JSON.stringify({ query, variables }), ...(check ? { check } : {}) };
}

function scenarios(blobSha: string | null): Scenario[] {
  // What each list must hold: the user's SEED_ITEMS repositories (the history, the private
  // and public ones, and the listed ones), and as many issues and pull requests.
  const seeded = Math.min(SEED_ITEMS, PER_PAGE);
  const commits = Math.min(GIT_COMMITS, PER_PAGE);
  const priv = `/repos/${BENCH_LOGIN}/${BENCH_REPO}`;
  const pub = `/repos/${BENCH_LOGIN}/${PUBLIC_REPO}`;
  const repoVars = (name: string) => ({ owner: BENCH_LOGIN, name });
  return [
    { name: 'GET /user', path: '/user', kind: 'read' },
    { name: 'GET /users/{username}', path: `/users/${BENCH_LOGIN}`, kind: 'read' },
    { name: 'GET /repos/{owner}/{repo} (public)', path: pub, kind: 'read' },
    { name: 'GET /repos/{owner}/{repo} (private)', path: priv, kind: 'read' },
    { name: 'GET …/issues/{number}', path: `${priv}/issues/1`, kind: 'read' },
    { name: 'GET …/pulls/{number}', path: `${pub}/pulls/1`, kind: 'read' },
    { name: 'GET …/contents/README.md', path: `${priv}/contents/README.md`, kind: 'read' },
    ...(blobSha ? [{ name: 'GET …/git/blobs/{sha} (4 KB)', path: `${priv}/git/blobs/${blobSha}`, kind: 'other' as const }] : []),
    { name: 'GET …/issues?per_page=100', path: `${priv}/issues?per_page=${PER_PAGE}`, kind: 'list', check: listCheck(seeded, true) },
    { name: 'GET …/pulls?per_page=100', path: `${pub}/pulls?per_page=${PER_PAGE}`, kind: 'list', check: listCheck(seeded, true) },
    { name: 'GET /user/repos?per_page=100', path: `/user/repos?per_page=${PER_PAGE}&sort=full_name`, kind: 'list', check: listCheck(seeded, false) },
    { name: 'GET …/commits?per_page=100', path: `/repos/${BENCH_LOGIN}/${HISTORY_REPO}/commits?per_page=${PER_PAGE}`, kind: 'list', check: listCheck(commits, false) },
    graphql('POST /graphql repository', 'repository', 'GET /repos/{owner}/{repo} (private)',
      `query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { ${REPOSITORY_FIELDS} } }`, repoVars(BENCH_REPO)),
    graphql('POST /graphql repository.issues(100)', 'issues', 'GET …/issues?per_page=100', ISSUES_QUERY.replace(/issues\(first: \d+/, `issues(first: ${PER_PAGE}`), repoVars(BENCH_REPO),
      listCheck(seeded, true, ['data', 'repository', 'issues', 'nodes'])),
    graphql('POST /graphql repository.pullRequests(100)', 'pulls', 'GET …/pulls?per_page=100', PULLS_QUERY, repoVars(PUBLIC_REPO),
      listCheck(seeded, true, ['data', 'repository', 'pullRequests', 'nodes'])),
    graphql('POST /graphql viewer.repositories(100)', 'repositories', 'GET /user/repos?per_page=100',
      `query($n: Int!) { viewer { repositories(first: $n, orderBy: {field: NAME, direction: ASC}) { totalCount nodes { ${REPOSITORY_FIELDS} } } } }`, { n: PER_PAGE },
      listCheck(seeded, false, ['data', 'viewer', 'repositories', 'nodes'])),
    graphql('POST /graphql history(100)', 'history', 'GET …/commits?per_page=100', HISTORY_QUERY, repoVars(HISTORY_REPO),
      listCheck(commits, false, ['data', 'repository', 'object', 'history', 'nodes'])),
  ];
}

interface SameData {
  graphql: string;
  rest: string;
  throughputRatio: number;
  graphqlP99: number;
  restP99: number;
}

function graphqlAgainstRest(list: Scenario[], results: ScenarioResult[]): SameData[] {
  return list.flatMap((s) => {
    const g = results.find((r) => r.scenario === s.name);
    const r = results.find((x) => x.scenario === s.sameDataAs);
    if (!s.sameDataAs || !g || !r) return [];
    return [{ graphql: s.name, rest: r.scenario, throughputRatio: g.wharf.rps / r.wharf.rps, graphqlP99: g.wharf.p99, restP99: r.wharf.p99 }];
  });
}

// ---------------------------------------------------------------- aims

const NOT_RUN = (group: Group) => `not measured: BENCH_ONLY leaves out ${group}`;

function httpAims(list: Scenario[], results: ScenarioResult[], skipped: Map<string, string>, sameData: SameData[], ran: boolean): Aim[] {
  const out: Aim[] = [];
  const why = (s: Scenario) => (ran ? skipped.get(s.name) ?? 'not measured' : NOT_RUN('http'));
  for (const s of list.filter((x) => x.kind === 'read')) {
    const r = results.find((x) => x.scenario === s.name);
    out.push(r ? aim('1', `${s.name}: wharf/bare req/s`, r.ratio, '≥', 0.35) : unmeasured('1', `${s.name}: wharf/bare req/s`, '≥', 0.35, '', why(s)));
    out.push(r ? aim('1', `${s.name}: p99`, r.wharf.p99, '<', 5, 'ms') : unmeasured('1', `${s.name}: p99`, '<', 5, 'ms', why(s)));
  }
  for (const s of list.filter((x) => x.kind === 'list')) {
    const r = results.find((x) => x.scenario === s.name);
    out.push(r ? aim('2', `${s.name}: wharf/bare req/s`, r.ratio, '≥', 0.25) : unmeasured('2', `${s.name}: wharf/bare req/s`, '≥', 0.25, '', why(s)));
  }
  for (const s of list.filter((x) => x.kind === 'graphql' && x.sameDataAs && list.find((y) => y.name === x.sameDataAs)?.kind === 'list')) {
    const c = sameData.find((x) => x.graphql === s.name);
    const reason = ran ? skipped.get(s.sameDataAs!) ?? skipped.get(s.name) ?? 'not measured' : NOT_RUN('http');
    out.push(c ? aim('3', `${s.name}: GraphQL/REST req/s`, c.throughputRatio, '≥', 0.7, '', `REST ${s.sameDataAs}`)
      : unmeasured('3', `${s.name}: GraphQL/REST req/s`, '≥', 0.7, '', reason));
    out.push(c ? aim('3', `${s.name}: p99 GraphQL/REST`, c.graphqlP99 / c.restP99, '≤', 1.5, '', `${fmt(c.graphqlP99, 2)} ms vs ${fmt(c.restP99, 2)} ms`)
      : unmeasured('3', `${s.name}: p99 GraphQL/REST`, '≤', 1.5, '', reason));
  }
  return out;
}

function issueAims(issues: IssueBenchResult | null, failure: string | null): Aim[] {
  const reason = failure ?? NOT_RUN('issues');
  if (!issues) {
    return [
      unmeasured('2', 'issues page 300 / page 1 (per_page=30): p50', '≤', 1.2, '', reason),
      unmeasured('4', `POST …/issues from ${CONNECTIONS} connections`, '≥', 2000, '/s', reason),
    ];
  }
  const [first, far] = [issues.pages[0]!, issues.pages[1]!];
  const w = issues.writes;
  return [
    aim('2', `issues page ${far.page} / page 1 (per_page=30, ${issues.seeded} issues): p50`, issues.pageRatio, '≤', 1.2, '',
      `p50 ${fmt(far.p50, 2)} vs ${fmt(first.p50, 2)} ms; ${fmt(far.rps, 0)} vs ${fmt(first.rps, 0)} req/s`),
    w.numbersExact
      ? aim('4', `POST …/issues from ${w.writers} connections`, w.perSecond, '≥', 2000, '/s', `${w.created} created, numbers exactly 1..${w.created}`)
      : { ...aim('4', `POST …/issues from ${w.writers} connections`, w.perSecond, '≥', 2000, '/s'), pass: false, note: `numbers NOT exactly 1..${w.created}; ${w.failures} failures` },
  ];
}

function eventAims(events: EventThroughput | null, failure: string | null): Aim[] {
  const what = `create path with 5 hooks vs none (${EVENT_CONCURRENCY} in flight): mean latency added`;
  if (!events) return [unmeasured('4', what, '≤', 10, '%', failure ?? NOT_RUN('events'))];
  return [aim('4', what, events.addedLatency * 100, '≤', 10, '%',
    `${fmt(events.with.mean, 2)} vs ${fmt(events.without.mean, 2)} ms; ${events.write}`)];
}

function gitAims(git: GitFigures | null, failure: string | null): Aim[] {
  const reason = failure ?? NOT_RUN('git');
  const rows: [string, keyof Pick<GitFigures, 'clone' | 'fetch' | 'push'>][] = [
    [`git clone of ${GIT_COMMITS} commits: wharf/http-backend time`, 'clone'],
    [`git fetch of the last ${GIT_FETCH_COMMITS} of ${GIT_COMMITS}: wharf/http-backend time`, 'fetch'],
    [`git push of ${GIT_PUSH_COMMITS} commits: wharf/http-backend time`, 'push'],
  ];
  const out = rows.map(([what, key]) => (git
    ? aim('5', what, git[key].wharfMs / git[key].backendMs, '≤', 1.2, '', `${fmt(git[key].wharfMs, 0)} vs ${fmt(git[key].backendMs, 0)} ms, median of ${git.runs}`)
    : unmeasured('5', what, '≤', 1.2, '', reason)));
  // Issue #24: over SSH within 1.2× of the same clone over HTTP, both Wharf, same run.
  const ssh = `git clone of ${GIT_COMMITS} commits over SSH: ssh/http time`;
  out.push(git?.sshClone
    ? aim('5', ssh, git.sshClone.sshMs / git.sshClone.httpMs, '≤', 1.2, '', `${fmt(git.sshClone.sshMs, 0)} vs ${fmt(git.sshClone.httpMs, 0)} ms, median of ${git.runs}`)
    : unmeasured('5', ssh, '≤', 1.2, '', git?.sshFailure ?? reason));
  return out;
}

function memoryAims(rssPasses: (number | null)[], rssEnd: number | null, ranHttp: boolean): Aim[] {
  const mb = (b: number) => b / (1024 * 1024);
  const out = [rssEnd === null
    ? unmeasured('6', 'Wharf resident set after the bench', '<', 300, 'MB', 'no /proc')
    : aim('6', 'Wharf resident set after the bench', mb(rssEnd), '<', 300, 'MB')];
  const [r1, , r3] = rssPasses;
  if (!ranHttp) out.push(unmeasured('6', 'RSS growth over 3 passes of reads and lists', '≤', 10, '%', NOT_RUN('http')));
  else if (r1 == null || r3 == null) out.push(unmeasured('6', 'RSS growth over 3 passes of reads and lists', '≤', 10, '%', 'no /proc'));
  else {
    out.push(aim('6', 'RSS growth over 3 passes of reads and lists', ((r3 - r1) / r1) * 100, '≤', 10, '%',
      `${rssPasses.map((r) => (r === null ? '-' : mb(r).toFixed(0))).join(' → ')} MB`));
  }
  return out;
}

// ---------------------------------------------------------------- main

function errorMessage(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 200);
}

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-bench-'));
  const keepWork = process.env.BENCH_KEEP_WORK === '1';
  onExit(() => { if (!keepWork) fs.rmSync(work, { recursive: true, force: true }); });
  const profileDir = PROFILE ? path.resolve(process.env.BENCH_PROFILE_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-profile-'))) : null;
  let wharf: Child | null = null;
  let bare: Child | null = null;
  const progress = (message: string) => process.stderr.write(`${message}\n`);
  try {
    const adminToken = `whp_${randomBytes(18).toString('hex')}`;
    const wharfPort = await freePort();
    const wharfBase = `http://127.0.0.1:${wharfPort}`;
    // Only the git group clones over SSH: the other groups measure Wharf without its SSH server.
    const sshPort = ONLY.has('git') ? await freePort() : 0;
    wharf = startChild('wharf', [
      ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
      ...wharfArgs(ROOT, WHARF_ENTRY),
    ], {
      cwd: ROOT,
      env: childEnv({
        PORT: String(wharfPort),
        HOST: '127.0.0.1',
        WHARF_DATA_DIR: path.join(work, 'data'),
        WHARF_ADMIN_TOKEN: adminToken, WHARF_SSH_PORT: String(sshPort),
        LOG_LEVEL: 'warn',
        // As `npm start` runs it: graphql-js skips its development-mode checks.
        NODE_ENV: process.env.NODE_ENV ?? 'production',
        WHARF_RATE_LIMIT_AUTHENTICATED: '1000000000',
        WHARF_RATE_LIMIT_UNAUTHENTICATED: '1000000000',
        WHARF_RATE_LIMIT_OAUTH_APP: '1000000000',
        WHARF_RATE_LIMIT_SEARCH_AUTHENTICATED: '1000000000',
        WHARF_RATE_LIMIT_SEARCH_UNAUTHENTICATED: '1000000000',
        // The event scenario's receiver listens on loopback.
        WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      }),
    });
    const wharfPid = wharf.process.pid;
    await waitForHttp(wharf, `${wharfBase}/meta`);

    await adminRequest(wharfBase, adminToken, 'POST', '/admin/users', { login: BENCH_LOGIN, email: `${BENCH_LOGIN}@example.com` });
    const auth = await adminRequest(wharfBase, adminToken, 'POST', `/admin/users/${BENCH_LOGIN}/authorizations`, {
      // write:public_key only where the git group adds its SSH key.
      scopes: ['user', 'repo', ...(sshPort ? ['write:public_key'] : [])],
    });
    const token = (auth as { token: string }).token;
    const headers = { 'user-agent': USER_AGENT, accept: 'application/vnd.github+json', authorization: `token ${token}` };
    const api: Api = { base: wharfBase, token, login: BENCH_LOGIN };

    console.log(`# ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s per run, node ${process.version}, ${os.cpus().length} CPUs (load generator shares them)${PROFILE ? ', Wharf under --cpu-prof' : ''}${WHARF_ENTRY !== BUNDLED_WHARF ? `, Wharf entry ${WHARF_ENTRY}` : ''}; groups: ${[...ONLY].join(', ')}`);

    // ---- seeding: what http reads, and the history git clones
    const skipped = new Map<string, string>();
    let history: History | null = null;
    let historyFailure: string | null = null;
    if (ONLY.has('http') || ONLY.has('git')) {
      progress(`seeding a ${GIT_COMMITS}-commit history (fast-import, pushed to Wharf) …`);
      try {
        history = await seedHistory(api, work, HISTORY_REPO, GIT_COMMITS);
      } catch (err) {
        historyFailure = `seeding the history failed: ${errorMessage(err)}`;
        skipped.set('GET …/commits?per_page=100', historyFailure);
        skipped.set('POST /graphql history(100)', historyFailure);
      }
    }
    let blobSha: string | null = null;
    if (ONLY.has('http')) {
      progress(`seeding ${SEED_ITEMS} repositories, issues and pull requests …`);
      await createRepo(api, BENCH_REPO, { private: true, autoInit: true });
      await createRepo(api, PUBLIC_REPO, { autoInit: true });
      blobSha = String((await apiCall(api, 'POST', `/repos/${BENCH_LOGIN}/${BENCH_REPO}/git/blobs`, { content: randomBytes(3072).toString('base64'), encoding: 'utf-8' })).sha);
      await seedListedRepos(api, 3, SEED_ITEMS);
      await seedIssues(api, BENCH_REPO, SEED_ITEMS);
      try {
        await seedPulls(api, PUBLIC_REPO, SEED_ITEMS);
      } catch (err) {
        const reason = `seeding pull requests failed: ${errorMessage(err)}`;
        for (const name of ['GET …/pulls/{number}', 'GET …/pulls?per_page=100', 'POST /graphql repository.pullRequests(100)']) skipped.set(name, reason);
      }
    }

    // ---- http: reads, lists and GraphQL against the bare server, then two more passes for memory
    const list = scenarios(blobSha);
    const results: ScenarioResult[] = [];
    const rssPasses: (number | null)[] = [];
    let sameData: SameData[] = [];
    if (ONLY.has('http')) {
      const fixtures: Record<string, Fixture> = {};
      for (const s of list) {
        if (skipped.has(s.name)) continue;
        try {
          fixtures[s.path] = await record(wharfBase, s, headers);
        } catch (err) {
          // A GraphQL query answering errors is a bench bug or a Wharf bug either way: stop.
          if (s.kind === 'graphql' && !(err instanceof CheckError)) throw err;
          skipped.set(s.name, errorMessage(err));
        }
      }
      const fixturesFile = path.join(work, 'fixtures.json');
      fs.writeFileSync(fixturesFile, JSON.stringify(fixtures));
      const barePort = await freePort();
      const bareBase = `http://127.0.0.1:${barePort}`;
      bare = startChild('bare server', ['bench/bare-server.mjs', fixturesFile, String(barePort)], { cwd: ROOT, env: childEnv({}) });
      await waitForHttp(bare, `${bareBase}/`);

      const picked = process.env.BENCH_SCENARIOS ? new RegExp(process.env.BENCH_SCENARIOS) : null;
      const measured = list.filter((s) => !skipped.has(s.name) && (!picked || picked.test(s.name)));
      for (const s of measured) {
        progress(`measuring ${s.name} …`);
        const w = await measure(wharf, wharfBase, s, headers);
        const b = s.kind === 'graphql' ? null : await measure(bare, bareBase, s, headers);
        results.push({ scenario: s.name, kind: s.kind, path: s.path, wharf: w, bare: b, ratio: b ? w.rps / b.rps : NaN });
      }
      // Each pass's RSS is read after a second without load, for the collector to catch up.
      const settledRss = async () => { await new Promise((r) => setTimeout(r, 1000)); return rssBytes(wharfPid); };
      rssPasses.push(await settledRss());
      for (let pass = 2; pass <= 3; pass++) {
        progress(`memory: pass ${pass} of 3 over ${measured.length} scenarios, ${MEMORY_PASS_SECONDS} s each …`);
        for (const s of measured) await load(`${wharfBase}${s.path}`, headers, MEMORY_PASS_SECONDS, wharf, s);
        rssPasses.push(await settledRss());
      }
      await bare.stop();

      console.log('');
      printTable(results);
      sameData = graphqlAgainstRest(list, results);
      console.log('');
      for (const c of sameData) {
        console.log(`${c.graphql} vs ${c.rest}: GraphQL/REST throughput ${fmt(c.throughputRatio, 3)}, p99 ${fmt(c.graphqlP99, 2)} ms vs ${fmt(c.restP99, 2)} ms`);
      }
      for (const [name, reason] of skipped) console.log(`not measured: ${name}: ${reason}`);
      for (const r of results) {
        for (const [who, m] of [['wharf', r.wharf], ['bare', r.bare]] as const) {
          if (m && (m.non2xx > 0 || m.errors > 0)) console.log(`warning: ${r.scenario} on ${who}: ${m.non2xx} non-2xx answers, ${m.errors} errors`);
        }
      }
      console.log(`Wharf resident set after each pass: ${rssPasses.map((r) => (r === null ? '-' : `${(r / 1048576).toFixed(0)} MB`)).join(', ')}`);
    }

    // ---- issues: page 300 of 10,000 against page 1, and concurrent creates
    let issues: IssueBenchResult | null = null;
    let issuesFailure: string | null = null;
    if (ONLY.has('issues')) {
      try {
        issues = await measureIssues({
          base: wharfBase, token, login: BENCH_LOGIN, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, connections: CONNECTIONS,
          seedIssues: ISSUES_SEED, writes: ISSUES_WRITES, writers: CONNECTIONS,
        });
        console.log('');
        printIssues(issues);
      } catch (err) {
        issuesFailure = errorMessage(err);
        console.log(`issues scenario failed: ${issuesFailure}`);
      }
    }

    // ---- events: the create path with 5 hooks against none
    let events: EventThroughput | null = null;
    let eventsFailure: string | null = null;
    if (ONLY.has('events')) {
      progress(`measuring event throughput (${EVENT_ITEMS} creates, 5 hooks, ${EVENT_CONCURRENCY} in flight) …`);
      try {
        events = await measureEventThroughput(wharfBase, token, BENCH_LOGIN, EVENT_ITEMS, EVENT_CONCURRENCY, wharfPid);
        console.log('');
        printEventThroughput(events);
      } catch (err) {
        eventsFailure = errorMessage(err);
        console.log(`event scenario failed: ${eventsFailure}`);
      }
    }

    // ---- search: repositories of real source, indexed, and code-search latency (issue #16)
    let search: SearchFigures | null = null;
    let searchFailure: string | null = null;
    if (ONLY.has('search')) {
      try {
        search = await measureSearch({
          api, root: ROOT, work, repos: SEARCH_REPOS, repoKb: SEARCH_REPO_KB, requests: SEARCH_REQUESTS,
          measured: (start, end) => measuredSpans.push([start, end]),
          cli: {
            args: fs.existsSync(path.join(ROOT, BUNDLED_CLI)) ? [BUNDLED_CLI] : ['--import', 'tsx', 'cli/main.ts'],
            env: childEnv({ WHARF_DATA_DIR: path.join(work, 'data'), LOG_LEVEL: 'warn' }),
          },
        }, progress);
        console.log('');
        printSearch(search);
      } catch (err) {
        searchFailure = errorMessage(err);
        console.log(`search scenario failed: ${searchFailure}`);
      }
    }

    // ---- web: a repository home page of 10,000 files and commits (issue #23)
    let homePage: WebPageFigures | null = null;
    let homePageFailure: string | null = null;
    if (ONLY.has('web')) {
      progress(`measuring the repository home page (${HOME_FILES} files and commits) …`);
      try {
        homePage = await measureHomePage({ api, work, repo: 'bench-home', files: HOME_FILES, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, wharfPid });
        console.log('');
        printHomePage(homePage);
      } catch (err) {
        homePageFailure = errorMessage(err);
        console.log(`home page scenario failed: ${homePageFailure}`);
      }
    }

    // ---- git: clone, fetch and push against git http-backend
    let git: GitFigures | null = null;
    let gitFailure: string | null = historyFailure;
    if (ONLY.has('git') && history) {
      let ssh: SshRemote | { failure: string };
      try {
        ssh = await prepareSsh(api, work, sshPort);
      } catch (err) {
        ssh = { failure: `SSH setup failed: ${errorMessage(err)}` };
        console.log(`git over SSH not measured: ${ssh.failure}`);
      }
      try {
        git = await measureGit({
          work, base: wharfBase, token, login: BENCH_LOGIN, source: history.source, seed: history.seed, commits: history.commits,
          wharfRepo: HISTORY_REPO, wharfSeedPushMs: history.pushMs, runs: GIT_RUNS, pushCommits: GIT_PUSH_COMMITS, fetchCommits: GIT_FETCH_COMMITS,
          createRepo: (name) => createRepo(api, name, { private: true }), progress, ssh,
        });
        console.log('');
        printGit(git);
      } catch (err) {
        gitFailure = errorMessage(err);
        console.log(`git scenario failed: ${gitFailure}`);
      }
    }

    const rssEnd = rssBytes(wharfPid);
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
      console.log(files[0] ? summarizeProfile(files[0], 20, measuredSpans) : `no .cpuprofile written in ${profileDir}`);
    }

    const aims: Aim[] = [
      ...httpAims(list, results, skipped, sameData, ONLY.has('http')),
      ...issueAims(issues, issuesFailure),
      ...eventAims(events, eventsFailure),
      ...gitAims(git, gitFailure),
      ...memoryAims(rssPasses, rssEnd, ONLY.has('http')),
      ...searchAims(search, searchFailure, ONLY.has('search')),
      ...homePageAims(homePage, homePageFailure, ONLY.has('web')),
    ].sort((a, b) => Number(a.id) - Number(b.id));
    console.log('');
    printAims(aims);

    console.log('');
    console.log(JSON.stringify({
      connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, node: process.version,
      cpus: os.cpus().length, profiled: PROFILE, groups: [...ONLY],
      scenarios: results.map((r) => ({
        scenario: r.scenario,
        wharf: figures(r.wharf),
        bare: r.bare && figures(r.bare),
        ratio: r.bare ? +r.ratio.toFixed(3) : null,
      })),
      notMeasured: Object.fromEntries(skipped),
      graphqlVsRest: sameData.map((c) => ({ ...c, throughputRatio: +c.throughputRatio.toFixed(3), graphqlP99: +c.graphqlP99.toFixed(3), restP99: +c.restP99.toFixed(3) })),
      issues,
      search,
      homePage,
      git: git && {
        ...git,
        clone: { ...git.clone, ratio: +(git.clone.wharfMs / git.clone.backendMs).toFixed(2) },
        fetch: { ...git.fetch, ratio: +(git.fetch.wharfMs / git.fetch.backendMs).toFixed(2) },
        push: { ...git.push, ratio: +(git.push.wharfMs / git.push.backendMs).toFixed(2) },
        sshClone: git.sshClone && { ...git.sshClone, ratio: +(git.sshClone.sshMs / git.sshClone.httpMs).toFixed(2) },
      },
      memory: { rssPassesMB: rssPasses.map((r) => (r === null ? null : Math.round(r / 1048576))), rssEndMB: rssEnd === null ? null : Math.round(rssEnd / 1048576) },
      events: events && {
        write: events.write, items: events.items, concurrency: EVENT_CONCURRENCY, hooks: events.hooks, deliveries: events.deliveries,
        allDeliveredMs: Math.round(events.allDeliveredMs), drainMs: Math.round(events.drainMs),
        createMeanMs: { without: +events.without.mean.toFixed(3), with: +events.with.mean.toFixed(3) },
        createP99Ms: { without: +events.without.p99.toFixed(3), with: +events.with.p99.toFixed(3) },
        addedLatency: +events.addedLatency.toFixed(3),
        cpuMsPerCreate: events.cpuMsPerItem && { without: +events.cpuMsPerItem.without.toFixed(3), with: +events.cpuMsPerItem.with.toFixed(3) },
      },
      aims: aimsJson(aims),
    }));
  } finally {
    await stopAll();
    if (keepWork) console.error(`work dir kept: ${work}`);
    else fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack ?? err.message : err);
  process.exitCode = 1;
});
