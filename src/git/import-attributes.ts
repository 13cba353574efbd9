// The `.gitattributes` an import rewritten with LFS pointers needs, so that a plain clone
// (git-lfs installed) smudges the pointers back into the files: every rewritten commit
// whose tree holds a converted path gets the original commit's `.gitattributes` plus one
// `/<path> filter=lfs diff=lfs merge=lfs -text` line per converted path in its tree.
//
// Worked out before the rewrite starts, from the raw history, in two streamed passes: one
// `git log --raw` in topological order (each commit's converted paths are its first
// parent's with its diff applied — fast-export diffs against the first parent too, and
// fast-import builds the commit's tree on that parent's), then one `git cat-file --batch`
// for the original `.gitattributes` blobs. Only the commits whose file list changes, or
// that touch `.gitattributes` themselves, need one written; the others inherit it.
import { spawn } from 'node:child_process';
import type { ToolBounds } from './import-history.ts';
import { ToolAborted, ToolTimedOut } from './import-process.ts';
import { gitEnv } from './run.ts';

export const ATTRIBUTES_FILE = '.gitattributes';

interface TreeState {
  /** Converted paths (bytes as latin1), shared with the parent's state until the commit changes them. */
  paths: ReadonlySet<string>;
  /** The blob of the commit's own root `.gitattributes`, if a regular file. */
  attributes: string | null;
}

const EMPTY: TreeState = { paths: new Set(), attributes: null };

/** The LFS line for `path`, escaped as gitattributes patterns need (`git lfs track` writes `[[:space:]]` for spaces). */
export function lfsAttributesLine(path: string): string {
  let pattern = '';
  for (const ch of path) {
    // ASCII whitespace only: the path is bytes, and 0xA0 may be half of a UTF-8 character.
    if (' \t\n\r\v\f'.includes(ch)) pattern += '[[:space:]]';
    else if (ch === '\\' || ch === '*' || ch === '?' || ch === '[') pattern += `\\${ch}`;
    else pattern += ch;
  }
  return `/${pattern} filter=lfs diff=lfs merge=lfs -text`;
}

/** What each rewritten commit's `.gitattributes` must be, by original commit id. */
export class LfsAttributes {
  constructor(
    private readonly needed: ReadonlyMap<string, TreeState> = new Map(),
    private readonly blobs: ReadonlyMap<string, Buffer> = new Map(),
  ) {}

  get size(): number {
    return this.needed.size;
  }

  /**
   * The content to write into the rewrite of commit `originalOid`: a Buffer, null to
   * remove the file, undefined when the commit leaves it as its parent has it. Built on
   * demand, so that only the sets of paths stay in memory.
   */
  contentFor(originalOid: string): Buffer | null | undefined {
    const state = this.needed.get(originalOid);
    if (!state) return undefined;
    const original = state.attributes === null ? null : (this.blobs.get(state.attributes) ?? Buffer.alloc(0));
    if (state.paths.size === 0) return original;
    const existing = new Set((original?.toString('latin1') ?? '').split('\n').map((l) => l.replace(/\r$/, '')));
    const lines = [...state.paths].sort().map(lfsAttributesLine).filter((l) => !existing.has(l));
    const head = original && original.length > 0 && original[original.length - 1] !== 10 ? Buffer.concat([original, Buffer.from('\n')]) : original;
    return Buffer.concat([...(head ? [head] : []), Buffer.from(lines.map((l) => `${l}\n`).join(''), 'latin1')]);
  }
}

/** The plan for the history reachable from `refs` of the raw repository, blobs over `threshold` bytes being converted. */
export async function planLfsAttributes(gitDir: string, refs: readonly string[], threshold: number, b: ToolBounds): Promise<LfsAttributes> {
  if (refs.length === 0) return new LfsAttributes();
  const large = new Set<string>();
  await streamGit(gitDir, ['cat-file', '--batch-all-objects', '--batch-check=%(objecttype) %(objectname) %(objectsize)'], b, undefined, splitter(10, (token) => {
    const [type, oid, size] = token.split(' ');
    if (type === 'blob' && oid && Number(size) > threshold) large.add(oid);
  }));
  if (large.size === 0) return new LfsAttributes();

  const states = new Map<string, TreeState>();
  const needed = new Map<string, TreeState>();
  let commit: { oid: string; parent: TreeState; paths: Set<string> | null; attributes: string | null; touched: boolean } | null = null;
  let change: { newMode: string; newOid: string; status: string } | null = null;
  const finish = () => {
    if (!commit) return;
    const paths = commit.paths ?? commit.parent.paths;
    const state: TreeState = paths.size === 0 && commit.attributes === null ? EMPTY : { paths, attributes: commit.attributes };
    if (state !== EMPTY) states.set(commit.oid, state);
    const pathsChanged = commit.paths !== null && !sameSet(commit.paths, commit.parent.paths);
    if (pathsChanged || (commit.touched && paths.size > 0)) needed.set(commit.oid, state);
    commit = null;
  };
  // -z: a commit is "\x01<oid> <parents>", then per change ":<modes> <oids> <status>" and its path, NUL-separated.
  const onToken = (raw: string) => {
    if (change) {
      const c = change;
      change = null;
      applyChange(commit!, raw, c, large);
      return;
    }
    const token = raw.startsWith('\n') ? raw.slice(1) : raw;
    if (token.startsWith('\x01')) {
      finish();
      const [oid, first] = token.slice(1).split(' ');
      commit = { oid: oid!, parent: (first && states.get(first)) || EMPTY, paths: null, attributes: null, touched: false };
      commit.attributes = commit.parent.attributes;
    } else if (token.startsWith(':') && commit) {
      const [, newMode, , newOid, status] = token.slice(1).split(' ');
      change = { newMode: newMode!, newOid: newOid!, status: status ?? '' };
    }
  };
  await streamGit(gitDir, ['log', '-z', '--topo-order', '--reverse', '--root', '--format=%x01%H %P', '--raw', '--no-abbrev',
    '--no-renames', '--diff-merges=first-parent', '--stdin'], b, `${refs.join('\n')}\n`, splitter(0, onToken));
  finish();

  const wanted = [...new Set([...needed.values()].map((s) => s.attributes).filter((a): a is string => a !== null))];
  const blobs = wanted.length ? await catBlobs(gitDir, wanted, b) : new Map<string, Buffer>();
  return new LfsAttributes(needed, blobs);
}

function applyChange(commit: { paths: Set<string> | null; parent: TreeState; attributes: string | null; touched: boolean }, path: string,
  c: { newMode: string; newOid: string; status: string }, large: ReadonlySet<string>): void {
  const present = c.status !== 'D';
  if (path === ATTRIBUTES_FILE) {
    commit.touched = true;
    commit.attributes = present && (c.newMode === '100644' || c.newMode === '100755') ? c.newOid : null;
    return;
  }
  const converted = present && c.newMode !== '160000' && large.has(c.newOid);
  const current = commit.paths ?? commit.parent.paths;
  if (converted === current.has(path)) return;
  commit.paths ??= new Set(commit.parent.paths);
  if (converted) commit.paths.add(path);
  else commit.paths.delete(path);
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

/** A chunk consumer calling `onToken` with each `sep`-terminated token, bytes as latin1 (paths need not be UTF-8). */
function splitter(sep: number, onToken: (token: string) => void): (chunk: Buffer) => void {
  let rest: Buffer = Buffer.alloc(0);
  return (chunk) => {
    let buf = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    let at: number;
    while ((at = buf.indexOf(sep)) >= 0) {
      onToken(buf.subarray(0, at).toString('latin1'));
      buf = buf.subarray(at + 1);
    }
    rest = Buffer.from(buf);
  };
}

/** The content of each blob, through one `git cat-file --batch`. */
async function catBlobs(gitDir: string, oids: readonly string[], b: ToolBounds): Promise<Map<string, Buffer>> {
  const chunks: Buffer[] = [];
  await streamGit(gitDir, ['cat-file', '--batch'], b, `${oids.join('\n')}\n`, (c) => chunks.push(c));
  const out = Buffer.concat(chunks);
  const blobs = new Map<string, Buffer>();
  let at = 0;
  while (at < out.length) {
    const nl = out.indexOf(10, at);
    if (nl < 0) break;
    const [oid, type, size] = out.subarray(at, nl).toString('latin1').split(' ');
    if (type === undefined || type === 'missing') {
      at = nl + 1;
      continue;
    }
    const n = Number(size);
    if (type === 'blob') blobs.set(oid!, Buffer.from(out.subarray(nl + 1, nl + 1 + n)));
    at = nl + 1 + n + 1;
  }
  return blobs;
}

/** Runs git on `gitDir`, handing its stdout over chunk by chunk; bounded in time and stopped by the signal. */
function streamGit(gitDir: string, args: string[], b: ToolBounds, input: string | undefined, onChunk: (chunk: Buffer) => void): Promise<void> {
  if (b.signal.aborted) return Promise.reject(new ToolAborted('stopped'));
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['--git-dir', gitDir, ...args], { env: gitEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let why: Error | null = null;
    let stderr = '';
    const stop = (err: Error) => {
      why ??= err;
      child.kill('SIGKILL');
    };
    const onAbort = () => stop(new ToolAborted('stopped'));
    b.signal.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => stop(new ToolTimedOut(`git ${args[0]} took longer than ${Math.round(b.timeoutMs / 1000)} s`)), b.timeoutMs);
    child.stdout.on('data', (c: Buffer) => {
      try {
        onChunk(c);
      } catch (err) {
        stop(err as Error);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => { stderr = (stderr + c).slice(-4096); });
    child.on('error', (err) => stop(err));
    child.on('close', (code) => {
      clearTimeout(timer);
      b.signal.removeEventListener('abort', onAbort);
      if (why) reject(why);
      else if (code !== 0) reject(new Error(`git ${args[0]} failed: ${stderr.trim().slice(0, 300)}`));
      else resolve();
    });
    child.stdin.on('error', () => { /* git may exit before reading all input; its exit code tells */ });
    child.stdin.end(input ?? '');
  });
}
