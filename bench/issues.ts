// Issue scenarios of `npm run bench` (issue #4 §6), also runnable alone:
//   node --import tsx bench/issues.ts
// 1. GET /repos/{owner}/{repo}/issues, 30 per page, each issue with labels and
//    assignees, on a repository holding 10,000 issues: page 1 against page 300
//    (aim: within 1.2× of each other).
// 2. POST /repos/{owner}/{repo}/issues from concurrent writers (16 alone, 32 in `npm run bench`; aim on SQLite:
//    ≥ 2,000 issues/s); afterwards the numbers must be exactly 1..N.
// The 10,000 issues are seeded through the API by concurrent writers (which also
// warms the server up), each with two labels and an assignee.
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startStandaloneWharf } from './standalone.ts';

const USER_AGENT = 'wharf-bench/1.0';

export interface IssueBenchOptions {
  base: string;
  token: string;
  login: string;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  /** Issues in the listed repository (default 10,000). */
  seedIssues?: number;
  /** Issues the concurrent writers create (default 5,000). */
  writes?: number;
  writers?: number;
}

export interface PageFigures {
  page: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

export interface IssueBenchResult {
  seeded: number;
  seedSeconds: number;
  pages: PageFigures[];
  /** p50 of the far page (300) over p50 of page 1 (aim ≤ 1.2). */
  pageRatio: number;
  writes: { writers: number; created: number; seconds: number; perSecond: number; failures: number; numbersExact: boolean };
}

function headers(token: string): Record<string, string> {
  return { 'user-agent': USER_AGENT, authorization: `token ${token}`, accept: 'application/vnd.github+json', 'content-type': 'application/json' };
}

async function post(base: string, token: string, pathname: string, body: unknown): Promise<Response> {
  return fetch(`${base}${pathname}`, { method: 'POST', headers: headers(token), body: JSON.stringify(body) });
}

/** `total` creates from `writers` concurrent loops; resolves with the failures. */
async function concurrentCreates(base: string, token: string, repoPath: string, total: number, writers: number, body: (i: number) => unknown): Promise<number> {
  let next = 0;
  let failures = 0;
  const loop = async () => {
    while (next < total) {
      const i = next++;
      const res = await post(base, token, `${repoPath}/issues`, body(i));
      await res.arrayBuffer();
      if (res.status !== 201) failures++;
    }
  };
  await Promise.all(Array.from({ length: writers }, loop));
  return failures;
}

async function loadPage(url: string, token: string, seconds: number, connections: number): Promise<Omit<PageFigures, 'page'>> {
  const run = autocannon({ url, headers: headers(token), connections, duration: seconds });
  const result = await run;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
}

/** Every issue number of the repository (state=all), by listing it 100 at a time. */
async function allNumbers(base: string, token: string, repoPath: string): Promise<number[]> {
  const out: number[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${base}${repoPath}/issues?state=all&per_page=100&page=${page}&direction=asc`, { headers: headers(token) });
    const items = (await res.json()) as { number: number }[];
    out.push(...items.map((i) => i.number));
    if (items.length < 100) return out;
  }
}

export async function measureIssues(o: IssueBenchOptions): Promise<IssueBenchResult> {
  const seedIssues = o.seedIssues ?? 10_000;
  const writes = o.writes ?? 5_000;
  const writers = o.writers ?? 16;
  const listRepo = `bench-issues-${randomBytes(3).toString('hex')}`;
  const writeRepo = `bench-writes-${randomBytes(3).toString('hex')}`;
  for (const name of [listRepo, writeRepo]) {
    const res = await post(o.base, o.token, '/user/repos', { name, auto_init: true });
    if (!res.ok) throw new Error(`creating ${name}: ${res.status} ${await res.text()}`);
  }
  const listPath = `/repos/${o.login}/${listRepo}`;
  const writePath = `/repos/${o.login}/${writeRepo}`;

  process.stderr.write(`seeding ${seedIssues} issues …\n`);
  const labelSets = [['bug', 'help wanted'], ['enhancement', 'question'], ['documentation', 'good first issue']];
  const seedStart = performance.now();
  const seedFailures = await concurrentCreates(o.base, o.token, listPath, seedIssues, writers, (i) => ({
    title: `Seeded issue ${i}`, body: `Body of issue ${i}, see #${Math.max(1, i)}`, labels: labelSets[i % labelSets.length], assignees: [o.login],
  }));
  const seedSeconds = (performance.now() - seedStart) / 1000;
  if (seedFailures) throw new Error(`${seedFailures} seed creates failed`);

  const pages: PageFigures[] = [];
  // Page 300 of 10,000 issues; a smaller seed (a quick run) measures its last full page.
  for (const page of [1, Math.min(300, Math.floor(seedIssues / 30))]) {
    const url = `${o.base}${listPath}/issues?per_page=30&page=${page}`;
    const check = await fetch(url, { headers: headers(o.token) });
    const items = (await check.json()) as { labels: unknown[]; assignees: unknown[] }[];
    if (items.length !== 30 || items.some((i) => i.labels.length !== 2 || i.assignees.length !== 1)) {
      throw new Error(`page ${page} does not hold 30 issues with labels and assignees`);
    }
    process.stderr.write(`measuring GET …/issues page ${page} …\n`);
    await loadPage(url, o.token, o.warmupSeconds, o.connections);
    pages.push({ page, ...(await loadPage(url, o.token, o.seconds, o.connections)) });
  }

  process.stderr.write(`measuring ${writes} creates from ${writers} concurrent writers …\n`);
  const start = performance.now();
  const failures = await concurrentCreates(o.base, o.token, writePath, writes, writers, (i) => ({ title: `Concurrent ${i}`, body: 'written under load' }));
  const seconds = (performance.now() - start) / 1000;
  const numbers = (await allNumbers(o.base, o.token, writePath)).sort((a, b) => a - b);
  const created = writes - failures;
  const numbersExact = numbers.length === created && numbers.every((n, i) => n === i + 1);
  return {
    seeded: seedIssues,
    seedSeconds: +seedSeconds.toFixed(1),
    pages,
    pageRatio: +(pages[1]!.p50 / Math.max(pages[0]!.p50, 0.001)).toFixed(2),
    writes: { writers, created, seconds: +seconds.toFixed(2), perSecond: Math.round(created / seconds), failures, numbersExact },
  };
}

export function printIssues(r: IssueBenchResult): void {
  console.log(`issues: GET …/issues?per_page=30 on a repository of ${r.seeded} issues (labels and assignees on each; seeded in ${r.seedSeconds} s)`);
  for (const p of r.pages) {
    console.log(`  page ${String(p.page).padStart(3)}: ${p.rps.toFixed(0)} req/s, p50 ${p.p50.toFixed(2)} ms, p99 ${p.p99.toFixed(2)} ms${p.non2xx ? `, ${p.non2xx} non-2xx` : ''}`);
  }
  const rpsRatio = r.pages[0]!.rps / Math.max(r.pages[1]!.rps, 0.001);
  console.log(`  page ${r.pages[1]!.page} / page 1: p50 ×${r.pageRatio}, throughput ×${(1 / rpsRatio).toFixed(2)} (aim: within 1.2×)`);
  const w = r.writes;
  console.log(`issues: POST …/issues from ${w.writers} concurrent writers: ${w.created} in ${w.seconds} s = ${w.perSecond} issues/s (aim ≥ 2,000 on SQLite); ${w.failures} failures; numbers exactly 1..${w.created}: ${w.numbersExact ? 'yes' : 'NO'}`);
}

// ---------------------------------------------------------------- standalone

async function standalone(): Promise<void> {
  const { base, token, login, finish } = await startStandaloneWharf('issues');
  try {
    const num = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
    const result = await measureIssues({
      base, token, login, seconds: num('BENCH_SECONDS', 10), warmupSeconds: num('BENCH_WARMUP_SECONDS', 3),
      connections: num('BENCH_CONNECTIONS', 32), seedIssues: num('BENCH_ISSUES_SEED', 10_000), writes: num('BENCH_ISSUES_WRITES', 5_000),
    });
    printIssues(result);
    console.log(JSON.stringify({ issues: result }));
  } finally {
    await finish();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  standalone().catch((err: unknown) => {
    console.error(err instanceof Error ? err.stack ?? err.message : err);
    process.exitCode = 1;
  });
}
