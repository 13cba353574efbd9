// git receive-pack receives a push's objects into a quarantine directory below
// objects/ (tmp_objdir-incoming-XXXXXX; incoming-XXXXXX in older git) and moves them into
// the repository only once the push is accepted. A push killed on the way leaves the
// directory behind, with every object it had received: this file finds and removes them.
import fs from 'node:fs/promises';
import path from 'node:path';

const QUARANTINE = /^(tmp_objdir-)?incoming-/;
const REPO_DIR = /^(\d+)\.git$/;

/** The quarantine directories in one bare repository. */
export async function quarantineDirs(repoDir: string): Promise<string[]> {
  const objects = path.join(repoDir, 'objects');
  const entries = await fs.readdir(objects, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory() && QUARANTINE.test(e.name)).map((e) => path.join(objects, e.name));
}

/** Quarantine directories of every repository under `reposRoot`, by repository id. */
export async function quarantineDirsByRepo(reposRoot: string): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  const entries = await fs.readdir(reposRoot, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    const id = REPO_DIR.exec(e.name)?.[1];
    if (!e.isDirectory() || id === undefined) continue;
    const dirs = await quarantineDirs(path.join(reposRoot, e.name));
    if (dirs.length) out.set(Number(id), dirs);
  }
  return out;
}

export async function removeDirs(dirs: readonly string[]): Promise<void> {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
}
