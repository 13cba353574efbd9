// The mapping step of an import: the raw history streamed through
// `git fast-export | filter | git fast-import` into a fresh repository, with the branch
// and tag names converted (fast-export's --refspec), each author, committer and tagger
// replaced by its mapping, and blobs over the large-file threshold dropped from history
// (opt_out) or replaced by Git LFS pointer files whose objects Wharf keeps (opt_in), each
// rewritten commit then naming its converted paths in its `.gitattributes` (import-attributes.ts).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ATTRIBUTES_FILE, LfsAttributes, planLfsAttributes } from './import-attributes.ts';
import type { Identity, RefMove } from './import-history.ts';
import { ToolAborted, ToolTimedOut } from './import-process.ts';
import { objectPath, tempPath } from './lfs-store.ts';
import { gitEnv } from './run.ts';

export type LargeFilePolicy = 'keep' | 'drop' | 'pointer';

export interface RewriteOptions {
  rawGitDir: string;
  finalGitDir: string;
  moves: readonly RefMove[];
  /** "name\0email" as the source wrote it → the identity to write. */
  authors: ReadonlyMap<string, Identity>;
  largeFileBytes: number;
  largeFiles: LargeFilePolicy;
  /** The repository's LFS dir (lfs-store's lfsDir), where 'pointer' stores the large blobs. */
  lfsDir: string;
  signal: AbortSignal;
  timeoutMs: number;
}

export function identityKey(name: string, email: string): string {
  return `${name}\0${email}`;
}

const IDENTITY = /^(author|committer|tagger) (?:(.*) )?<([^>]*)> (\d+ [+-]\d{4})$/;
const MODIFY = /^M \d{6} :(\d+) /;
/** The commands that end a commit's file commands (as a blank line does). */
const COMMAND = /^(commit|tag|reset|blob|checkpoint|progress|feature|option|done|alias)( |$)/;

/** Parses fast-export's stream command by command; data is passed by length, never parsed. */
export class FastExportFilter extends Transform {
  private buf: Buffer = Buffer.alloc(0);
  private dataLeft = 0;
  private context: 'blob' | 'commit' | 'tag' | 'other' = 'other';
  private pendingBlob: string[] = [];
  private blobMark: string | null = null;
  private readonly dropped = new Set<string>();
  private skipBlank = false;
  /** A large blob being stored as an LFS object (pointer) or skipped (drop). */
  private large: { fd: number | null; tmp: string | null; hash: ReturnType<typeof createHash>; size: number } | null = null;
  /** The `.gitattributes` the current commit ends with (null: removed), written after its file commands. */
  private attributes: Buffer | null | undefined = undefined;

  constructor(private readonly o: RewriteOptions, private readonly lfsAttributes = new LfsAttributes()) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    try {
      this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
      this.drain();
      done();
    } catch (err) {
      done(err as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    this.writeAttributes();
    if (this.buf.length) this.push(this.buf);
    done();
  }

  private drain(): void {
    for (;;) {
      if (this.dataLeft > 0) {
        if (!this.buf.length) return;
        const n = Math.min(this.dataLeft, this.buf.length);
        const part = this.buf.subarray(0, n);
        this.buf = this.buf.subarray(n);
        this.dataLeft -= n;
        if (this.large) this.largeChunk(part);
        else this.push(part);
        if (this.dataLeft === 0 && this.large) this.finishLarge();
        continue;
      }
      const nl = this.buf.indexOf(10);
      if (nl < 0) return;
      const line = this.buf.subarray(0, nl).toString('utf8');
      this.buf = this.buf.subarray(nl + 1);
      this.line(line);
    }
  }

  private out(line: string): void {
    this.push(Buffer.from(`${line}\n`, 'utf8'));
  }

  private line(line: string): void {
    // A dropped blob's optional LF: fast-import takes one blank line after data, not two.
    const skip = this.skipBlank;
    this.skipBlank = false;
    if (skip && line === '') return;
    if (line === '' || COMMAND.test(line)) this.writeAttributes();
    // --show-original-ids: read here, not passed on (fast-import before git 2.21 refuses them).
    if (line.startsWith('original-oid ')) {
      if (this.context === 'commit') this.attributes = this.lfsAttributes.contentFor(line.slice('original-oid '.length));
      return;
    }
    if (line === 'blob') {
      this.context = 'blob';
      this.pendingBlob = [line];
      this.blobMark = null;
      return;
    }
    if (line.startsWith('commit ')) this.context = 'commit';
    else if (line.startsWith('tag ')) this.context = 'tag';
    else if (line.startsWith('reset ') || line === 'done' || line.startsWith('feature ')) this.context = 'other';
    if (this.context === 'blob') {
      if (line.startsWith('mark :')) this.blobMark = line.slice(6);
      if (!line.startsWith('data ')) {
        this.pendingBlob.push(line);
        return;
      }
      const size = Number(line.slice(5));
      this.dataLeft = size;
      this.context = 'other';
      if (size > this.o.largeFileBytes && this.o.largeFiles !== 'keep') {
        this.startLarge(size);
      } else {
        for (const l of this.pendingBlob) this.out(l);
        this.out(line);
      }
      this.pendingBlob = [];
      if (size === 0 && this.large) this.finishLarge();
      return;
    }
    if (line.startsWith('data ')) {
      this.dataLeft = Number(line.slice(5));
      this.out(line);
      return;
    }
    if (this.context === 'commit' || this.context === 'tag') {
      const m = IDENTITY.exec(line);
      if (m) {
        const mapped = this.o.authors.get(identityKey(m[2] ?? '', m[3]!));
        if (mapped) {
          this.out(`${m[1]} ${mapped.name ? `${mapped.name} ` : ''}<${mapped.email}> ${m[4]}`);
          return;
        }
      }
      const mod = MODIFY.exec(line);
      if (mod && this.dropped.has(mod[1]!)) return;
    }
    this.out(line);
  }

  /** Ends the commit's file commands with its `.gitattributes`, where it needs one written; later commands win in fast-import. */
  private writeAttributes(): void {
    const content = this.attributes;
    this.attributes = undefined;
    if (content === undefined) return;
    if (content === null) {
      this.out(`D ${ATTRIBUTES_FILE}`);
      return;
    }
    this.out(`M 100644 inline ${ATTRIBUTES_FILE}`);
    this.out(`data ${content.length}`);
    this.push(Buffer.concat([content, Buffer.from('\n')]));
  }

  private startLarge(size: number): void {
    const pointer = this.o.largeFiles === 'pointer';
    let tmp: string | null = null;
    let fd: number | null = null;
    if (pointer) {
      tmp = tempPath(this.o.lfsDir);
      fs.mkdirSync(path.dirname(tmp), { recursive: true });
      fd = fs.openSync(tmp, 'w', 0o644);
    }
    this.large = { fd, tmp, hash: createHash('sha256'), size };
  }

  private largeChunk(part: Buffer): void {
    const l = this.large!;
    if (l.fd === null) return;
    l.hash.update(part);
    fs.writeSync(l.fd, part);
  }

  private finishLarge(): void {
    const l = this.large!;
    this.large = null;
    if (l.fd === null || l.tmp === null) {
      if (this.blobMark) this.dropped.add(this.blobMark);
      this.skipBlank = true;
      return;
    }
    fs.closeSync(l.fd);
    const oid = l.hash.digest('hex');
    const dest = objectPath(this.o.lfsDir, oid);
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.renameSync(l.tmp, dest);
    const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${l.size}\n`;
    for (const line of this.pendingBlobHeader()) this.out(line);
    this.out(`data ${Buffer.byteLength(pointer)}`);
    this.push(Buffer.from(pointer));
  }

  private pendingBlobHeader(): string[] {
    return ['blob', ...(this.blobMark ? [`mark :${this.blobMark}`] : [])];
  }
}

export async function rewriteHistory(o: RewriteOptions): Promise<void> {
  fs.rmSync(o.finalGitDir, { recursive: true, force: true });
  fs.mkdirSync(o.finalGitDir, { recursive: true });
  if (o.moves.length === 0) {
    await runSimple(['init', '--bare', '--quiet', o.finalGitDir], o);
    return;
  }
  await runSimple(['init', '--bare', '--quiet', o.finalGitDir], o);
  const attributes = o.largeFiles === 'pointer'
    ? await planLfsAttributes(o.rawGitDir, o.moves.map((m) => m.from), o.largeFileBytes, { signal: o.signal, timeoutMs: o.timeoutMs })
    : new LfsAttributes();
  const exportArgs = ['--git-dir', o.rawGitDir, 'fast-export', '--signed-tags=strip', '--tag-of-filtered-object=rewrite',
    '--reencode=yes', '--use-done-feature', ...(attributes.size ? ['--show-original-ids'] : []),
    ...o.moves.map((m) => `--refspec=${m.from}:${m.to}`), ...o.moves.map((m) => m.from)];
  const exporter = spawn('git', exportArgs, { env: gitEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  const importer = spawn('git', ['--git-dir', o.finalGitDir, 'fast-import', '--quiet', '--force', '--done'], { env: gitEnv(), stdio: ['pipe', 'ignore', 'pipe'] });
  let why: Error | null = null;
  const kill = (err: Error) => {
    why ??= err;
    exporter.kill('SIGKILL');
    importer.kill('SIGKILL');
  };
  const onAbort = () => kill(new ToolAborted('stopped'));
  o.signal.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => kill(new ToolTimedOut(`rewriting history took longer than ${Math.round(o.timeoutMs / 1000)} s`)), o.timeoutMs);
  let stderr = '';
  exporter.stderr.setEncoding('utf8').on('data', (c: string) => { stderr = (stderr + c).slice(-4096); });
  importer.stderr.setEncoding('utf8').on('data', (c: string) => { stderr = (stderr + c).slice(-4096); });
  const exited = (child: { on(e: 'close', f: (code: number | null) => void): unknown }) => new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  const codes = Promise.all([exited(exporter), exited(importer)]);
  try {
    await pipeline(exporter.stdout, new FastExportFilter(o, attributes), importer.stdin).catch((err: unknown) => kill(err as Error));
    const [e, i] = await codes;
    if (why) throw why;
    if (e !== 0 || i !== 0) throw new Error(`rewriting history failed: ${stderr.trim().split('\n').at(-1) ?? ''}`);
  } finally {
    clearTimeout(timer);
    o.signal.removeEventListener('abort', onAbort);
  }
}

function runSimple(args: string[], o: RewriteOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { env: gitEnv(), stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git ${args[0]} failed (${code})`))));
    if (o.signal.aborted) child.kill('SIGKILL');
  });
}
