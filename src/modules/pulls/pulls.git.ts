// The git side of pull requests, in the base repository's object database: the head
// commit pinned at refs/pull/{n}/head (fetched from the fork when the head lives in
// one), the range a pull request proposes, its figures, and whether it merges cleanly
// (a real test merge, kept at refs/pull/{n}/merge as upstream does).
import type { AppContext } from '../../context.ts';
import { countRange, diffStat, mergeBase, rangeShas } from '../../git/compare.ts';
import { isConflict, mergeCommits } from '../../git/merge.ts';
import type { Ident } from '../../git/object-format.ts';
import { copyCommit, rebaseCommits } from '../../git/pull-merge.ts';
import { isValidBranchName } from '../../git/ref-format.ts';
import { catFile } from '../../git/cat-file.ts';
import * as git from '../../git/repository.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import type { PullRequestRecord } from './pulls.model.ts';
import type { Mergeability } from './pulls.store.ts';

/** Upstream lists at most 250 commits of a pull request. */
export const MAX_COMMITS = 250;

export function headRefName(number: number): string {
  return `refs/pull/${number}/head`;
}

export function mergeRefName(number: number): string {
  return `refs/pull/${number}/merge`;
}

/**
 * The commit of a branch, or null when the branch does not exist. Read through the
 * repository's long-running cat-file reader (which sees ref updates as they land).
 */
export async function branchTip(dir: string, branch: string): Promise<string | null> {
  // A name git would refuse names no branch: checked before git sees it (no unbounded names).
  if (!isValidBranchName(branch)) return null;
  const [found] = await catFile(dir, [`refs/heads/${branch}`], false);
  return found && found.type === 'commit' ? found.sha : null;
}

/**
 * Tips of these branches (base shas of a page of open pull requests), missing ones left
 * out. Resolved by the repository's long-running cat-file reader: a list request would
 * otherwise start a git process, which costs Wharf milliseconds of its own thread.
 */
export async function branchTips(dir: string, branches: readonly string[]): Promise<Map<string, string>> {
  const names = [...new Set(branches)];
  if (!names.length) return new Map();
  const found = await catFile(dir, names.map((b) => `refs/heads/${b}`), false);
  return new Map(names.flatMap((b, i) => (found[i] ? [[b, found[i]!.sha] as const] : [])));
}

/** Makes `sha` of the head repository readable in the base repository (nothing to do for one repository). */
export async function bringCommit(ctx: AppContext, base: Repo, head: Repo, sha: string): Promise<void> {
  if (base.id === head.id) return;
  const dir = repos.gitDir(ctx, base);
  if (await git.resolve(dir, `${sha}^{commit}`)) return;
  await copyCommit(dir, repos.gitDir(ctx, head), sha);
}

/** Points refs/pull/{n}/head at the head commit (already in the base repository). */
export async function pinHead(ctx: AppContext, base: Repo, number: number, sha: string): Promise<void> {
  await git.updateRef(repos.gitDir(ctx, base), headRefName(number), sha);
}

/** What a pull request proposes: the commits from `from` (exclusive) to `to`. */
export interface PullRange {
  /** The merge base with the base branch (for the diff) … */
  mergeBase: string | null;
  /** … and what the head is compared with for its commits: the base tip while open. */
  exclude: string | null;
  head: string;
}

/**
 * The range of a pull request: while open, against the base branch as it is now; once
 * closed or merged, as it was then (the merge base kept at that time).
 */
export async function rangeOf(dir: string, pull: PullRequestRecord, baseTip: string | null, open: boolean): Promise<PullRange> {
  if (!open || baseTip === null) return { mergeBase: pull.mergeBaseSha, exclude: pull.mergeBaseSha, head: pull.headSha };
  return { mergeBase: await mergeBase(dir, baseTip, pull.headSha), exclude: baseTip, head: pull.headSha };
}

export interface RangeFigures {
  commits: number;
  additions: number;
  deletions: number;
  changedFiles: number;
}

export async function figuresOf(dir: string, range: PullRange): Promise<RangeFigures> {
  if (range.mergeBase === null || range.exclude === null) return { commits: 0, additions: 0, deletions: 0, changedFiles: 0 };
  const [commits, stat] = await Promise.all([countRange(dir, range.exclude, range.head), diffStat(dir, range.mergeBase, range.head)]);
  return { commits, additions: stat.additions, deletions: stat.deletions, changedFiles: stat.files };
}

export async function commitShas(dir: string, range: PullRange, limit = MAX_COMMITS): Promise<string[]> {
  if (range.exclude === null) return [range.head];
  return rangeShas(dir, range.exclude, range.head, limit);
}

/** Identity of the test merge commits (never part of any branch). */
function testIdent(ctx: AppContext): Ident {
  return { name: 'Wharf', email: 'noreply@wharf.invalid', epoch: Math.floor(ctx.clock.now().getTime() / 1000), tz: '+0000' };
}

/**
 * Whether the head merges cleanly into `baseTip` (a real merge; on success the test merge
 * commit is written and pinned at refs/pull/{n}/merge) and whether its commits replay
 * cleanly onto it (the rebase method).
 */
export async function checkMergeability(ctx: AppContext, base: Repo, pull: PullRequestRecord, baseTip: string): Promise<Mergeability> {
  const dir = repos.gitDir(ctx, base);
  const ident = testIdent(ctx);
  const found = await mergeBase(dir, baseTip, pull.headSha);
  const merged = await mergeCommits(dir, {
    ours: baseTip, theirs: pull.headSha, author: ident,
    message: `Merge ${pull.headSha} into ${baseTip}\n`,
  });
  const out: Mergeability = { mergeable: false, rebaseable: false, headSha: pull.headSha, baseSha: baseTip, mergeBaseSha: found, mergeCommitSha: null };
  if (isConflict(merged)) {
    await git.deleteRef(dir, mergeRefName(pull.number)).catch(() => undefined);
    return out;
  }
  await git.updateRef(dir, mergeRefName(pull.number), merged.sha);
  out.mergeable = true;
  out.mergeCommitSha = merged.sha;
  if (found) {
    const shas = await rangeShas(dir, baseTip, pull.headSha, MAX_COMMITS + 1);
    out.rebaseable = shas.length > MAX_COMMITS ? false : !isConflict(await rebaseCommits(dir, baseTip, shas, ident));
  }
  return out;
}
