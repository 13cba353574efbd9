// Bare repositories on disk: $WHARF_DATA_DIR/repos/<id>.git, named by id so that
// a rename moves nothing. Plumbing used by the repository services.
import fs from 'node:fs/promises';
import path from 'node:path';
import { closeCatFile, catFile } from './cat-file.ts';
import { gitText, runGit } from './run.ts';
import { writingRefs } from './ref-writes.ts';

export const ZERO_SHA = '0000000000000000000000000000000000000000';

export function reposRoot(dataDir: string): string {
  return path.join(dataDir, 'repos');
}

export function repoDir(dataDir: string, repoId: number): string {
  return path.join(reposRoot(dataDir), `${repoId}.git`);
}

export async function initBare(dir: string, defaultBranch: string): Promise<void> {
  await fs.mkdir(path.dirname(dir), { recursive: true });
  await runGit(dir, ['init', '--quiet', '--bare', `--initial-branch=${defaultBranch}`]);
  // Pushes arrive through git http-backend; these make it accept them and keep history sane.
  await runGit(dir, ['config', 'http.receivepack', 'true']);
  await runGit(dir, ['config', 'receive.denyNonFastForwards', 'false']);
  await runGit(dir, ['config', 'core.logAllRefUpdates', 'false']);
  await runGit(dir, ['config', 'uploadpack.allowFilter', 'true']);
  await runGit(dir, ['config', 'uploadpack.allowAnySHA1InWant', 'true']);
}

export async function removeRepo(dir: string): Promise<void> {
  closeCatFile(dir);
  await writingRefs(() => fs.rm(dir, { recursive: true, force: true }));
}

export async function setHead(dir: string, branch: string): Promise<void> {
  await writingRefs(() => runGit(dir, ['symbolic-ref', 'HEAD', `refs/heads/${branch}`]));
}

export interface RefEntry {
  ref: string;
  sha: string;
  /** Type of the object the ref points at (commit, tag …). */
  type: string;
}

export async function listRefs(dir: string, patterns: string[] = []): Promise<RefEntry[]> {
  const out = await gitText(dir, ['for-each-ref', '--format=%(objectname) %(objecttype) %(refname)', ...patterns]);
  return out.split('\n').filter(Boolean).map((line) => {
    const [sha, type, ref] = line.split(' ');
    return { sha: sha!, type: type!, ref: ref! };
  });
}

/**
 * These refs (full names, checked by the caller) through the repository's long-running
 * cat-file reader: no git process, as a single ref read on the hot path needs; absent
 * refs are left out. (git would also try its abbreviation rules on a full name that
 * does not exist, e.g. refs/heads/refs/heads/x for refs/heads/x: only a branch named
 * after a full ref name could answer so.)
 */
export async function readRefs(dir: string, refs: readonly string[]): Promise<Map<string, RefEntry>> {
  const found = await catFile(dir, refs, false);
  return new Map(refs.flatMap((ref, i) => { const o = found[i]; return o ? [[ref, { ref, sha: o.sha, type: o.type }] as const] : []; }));
}

/** The object a revision names, or null. */
export async function resolve(dir: string, rev: string): Promise<string | null> {
  const res = await runGit(dir, ['rev-parse', '--verify', '--quiet', '--end-of-options', rev], { okCodes: [1, 128] });
  return res.code === 0 ? res.stdout.toString().trim() : null;
}

export async function hashObject(dir: string, type: 'blob' | 'tree' | 'commit' | 'tag', content: Buffer | string): Promise<string> {
  return (await gitText(dir, ['hash-object', '-w', '-t', type, '--stdin', '--no-filters'], { input: content })).trim();
}

export interface GitObject {
  sha: string;
  type: string;
  size: number;
  content: Buffer;
}

/** One object, or null when the repository does not have it. */
export async function readObject(dir: string, sha: string): Promise<GitObject | null> {
  if (/[\r\n\0]/.test(sha) || sha === '') return null;
  const [o] = await catFile(dir, [sha], true);
  return o ? { sha: o.sha, type: o.type, size: o.size, content: o.content! } : null;
}

export interface TreeEntryInput {
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
  path: string;
}

export async function makeTree(dir: string, entries: TreeEntryInput[]): Promise<string> {
  const input = entries.map((e) => `${e.mode} ${e.type} ${e.sha}\t${e.path}`).join('\n');
  return (await gitText(dir, ['mktree', '--missing'], { input: input ? `${input}\n` : '' })).trim();
}

export interface Signature {
  name: string;
  email: string;
  /** ISO 8601 */
  date: string;
}

function identityEnv(author: Signature, committer: Signature): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: author.name, GIT_AUTHOR_EMAIL: author.email, GIT_AUTHOR_DATE: author.date,
    GIT_COMMITTER_NAME: committer.name, GIT_COMMITTER_EMAIL: committer.email, GIT_COMMITTER_DATE: committer.date,
  };
}

export async function commitTree(
  dir: string, tree: string, parents: string[], message: string, author: Signature, committer: Signature = author,
): Promise<string> {
  const args = ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p])];
  return (await gitText(dir, args, { input: message, env: identityEnv(author, committer) })).trim();
}

/** Moves a ref; with `expectedOld` only if it still points there (ZERO_SHA: must not exist). */
export async function updateRef(dir: string, ref: string, sha: string, expectedOld?: string): Promise<void> {
  await writingRefs(() => runGit(dir, ['update-ref', ref, sha, ...(expectedOld ? [expectedOld] : [])]));
}

export async function deleteRef(dir: string, ref: string, expectedOld?: string): Promise<void> {
  await writingRefs(() => runGit(dir, ['update-ref', '-d', ref, ...(expectedOld ? [expectedOld] : [])]));
}

/** Disk use in KiB, as `git count-objects -v` reports it (loose + packed). */
export async function sizeKb(dir: string): Promise<number> {
  const out = await gitText(dir, ['count-objects', '-v']);
  let total = 0;
  for (const line of out.split('\n')) {
    const [key, value] = line.split(': ');
    if (key === 'size' || key === 'size-pack') total += Number(value);
  }
  return total;
}

export interface CommitSummary {
  sha: string;
  message: string;
  author: Signature;
  committer: Signature;
  parents: string[];
  tree: string;
}

const LOG_FORMAT = ['%H', '%T', '%P', '%an', '%ae', '%aI', '%cn', '%ce', '%cI', '%B'].join('%x1f') + '%x1e';

export function parseLog(out: string): CommitSummary[] {
  return out.split('\x1e').map((s) => s.replace(/^\n/, '')).filter(Boolean).map((rec) => {
    const [sha, tree, parents, an, ae, ad, cn, ce, cd, body] = rec.split('\x1f');
    return {
      sha: sha!, tree: tree!, parents: parents ? parents.split(' ') : [],
      author: { name: an!, email: ae!, date: ad! }, committer: { name: cn!, email: ce!, date: cd! },
      message: (body ?? '').replace(/\n$/, ''),
    };
  });
}

/** Commits reachable from `from` and not from any of `exclude`, newest first. */
export async function commitsBetween(dir: string, from: string, exclude: string[], limit = 1000): Promise<CommitSummary[]> {
  const args = ['log', `--format=${LOG_FORMAT}`, `--max-count=${limit}`, from, ...exclude.map((e) => `^${e}`), '--'];
  return parseLog(await gitText(dir, args));
}

export async function isAncestor(dir: string, ancestor: string, descendant: string): Promise<boolean> {
  const res = await runGit(dir, ['merge-base', '--is-ancestor', ancestor, descendant], { okCodes: [1] });
  return res.code === 0;
}

export async function countCommits(dir: string, from: string, exclude: string[]): Promise<number> {
  const out = await gitText(dir, ['rev-list', '--count', from, ...exclude.map((e) => `^${e}`), '--']);
  return Number(out.trim());
}

/** Branches whose history holds `sha` (a full sha), in name order, at most `limit` of them. */
export async function branchesContaining(dir: string, sha: string, limit: number): Promise<RefEntry[]> {
  return listRefs(dir, [`--count=${limit}`, `--contains=${sha}`, 'refs/heads/']);
}

export interface ChangedPaths {
  added: string[];
  removed: string[];
  modified: string[];
}

/**
 * Paths each commit added, removed and modified against its first parent (everything
 * added for a root commit), as push events list them; one git process for all.
 */
export async function changedPaths(dir: string, shas: readonly string[]): Promise<Map<string, ChangedPaths>> {
  const out = new Map<string, ChangedPaths>(shas.map((s) => [s, { added: [], removed: [], modified: [] }]));
  if (shas.length === 0) return out;
  const text = await gitText(dir, ['diff-tree', '--stdin', '-r', '-z', '--root', '--no-renames', '--name-status', '--diff-merges=first-parent'], {
    input: `${shas.join('\n')}\n`,
  });
  // -z output: each commit's sha, then status and path pairs; statuses are one or two letters.
  const tokens = text.split('\0');
  let current: ChangedPaths | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(token)) {
      current = out.get(token);
    } else if (current && /^[A-Z][0-9]*$/.test(token) && i + 1 < tokens.length) {
      const file = tokens[++i]!;
      if (token === 'A') current.added.push(file);
      else if (token === 'D') current.removed.push(file);
      else current.modified.push(file);
    }
  }
  return out;
}
