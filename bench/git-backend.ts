// Git over HTTP, Wharf against `git http-backend` alone (issue #12, aim 5).
//
// The reference is a tiny node:http CGI wrapper in this process that runs
// `git http-backend` per request over a directory of bare repositories (no auth,
// receive-pack enabled), streaming the request body in and the response out.
// Both servers are first pushed the same fast-import history over HTTP, so each
// serves a repository shaped by receive-pack alike. Then, median of BENCH_GIT_RUNS:
//   clone  git clone --bare of the whole history
//   fetch  a bare repository holding the first N-100 commits (imported locally from
//          the same stream, so the SHAs match) fetches the last 100
//   push   a separate 1,000-commit history pushed into an empty repository
// and, against Wharf alone, the same clone over SSH (bench/git-ssh.ts), compared with
// Wharf's HTTP clone of the same runs (issue #24).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { SshRemote } from './git-ssh.ts';

export function run(cmd: string, args: string[], options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: options.cwd, stdio: ['pipe', 'ignore', 'pipe'], env: { ...process.env, GIT_TERMINAL_PROMPT: '0', ...options.env } });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')}: exit ${code}: ${stderr.slice(-2000)}`))));
    // A command that exits before reading its input: its exit status tells what went wrong.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

export async function timed(fn: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

export function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

/**
 * A linear fast-import history on refs/heads/main: commits `from`..`to` of a
 * deterministic series (same seed, same SHAs), `files` files touched in turn.
 */
export function historyStream(seed: string, to: number, from = 1, files = 50): string {
  const parts: string[] = [];
  for (let i = from; i <= to; i++) {
    const content = `line ${i}\n${seed}-${i}-${'x'.repeat(64)}\n`;
    const message = `commit ${i}`;
    parts.push(`commit refs/heads/main\nmark :${i}\ncommitter Bench <bench@example.com> ${1700000000 + i} +0000\ndata ${message.length}\n${message}\n`);
    if (i > from) parts.push(`from :${i - 1}\n`);
    parts.push(`M 100644 inline file-${i % files}.txt\ndata ${Buffer.byteLength(content)}\n${content}\n`);
  }
  return parts.join('');
}

/** A bare repository at `dir` holding commits 1..commits of `seed`'s series. */
export async function importHistory(dir: string, seed: string, commits: number): Promise<void> {
  await run('git', ['init', '-q', '--bare', dir]);
  await run('git', ['--git-dir', dir, 'fast-import', '--quiet'], { input: historyStream(seed, commits) });
}

export interface GitBackend {
  /** http://127.0.0.1:port — repositories at `${base}/${name}.git`. */
  base: string;
  root: string;
  close(): Promise<void>;
}

/** `git http-backend` behind node:http, serving the bare repositories under `root`. */
export async function startGitBackend(root: string): Promise<GitBackend> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH, HOME: process.env.HOME,
      GIT_PROJECT_ROOT: root, GIT_HTTP_EXPORT_ALL: '1',
      GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.receivepack', GIT_CONFIG_VALUE_0: 'true',
      REQUEST_METHOD: req.method ?? 'GET', PATH_INFO: decodeURIComponent(url.pathname), QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '', REMOTE_USER: 'bench', REMOTE_ADDR: '127.0.0.1',
      SERVER_PROTOCOL: 'HTTP/1.1', GATEWAY_INTERFACE: 'CGI/1.1',
    };
    if (req.headers['content-length']) env.CONTENT_LENGTH = req.headers['content-length'];
    // Every request header as HTTP_* (Git-Protocol for v2, Content-Encoding for gzip'd bodies).
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') env[`HTTP_${name.toUpperCase().replace(/-/g, '_')}`] = value;
    }
    const cgi = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    req.pipe(cgi.stdin);
    let stderr = '';
    cgi.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    let head = Buffer.alloc(0);
    let headerDone = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headerDone) {
        if (!res.write(chunk)) { cgi.stdout.pause(); res.once('drain', () => cgi.stdout.resume()); }
        return;
      }
      head = Buffer.concat([head, chunk]);
      const crlf = head.indexOf('\r\n\r\n');
      const lf = head.indexOf('\n\n');
      const end = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf + 4 : lf >= 0 ? lf + 2 : -1;
      if (end < 0) return;
      headerDone = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split(/\r?\n/)) {
        const colon = line.indexOf(':');
        if (colon <= 0) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else res.setHeader(name, value);
      }
      res.writeHead(status);
      const rest = head.subarray(end);
      if (rest.length) res.write(rest);
    });
    cgi.on('close', (code) => {
      if (!headerDone) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`git http-backend exited ${code} without answering: ${stderr}`);
        return;
      }
      res.end();
    });
    cgi.on('error', (err) => { if (!res.headersSent) res.writeHead(500); res.end(String(err)); });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    root,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

export interface GitFigures {
  commits: number;
  pushCommits: number;
  fetchCommits: number;
  runs: number;
  /** Medians, ms. */
  clone: { wharfMs: number; backendMs: number };
  fetch: { wharfMs: number; backendMs: number };
  push: { wharfMs: number; backendMs: number };
  /** The initial push of the whole history to each (one run each, not an aim). */
  seedPush: { wharfMs: number; backendMs: number };
  /** Wharf's clone over SSH and over HTTP (clone.wharfMs), medians, ms; null when SSH could not run (sshFailure says why). */
  sshClone: { sshMs: number; httpMs: number } | null;
  sshFailure: string | null;
}

export interface GitBenchOptions {
  work: string;
  /** Wharf's base URL, an API token, and its user. */
  base: string;
  token: string;
  login: string;
  /** A bare repository holding `commits` commits of `seed`'s series (importHistory). */
  source: string;
  seed: string;
  commits: number;
  /** The Wharf repository already holding `source` (pushed while seeding), and how long that took. */
  wharfRepo: string;
  wharfSeedPushMs: number;
  runs: number;
  pushCommits: number;
  fetchCommits: number;
  createRepo(name: string): Promise<void>;
  progress(message: string): void;
  /** Wharf's SSH server, or why it cannot be reached: the SSH clone is then left out. */
  ssh: SshRemote | { failure: string };
}

export function wharfRemote(base: string, login: string, token: string, repo: string): string {
  const remote = new URL(`${base}/${login}/${repo}.git`);
  remote.username = login;
  remote.password = token;
  return remote.toString();
}

export async function measureGit(o: GitBenchOptions): Promise<GitFigures> {
  const backendRoot = path.join(o.work, 'http-backend');
  fs.mkdirSync(backendRoot, { recursive: true });
  const backend = await startGitBackend(backendRoot);
  try {
    const wharfUrl = wharfRemote(o.base, o.login, o.token, o.wharfRepo);
    await run('git', ['init', '-q', '--bare', path.join(backendRoot, 'history.git')]);
    const backendUrl = `${backend.base}/history.git`;
    o.progress(`pushing the ${o.commits}-commit history to git http-backend …`);
    const backendSeedPushMs = await timed(() => run('git', ['--git-dir', o.source, 'push', '-q', backendUrl, 'main']));

    // The fetch's starting point: the same series without its last commits.
    const partial = path.join(o.work, 'fetch-template.git');
    await importHistory(partial, o.seed, o.commits - o.fetchCommits);
    // The pushed history: a series of its own.
    const pushSource = path.join(o.work, 'push-source.git');
    await importHistory(pushSource, `push-${randomBytes(4).toString('hex')}`, o.pushCommits);

    const clone = { wharf: [] as number[], backend: [] as number[] };
    const fetchMs = { wharf: [] as number[], backend: [] as number[] };
    const push = { wharf: [] as number[], backend: [] as number[] };
    const sshClone: number[] = [];
    let sshFailure = 'failure' in o.ssh ? o.ssh.failure : null;
    for (let i = 0; i < o.runs; i++) {
      o.progress(`git clone / fetch / push, run ${i + 1} of ${o.runs} …`);
      for (const [who, url] of [['wharf', wharfUrl], ['backend', backendUrl]] as const) {
        const cloneDir = path.join(o.work, `clone-${who}-${i}.git`);
        clone[who].push(await timed(() => run('git', ['clone', '-q', '--bare', url, cloneDir])));
        fs.rmSync(cloneDir, { recursive: true, force: true });

        const fetchDir = path.join(o.work, `fetch-${who}-${i}.git`);
        fs.cpSync(partial, fetchDir, { recursive: true });
        fetchMs[who].push(await timed(() => run('git', ['--git-dir', fetchDir, 'fetch', '-q', url, '+refs/heads/main:refs/heads/main'])));
        fs.rmSync(fetchDir, { recursive: true, force: true });

        const target = `bench-push-${i}`;
        let pushUrl: string;
        if (who === 'wharf') {
          await o.createRepo(target);
          pushUrl = wharfRemote(o.base, o.login, o.token, target);
        } else {
          await run('git', ['init', '-q', '--bare', path.join(backendRoot, `${target}.git`)]);
          pushUrl = `${backend.base}/${target}.git`;
        }
        push[who].push(await timed(() => run('git', ['--git-dir', pushSource, 'push', '-q', pushUrl, 'main'])));
      }
      if (!('failure' in o.ssh) && sshFailure === null) {
        // A failed SSH clone leaves the SSH figure out, never the HTTP ones.
        const ssh = o.ssh;
        const sshDir = path.join(o.work, `clone-ssh-${i}.git`);
        try {
          sshClone.push(await timed(() => run('git', ['clone', '-q', '--bare', `${ssh.base}/${o.login}/${o.wharfRepo}.git`, sshDir], { env: ssh.env })));
        } catch (err) {
          // run()'s message starts with the whole command line: keep the exit status and stderr.
          const message = err instanceof Error ? err.message : String(err);
          const at = message.indexOf(': exit ');
          sshFailure = `SSH clone failed: ${message.slice(at >= 0 ? at + 2 : 0).replace(/\s+/g, ' ')}`.slice(0, 200);
        }
        fs.rmSync(sshDir, { recursive: true, force: true });
      }
    }
    const pair = (x: { wharf: number[]; backend: number[] }) => ({ wharfMs: median(x.wharf), backendMs: median(x.backend) });
    return {
      commits: o.commits, pushCommits: o.pushCommits, fetchCommits: o.fetchCommits, runs: o.runs,
      clone: pair(clone), fetch: pair(fetchMs), push: pair(push),
      seedPush: { wharfMs: o.wharfSeedPushMs, backendMs: backendSeedPushMs },
      sshClone: sshFailure === null && sshClone.length > 0 ? { sshMs: median(sshClone), httpMs: median(clone.wharf) } : null,
      sshFailure,
    };
  } finally {
    await backend.close();
  }
}

export function printGit(g: GitFigures): void {
  const line = (what: string, p: { wharfMs: number; backendMs: number }) =>
    console.log(`  ${what.padEnd(34)} wharf ${p.wharfMs.toFixed(0).padStart(6)} ms, http-backend ${p.backendMs.toFixed(0).padStart(6)} ms, ratio ${(p.wharfMs / p.backendMs).toFixed(2)}`);
  console.log(`git over HTTP against git http-backend (median of ${g.runs}):`);
  line(`clone, ${g.commits} commits`, g.clone);
  line(`fetch of the last ${g.fetchCommits} commits`, g.fetch);
  line(`push of ${g.pushCommits} commits (empty repo)`, g.push);
  line(`first push of ${g.commits} commits (1 run)`, g.seedPush);
  console.log(g.sshClone
    ? `  ${`clone, ${g.commits} commits, over SSH`.padEnd(34)} wharf ${g.sshClone.sshMs.toFixed(0).padStart(6)} ms, over HTTP ${g.sshClone.httpMs.toFixed(0).padStart(6)} ms, ratio ${(g.sshClone.sshMs / g.sshClone.httpMs).toFixed(2)}`
    : `  clone over SSH not measured: ${g.sshFailure ?? 'no run'}`);
}
