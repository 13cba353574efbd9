// Real three-way merges of two commits in a bare repository, without a work tree:
// `git merge-tree --write-tree` computes the merged tree (or the conflicts), and
// `git commit-tree` writes the commit. No ref moves here: the caller moves its ref
// (with the old value as a guard) once it decides to keep the commit.
//
// Used by deployments (auto-merge of the default branch into the deployed ref) and
// meant for pull-request merges:
//   merge commit   mergeCommits(dir, { ours: baseHead, theirs: prHead, message, author, committer })
//   squash         mergeCommits(dir, { ours: baseHead, theirs: prHead, parents: 'ours', ... })
//   rebase (each commit c of the PR, oldest first, `ours` moving along)
//                  mergeCommits(dir, { base: c + '^', ours, theirs: c, parents: 'ours', author: <c's author>, ... })
import type { Ident } from './object-format.ts';
import { peel } from './objects.ts';
import { GitError, gitText, runGit } from './run.ts';

/** A revision given to a merge does not name a commit of the repository. */
export class MergeRevisionError extends Error {
  constructor(readonly revision: string) {
    super(`not a commit: ${revision}`);
  }
}

export interface MergeTreesInput {
  /**
   * The merge base to use instead of the best common ancestor git would pick, e.g. a
   * commit's parent to apply just that commit (cherry-pick). A commit-ish.
   */
  base?: string;
  /** The side merged into: the first parent of a merge commit. A commit-ish. */
  ours: string;
  /** The side merged in. A commit-ish. */
  theirs: string;
  /** Merge commits without a common ancestor (refused by default, as `git merge` does). */
  allowUnrelatedHistories?: boolean;
}

export interface MergeCommitInput extends MergeTreesInput {
  message: string;
  author: Ident;
  /** Defaults to the author. */
  committer?: Ident;
  /** Parents of the commit written: both sides (a merge commit, default) or ours only (squash, rebase). */
  parents?: 'both' | 'ours';
}

export interface MergeConflict {
  conflict: true;
  /** Paths that could not be merged cleanly, in git's order; empty for unrelated histories. */
  files: string[];
  reason: 'content' | 'unrelated-histories';
}

export type MergeTreeResult = { conflict?: false; tree: string; ours: string; theirs: string } | MergeConflict;
export type MergeCommitResult = { conflict?: false; sha: string; tree: string } | MergeConflict;

export function isConflict<T extends object>(r: T | MergeConflict): r is MergeConflict {
  return (r as MergeConflict).conflict === true;
}

async function commitOf(dir: string, rev: string): Promise<string> {
  const sha = await peel(dir, rev, 'commit');
  if (!sha) throw new MergeRevisionError(rev);
  return sha;
}

function identityEnv(author: Ident, committer: Ident): Record<string, string> {
  // "@<epoch> <tz>" is git's raw date form: the exact second and offset, no parsing guesswork.
  return {
    GIT_AUTHOR_NAME: author.name, GIT_AUTHOR_EMAIL: author.email, GIT_AUTHOR_DATE: `@${author.epoch} ${author.tz}`,
    GIT_COMMITTER_NAME: committer.name, GIT_COMMITTER_EMAIL: committer.email, GIT_COMMITTER_DATE: `@${committer.epoch} ${committer.tz}`,
  };
}

async function commitTree(dir: string, tree: string, parents: string[], message: string, author: Ident, committer: Ident): Promise<string> {
  const args = ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p])];
  return (await gitText(dir, args, { input: message, env: identityEnv(author, committer) })).trim();
}

const STAND_IN: Ident = { name: 'Wharf', email: 'merge@wharf.invalid', epoch: 0, tz: '+0000' };

/**
 * git 2.39's merge-tree has no --merge-base. To merge against a chosen base, each side's
 * tree is wrapped in a stand-in commit whose only parent is the base: the base is then
 * the two stand-ins' one merge base. The stand-ins are never referenced (gc drops them).
 */
async function standIns(dir: string, base: string, ours: string, theirs: string): Promise<[string, string]> {
  const [ourTree, theirTree] = await Promise.all([peel(dir, ours, 'tree'), peel(dir, theirs, 'tree')]);
  const message = 'stand-in for a merge against a chosen base\n';
  return Promise.all([
    commitTree(dir, ourTree!, [base], message, STAND_IN, STAND_IN),
    commitTree(dir, theirTree!, [base], message, STAND_IN, STAND_IN),
  ]);
}

/** The merged tree of two commits (written to the object store), or the conflicts. */
export async function mergeTrees(dir: string, input: MergeTreesInput): Promise<MergeTreeResult> {
  const [ours, theirs, base] = await Promise.all([
    commitOf(dir, input.ours), commitOf(dir, input.theirs), input.base === undefined ? null : commitOf(dir, input.base),
  ]);
  const [left, right] = base ? await standIns(dir, base, ours, theirs) : [ours, theirs];
  const args = ['merge-tree', '--write-tree', '--no-messages', '--name-only', '-z'];
  if (input.allowUnrelatedHistories) args.push('--allow-unrelated-histories');
  let result;
  try {
    // Exit 1 is "merged with conflicts", an answer rather than a failure.
    result = await runGit(dir, [...args, left, right], { okCodes: [1] });
  } catch (err) {
    if (err instanceof GitError && /unrelated histories/.test(err.stderr)) return { conflict: true, files: [], reason: 'unrelated-histories' };
    throw err;
  }
  const [tree, ...rest] = result.stdout.toString('utf8').split('\0');
  if (result.code === 0) return { tree: tree!, ours, theirs };
  return { conflict: true, files: [...new Set(rest.filter(Boolean))], reason: 'content' };
}

/**
 * Merges `theirs` into `ours` and writes the commit: parents [ours, theirs] (or [ours]
 * with `parents: 'ours'`). Answers the new commit, or the conflicts (nothing written
 * then but loose objects nobody references).
 */
export async function mergeCommits(dir: string, input: MergeCommitInput): Promise<MergeCommitResult> {
  const merged = await mergeTrees(dir, input);
  if (isConflict(merged)) return merged;
  const parents = input.parents === 'ours' ? [merged.ours] : [merged.ours, merged.theirs];
  const sha = await commitTree(dir, merged.tree, parents, input.message, input.author, input.committer ?? input.author);
  return { sha, tree: merged.tree };
}
