// Runs the git binary against a test server, asynchronously (the server shares this
// process: a synchronous git would block it).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { allPushesRecorded } from '../../src/git/push-recordings.ts';

export interface GitResult {
  stdout: string;
  stderr: string;
  code: number;
}

const ENV = {
  GIT_TERMINAL_PROMPT: '0',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Test Author',
  GIT_AUTHOR_EMAIL: 'author@example.com',
  GIT_COMMITTER_NAME: 'Test Author',
  GIT_COMMITTER_EMAIL: 'author@example.com',
};

/**
 * Runs git; resolves with its output and exit code (never rejects on a non-zero exit).
 * After a push, once the pushes acknowledged in this process are recorded too (Wharf
 * answers a push before recording it): tests read its events from the database.
 */
export async function git(args: string[], options: { cwd?: string; env?: Record<string, string>; input?: string } = {}): Promise<GitResult> {
  const result = await runGit(args, options);
  if (args.includes('push')) await allPushesRecorded();
  return result;
}

function runGit(args: string[], options: { cwd?: string; env?: Record<string, string>; input?: string }): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = execFile('git', args, {
      cwd: options.cwd, env: { ...process.env, ...ENV, ...options.env }, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8',
    }, (err, stdout, stderr) => {
      if (err && typeof (err as NodeJS.ErrnoException).code !== 'number' && !('code' in err && err.code !== undefined)) return reject(err);
      resolve({ stdout, stderr, code: err ? Number((err as { code?: number }).code ?? 1) : 0 });
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** Like git(), but throws with git's stderr when it fails. */
export async function gitOk(args: string[], options: { cwd?: string; env?: Record<string, string>; input?: string } = {}): Promise<string> {
  const r = await git(args, options);
  if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
  return r.stdout;
}

const made: string[] = [];
// Clones and work trees go when the test file's process ends (tests seldom remove
// their own, and a suite run made over a thousand).
process.once('exit', () => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory in the system's temp dir, removed when the process exits. */
export function tempDir(prefix = 'wharf-git-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** http://login:token@host/owner/repo.git */
export function cloneUrl(baseUrl: string, owner: string, repo: string, login?: string, token?: string): string {
  const url = new URL(`${baseUrl}/${owner}/${repo}.git`);
  if (login) url.username = login;
  if (token) url.password = token;
  return url.toString();
}
