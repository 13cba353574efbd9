// Running the tools of a source import (git, git svn, svn, hg, git-remote-hg): bounded
// in time, stopped by an AbortSignal (a cancelled import, a stopping server), no user
// or system configuration, no terminal prompts, and credentials only through the
// environment or files given by import-credentials.ts, never on the command line.
import { spawn } from 'node:child_process';
import { gitEnv } from './run.ts';

export interface ToolResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface ToolOptions {
  cwd?: string;
  env?: Record<string, string>;
  input?: string;
  signal: AbortSignal;
  timeoutMs: number;
  /** Each line (or \r-separated progress update) of stderr and stdout as it arrives. */
  onLine?: (line: string) => void;
  /** Keep stdout (off for tools whose output is only progress). */
  keepStdout?: boolean;
}

/** Thrown when the signal stopped a tool: the import was cancelled or superseded, or the server stops. */
export class ToolAborted extends Error {
  override name = 'ToolAborted';
}

export class ToolTimedOut extends Error {
  override name = 'ToolTimedOut';
}

const MAX_KEPT = 1 << 20;

/** Runs `cmd`; resolves with its exit code whatever it is (callers judge the output). */
export function runTool(cmd: string, args: string[], options: ToolOptions): Promise<ToolResult> {
  if (options.signal.aborted) return Promise.reject(new ToolAborted('stopped'));
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: options.cwd, env: gitEnv({ GIT_ASKPASS: '/bin/false', SSH_ASKPASS: '/bin/false', ...options.env }),
      stdio: ['pipe', 'pipe', 'pipe'], detached: true,
    });
    let stdout = '';
    let stderr = '';
    let partial = '';
    let why: Error | null = null;
    const stop = (err: Error) => {
      why ??= err;
      // The tool's own children (git-remote-hg, svn helpers) go with it: it leads a process group.
      try { if (child.pid) process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
    };
    const onAbort = () => stop(new ToolAborted('stopped'));
    options.signal.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => stop(new ToolTimedOut(`${cmd} took longer than ${Math.round(options.timeoutMs / 1000)} s`)), options.timeoutMs);
    const lines = (chunk: string) => {
      if (!options.onLine) return;
      const parts = (partial + chunk).split(/[\r\n]/);
      partial = parts.pop() ?? '';
      for (const p of parts) if (p) options.onLine(p);
    };
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      if (options.keepStdout !== false && stdout.length < 64 * MAX_KEPT) stdout += c;
      lines(c);
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr = (stderr + c).slice(-MAX_KEPT);
      lines(c);
    });
    child.on('error', (err) => stop(err));
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      if (why) reject(why);
      else resolve({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.on('error', () => { /* the tool may exit before reading its input */ });
    child.stdin.end(options.input ?? '');
  });
}
