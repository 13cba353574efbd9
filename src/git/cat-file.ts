// Long-running `git cat-file --batch-command` processes, one per repository in use:
// reading an object becomes a round trip on a pipe instead of a new git process
// (the blob and tree reads of the API are on the hot path). git re-reads its pack
// directory when it misses an object, so objects pushed later are found.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { gitEnv } from './run.ts';

export interface CatFileObject {
  sha: string;
  type: string;
  size: number;
  /** Absent for `info` requests. */
  content?: Buffer;
}

interface Pending {
  withContent: boolean;
  resolve(o: CatFileObject | null): void;
  reject(err: Error): void;
}

const MAX_PROCESSES = 32;
const IDLE_MS = 30_000;

class BatchProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending: Pending[] = [];
  private chunks: Buffer[] = [];
  private buffered = 0;
  private idle: NodeJS.Timeout | null = null;
  dead = false;
  /** Asked to stop while requests were pending: stops once they are answered. */
  closing = false;

  constructor(readonly dir: string, private readonly onGone: () => void) {
    this.child = spawn('git', ['--git-dir', dir, 'cat-file', '--batch-command'], { env: gitEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (c: Buffer) => { this.chunks.push(c); this.buffered += c.length; this.drain(); });
    this.child.stderr.resume();
    this.child.stdin.on('error', () => { /* the exit handler rejects what is pending */ });
    this.child.on('error', (err) => this.fail(err));
    this.child.on('exit', () => this.fail(new Error(`git cat-file exited for ${dir}`)));
  }

  request(withContent: boolean, name: string): Promise<CatFileObject | null> {
    if (this.dead) return Promise.reject(new Error('git cat-file is gone'));
    if (this.idle) { clearTimeout(this.idle); this.idle = null; }
    return new Promise((resolve, reject) => {
      this.pending.push({ withContent, resolve, reject });
      this.child.stdin.write(`${withContent ? 'contents' : 'info'} ${name}\n`);
    });
  }

  close(): void {
    if (this.dead) return;
    if (this.pending.length) { this.closing = true; return; }
    this.dead = true;
    if (this.idle) clearTimeout(this.idle);
    this.child.stdin.end();
    this.child.kill();
    this.onGone();
  }

  private fail(err: Error): void {
    const wasDead = this.dead;
    this.dead = true;
    if (this.idle) clearTimeout(this.idle);
    for (const p of this.pending.splice(0)) p.reject(err);
    if (!wasDead) this.onGone();
  }

  private peek(n: number): Buffer {
    if (this.chunks.length > 1 && this.chunks[0]!.length < n) {
      this.chunks = [Buffer.concat(this.chunks)];
    }
    return this.chunks[0]!;
  }

  private consume(n: number): void {
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const rest = all.subarray(n);
    this.chunks = rest.length ? [rest] : [];
    this.buffered -= n;
  }

  private drain(): void {
    while (this.pending.length && this.buffered > 0) {
      const head = this.peek(Math.min(this.buffered, 256));
      let nl = head.indexOf(10);
      if (nl < 0) {
        if (this.chunks.length === 1) return;
        this.chunks = [Buffer.concat(this.chunks)];
        nl = this.chunks[0]!.indexOf(10);
        if (nl < 0) return;
      }
      const line = this.chunks[0]!.subarray(0, nl).toString();
      const p = this.pending[0]!;
      const [sha, type, size] = line.split(' ');
      if (line.endsWith(' missing') || line.endsWith(' ambiguous') || size === undefined) {
        this.pending.shift();
        this.consume(nl + 1);
        p.resolve(null);
        continue;
      }
      const length = Number(size);
      if (!p.withContent) {
        this.pending.shift();
        this.consume(nl + 1);
        p.resolve({ sha: sha!, type: type!, size: length });
        continue;
      }
      const needed = nl + 1 + length + 1;
      if (this.buffered < needed) return;
      const all = this.peek(needed);
      const content = Buffer.from(all.subarray(nl + 1, nl + 1 + length));
      this.pending.shift();
      this.consume(needed);
      p.resolve({ sha: sha!, type: type!, size: length, content });
    }
    if (!this.pending.length && this.closing) { this.close(); return; }
    if (!this.pending.length && !this.idle && !this.dead) {
      this.idle = setTimeout(() => this.close(), IDLE_MS);
      this.idle.unref();
    }
  }
}

const processes = new Map<string, BatchProcess>();

function processFor(dir: string): BatchProcess {
  let p = processes.get(dir);
  if (p && !p.dead && !p.closing) {
    processes.delete(dir);
    processes.set(dir, p); // most recently used last
    return p;
  }
  if (processes.size >= MAX_PROCESSES) processes.values().next().value?.close();
  const fresh = new BatchProcess(dir, () => { if (processes.get(dir) === fresh) processes.delete(dir); });
  p = fresh;
  processes.set(dir, p);
  return p;
}

/** Reads objects (with content) or their type and size (without), in order. */
export function catFile(dir: string, names: readonly string[], withContent: boolean): Promise<(CatFileObject | null)[]> {
  const p = processFor(dir);
  return Promise.all(names.map((n) => p.request(withContent, n)));
}

/** Stops the reader of a repository (before its directory is removed). */
export function closeCatFile(dir: string): void {
  processes.get(dir)?.close();
}

/** Stops every reader (server shutdown). */
export function closeAllCatFiles(): void {
  for (const p of [...processes.values()]) p.close();
}
