// What merging a pull request needs beyond merge.ts: replaying its commits onto the
// base (the rebase method), and copying a commit between repositories of this host
// without naming a ref (update-branch writes into a fork).
import { isConflict, mergeTrees, type MergeConflict } from './merge.ts';
import { parseCommit, type Ident } from './object-format.ts';
import { peel, readObjects } from './objects.ts';
import { gitText, runGit } from './run.ts';

function identityEnv(author: Ident, committer: Ident): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: author.name, GIT_AUTHOR_EMAIL: author.email, GIT_AUTHOR_DATE: `@${author.epoch} ${author.tz}`,
    GIT_COMMITTER_NAME: committer.name, GIT_COMMITTER_EMAIL: committer.email, GIT_COMMITTER_DATE: `@${committer.epoch} ${committer.tz}`,
  };
}

async function writeCommit(dir: string, tree: string, parents: string[], message: string, author: Ident, committer: Ident): Promise<string> {
  const args = ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p])];
  return (await gitText(dir, args, { input: message, env: identityEnv(author, committer) })).trim();
}

export type RebaseResult = { conflict?: false; sha: string } | MergeConflict;

/**
 * Replays `shas` (oldest first) onto `onto`, as `git rebase` does: each commit keeps its
 * author and message and gets `committer`; merge commits are dropped, and so are commits
 * whose change is already in the base. Answers the last commit written (`onto` itself
 * when nothing was left to replay), or the first conflict.
 */
export async function rebaseCommits(dir: string, onto: string, shas: readonly string[], committer: Ident): Promise<RebaseResult> {
  const objects = await readObjects(dir, shas);
  let current = onto;
  let currentTree = await peel(dir, onto, 'tree');
  for (const sha of shas) {
    const obj = objects.get(sha);
    if (!obj || obj.type !== 'commit') continue;
    const c = parseCommit(obj.content);
    if (c.parents.length !== 1) continue;
    const merged = await mergeTrees(dir, { base: c.parents[0]!, ours: current, theirs: sha });
    if (isConflict(merged)) return merged;
    if (merged.tree === currentTree) continue;
    current = await writeCommit(dir, merged.tree, [current], c.message, c.author, committer);
    currentTree = merged.tree;
  }
  return { sha: current };
}

/**
 * Copies the commit `sha` (and what it reaches) from the repository at `sourceDir` into
 * the one at `targetDir` without creating a ref there: the caller then moves a ref of
 * its own to it, guarded by that ref's old value.
 */
export async function copyCommit(targetDir: string, sourceDir: string, sha: string): Promise<void> {
  await runGit(targetDir, [
    'fetch', '--quiet', '--no-tags', '--no-write-fetch-head',
    '--upload-pack=git -c uploadpack.allowAnySHA1InWant=true upload-pack',
    sourceDir, sha,
  ]);
}
