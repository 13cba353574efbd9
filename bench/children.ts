// Child processes of the benchmark: started, waited for, and always stopped, also
// when the run fails or is interrupted.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

export interface Child {
  name: string;
  process: ChildProcess;
  /** The last output of the child, for the error message when it dies. */
  output(): string;
  /** SIGTERM, then SIGKILL after graceMs; resolves when the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

const running = new Set<Child>();

function isRunning(p: ChildProcess): boolean {
  return p.exitCode === null && p.signalCode === null;
}

const cleanups: (() => void)[] = [];

/** Synchronous work to do however the process ends (temp dirs). */
export function onExit(fn: () => void): void {
  cleanups.push(fn);
}

// Last resort: whatever ends this process takes its children with it.
process.on('exit', () => {
  for (const child of running) if (isRunning(child.process)) child.process.kill('SIGKILL');
  for (const fn of cleanups.splice(0)) {
    try { fn(); } catch { /* best effort while exiting */ }
  }
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void stopAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

/** Starts node with args, or `options.command` (another program, e.g. nginx) with them. */
export function startChild(name: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; command?: string }): Child {
  const proc = spawn(options.command ?? process.execPath, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  const keep = (chunk: Buffer) => { tail = (tail + chunk.toString('utf8')).slice(-8000); };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => {
    if (!isRunning(proc)) resolve();
    proc.once('exit', () => resolve());
  });
  const child: Child = {
    name,
    process: proc,
    output: () => tail,
    async stop(graceMs = 10_000) {
      if (isRunning(proc)) {
        proc.kill('SIGTERM');
        const timer = setTimeout(() => { if (isRunning(proc)) proc.kill('SIGKILL'); }, graceMs);
        await exited;
        clearTimeout(timer);
      }
      running.delete(child);
    },
  };
  running.add(child);
  return child;
}

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((c) => c.stop()));
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves once the child answers HTTP at url (any status); fails if it exits first. */
export async function waitForHttp(child: Child, url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!isRunning(child.process)) {
      throw new Error(`${child.name} exited (code ${child.process.exitCode}) before answering:\n${child.output()}`);
    }
    try {
      const res = await fetch(url, { headers: { 'user-agent': 'wharf-bench/1.0' } });
      await res.arrayBuffer();
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${child.name} did not answer ${url} within ${timeoutMs} ms:\n${child.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

let clockTicks: number | null = null;

/**
 * CPU time (user + system, ms) the process has used so far, from /proc; null where
 * there is no /proc. Unlike req/s, this does not move when other work shares the CPUs.
 */
export function cpuTimeMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (clockTicks === null) {
      try {
        clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
      } catch {
        clockTicks = 100;
      }
    }
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
  } catch {
    return null;
  }
}

/** Resident set size (VmRSS, bytes) of the process now, from /proc; null where there is no /proc. */
export function rssBytes(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** What `npm start` runs: the bundle scripts/build.mjs makes. */
export const BUNDLED_WHARF = '.build/src/main.mjs';
/** What `npm run cli` runs (made by the same build). */
export const BUNDLED_CLI = '.build/cli/main.mjs';

/**
 * node's arguments that run Wharf from `entry` as `npm start` does: the bundle
 * scripts/build.mjs makes (made here first), or a .ts entry through tsx.
 */
export function wharfArgs(root: string, entry = BUNDLED_WHARF): string[] {
  const flags = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
  if (entry.endsWith('.ts')) return [...flags, '--import', 'tsx', entry];
  const built = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('scripts/build.mjs failed');
  return [...flags, entry];
}
