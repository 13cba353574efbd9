// The git binary for the reliability suites: never prompts, reads no user or system
// configuration, resolves with the exit code instead of throwing.
import { execFile } from 'node:child_process';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

const ENV = {
  GIT_TERMINAL_PROMPT: '0',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Crash Suite',
  GIT_AUTHOR_EMAIL: 'crash@example.com',
  GIT_COMMITTER_NAME: 'Crash Suite',
  GIT_COMMITTER_EMAIL: 'crash@example.com',
};

export function git(args: string[], cwd?: string, timeoutMs = 60_000): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env: { ...process.env, ...ENV }, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
      resolve({ code, stdout, stderr: stderr || (err && code === -1 ? String(err.message) : '') });
    });
  });
}

export async function gitOk(args: string[], cwd?: string): Promise<string> {
  const r = await git(args, cwd);
  if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
  return r.stdout;
}
