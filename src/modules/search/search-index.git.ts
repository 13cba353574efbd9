// What the search indexer reads from a repository: the default branch's tip, the
// commits between two tips, the files of a tree and what changed between two trees,
// and file text (binary files, vendored paths and files of 384 KB or more left out).
import { listTree, objectInfo, readObjects } from '../../git/objects.ts';
import { isoSeconds } from '../../domain/clock.ts';
import * as git from '../../git/repository.ts';
import { gitText } from '../../git/run.ts';
import { languageOfPath } from '../repos/repos.language-table.ts';
import type { FileRow } from './search-code.store.ts';
import type { CommitRow } from './search-commits.store.ts';

/** Files this large or larger are not indexed (the spec's code search limit). */
export const MAX_FILE_BYTES = 384 * 1024;

/** Dependencies checked in, not the project's own code: not indexed. */
const VENDORED = /(^|\/)(node_modules|vendor|bower_components|third_party|\.yarn)\//;

/** Blobs read per cat-file round. */
const READ_BATCH = 100;

export function indexable(path: string, mode: string, size: number | null): boolean {
  // Regular files only: not symlinks (120000) nor submodules.
  return (mode === '100644' || mode === '100755') && size !== null && size < MAX_FILE_BYTES && !VENDORED.test(path);
}

/** The commit the branch points at, or null (no such branch: an empty repository). */
export function branchTip(dir: string, branch: string): Promise<string | null> {
  return git.resolve(dir, `refs/heads/${branch}`);
}

export async function hasCommit(dir: string, sha: string): Promise<boolean> {
  return (await git.resolve(dir, `${sha}^{commit}`)) !== null;
}

/** Commits reachable from `tip` and not from `exclude`, as index rows. */
export async function commitsOf(dir: string, repositoryId: number, tip: string, exclude: readonly string[]): Promise<CommitRow[]> {
  const found = await git.commitsBetween(dir, tip, [...exclude], 10_000_000);
  const utc = (d: string) => isoSeconds(new Date(d));
  return found.map((c) => ({
    repositoryId, sha: c.sha, tree: c.tree, parents: c.parents,
    authorName: c.author.name, authorEmail: c.author.email, authorDate: utc(c.author.date),
    committerName: c.committer.name, committerEmail: c.committer.email, committerDate: utc(c.committer.date),
    message: c.message,
  }));
}

/** Shas reachable from `from` and not from `tip` (commits a force push took off the branch). */
export async function shasOnlyIn(dir: string, from: string, tip: string): Promise<string[]> {
  const out = await gitText(dir, ['rev-list', from, `^${tip}`, '--']);
  return out.split('\n').filter(Boolean);
}

export interface FileEntry {
  path: string;
  sha: string;
  mode: string;
  size: number | null;
}

/** Every file of the commit's tree. */
export async function filesOf(dir: string, commit: string): Promise<FileEntry[]> {
  const entries = await listTree(dir, commit, { recursive: true });
  return entries.filter((e) => e.type === 'blob').map((e) => ({ path: e.path, sha: e.sha, mode: e.mode, size: e.size }));
}

export interface TreeChanges {
  /** Added or modified files, as they are at the new commit. */
  changed: FileEntry[];
  /** Paths gone at the new commit. */
  removed: string[];
}

/** What changed from `from`'s tree to `to`'s (renames as a removal and an addition). */
export async function changesBetween(dir: string, from: string, to: string): Promise<TreeChanges> {
  const out = await gitText(dir, ['diff-tree', '-r', '-z', '--no-renames', from, to]);
  const parts = out.split('\0');
  const changed: FileEntry[] = [];
  const removed: string[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const meta = parts[i]!.replace(/^:/, '').split(' ');
    const path = parts[i + 1]!;
    const [, newMode, , newSha, status] = meta;
    if (!status || !newMode || !newSha) continue;
    if (status === 'D') removed.push(path);
    else {
      // A file that became something else (a symlink, a submodule) leaves the index.
      removed.push(path);
      if (newMode === '100644' || newMode === '100755') changed.push({ path, sha: newSha, mode: newMode, size: null });
    }
  }
  if (changed.length) {
    const sizes = await readObjectsInfo(dir, changed.map((c) => c.sha));
    for (const c of changed) c.size = sizes.get(c.sha) ?? null;
  }
  return { changed, removed };
}

async function readObjectsInfo(dir: string, shas: string[]): Promise<Map<string, number>> {
  const info = await objectInfo(dir, shas);
  return new Map([...info].flatMap(([sha, i]) => (i ? [[sha, i.size] as const] : [])));
}

/** Text file rows for the entries worth indexing; binary files (a NUL byte, or not UTF-8) are left out. */
export async function readTexts(dir: string, repositoryId: number, entries: readonly FileEntry[]): Promise<FileRow[]> {
  const wanted = entries.filter((e) => indexable(e.path, e.mode, e.size));
  const out: FileRow[] = [];
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let i = 0; i < wanted.length; i += READ_BATCH) {
    const batch = wanted.slice(i, i + READ_BATCH);
    const objects = await readObjects(dir, batch.map((e) => e.sha));
    for (const e of batch) {
      const o = objects.get(e.sha);
      if (!o || o.content.includes(0)) continue;
      let content: string;
      try {
        content = decoder.decode(o.content);
      } catch {
        continue;
      }
      out.push({ repositoryId, path: e.path, blobSha: e.sha, size: o.content.length, language: languageOfPath(e.path), content });
    }
  }
  return out;
}
