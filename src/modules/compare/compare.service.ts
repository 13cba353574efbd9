// Comparing two commits of one repository (`base...head`), as upstream's compare view
// does: the merge base, how far head is ahead of and behind base, the commits head
// adds, and the files it changes against the merge base.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { countRange, mergeBase, rangePatch, rangeShas } from '../../git/compare.ts';
import { diffFiles, diffText, type FileChange } from '../../git/history.ts';
import { peel } from '../../git/objects.ts';
import { commitRecordsData, type CommitRecordData } from '../git-data/commits.service.ts';
import { isPlainRevision, openRepo, requireNotEmpty, type GitRepo } from '../git-data/git-data.repository.ts';
import type { Repo } from '../repos/repos.model.ts';

export type CompareStatus = 'ahead' | 'behind' | 'identical' | 'diverged';

/** Upstream lists at most 250 commits of an unpaged comparison and 300 files. */
export const MAX_UNPAGED_COMMITS = 250;
const MAX_FILES = 300;

export interface Comparison {
  repo: Repo;
  basehead: string;
  headSha: string;
  base: CommitRecordData;
  mergeBase: CommitRecordData;
  status: CompareStatus;
  aheadBy: number;
  behindBy: number;
  commits: CommitRecordData[];
  files: FileChange[];
}

interface Endpoints {
  r: GitRepo;
  baseSha: string;
  headSha: string;
  mergeBaseSha: string;
}

/**
 * Splits `base...head`. A side may be `owner:ref`: Wharf compares within one
 * repository, so the owner must be this repository's (a fork's branch is not
 * compared here); anything else names no commit of this repository.
 */
function splitBasehead(repo: Repo, basehead: string): [string, string] | null {
  const at = basehead.indexOf('...');
  if (at <= 0 || at + 3 >= basehead.length) return null;
  const sides = [basehead.slice(0, at), basehead.slice(at + 3)];
  const refs = sides.map((s) => {
    const colon = s.indexOf(':');
    if (colon < 0) return s;
    return s.slice(0, colon).toLowerCase() === repo.owner.login.toLowerCase() ? s.slice(colon + 1) : null;
  });
  return refs[0] && refs[1] ? [refs[0], refs[1]] : null;
}

async function commitOf(dir: string, ref: string): Promise<string | null> {
  return isPlainRevision(ref) ? peel(dir, ref, 'commit') : null;
}

async function resolve(ctx: AppContext, actor: Actor, owner: string, name: string, basehead: string): Promise<Endpoints> {
  const r = await openRepo(ctx, actor, owner, name);
  await requireNotEmpty(r);
  const sides = splitBasehead(r.repo, basehead);
  if (!sides) throw new NotFoundError('Not Found');
  const [baseSha, headSha] = await Promise.all(sides.map((s) => commitOf(r.dir, s)));
  if (!baseSha || !headSha) throw new NotFoundError('Not Found');
  const mb = await mergeBase(r.dir, baseSha, headSha);
  if (!mb) throw new NotFoundError(`No common ancestor between ${sides[0]} and ${sides[1]}.`);
  return { r, baseSha, headSha, mergeBaseSha: mb };
}

function statusOf(aheadBy: number, behindBy: number): CompareStatus {
  if (aheadBy > 0 && behindBy > 0) return 'diverged';
  if (aheadBy > 0) return 'ahead';
  return behindBy > 0 ? 'behind' : 'identical';
}

/** The comparison with one page of its commits (oldest first). */
export async function compareCommits(
  ctx: AppContext, actor: Actor, owner: string, name: string, basehead: string, page: { offset: number; limit: number },
): Promise<Comparison> {
  const e = await resolve(ctx, actor, owner, name, basehead);
  const { dir } = e.r;
  const [aheadBy, behindBy, shas, files] = await Promise.all([
    countRange(dir, e.baseSha, e.headSha),
    countRange(dir, e.headSha, e.baseSha),
    rangeShas(dir, e.baseSha, e.headSha, page.offset + page.limit),
    diffFiles(dir, e.mergeBaseSha, e.headSha, MAX_FILES),
  ]);
  const [records, ends] = await Promise.all([
    commitRecordsData(ctx, dir, shas.slice(page.offset)),
    commitRecordsData(ctx, dir, [e.baseSha, e.mergeBaseSha]),
  ]);
  const bySha = new Map(ends.map((d) => [d.commit.sha, d]));
  return {
    repo: e.r.repo, basehead, headSha: e.headSha, base: bySha.get(e.baseSha)!, mergeBase: bySha.get(e.mergeBaseSha)!,
    status: statusOf(aheadBy, behindBy), aheadBy, behindBy, commits: records, files,
  };
}

/** The diff (`git diff base...head`) or the patch series of base..head: the text media types. */
export async function comparisonText(ctx: AppContext, actor: Actor, owner: string, name: string, basehead: string, kind: 'diff' | 'patch'): Promise<string> {
  const e = await resolve(ctx, actor, owner, name, basehead);
  return kind === 'diff' ? diffText(e.r.dir, e.mergeBaseSha, e.headSha) : rangePatch(e.r.dir, e.baseSha, e.headSha);
}
