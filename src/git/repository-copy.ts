// A consistent copy of a bare repository that may be pushed to while it is copied (the
// backup command, src/modules/backup). The copy is a working repository of its own: its
// config, HEAD and hooks dir as they are, every ref, and every object file (unreachable
// objects too: blobs and trees made through the git data API before any ref names them
// stay usable after a restore).
//
// Why the copy is consistent, without stopping pushes:
// - Objects are append-only, and git moves them in before it moves a ref: a push's objects
//   land in a quarantine dir (skipped here) and are renamed into objects/ once accepted;
//   only then does receive-pack update the refs. Loose objects are written under a
//   temporary name and linked into place; a pack is complete (.pack, then .idx) before
//   it is used. So refs read at time T name only objects that are whole on disk at T.
// - Hence the order: first the refs, read through git (`for-each-ref`, which copes with a
//   concurrent `pack-refs` moving loose refs into packed-refs), then the object files.
//   Every object the refs read reach is present when the object files are listed; what
//   pushes add meanwhile is copied or not, harmlessly. Refs are written into the copy from
//   that reading (as packed-refs), never copied as files after the objects.
// - The one thing that removes object files is garbage collection. Wharf never runs gc
//   itself, but git does: receive-pack runs `git gc --auto` after a push (receive.autogc)
//   once loose objects or packs pile up, and its repack writes a new pack and then deletes
//   the packs and loose objects it merged. A file listed just before that may be gone when
//   it is copied (ENOENT: skipped), and the objects it held are in a pack that was not yet
//   listed. So the copy is checked (`git fsck --connectivity-only` in the copy: every ref
//   reaches whole history) and, if anything is missing, done again: refs read afresh, then
//   the object files still missing copied (object files are immutable by name, so a
//   second pass only adds). A gc pass is over quickly; the next attempt finds its pack.
// - Caches that describe several packs (multi-pack-index, commit-graph) are left out: they
//   could describe packs that went missing, and git works without them.
// A `git clone --mirror` copy would be consistent as well, but keeps only reachable objects
// and rewrites the config; a bundle loses config and hooks: neither restores the same
// repository.
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { GitError, runGit } from './run.ts';

export interface RepositoryCopy {
  /** Refs written into the copy. */
  refs: number;
  /** Files copied (objects and the rest), over every attempt. */
  files: number;
  bytes: number;
  /** 1 unless a concurrent gc made the copy start again. */
  attempts: number;
}

/** The repository went away while it was copied (deleted meanwhile). */
export class RepositoryGoneError extends Error {}

const ATTEMPTS = 5;
/** Top-level entries copied from the refs and object files, or not at all. */
const NOT_PLAIN = new Set(['objects', 'refs', 'packed-refs', 'logs', 'gc.pid', 'gc.log']);
/** Receive-pack's quarantine dirs (src/git/quarantine.ts): objects of pushes not (yet) accepted. */
const QUARANTINE = /^(tmp_objdir-)?incoming-/;
/** Files git is still writing, and caches spanning several packs. */
const SKIPPED_OBJECT_FILE = /^tmp_|\.lock$|^multi-pack-index|^commit-graph/;
const PACK_PART = /^(pack-[0-9a-f]+)\.(pack|idx|rev|bitmap|keep|mtimes|promisor)$/;

interface RefLine {
  name: string;
  sha: string;
  /** For a symbolic ref under refs/, the ref it names. */
  symref: string | null;
}

async function exists(p: string): Promise<boolean> {
  return fs.stat(p).then(() => true, () => false);
}

/** Copies `src` to `dst` unless `dst` already has it whole; false when `src` is gone. */
async function copyFile(src: string, dst: string, counter: { files: number; bytes: number }): Promise<boolean> {
  let size: number;
  try {
    size = (await fs.stat(src)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  const have = await fs.stat(dst).catch(() => null);
  if (have && have.size === size) return true;
  if (have) await fs.rm(dst, { force: true });
  try {
    // FICLONE: a reflink where the file system has them, a plain copy elsewhere. The mode
    // (git's 0444 objects, 0600 keys) comes along.
    await fs.copyFile(src, dst, fs.constants.COPYFILE_FICLONE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  counter.files += 1;
  counter.bytes += size;
  return true;
}

async function readDir(dir: string): Promise<Dirent[]> {
  try {
    return await fs.readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** Copies a directory tree as it is now (files that vanish on the way are skipped). */
async function copyTree(src: string, dst: string, counter: { files: number; bytes: number }, skip: (name: string) => boolean = () => false): Promise<void> {
  await fs.mkdir(dst, { recursive: true });
  for (const e of await readDir(src)) {
    if (skip(e.name)) continue;
    const from = path.join(src, e.name);
    const to = path.join(dst, e.name);
    if (e.isDirectory()) await copyTree(from, to, counter, skip);
    else if (e.isFile()) await copyFile(from, to, counter);
    else if (e.isSymbolicLink()) {
      const target = await fs.readlink(from).catch(() => null);
      if (target !== null && !(await exists(to))) await fs.symlink(target, to);
    }
  }
}

async function readRefs(src: string): Promise<{ refs: RefLine[]; shallow: Buffer | null }> {
  const res = await runGit(src, ['for-each-ref', '--format=%(objectname) %(refname) %(symref)']);
  const refs = res.stdout.toString('utf8').split('\n').filter(Boolean).map((line) => {
    const [sha, name, symref] = line.split(' ');
    return { sha: sha!, name: name!, symref: symref ? symref : null };
  });
  // The shallow file names the commits whose parents the repository lacks; read with the refs.
  const shallow = await fs.readFile(path.join(src, 'shallow')).catch(() => null);
  return { refs, shallow };
}

/** The object files of `src` copied into `dst` (only those `dst` lacks); incomplete packs dropped. */
async function copyObjects(src: string, dst: string, counter: { files: number; bytes: number }): Promise<void> {
  const objects = path.join(src, 'objects');
  const into = path.join(dst, 'objects');
  await fs.mkdir(into, { recursive: true });
  for (const e of await readDir(objects)) {
    if (!e.isDirectory() || QUARANTINE.test(e.name)) continue;
    if (e.name === 'pack') continue; // below, packs with their indexes
    await copyTree(path.join(objects, e.name), path.join(into, e.name), counter, (name) => SKIPPED_OBJECT_FILE.test(name) || name === 'commit-graphs');
  }
  const packDir = path.join(into, 'pack');
  await fs.mkdir(packDir, { recursive: true });
  const listed = (await readDir(path.join(objects, 'pack'))).filter((e) => e.isFile() && !SKIPPED_OBJECT_FILE.test(e.name));
  // The .pack before its .idx: git writes them in that order, and a pack is usable once its
  // .idx exists; the other parts (reverse index, bitmap …) describe one pack each.
  const order = (name: string) => (name.endsWith('.pack') ? 0 : name.endsWith('.idx') ? 1 : 2);
  for (const e of listed.sort((a, b) => order(a.name) - order(b.name))) {
    await copyFile(path.join(objects, 'pack', e.name), path.join(packDir, e.name), counter);
  }
  // A pack removed by a repack between the two copies, or not yet whole: its parts go.
  const have = await readDir(packDir);
  const parts = new Map<string, Set<string>>();
  for (const e of have) {
    const m = PACK_PART.exec(e.name);
    if (m) parts.set(m[1]!, (parts.get(m[1]!) ?? new Set()).add(m[2]!));
  }
  for (const [base, kinds] of parts) {
    if (kinds.has('pack') && kinds.has('idx')) continue;
    for (const kind of kinds) await fs.rm(path.join(packDir, `${base}.${kind}`), { force: true });
  }
}

async function writeRefs(dst: string, refs: RefLine[], shallow: Buffer | null): Promise<void> {
  await fs.rm(path.join(dst, 'refs'), { recursive: true, force: true });
  await fs.mkdir(path.join(dst, 'refs', 'heads'), { recursive: true });
  await fs.mkdir(path.join(dst, 'refs', 'tags'), { recursive: true });
  // No traits line: git sorts and peels the entries itself.
  const packed = refs.filter((r) => r.symref === null).map((r) => `${r.sha} ${r.name}\n`).join('');
  await fs.writeFile(path.join(dst, 'packed-refs'), packed);
  for (const r of refs.filter((x) => x.symref !== null)) {
    const file = path.join(dst, r.name);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, `ref: ${r.symref}\n`);
  }
  if (shallow) await fs.writeFile(path.join(dst, 'shallow'), shallow);
  else await fs.rm(path.join(dst, 'shallow'), { force: true });
}

/** True when every ref of the copy reaches whole history (nothing missing). */
async function connected(dst: string): Promise<boolean> {
  try {
    await runGit(dst, ['fsck', '--connectivity-only', '--no-dangling', '--no-progress']);
    return true;
  } catch (err) {
    if (err instanceof GitError) return false;
    throw err;
  }
}

/**
 * Copies the bare repository `src` into `dst` (which must not exist yet), consistently
 * while pushes go on (see the top of this file). Throws RepositoryGoneError when `src`
 * is no repository (any more).
 */
export async function copyRepository(src: string, dst: string): Promise<RepositoryCopy> {
  if (!(await exists(path.join(src, 'HEAD')))) throw new RepositoryGoneError(`${src} is not a repository`);
  const counter = { files: 0, bytes: 0 };
  await fs.mkdir(dst, { recursive: true });
  // Config, HEAD, description, hooks, info: what makes it this repository rather than any.
  for (const e of await readDir(src)) {
    if (NOT_PLAIN.has(e.name) || e.name === 'shallow' || e.name.endsWith('.lock')) continue;
    const from = path.join(src, e.name);
    if (e.isDirectory()) await copyTree(from, path.join(dst, e.name), counter, (name) => name.endsWith('.lock'));
    else if (e.isFile()) await copyFile(from, path.join(dst, e.name), counter);
  }
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    let read: Awaited<ReturnType<typeof readRefs>>;
    try {
      read = await readRefs(src);
    } catch (err) {
      if (!(await exists(path.join(src, 'HEAD')))) throw new RepositoryGoneError(`${src} went away while it was copied`);
      throw err;
    }
    await copyObjects(src, dst, counter);
    await writeRefs(dst, read.refs, read.shallow);
    if (await connected(dst)) return { refs: read.refs.length, files: counter.files, bytes: counter.bytes, attempts: attempt };
  }
  throw new Error(`the copy of ${src} stayed incomplete after ${ATTEMPTS} attempts (objects removed while it was copied)`);
}
