// git's pack services run directly on a byte stream, as sshd runs them for git over
// SSH: `git upload-pack <dir>`, `git receive-pack <dir>`, `git upload-archive <dir>`,
// the client's bytes on stdin, git's on stdout, its messages on stderr.
import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { gitEnv } from './run.ts';

export type PackService = 'git-upload-pack' | 'git-receive-pack' | 'git-upload-archive';

export interface PackServiceRun {
  /** Resolves with git's exit code (or -1 when a signal ended it) once it and its stdio have closed. */
  exited: Promise<number>;
  /** Ends git and every process it started (index-pack, hooks), as a client gone away calls for. */
  kill(): void;
}

export interface PackServiceRequest {
  service: PackService;
  repoDir: string;
  /** The client's GIT_PROTOCOL ("version=2"): protocol v2 when asked for. */
  gitProtocol?: string;
  /** More environment for git (protected-push's hook settings). */
  env?: Record<string, string>;
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

export function runPackService(req: PackServiceRequest): PackServiceRun {
  // Its own process group, so that kill() reaches what git started, not git alone.
  const child = spawn('git', [req.service.slice('git-'.length), req.repoDir], {
    env: gitEnv({ ...(req.gitProtocol ? { GIT_PROTOCOL: req.gitProtocol } : {}), ...req.env }),
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  req.stdin.pipe(child.stdin);
  child.stdin.on('error', () => { /* git may stop reading early; its exit code tells */ });
  child.stdout.pipe(req.stdout, { end: false });
  child.stderr.pipe(req.stderr, { end: false });
  let done = false;
  const exited = new Promise<number>((resolve) => {
    child.on('error', () => { done = true; resolve(-1); });
    child.on('close', (code) => { done = true; resolve(code ?? -1); });
  });
  return {
    exited,
    kill() {
      if (done || child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        child.kill('SIGTERM'); // the group is gone already; git alone, if it is not
      }
    },
  };
}
