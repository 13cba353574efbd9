// Running git. The only place that spawns it; everything else calls the functions here.
import { spawn } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';

export class GitError extends Error {
  constructor(readonly args: string[], readonly code: number | null, readonly stderr: string) {
    super(`git ${args.join(' ')} failed (${code}): ${stderr.trim()}`);
  }
}

/**
 * git failed for want of space (ENOSPC or a quota, as its stderr says). Not a GitError:
 * callers read a GitError as git's answer (a ref that moved meanwhile: 409 or 422), and
 * a full disk taken for one told clients to retry what could not succeed. Its code is
 * node's, so the error mapping answers 507 (db/failures isStorageFull).
 */
export class GitStorageFullError extends Error {
  readonly code = 'ENOSPC';
  constructor(readonly args: string[], readonly stderr: string) {
    super(`git ${args.join(' ')} failed: ${stderr.trim()}`);
  }
}

// git names the errno for objects ("unable to write loose object file: No space left on
// device") but not for a ref's lock file ("couldn't write '…/main.lock'"), whose write
// fails only when the disk does; a ref that moved meanwhile says "cannot lock ref … is
// at … but expected …" instead.
const NO_SPACE = /No space left on device|Disk quota exceeded|couldn't write '[^']*\.lock'/i;

function gitFailure(args: string[], code: number | null, stderr: string): Error {
  return NO_SPACE.test(stderr) ? new GitStorageFullError(args, stderr) : new GitError(args, code, stderr);
}

/**
 * git ran past the time it was given (RunOptions.timeoutMs) and was stopped: the work
 * was too large to do within a request. The HTTP layer answers 503, as a search past its
 * budget is answered (http/errors.ts): nothing is wrong with the request, and the
 * answer may come another time (or not: the work does not shrink).
 */
export class GitTimedOut extends Error {
  override name = 'GitTimedOut';
  constructor(readonly args: string[], readonly timeoutMs: number) {
    super(`git ${args[0] ?? ''} took longer than ${timeoutMs} ms and was stopped`);
  }
}

export interface RunOptions {
  input?: Buffer | string;
  env?: Record<string, string>;
  /** Exit codes that are answers rather than failures (e.g. 1 for "not found"). */
  okCodes?: number[];
  /**
   * Past this, git and whatever it started (a textconv filter) are killed and the run
   * fails with GitTimedOut; unset: no limit.
   */
  timeoutMs?: number;
}

export interface RunResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}

/** A fixed identity and no user config: git behaves the same on every machine. */
const BASE_ENV: Record<string, string> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  LC_ALL: 'C',
};

export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...BASE_ENV, ...extra };
}

let started = 0;

/**
 * How many git processes runGit has started in this process: tests hold the hot reads
 * (a pull request, a file, a page of history read again) to none, since starting one
 * costs Wharf milliseconds of its own thread.
 */
export function gitProcessesStarted(): number {
  return started;
}

/**
 * git's standard output as a stream, for output too large to hold (archives): read as
 * it is written; an error on the stream when git fails; git is stopped when the reader
 * goes away (a download abandoned half way).
 */
export function streamGit(gitDir: string, args: string[]): Readable {
  started += 1;
  const child = spawn('git', ['--git-dir', gitDir, ...args], { env: gitEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  const out = new PassThrough();
  const err: Buffer[] = [];
  child.stderr.on('data', (c: Buffer) => err.push(c));
  child.stdout.pipe(out, { end: false });
  child.on('error', (e) => out.destroy(e));
  child.on('close', (code) => {
    if (code === 0) out.end();
    else out.destroy(gitFailure(args, code, Buffer.concat(err).toString('utf8')));
  });
  out.on('close', () => { if (child.exitCode === null) child.kill(); });
  return out;
}

export function runGit(gitDir: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  started += 1;
  return new Promise((resolve, reject) => {
    const bounded = options.timeoutMs !== undefined;
    // Bounded: a process group of its own, so that the kill reaches git's children too.
    const child = spawn('git', ['--git-dir', gitDir, ...args], { env: gitEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'], detached: bounded });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    if (bounded) {
      timer = setTimeout(() => {
        try { if (child.pid) process.kill(-child.pid, 'SIGKILL'); } catch { /* gone already */ }
        reject(new GitTimedOut(args, options.timeoutMs!));
      }, options.timeoutMs);
    }
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('close', (code) => {
      clearTimeout(timer);
      const result = { stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), code: code ?? -1 };
      if (code === 0 || (code !== null && options.okCodes?.includes(code))) resolve(result);
      else reject(gitFailure(args, code, result.stderr));
    });
    child.stdin.on('error', () => { /* git may exit before reading all input; its exit code tells */ });
    child.stdin.end(options.input ?? '');
  });
}

export async function gitText(gitDir: string, args: string[], options: RunOptions = {}): Promise<string> {
  return (await runGit(gitDir, args, options)).stdout.toString('utf8');
}
