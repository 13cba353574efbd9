// Comparing two commits of one repository as a pull request does: the merge base, the
// commits of the head that the base lacks, the patch series, and bringing a commit of
// another repository on this host (a fork) into this one so that all of it happens in
// one object database. The range reads may also look into other repositories' objects
// for the one git process they start (`also`, a comparison across a fork network)
// without copying anything: see objectSources.
import path from 'node:path';
import { catFile } from './cat-file.ts';
import { ObjectMemo } from './object-memo.ts';
import { gitText, runGit, type RunOptions } from './run.ts';

const mergeBases = new ObjectMemo<string | null>();
const rangeCounts = new ObjectMemo<number>();
const diffStats = new ObjectMemo<DiffStat>();
/** A diff can touch tens of thousands of paths: 16 MB of names at most (two bytes a character). */
const changedNames = new ObjectMemo<string[]>(undefined, { sizeOf: (names) => names.reduce((n, name) => n + 32 + name.length * 2, 0), maxBytes: 16 * 1024 * 1024 });

/**
 * git directories of other repositories whose objects a read may use besides those of
 * the repository it runs in (its own `objects/info/alternates` still count).
 */
export type ObjectSources = readonly string[];

/**
 * The environment that lends `also`'s objects to one git process: git reads them as
 * alternates (GIT_ALTERNATE_OBJECT_DIRECTORIES) for that process only. Nothing is
 * written to the repository, and its long-running cat-file reader never sees them.
 */
function objectSources(also: ObjectSources): RunOptions {
  if (!also.length) return {};
  // git splits the list at ':' and reads an entry that starts with '"' C-quoted.
  const entry = (dir: string) => {
    const objects = path.resolve(dir, 'objects');
    return /[:"\\\n]/.test(objects) ? `"${objects.replace(/[\\"]/g, '\\$&').replace(/\n/g, '\\n')}"` : objects;
  };
  return { env: { GIT_ALTERNATE_OBJECT_DIRECTORIES: also.map(entry).join(':') } };
}

/** Memo keys: the same ids read with other repositories' objects lent are kept apart. */
function sourcesKey(also: ObjectSources): string {
  return also.map((d) => path.resolve(d)).join('\0');
}

/** The best common ancestor of two commits, or null when their histories are unrelated. */
export function mergeBase(dir: string, a: string, b: string, also: ObjectSources = []): Promise<string | null> {
  return mergeBases.get(dir, [a, b], () => findMergeBase(dir, a, b, also), sourcesKey(also));
}

async function findMergeBase(dir: string, a: string, b: string, also: ObjectSources): Promise<string | null> {
  const res = await runGit(dir, ['merge-base', '--end-of-options', a, b], { okCodes: [1], ...objectSources(also) });
  return res.code === 0 ? res.stdout.toString('utf8').trim() || null : null;
}

/**
 * Shas of the commits reachable from `head` and not from `base`, oldest first (as a
 * pull request lists them), at most `limit` of them: the oldest ones.
 */
export async function rangeShas(dir: string, base: string, head: string, limit: number, also: ObjectSources = []): Promise<string[]> {
  const out = await gitText(dir, ['rev-list', '--reverse', '--topo-order', '--end-of-options', head, `^${base}`, '--'], objectSources(also));
  return out.split('\n').filter(Boolean).slice(0, limit);
}

/**
 * The raw commit objects a branch gains when it moves from `from` to `to` (both commit
 * ids): those reachable from `to` and not from `from`, or, for a new branch (`from`
 * null), not from any ref yet. What branch protection checks an API ref change by.
 */
export async function addedCommits(dir: string, from: string | null, to: string): Promise<Buffer[]> {
  const out = await gitText(dir, ['rev-list', to, ...(from === null ? ['--not', '--all'] : [`^${from}`])]);
  const shas = out.split('\n').filter(Boolean);
  if (!shas.length) return [];
  return (await catFile(dir, shas, true)).map((o, i) => {
    if (!o?.content) throw new Error(`commit ${shas[i]} could not be read`);
    return o.content;
  });
}

export function countRange(dir: string, base: string, head: string, also: ObjectSources = []): Promise<number> {
  return rangeCounts.get(dir, [base, head], () => countCommits(dir, base, head, also), sourcesKey(also));
}

async function countCommits(dir: string, base: string, head: string, also: ObjectSources): Promise<number> {
  const out = await gitText(dir, ['rev-list', '--count', '--end-of-options', head, `^${base}`, '--'], objectSources(also));
  return Number(out.trim());
}

/**
 * Paths that differ between two commits (renames as the removal and the addition they
 * are, so both paths count): which files a pull request touches, for code owners.
 */
export function changedFileNames(dir: string, base: string, head: string): Promise<string[]> {
  return changedNames.get(dir, [base, head], async () => {
    const out = await gitText(dir, ['diff-tree', '-r', '--no-renames', '--name-only', '-z', '--no-commit-id', '--end-of-options', base, head]);
    return out.split('\0').filter(Boolean);
  });
}

/** The commits of base..head as one e-mail patch series (the patch media type of a pull request). */
export async function rangePatch(dir: string, base: string, head: string, also: ObjectSources = []): Promise<string> {
  return gitText(dir, ['format-patch', '--stdout', '--no-color', '--no-signature', '--end-of-options', `${base}..${head}`, '--'], objectSources(also));
}

/**
 * Copies the commit `sha` of the repository at `sourceDir` (with its history) into the
 * repository at `targetDir` under `ref`. The sha is fetched rather than a branch, so the
 * copy is exactly the commit asked for even when the branch moves meanwhile.
 */
export async function fetchCommit(targetDir: string, sourceDir: string, sha: string, ref: string): Promise<void> {
  await runGit(targetDir, [
    'fetch', '--quiet', '--no-tags', '--no-write-fetch-head',
    // Any sha may be asked for: the source is a repository of this host that the caller may read.
    '--upload-pack=git -c uploadpack.allowAnySHA1InWant=true upload-pack',
    sourceDir, `+${sha}:${ref}`,
  ]);
}

export interface DiffStat {
  files: number;
  additions: number;
  deletions: number;
}

/** Line counts of what `head` changes against `base` (renames detected), without the patch text. */
export function diffStat(dir: string, base: string, head: string): Promise<DiffStat> {
  return diffStats.get(dir, [base, head], () => countChanges(dir, base, head));
}

async function countChanges(dir: string, base: string, head: string): Promise<DiffStat> {
  const out = await gitText(dir, ['diff-tree', '-r', '-M', '--numstat', '-z', '--no-commit-id', '--end-of-options', base, head]);
  const stat: DiffStat = { files: 0, additions: 0, deletions: 0 };
  const parts = out.split('\0');
  for (let i = 0; i < parts.length; i++) {
    const m = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(parts[i]!);
    if (!m) continue;
    stat.files += 1;
    if (m[1] !== '-') stat.additions += Number(m[1]);
    if (m[2] !== '-') stat.deletions += Number(m[2]);
    // A rename's two paths follow as separate fields when the third is empty.
    if (m[3] === '') i += 2;
  }
  return stat;
}
