// Repositories with branches made by the git binary, for pull request tests: a working
// clone per repository, commits of whole files, pushes.
import fs from 'node:fs';
import path from 'node:path';
import type { TestServer } from '../helpers/server.ts';
import { cloneUrl, gitOk, tempDir } from '../helpers/git.ts';
import type { CreatedUser } from './accounts.ts';

export interface Clone {
  dir: string;
  owner: string;
  repo: string;
}

/** A working clone of owner/repo, pushing as `user`. */
export async function cloneAs(t: TestServer, owner: string, repo: string, user: CreatedUser): Promise<Clone> {
  const dir = tempDir('wharf-pull-');
  await gitOk(['clone', '-q', cloneUrl(t.baseUrl, owner, repo, user.login, user.token), dir]);
  return { dir, owner, repo };
}

/** Writes (or with null removes) files and commits them; returns the new commit's sha. */
export async function commitFiles(c: Clone, files: Record<string, string | null>, message: string): Promise<string> {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(c.dir, name);
    if (content === null) fs.rmSync(file, { force: true });
    else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
    }
  }
  await gitOk(['add', '-A'], { cwd: c.dir });
  await gitOk(['commit', '-q', '-m', message], { cwd: c.dir });
  return (await gitOk(['rev-parse', 'HEAD'], { cwd: c.dir })).trim();
}

export async function checkout(c: Clone, branch: string, create = false, from?: string): Promise<void> {
  await gitOk(['checkout', '-q', ...(create ? ['-b', branch, ...(from ? [from] : [])] : [branch])], { cwd: c.dir });
}

export async function push(c: Clone, ...refs: string[]): Promise<void> {
  await gitOk(['push', '-q', '-f', 'origin', ...refs], { cwd: c.dir });
}

export async function fetchAll(c: Clone): Promise<void> {
  await gitOk(['fetch', '-q', 'origin'], { cwd: c.dir });
}

/** `git log --format=<format>` of a revision in the clone (after fetching). */
export async function log(c: Clone, rev: string, format = '%s'): Promise<string[]> {
  await fetchAll(c);
  return (await gitOk(['log', `--format=${format}`, rev, '--'], { cwd: c.dir })).split('\n').filter(Boolean);
}

export async function revParse(c: Clone, rev: string): Promise<string> {
  return (await gitOk(['rev-parse', rev], { cwd: c.dir })).trim();
}

let seq = 0;

export function uniqueName(prefix = 'pier'): string {
  seq += 1;
  return `${prefix}-${process.pid}-${seq}`;
}

/**
 * A repository of `user` with a README and app.txt on main, and a branch `feature`
 * (one commit changing app.txt and adding feature.txt), both pushed.
 */
export async function repoWithFeature(
  t: TestServer, user: CreatedUser, settings: Record<string, unknown> = {}, name = uniqueName(),
): Promise<{ clone: Clone; featureSha: string; mainSha: string; id: number }> {
  const { data } = await t.octokit(user.token).rest.repos.createForAuthenticatedUser({ name, auto_init: true, ...settings });
  const clone = await cloneAs(t, user.login, name, user);
  const mainSha = await commitFiles(clone, { 'app.txt': 'one\ntwo\nthree\n' }, 'Add app');
  await push(clone, 'main');
  await checkout(clone, 'feature', true);
  const featureSha = await commitFiles(clone, { 'app.txt': 'one\nTWO\nthree\n', 'feature.txt': 'feature\n' }, 'Feature work');
  await push(clone, 'feature');
  await checkout(clone, 'main');
  return { clone, featureSha, mainSha, id: data.id };
}
