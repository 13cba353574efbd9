// What a pull request changes: its commits, its files with their patches, and the
// diff and patch media types, all read from the base repository (where the head
// commit is pinned) over the range the pull request proposes.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { rangePatch } from '../../git/compare.ts';
import { diffFiles, diffText, type FileChange } from '../../git/history.ts';
import { commitRecordsData, type CommitRecordData } from '../git-data/commits.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { branchTip, commitShas, rangeOf, type PullRange } from './pulls.git.ts';
import { locatePull, type LocatedPull } from './pulls.service.ts';

/** Upstream lists at most 3000 files of a pull request. */
export const MAX_FILES = 3000;

async function rangeFor(ctx: AppContext, l: LocatedPull): Promise<PullRange> {
  const dir = repos.gitDir(ctx, l.repo);
  const open = l.issue.state === 'open';
  return rangeOf(dir, l.pull, open ? await branchTip(dir, l.pull.baseRef) : null, open);
}

export interface PullCommitPage {
  repo: Repo;
  items: CommitRecordData[];
  total: number;
}

export async function listPullCommits(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, page: { offset: number; limit: number },
): Promise<PullCommitPage> {
  const l = await locatePull(ctx, actor, owner, name, number);
  const dir = repos.gitDir(ctx, l.repo);
  const shas = await commitShas(dir, await rangeFor(ctx, l));
  const items = await commitRecordsData(ctx, dir, shas.slice(page.offset, page.offset + page.limit));
  return { repo: l.repo, items, total: shas.length };
}

export interface PullFilePage {
  repo: Repo;
  headSha: string;
  items: FileChange[];
  total: number;
}

export async function listPullFiles(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, page: { offset: number; limit: number },
): Promise<PullFilePage> {
  const l = await locatePull(ctx, actor, owner, name, number);
  const range = await rangeFor(ctx, l);
  const files = range.mergeBase === null ? [] : await diffFiles(repos.gitDir(ctx, l.repo), range.mergeBase, range.head, MAX_FILES);
  return { repo: l.repo, headSha: l.pull.headSha, items: files.slice(page.offset, page.offset + page.limit), total: files.length };
}

/** The diff (as `git diff base...head` prints it) or the patch series of a pull request. */
export async function pullText(ctx: AppContext, actor: Actor, owner: string, name: string, number: number, kind: 'diff' | 'patch'): Promise<string> {
  const l = await locatePull(ctx, actor, owner, name, number);
  const range = await rangeFor(ctx, l);
  if (range.mergeBase === null) return '';
  const dir = repos.gitDir(ctx, l.repo);
  return kind === 'diff' ? diffText(dir, range.mergeBase, range.head) : rangePatch(dir, range.exclude ?? range.mergeBase, range.head);
}
