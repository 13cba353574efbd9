// The search scenario (issue #16): repositories of real source (packages of this
// project's node_modules, one repository each, one commit of their JavaScript and
// TypeScript files, their JSON and Markdown), pushed to Wharf over HTTP with git; how soon they are all
// searchable; how fast the index is built (the operator's `search reindex`, timed
// per repository from its progress lines, over the megabytes of text indexed); and
// code-search latency, one request at a time, for 1-, 2- and 3-word queries and a
// repo:-qualified one. Aim: p99 under 50 ms on SQLite.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { run, wharfRemote } from './git-backend.ts';
import { apiHeaders, createRepo, inParallel, type Api } from './seed.ts';
import { aim, type Aim } from './aims.ts';

/** Text files under this size are indexed (the spec's 384 KB). */
const MAX_FILE_BYTES = 384 * 1024;
const SOURCE = /\.(?:[cm]?js|[cm]?ts|tsx|jsx|json|md)$/;
const P99_TARGET_MS = 50;

export interface SearchOptions {
  api: Api;
  root: string;
  work: string;
  repos: number;
  repoKb: number;
  /** Sequential requests per query kind. */
  requests: number;
  /** The command line Wharf's operators run (node arguments), and its environment. */
  cli: { args: string[]; env: NodeJS.ProcessEnv };
  /** Told the monotonic span (µs) of each kind's measured requests (BENCH_PROFILE counts only those). */
  measured?: (startUs: number, endUs: number) => void;
}

export interface QueryLatency {
  kind: string;
  queries: string[];
  p50: number;
  p99: number;
  requests: number;
  meanResults: number;
}

export interface SearchFigures {
  repos: number;
  files: number;
  textMb: number;
  pushMs: number;
  /** From the last push answered until every repository's marker was found. */
  searchableAfterPushMs: number;
  /** The operator's reindex: repositories timed, their megabytes, and the time they took. */
  reindex: { repos: number; textMb: number; ms: number; msPerMb: number };
  latency: QueryLatency[];
}

interface Package {
  name: string;
  files: { path: string; content: Buffer }[];
  bytes: number;
}

/** Source files of a package (not of packages nested in it), in path order, up to `maxBytes`. */
function packageFiles(dir: string, maxBytes: number): Package['files'] {
  const found: { path: string; full: string; size: number }[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(child);
      } else if (entry.isFile() && SOURCE.test(entry.name)) {
        const size = fs.statSync(path.join(dir, child)).size;
        if (size > 0 && size < MAX_FILE_BYTES) found.push({ path: child, full: path.join(dir, child), size });
      }
    }
  };
  walk('');
  const out: Package['files'] = [];
  let total = 0;
  for (const f of found) {
    if (total + f.size > maxBytes) continue;
    total += f.size;
    out.push({ path: f.path, content: fs.readFileSync(f.full) });
  }
  return out;
}

/** The first `count` packages (by name) with at least three source files. */
function corpus(root: string, count: number, maxBytes: number): Package[] {
  const modules = path.join(root, 'node_modules');
  const names = fs.readdirSync(modules).flatMap((n) => (n.startsWith('@')
    ? fs.readdirSync(path.join(modules, n)).map((m) => `${n}/${m}`)
    : n.startsWith('.') ? [] : [n])).sort();
  const out: Package[] = [];
  for (const name of names) {
    if (out.length === count) break;
    const files = packageFiles(path.join(modules, name), maxBytes);
    if (files.length >= 3) out.push({ name, files, bytes: files.reduce((n, f) => n + f.content.length, 0) });
  }
  return out;
}

/** A fast-import stream of one commit holding `files`. */
function importStream(files: { path: string; content: Buffer }[]): Buffer {
  const parts: Buffer[] = [Buffer.from('commit refs/heads/main\ncommitter Bench <bench@example.com> 1700000000 +0000\ndata 7\nImport\n')];
  for (const f of files) {
    parts.push(Buffer.from(`M 100644 inline ${f.path}\ndata ${f.content.length}\n`), f.content, Buffer.from('\n'));
  }
  parts.push(Buffer.from('\n'));
  return Buffer.concat(parts);
}

function fastImport(dir: string, stream: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['--git-dir', dir, 'fast-import', '--quiet'], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git fast-import: exit ${code}: ${stderr.slice(-1000)}`))));
    child.stdin.on('error', () => undefined);
    child.stdin.end(stream);
  });
}

async function codeSearch(api: Api, q: string): Promise<{ ms: number; total: number; incomplete: boolean }> {
  const start = performance.now();
  const res = await fetch(`${api.base}/search/code?per_page=30&q=${encodeURIComponent(q)}`, { headers: apiHeaders(api.token) });
  const text = await res.text();
  const ms = performance.now() - start;
  if (res.status !== 200) throw new Error(`GET /search/code?q=${q} answered ${res.status}: ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as { total_count: number; incomplete_results: boolean };
  return { ms, total: body.total_count, incomplete: body.incomplete_results };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Runs the operator's reindex; each repository's time is from the line before its own. */
function timedReindex(cli: SearchOptions['cli'], root: string): Promise<Map<string, number>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...cli.args, 'search', 'reindex'], { cwd: root, env: cli.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const times = new Map<string, number>();
    let last: number | null = null;
    let buffered = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      const now = performance.now();
      for (const line of lines) {
        const m = /^\[\d+\/\d+\] ([^:]+): full/.exec(line);
        // The first line's time holds the command's own start: not counted.
        if (m && last !== null) times.set(m[1]!, now - last);
        if (m) last = now;
      }
    });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(times) : reject(new Error(`search reindex: exit ${code}: ${stderr.slice(-1000)}`))));
  });
}

export async function measureSearch(o: SearchOptions, progress: (m: string) => void): Promise<SearchFigures> {
  const packages = corpus(o.root, o.repos, o.repoKb * 1024);
  if (packages.length < o.repos) throw new Error(`node_modules holds only ${packages.length} packages with three source files or more`);
  const marker = `wharfbench${randomBytes(4).toString('hex')}`;
  const repoName = (i: number, p: Package) => `bench-search-${i}-${p.name.replace(/[^A-Za-z0-9._-]/g, '-')}`;
  const sources = path.join(o.work, 'search-sources');
  fs.mkdirSync(sources, { recursive: true });
  progress(`search: pushing ${packages.length} repositories of node_modules source …`);
  const pushStart = performance.now();
  await inParallel(packages.length, 4, async (i) => {
    const p = packages[i]!;
    const name = repoName(i, p);
    const dir = path.join(sources, `${i}.git`);
    await run('git', ['init', '-q', '--bare', dir]);
    await fastImport(dir, importStream([...p.files, { path: 'BENCH_MARKER.txt', content: Buffer.from(`${marker}\n`) }]));
    await createRepo(o.api, name);
    await run('git', ['--git-dir', dir, 'push', '-q', wharfRemote(o.api.base, o.api.login, o.api.token, name), 'main']);
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const pushEnd = performance.now();
  // Searchable once every marker file is found (the index worker ran for each).
  for (;;) {
    const r = await codeSearch(o.api, `${marker} filename:BENCH_MARKER.txt`);
    if (r.total >= packages.length && !r.incomplete) break;
    if (performance.now() - pushEnd > 600_000) throw new Error(`only ${r.total} of ${packages.length} repositories searchable 10 minutes after the pushes`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const searchable = performance.now();

  progress('search: timing the operator\'s reindex …');
  const perRepo = await timedReindex(o.cli, o.root);
  let reindexMs = 0;
  let reindexBytes = 0;
  let reindexRepos = 0;
  packages.forEach((p, i) => {
    const ms = perRepo.get(`${o.api.login}/${repoName(i, p)}`);
    if (ms === undefined) return;
    reindexMs += ms;
    reindexBytes += p.bytes;
    reindexRepos += 1;
  });

  progress('search: measuring code-search latency …');
  const someRepos = [0, 1, 2, 3, 4].map((k) => repoName(Math.floor((k * packages.length) / 5), packages[Math.floor((k * packages.length) / 5)]!));
  const kinds: { kind: string; queries: string[] }[] = [
    { kind: '1 word', queries: ['function', 'prototype', 'Promise', 'undefined', 'Symbol'] },
    { kind: '2 words', queries: ['return function', 'Object prototype', 'new Promise', 'typeof undefined', 'Symbol iterator'] },
    { kind: '3 words', queries: ['return new Promise', 'Object defineProperty exports', 'throw new TypeError', 'module exports function', 'Array isArray value'] },
    { kind: 'repo:', queries: someRepos.map((r) => `function repo:${o.api.login}/${r}`) },
  ];
  const latency: QueryLatency[] = [];
  for (const { kind, queries } of kinds) {
    for (const q of queries) await codeSearch(o.api, q); // warm-up
    const times: number[] = [];
    let results = 0;
    const start = Number(process.hrtime.bigint() / 1000n);
    for (let i = 0; i < o.requests; i++) {
      const r = await codeSearch(o.api, queries[i % queries.length]!);
      times.push(r.ms);
      results += r.total;
    }
    o.measured?.(start, Number(process.hrtime.bigint() / 1000n));
    times.sort((a, b) => a - b);
    latency.push({ kind, queries, p50: percentile(times, 50), p99: percentile(times, 99), requests: times.length, meanResults: results / times.length });
  }

  const files = packages.reduce((n, p) => n + p.files.length, 0);
  const mb = (bytes: number) => bytes / (1024 * 1024);
  return {
    repos: packages.length, files, textMb: mb(packages.reduce((n, p) => n + p.bytes, 0)),
    pushMs: pushEnd - pushStart, searchableAfterPushMs: searchable - pushEnd,
    reindex: { repos: reindexRepos, textMb: mb(reindexBytes), ms: reindexMs, msPerMb: reindexBytes ? reindexMs / mb(reindexBytes) : NaN },
    latency,
  };
}

export function printSearch(s: SearchFigures): void {
  console.log(`search: ${s.repos} repositories of node_modules source, ${s.files} files, ${s.textMb.toFixed(1)} MB of text`);
  console.log(`  pushed in ${(s.pushMs / 1000).toFixed(1)} s; all searchable ${(s.searchableAfterPushMs / 1000).toFixed(1)} s after the last push`);
  console.log(`  search reindex: ${s.reindex.repos} repositories, ${s.reindex.textMb.toFixed(1)} MB in ${(s.reindex.ms / 1000).toFixed(1)} s: ${s.reindex.msPerMb.toFixed(0)} ms per MB`);
  console.log('  code search, one request at a time:');
  for (const l of s.latency) {
    console.log(`    ${l.kind.padEnd(8)} p50 ${l.p50.toFixed(1).padStart(7)} ms  p99 ${l.p99.toFixed(1).padStart(7)} ms  (${l.requests} requests, ${l.meanResults.toFixed(0)} results on average; e.g. "${l.queries[0]}")`);
  }
}

/** Issue #16's aim: code-search p99 under 50 ms for each kind of query. */
export function searchAims(s: SearchFigures | null, failure: string | null, measured: boolean): Aim[] {
  const kinds = ['1 word', '2 words', '3 words', 'repo:'];
  return kinds.map((kind) => {
    const what = `code search p99, ${kind} (issue #16)`;
    const l = s?.latency.find((x) => x.kind === kind);
    if (!l) return aim('16', what, null, '<', P99_TARGET_MS, 'ms', !measured ? 'not measured: BENCH_ONLY leaves out search' : failure ?? 'not measured');
    return aim('16', what, l.p99, '<', P99_TARGET_MS, 'ms');
  });
}
