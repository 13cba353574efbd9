// Reading and writing git objects in bulk: batched cat-file, trees listed with
// sizes, trees written from entries. Object text itself is built in object-format.ts.
import { gitText, runGit } from './run.ts';
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
 */
export async function listTree(dir: string, treeish: string, options: { recursive?: boolean; paths?: string[] } = {}): Promise<TreeEntry[]> {
  const args = ['ls-tree', '-z', '-l', '--full-tree'];
  if (options.recursive) args.push('-r', '-t');
  args.push('--end-of-options', treeish);
  if (options.paths?.length) args.push('--', ...options.paths.map((p) => `:(literal)${p}`));
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

/** Whether the repository has any ref at all (upstream calls one without any "empty"). */
export async function hasRefs(dir: string): Promise<boolean> {
  const out = await gitText(dir, ['for-each-ref', '--count=1', '--format=%(refname)']);
  return out.trim() !== '';
}

/** The object `rev` names, peeled to `type` (e.g. a branch to its tree); null when there is none. */
export async function peel(dir: string, rev: string, type: ObjectType | null = null): Promise<string | null> {
  if (!safeName(rev) || rev.startsWith('-')) return null;
  const res = await runGit(dir, ['rev-parse', '--verify', '--quiet', '--end-of-options', type ? `${rev}^{${type}}` : rev], { okCodes: [1, 128] });
  return res.code === 0 ? res.stdout.toString().trim() : null;
}
