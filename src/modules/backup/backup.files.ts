// Plain files of the data dir (keys, LFS objects, release assets, archives) copied as
// they are while the server writes: a file that vanishes on the way (deleted meanwhile)
// is skipped, and every file Wharf writes there is written under a temporary name and
// renamed into place, so a copy never holds half a file Wharf considers stored.
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

export interface Copied {
  files: number;
  bytes: number;
}

async function entries(dir: string): Promise<Dirent[]> {
  try {
    return await fs.readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/**
 * Copies the tree `src` into `dst`, but the entries `skip` names (given their path
 * relative to `src`). Modes come along (0600 keys stay 0600).
 */
export async function copyTree(src: string, dst: string, skip: (relative: string) => boolean = () => false, counter: Copied = { files: 0, bytes: 0 }, prefix = ''): Promise<Copied> {
  const mode = (await fs.stat(src).catch(() => null))?.mode;
  await fs.mkdir(dst, { recursive: true, ...(mode ? { mode: mode & 0o7777 } : {}) });
  for (const e of await entries(src)) {
    const relative = prefix ? `${prefix}/${e.name}` : e.name;
    if (skip(relative)) continue;
    const from = path.join(src, e.name);
    const to = path.join(dst, e.name);
    if (e.isDirectory()) {
      await copyTree(from, to, skip, counter, relative);
    } else if (e.isFile()) {
      try {
        await fs.copyFile(from, to, fs.constants.COPYFILE_FICLONE);
        counter.files += 1;
        counter.bytes += (await fs.stat(to)).size;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    } else if (e.isSymbolicLink()) {
      const target = await fs.readlink(from).catch(() => null);
      if (target !== null) await fs.symlink(target, to);
    }
  }
  return counter;
}

/** The names in a directory; none when it does not exist. */
export async function names(dir: string): Promise<string[]> {
  return (await entries(dir)).map((e) => e.name).sort();
}
