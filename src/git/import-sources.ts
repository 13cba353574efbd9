// The source side of an import: what is at a URL (git smart HTTP, Subversion,
// Mercurial), and its history fetched into a local git repository ("raw"): git by
// fetching every branch and tag, Subversion by git svn, Mercurial by git-remote-hg.
// Connections go only to the address the caller checked (ImportTarget.pin): git over
// HTTP pinned with curl's resolve list, Mercurial and git-remote-hg by the wharfpin
// extension (import-hg-pin.py, told by WHARF_IMPORT_PIN), svn:// by the address put in
// the URL (git svn records the URL as given, --rewrite-root), Subversion over http(s)
// by a proxy of Wharf's own that svn's configuration names and that connects only to
// the checked address (import-svn-proxy.ts). See imports.guard.ts in the imports module.
import fs from 'node:fs';
import path from 'node:path';
import type { CredentialScope } from './import-credentials.ts';
import { runTool, type ToolOptions, type ToolResult } from './import-process.ts';
import { startPinnedProxy } from './import-svn-proxy.ts';

export type ImportVcs = 'git' | 'subversion' | 'mercurial';

export interface ImportTarget {
  url: string;
  /** host:port:address (curl's resolve syntax): the connection goes to the address checked. */
  pin: string | null;
}

export interface StepTools {
  creds: CredentialScope;
  signal: AbortSignal;
  timeoutMs: number;
}

export type Probe = 'found' | 'auth' | 'nothing';

/** What a source's answer says about credentials (each tool words it its own way). */
const AUTH_FAILURE = /Authentication failed|could not read (Username|Password)|HTTP 40[13]|\b40[13]\b|authorization (failed|required)|E170001|E215004|E170013.*auth|Authorization failed|No more credentials/i;

export function isAuthFailure(stderr: string): boolean {
  return AUTH_FAILURE.test(stderr);
}

function options(t: StepTools, extra: Partial<ToolOptions> = {}): ToolOptions {
  return { env: t.creds.env, signal: t.signal, timeoutMs: t.timeoutMs, ...extra };
}

/** For Mercurial and git-remote-hg: the pin, for the wharfpin extension. */
function hgOptions(t: StepTools, target: ImportTarget, extra: Partial<ToolOptions> = {}): ToolOptions {
  return options(t, { ...extra, env: { ...t.creds.env, ...(target.pin ? { WHARF_IMPORT_PIN: target.pin } : {}) } });
}

/** An svn:// URL with the checked address in place of the host name (svnserve ignores the name). */
function svnPinned(target: ImportTarget, url: string): string {
  if (!target.pin || !url.startsWith('svn:')) return url;
  const address = target.pin.slice(target.pin.lastIndexOf(':', target.pin.endsWith(']') ? target.pin.lastIndexOf('[') : undefined) + 1);
  const u = new URL(url);
  u.hostname = address;
  return u.toString();
}

/** Pinned to the checked address, and no redirects: one could lead past the address guard. */
function gitPin(target: ImportTarget): string[] {
  return ['-c', 'http.followRedirects=false', ...(target.pin ? ['-c', `http.curloptResolve=${target.pin}`] : [])];
}

/** The address a pin ("host:port:address", curl's resolve syntax) names, without brackets. */
function pinnedAddress(pin: string, url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return pin.slice(`${url.hostname.replace(/^\[(.*)\]$/, '$1')}:${port}:`.length).replace(/^\[(.*)\]$/, '$1');
}

/**
 * Runs `work` (svn or git svn, with the step's configuration directory) with Subversion
 * over http(s) pinned: the directory's `servers` file names a proxy of Wharf's own that
 * reaches only the source's host and port, at the checked address. svn:// (pinned in
 * the URL) and targets without a pin run as they are.
 */
async function svnPinnedHttp<T>(target: ImportTarget, t: StepTools, work: () => Promise<T>): Promise<T> {
  const url = new URL(target.url);
  if (!target.pin || (url.protocol !== 'http:' && url.protocol !== 'https:')) return work();
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const proxy = await startPinnedProxy(url.hostname, port, pinnedAddress(target.pin, url));
  const servers = path.join(t.creds.svnConfigDir, 'servers');
  // No exceptions: every host goes through the proxy, which refuses all but the source.
  fs.writeFileSync(servers, `[global]\nhttp-proxy-host = 127.0.0.1\nhttp-proxy-port = ${proxy.port}\nhttp-proxy-exceptions =\n`, { mode: 0o600 });
  try {
    return await work();
  } finally {
    fs.rmSync(servers, { force: true });
    await proxy.close();
  }
}

function svnAuth(t: StepTools): { args: string[]; input: string | undefined } {
  const args = ['--non-interactive', '--no-auth-cache', '--config-dir', t.creds.svnConfigDir];
  if (t.creds.username !== null) args.push('--username', t.creds.username);
  if (t.creds.svnPassword !== null) return { args: [...args, '--password-from-stdin'], input: `${t.creds.svnPassword}\n` };
  return { args, input: undefined };
}

function judge(r: ToolResult): Probe {
  if (r.code === 0) return 'found';
  return isAuthFailure(r.stderr) ? 'auth' : 'nothing';
}

export async function probe(vcs: ImportVcs, target: ImportTarget, t: StepTools): Promise<Probe> {
  if (vcs === 'git') {
    return judge(await runTool('git', [...gitPin(target), 'ls-remote', '--', target.url], options(t)));
  }
  if (vcs === 'subversion') {
    const a = svnAuth(t);
    return judge(await svnPinnedHttp(target, t, () => runTool('svn', ['info', ...a.args, '--', svnPinned(target, target.url)], options(t, { input: a.input }))));
  }
  return judge(await runTool('hg', ['identify', '--noninteractive', '--', target.url], hgOptions(t, target)));
}

/** Which tools can speak to a URL of this scheme. */
export function candidates(url: URL): ImportVcs[] {
  if (url.protocol === 'svn:') return ['subversion'];
  return ['git', 'mercurial', 'subversion'];
}

// ---------------------------------------------------------------- Subversion layouts

export interface SvnProject {
  /** Path below the URL ('' for the root itself). */
  path: string;
  /** trunk/branches/tags under it. */
  standard: boolean;
}

async function svnList(url: string, t: StepTools): Promise<string[] | 'auth'> {
  const a = svnAuth(t);
  const r = await runTool('svn', ['list', ...a.args, '--', url], options(t, { input: a.input }));
  if (r.code !== 0) {
    if (isAuthFailure(r.stderr)) return 'auth';
    throw new Error(`svn list failed: ${lastLine(r.stderr)}`);
  }
  return r.stdout.split('\n').map((l) => l.trim()).filter(Boolean);
}

/**
 * The projects of a Subversion URL: the root itself when it holds trunk/, else each
 * top-level directory holding trunk/ (several: the caller asks the user to choose),
 * else the root as one tree without the standard layout.
 */
export function svnProjects(target: ImportTarget, t: StepTools): Promise<SvnProject[] | 'auth'> {
  return svnPinnedHttp(target, t, () => listProjects(target, t));
}

async function listProjects(target: ImportTarget, t: StepTools): Promise<SvnProject[] | 'auth'> {
  const top = await svnList(svnPinned(target, target.url), t);
  if (top === 'auth') return top;
  if (top.includes('trunk/')) return [{ path: '', standard: true }];
  const found: SvnProject[] = [];
  for (const entry of top.filter((e) => e.endsWith('/')).slice(0, 50)) {
    const inner = await svnList(svnPinned(target, `${target.url.replace(/\/+$/, '')}/${encodeURIComponent(entry.slice(0, -1))}`), t);
    if (inner === 'auth') return inner;
    if (inner.includes('trunk/')) found.push({ path: entry.slice(0, -1), standard: true });
  }
  return found.length ? found : [{ path: '', standard: false }];
}

// ---------------------------------------------------------------- fetching

export interface FetchProgress {
  percent(value: number): void;
  commits(count: number): void;
}

/** The git directory an import's raw history is in, below the import's work directory. */
export function rawGitDir(workDir: string, vcs: ImportVcs): string {
  return vcs === 'subversion' ? path.join(workDir, 'raw-svn', '.git') : path.join(workDir, 'raw.git');
}

export class FetchFailed extends Error {
  constructor(message: string, readonly auth: boolean) {
    super(message);
  }
}

function lastLine(stderr: string): string {
  const lines = stderr.split(/[\r\n]/).map((l) => l.trim()).filter((l) => l && !/^(remote: )?\s*$/.test(l));
  return (lines.at(-1) ?? 'failed').slice(0, 300);
}

function fail(tool: string, r: ToolResult): never {
  throw new FetchFailed(`${tool}: ${lastLine(r.stderr)}`, isAuthFailure(r.stderr));
}

const PERCENT = /(?:Receiving objects|Counting objects|Resolving deltas):\s+(\d+)%/;

export async function fetchGit(workDir: string, target: ImportTarget, t: StepTools, progress: FetchProgress): Promise<void> {
  const dir = rawGitDir(workDir, 'git');
  fs.rmSync(dir, { recursive: true, force: true });
  const init = await runTool('git', ['init', '--bare', '--quiet', dir], options(t));
  if (init.code !== 0) fail('git init', init);
  const r = await runTool('git', ['--git-dir', dir, ...gitPin(target), 'fetch', '--progress', '--no-write-fetch-head', '--', target.url,
    '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'], options(t, {
    keepStdout: false,
    onLine: (line) => {
      const m = PERCENT.exec(line);
      // Receiving is most of the work; resolving the rest.
      if (m) progress.percent(line.startsWith('Resolving') ? 90 + Math.floor(Number(m[1]) / 10) : Math.floor(Number(m[1]) * 0.9));
    },
  }));
  if (r.code !== 0) fail('git fetch', r);
}

export function fetchSvn(workDir: string, target: ImportTarget, project: SvnProject, t: StepTools, progress: FetchProgress): Promise<void> {
  return svnPinnedHttp(target, t, () => fetchSvnPinned(workDir, target, project, t, progress));
}

async function fetchSvnPinned(workDir: string, target: ImportTarget, project: SvnProject, t: StepTools, progress: FetchProgress): Promise<void> {
  const work = path.dirname(rawGitDir(workDir, 'subversion'));
  fs.rmSync(work, { recursive: true, force: true });
  const url = project.path ? `${target.url.replace(/\/+$/, '')}/${encodeURIComponent(project.path)}` : target.url;
  const a = svnAuth(t);
  const pinned = svnPinned(target, url);
  const info = await runTool('svn', ['info', ...a.args, '--show-item', 'last-changed-revision', '--', pinned], options(t, { input: a.input }));
  if (info.code !== 0) fail('svn info', info);
  const head = Math.max(1, Number(info.stdout.trim()) || 1);
  const auth = ['--config-dir', t.creds.svnConfigDir, '--no-auth-cache', ...(t.creds.username !== null ? ['--username', t.creds.username] : [])];
  // Fetched from the checked address; the history names the URL as given.
  const rewrite = pinned !== url ? [`--rewrite-root=${url}`] : [];
  const init = await runTool('git', ['svn', 'init', ...auth, ...rewrite, '--prefix=origin/', ...(project.standard ? ['--stdlayout'] : []), '--', pinned, work], options(t));
  if (init.code !== 0) fail('git svn init', init);
  let count = 0;
  const r = await runTool('git', ['svn', 'fetch', ...auth], options(t, {
    cwd: work, keepStdout: false,
    onLine: (line) => {
      // "r7 = <sha> (refs/remotes/origin/trunk)": one commit per revision and branch.
      const m = /^r(\d+) = [0-9a-f]{40}/.exec(line);
      if (!m) return;
      count += 1;
      progress.commits(count);
      progress.percent(Math.min(100, Math.floor((Number(m[1]) / head) * 100)));
    },
  }));
  if (r.code !== 0) fail('git svn fetch', r);
}

export async function fetchHg(workDir: string, target: ImportTarget, t: StepTools, progress: FetchProgress): Promise<void> {
  const dir = rawGitDir(workDir, 'mercurial');
  fs.rmSync(dir, { recursive: true, force: true });
  const r = await runTool('git', ['clone', '--bare', '--progress', '--', `hg::${target.url}`, dir], hgOptions(t, target, {
    keepStdout: false,
    onLine: (line) => {
      // git-remote-hg: "progress revision 3 'master' (2/5)".
      const m = /\((\d+)\/(\d+)\)/.exec(line);
      if (m && Number(m[2]) > 0) progress.percent(Math.min(100, Math.floor((Number(m[1]) / Number(m[2])) * 100)));
    },
  }));
  if (r.code !== 0) fail('git-remote-hg', r);
}
