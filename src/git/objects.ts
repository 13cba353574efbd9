// Reading and writing git objects in bulk: batched cat-file, trees listed with
// sizes, trees written from entries. Object text itself is built in object-format.ts.
import { GitError, gitText } from './run.ts';
import type { GitObject } from './repository.ts';
import { catFile } from './cat-file.ts';
import { MAX_REF_BYTES } from './ref-format.ts';

export type ObjectType = 'blob' | 'tree' | 'commit' | 'tag';

export interface ObjectInfo {
  sha: string;
  type: ObjectType;
  size: number;
}

/**
 * The longest object name handed to git: a revision, ":", and a path (e.g. "main:docs/a.md").
 * Longer names name nothing git could hold; they are not handed to it.
 */
const MAX_NAME_LENGTH = MAX_REF_BYTES + 1 + 4096;

/** cat-file reads one name a line: a name with a line break would be read as two. */
function safeName(name: string): boolean {
  return name !== '' && name.length <= MAX_NAME_LENGTH && !/[\r\n\0]/.test(name);
}

/** Type and size of each name (a sha or a revision such as "main^{tree}"); null when absent. */
export async function objectInfo(dir: string, names: readonly string[]): Promise<Map<string, ObjectInfo | null>> {
  const out = new Map<string, ObjectInfo | null>();
  const asked = [...new Set(names)].filter((n) => { if (!safeName(n)) out.set(n, null); return safeName(n); });
  const found = await catFile(dir, asked, false);
  asked.forEach((name, i) => {
    const o = found[i];
    const known = o && (o.type === 'blob' || o.type === 'tree' || o.type === 'commit' || o.type === 'tag');
    out.set(name, known ? { sha: o.sha, type: o.type as ObjectType, size: o.size } : null);
  });
  return out;
}

/** Objects by name, through the repository's long-running cat-file; null for those it lacks. */
export async function readObjects(dir: string, names: readonly string[]): Promise<Map<string, GitObject | null>> {
  const out = new Map<string, GitObject | null>();
  const asked = [...new Set(names)].filter((n) => { if (!safeName(n)) out.set(n, null); return safeName(n); });
  const found = await catFile(dir, asked, true);
  asked.forEach((name, i) => {
    const o = found[i];
    out.set(name, o ? { sha: o.sha, type: o.type, size: o.size, content: o.content! } : null);
  });
  return out;
}

export async function readObject(dir: string, name: string): Promise<GitObject | null> {
  return (await readObjects(dir, [name])).get(name) ?? null;
}

export interface TreeEntry {
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
  /** Blob size in bytes; null for trees and submodules. */
  size: number | null;
  /** Path from the listed tree's root. */
  path: string;
}

/**
 * The entries of a tree (`treeish` may be a commit), with blob sizes. `recursive`
 * lists every level, trees included; `paths` narrows the listing to those paths.
 * One level is read through the repository's long-running cat-file reader (no git
 * process per request); a recursive listing runs `git ls-tree`.
 */
export async function listTree(dir: string, treeish: string, options: { recursive?: boolean; paths?: string[] } = {}): Promise<TreeEntry[]> {
  if (options.recursive) return lsTree(dir, treeish, true, options.paths);
  if (!safeName(treeish)) throw notATree(treeish);
  const root = `${treeish}^{tree}`;
  if (!options.paths?.length) {
    const level = await treeLevel(dir, root, '');
    if (!level) throw notATree(treeish);
    return level;
  }
  const [top] = await catFile(dir, [root], false);
  if (!top) throw notATree(treeish);
  const found: TreeEntry[] = [];
  for (const p of new Set(options.paths)) {
    const slash = p.lastIndexOf('/');
    const parent = p.slice(0, slash + 1);
    const name = p.slice(slash + 1);
    const level = name && safeName(p) ? await treeLevel(dir, parent ? `${top.sha}:${parent.slice(0, -1)}` : top.sha, parent) : null;
    const entry = level?.find((e) => e.path === p);
    if (entry) found.push(entry);
  }
  return found;
}

function notATree(treeish: string): GitError {
  return new GitError(['ls-tree', treeish], 128, `fatal: not a tree object: ${treeish}`);
}

/** One tree level read through cat-file, paths prefixed with `prefix`; null when `name` is no tree. */
async function treeLevel(dir: string, name: string, prefix: string): Promise<TreeEntry[] | null> {
  const [tree] = await catFile(dir, [name], true);
  if (!tree || tree.type !== 'tree') return null;
  const entries = parseTree(tree.content!, tree.sha.length / 2, prefix);
  const blobs = entries.filter((e) => e.type === 'blob');
  const sizes = await catFile(dir, blobs.map((e) => e.sha), false);
  blobs.forEach((e, i) => { e.size = sizes[i]?.size ?? null; });
  return entries;
}

/** A tree object's entries: `<mode> <name>\0<raw id>` each, in git's order. */
function parseTree(content: Buffer, idBytes: number, prefix: string): TreeEntry[] {
  const out: TreeEntry[] = [];
  let i = 0;
  while (i < content.length) {
    const space = content.indexOf(0x20, i);
    const nul = content.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 1 + idBytes > content.length) break;
    const mode = content.toString('latin1', i, space).padStart(6, '0');
    const type = mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob';
    out.push({ mode, type, sha: content.toString('hex', nul + 1, nul + 1 + idBytes), size: null, path: prefix + content.toString('utf8', space + 1, nul) });
    i = nul + 1 + idBytes;
  }
  return out;
}

async function lsTree(dir: string, treeish: string, recursive: boolean, paths: readonly string[] | undefined): Promise<TreeEntry[]> {
  const args = ['ls-tree', '-z', '-l', '--full-tree'];
  if (recursive) args.push('-r', '-t');
  args.push('--end-of-options', treeish);
  if (paths?.length) args.push('--', ...paths.map((p) => `:(literal)${p}`));
  const text = await gitText(dir, args);
  return text.split('\0').filter(Boolean).map((rec) => {
    const tab = rec.indexOf('\t');
    const [mode, type, sha, size] = rec.slice(0, tab).split(/ +/);
    return { mode: mode!, type: type as TreeEntry['type'], sha: sha!, size: size === '-' ? null : Number(size), path: rec.slice(tab + 1) };
  });
}

export interface NewTreeEntry {
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
  /** One path component. */
  name: string;
}

/** Writes one tree level; the caller has checked that every object exists. */
export async function writeTree(dir: string, entries: readonly NewTreeEntry[]): Promise<string> {
  const input = entries.map((e) => `${e.mode} ${e.type} ${e.sha}\t${e.name}\0`).join('');
  return (await gitText(dir, ['mktree', '-z', '--missing'], { input })).trim();
}

/**
 * Whether the repository has any ref at all (upstream calls one without any "empty").
 * A HEAD that resolves answers through the cat-file reader; only a repository whose
 * HEAD names no branch yet needs `git for-each-ref`.
 */
export async function hasRefs(dir: string): Promise<boolean> {
  const [head] = await catFile(dir, ['HEAD'], false);
  if (head) return true;
  const out = await gitText(dir, ['for-each-ref', '--count=1', '--format=%(refname)']);
  return out.trim() !== '';
}

/** The object `rev` names, peeled to `type` (e.g. a branch to its tree); null when there is none. */
export async function peel(dir: string, rev: string, type: ObjectType | null = null): Promise<string | null> {
  if (!safeName(rev) || rev.startsWith('-')) return null;
  const [found] = await catFile(dir, [type ? `${rev}^{${type}}` : rev], false);
  return found?.sha ?? null;
}
