// What GET /readyz asks of git storage: that the repositories directory takes a file,
// and that the git binary runs. Here because src/git is the only code that touches
// repository directories or starts git.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { gitEnv } from './run.ts';
import { reposRoot } from './repository.ts';

/**
 * Writes a small file into $WHARF_DATA_DIR/repos and removes it: fails when the
 * directory cannot take one (missing storage, a read-only or full file system, not a
 * directory). The directory is made when missing, as the first repository would make
 * it, so a fresh data dir is ready; the data dir itself is not (its absence is a
 * fault). Root passes permission checks, so asking access() would prove nothing: the
 * write is the check.
 */
export async function probeRepositoryStorage(dataDir: string): Promise<void> {
  const root = reposRoot(dataDir);
  await fs.mkdir(root).catch((err: NodeJS.ErrnoException) => { if (err.code !== 'EEXIST') throw err; });
  // Named so that nothing reading the directory takes it for a repository (<id>.git).
  const probe = path.join(root, `.ready-${process.pid}-${randomBytes(4).toString('hex')}`);
  await fs.writeFile(probe, 'ok\n', { flag: 'wx' });
  await fs.rm(probe, { force: true });
}

/** How long a `git --version` may take before the check counts as failed. */
const GIT_TIMEOUT_MS = 2000;
/** How long an answer about the git binary is reused: the binary seldom changes, and probes come every few seconds. */
const GIT_CHECK_TTL_MS = 60_000;

let gitCheck: { at: number; result: Promise<string> } | null = null;

/**
 * `git --version`'s answer ("git version 2.43.0"), or a rejection when git cannot be
 * started, fails or takes longer than GIT_TIMEOUT_MS. One run serves every caller for
 * GIT_CHECK_TTL_MS (callers at the same time share the run under way).
 */
export function checkGitBinary(nowMs = Date.now()): Promise<string> {
  if (gitCheck && nowMs - gitCheck.at < GIT_CHECK_TTL_MS) return gitCheck.result;
  const result = new Promise<string>((resolve, reject) => {
    execFile('git', ['--version'], { env: gitEnv(), timeout: GIT_TIMEOUT_MS, killSignal: 'SIGKILL' }, (err, stdout) => {
      if (err) reject(err);
      else resolve(stdout.trim());
    });
  });
  gitCheck = { at: nowMs, result };
  // A rejection is an answer too (cached for the same time); this keeps it from being unhandled.
  result.catch(() => {});
  return result;
}
