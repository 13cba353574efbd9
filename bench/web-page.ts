// The repository home page of issue #23 ("under 30 ms server time for a repository of
// 10,000 files and commits"): a public repository whose history adds one file per
// commit (files spread over 100 directories, a README at the root), pushed over HTTP,
// and its home page asked for as a browser asks (Accept: text/html, no session), one
// request at a time: with nothing else in flight a request's latency is the server's
// time (plus a loopback round trip). Also Wharf's CPU per page.
import autocannon from 'autocannon';
import fs from 'node:fs';
import path from 'node:path';
import { aim, type Aim } from './aims.ts';
import { cpuTimeMs } from './children.ts';
import { run, timed, wharfRemote } from './git-backend.ts';
import { createRepo, type Api } from './seed.ts';

export interface WebPageFigures {
  files: number;
  pushMs: number;
  requests: number;
  p50: number;
  p99: number;
  cpuUsPerRequest: number | null;
  pageBytes: number;
}

export const PAGE_TARGET_MS = 30;
const DIRECTORIES = 100;

/** fast-import input: commit i adds src/m<i mod 100>/f<i>.txt; the first also README.md. */
function homeStream(files: number): string {
  const parts: string[] = [];
  const readme = `# Bench home\n\nA repository of ${files} files and as many commits, one file each.\n`;
  for (let i = 1; i <= files; i++) {
    const message = `add file ${i}`;
    const content = `file ${i}\n`;
    parts.push(`commit refs/heads/main\nmark :${i}\ncommitter Bench <bench@example.com> ${1700000000 + i} +0000\ndata ${message.length}\n${message}\n`);
    if (i > 1) parts.push(`from :${i - 1}\n`);
    else parts.push(`M 100644 inline README.md\ndata ${Buffer.byteLength(readme)}\n${readme}\n`);
    parts.push(`M 100644 inline src/m${i % DIRECTORIES}/f${i}.txt\ndata ${content.length}\n${content}\n`);
  }
  return parts.join('');
}

/** Resolves once the process used under 5 % of a core over half a second, or after `limitMs`. */
async function untilIdle(pid: number | undefined, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  let before = cpuTimeMs(pid);
  while (before !== null && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    const now = cpuTimeMs(pid);
    if (now === null || now - before < 25) return;
    before = now;
  }
}

export async function measureHomePage(o: {
  api: Api; work: string; repo: string; files: number; seconds: number; warmupSeconds: number; wharfPid: number | undefined;
}): Promise<WebPageFigures> {
  const source = path.join(o.work, 'home.git');
  await run('git', ['init', '-q', '--bare', source]);
  await run('git', ['--git-dir', source, 'fast-import', '--quiet'], { input: homeStream(o.files) });
  await createRepo(o.api, o.repo, { private: false });
  const pushMs = await timed(() => run('git', ['--git-dir', source, 'push', '-q', wharfRemote(o.api.base, o.api.login, o.api.token, o.repo), 'main']));
  fs.rmSync(source, { recursive: true, force: true });
  // The push's own work goes on after it (its events, indexing 10,000 files for code
  // search): measured pages would share the process with it, so first the process idles.
  await untilIdle(o.wharfPid, 120_000);

  const url = `${o.api.base}/${o.api.login}/${o.repo}`;
  const headers = { 'user-agent': 'wharf-bench/1.0', accept: 'text/html,application/xhtml+xml' };
  const first = await fetch(url, { headers });
  const page = await first.text();
  if (first.status !== 200 || !page.includes('README.md') || !page.includes('src')) {
    throw new Error(`GET /${o.api.login}/${o.repo} answered ${first.status} without the file tree`);
  }
  await autocannon({ url, connections: 1, duration: o.warmupSeconds, headers });
  const latencies: number[] = [];
  const cpu0 = cpuTimeMs(o.wharfPid);
  const instance = autocannon({ url, connections: 1, duration: o.seconds, headers });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => { if (statusCode === 200) latencies.push(responseTime); });
  const result = await instance;
  const cpu1 = cpuTimeMs(o.wharfPid);
  if (result.non2xx > 0 || latencies.length === 0) throw new Error(`the home page answered ${result.non2xx} non-2xx of ${result.requests.total}`);
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)]!;
  return {
    files: o.files, pushMs: Math.round(pushMs), requests: result.requests.total, p50: at(50), p99: at(99),
    cpuUsPerRequest: cpu0 !== null && cpu1 !== null ? ((cpu1 - cpu0) * 1000) / result.requests.total : null,
    pageBytes: Buffer.byteLength(page),
  };
}

export function printHomePage(f: WebPageFigures): void {
  console.log(`repository home page (${f.files} files and commits, ${(f.pageBytes / 1024).toFixed(0)} KB of HTML; pushed in ${f.pushMs} ms): `
    + `p50 ${f.p50.toFixed(2)} ms, p99 ${f.p99.toFixed(2)} ms one at a time, ${f.requests} pages, `
    + `Wharf CPU ${f.cpuUsPerRequest === null ? '-' : `${(f.cpuUsPerRequest / 1000).toFixed(2)} ms`} per page`);
}

export function homePageAims(f: WebPageFigures | null, failure: string | null, measured: boolean): Aim[] {
  const what = 'repository home page, 10,000 files and commits: server time p50, one at a time (issue #23)';
  if (!f) return [aim('23', what, null, '<', PAGE_TARGET_MS, 'ms', !measured ? 'not measured: BENCH_ONLY leaves out web' : failure ?? 'not measured')];
  return [aim('23', what, f.p50, '<', PAGE_TARGET_MS, 'ms', `p99 ${f.p99.toFixed(1)} ms`)];
}
