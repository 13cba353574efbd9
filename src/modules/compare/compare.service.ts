// Comparing two commits (`base...head`), as upstream's compare view does: the merge
// base, how far head is ahead of and behind base, the commits head adds, and the files
// it changes against the merge base. Either side may name a branch of another
// repository of the same fork network (`owner:ref`, `owner:repo:ref`): the preview of a
// pull request from a fork. Such a comparison reads both repositories' objects without
// copying any (see `Endpoints`).
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { countRange, mergeBase, rangePatch, rangeShas, type ObjectSources } from '../../git/compare.ts';
import { diffFiles, diffText, type FileChange } from '../../git/history.ts';
import { peel } from '../../git/objects.ts';
import { commitRecordsData, type CommitRecordData } from '../git-data/commits.service.ts';
import { isPlainRevision, openRepo, requireNotEmpty, type GitRepo } from '../git-data/git-data.repository.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import * as users from '../users/users.service.ts';

export type CompareStatus = 'ahead' | 'behind' | 'identical' | 'diverged';

/** Upstream lists at most 250 commits of an unpaged comparison and 300 files. */
export const MAX_UNPAGED_COMMITS = 250;
const MAX_FILES = 300;

export interface Comparison {
  /** The repository asked (every URL of the comparison is on it, as upstream's are). */
  repo: Repo;
  basehead: string;
  /** Owners of the repositories holding the base and the head (the permalink names them). */
  baseOwner: string;
  headOwner: string;
  headSha: string;
  base: CommitRecordData;
  mergeBase: CommitRecordData;
  status: CompareStatus;
  aheadBy: number;
  behindBy: number;
  commits: CommitRecordData[];
  files: FileChange[];
}

/** One side of `base...head` as written: a ref (branch, tag or sha), with the repository it names, if any. */
interface SideSpec {
  text: string;
  owner: string | null;
  name: string | null;
  ref: string;
}

/** A side found: the repository holding it and its commit. */
interface Side {
  at: GitRepo;
  sha: string;
}

/**
 * Both sides resolved. git runs in the head's repository (every commit the comparison
 * lists and every file it diffs is reachable from the head); when the base is in
 * another repository of the network, that repository's objects are lent to those git
 * processes alone as alternates (`also`). Nothing is fetched into either repository
 * on a read, and the long-running cat-file readers stay per repository: the head's
 * commits are read in the head's repository, the base and the merge base (reachable
 * from the base) in the base's.
 */
interface Endpoints {
  r: GitRepo;
  base: Side;
  head: Side;
  mergeBaseSha: string;
  dir: string;
  also: ObjectSources;
}

/** `ref`, `owner:ref` or `owner:repo:ref` (a ref never holds ':'); null when a part is empty. */
function parseSide(text: string): SideSpec | null {
  const first = text.indexOf(':');
  if (first < 0) return text ? { text, owner: null, name: null, ref: text } : null;
  const owner = text.slice(0, first);
  const rest = text.slice(first + 1);
  const second = rest.indexOf(':');
  const name = second < 0 ? null : rest.slice(0, second);
  const ref = second < 0 ? rest : rest.slice(second + 1);
  return owner && name !== '' && ref ? { text, owner, name, ref } : null;
}

/** Splits `base...head` into its two sides. */
function splitBasehead(basehead: string): [SideSpec, SideSpec] | null {
  const at = basehead.indexOf('...');
  if (at <= 0 || at + 3 >= basehead.length) return null;
  const base = parseSide(basehead.slice(0, at));
  const head = parseSide(basehead.slice(at + 3));
  return base && head ? [base, head] : null;
}

function networkRoot(repo: Repo): number {
  return repo.sourceId ?? repo.id;
}

/**
 * The repository a side names: the one asked when it names none (or names it), else
 * the repository `owner` holds in the same fork network (the root, a parent, a fork of
 * any of them) or `owner/name` when that is in the network. Null when there is none the
 * caller may read: a private fork the caller cannot see names nothing, as upstream.
 */
async function repositoryOf(ctx: AppContext, actor: Actor, r: GitRepo, side: SideSpec): Promise<GitRepo | null> {
  if (side.owner === null) return r;
  const here = r.repo;
  if (side.owner.toLowerCase() === here.owner.login.toLowerCase() && (side.name === null || side.name.toLowerCase() === here.name.toLowerCase())) return r;
  let repo: Repo | null;
  if (side.name !== null) {
    repo = await repos.findForGit(ctx, side.owner, side.name);
  } else {
    const account = await users.findAccount(ctx, side.owner);
    repo = account ? await repos.findRepoInNetwork(ctx, account.id, networkRoot(here)) : null;
  }
  if (!repo || networkRoot(repo) !== networkRoot(here)) return null;
  if (repo.id === here.id) return r;
  const access = await repos.accessTo(ctx, actor, repo);
  return access.effective ? { repo, access, dir: repos.gitDir(ctx, repo) } : null;
}

async function commitOf(dir: string, ref: string): Promise<string | null> {
  return isPlainRevision(ref) ? peel(dir, ref, 'commit') : null;
}

async function sideOf(ctx: AppContext, actor: Actor, r: GitRepo, spec: SideSpec): Promise<Side | null> {
  const at = await repositoryOf(ctx, actor, r, spec);
  const sha = at ? await commitOf(at.dir, spec.ref) : null;
  return at && sha ? { at, sha } : null;
}

async function resolve(ctx: AppContext, actor: Actor, owner: string, name: string, basehead: string): Promise<Endpoints> {
  const r = await openRepo(ctx, actor, owner, name);
  await requireNotEmpty(r);
  const specs = splitBasehead(basehead);
  if (!specs) throw new NotFoundError('Not Found');
  const [base, head] = await Promise.all(specs.map((s) => sideOf(ctx, actor, r, s)));
  if (!base || !head) throw new NotFoundError('Not Found');
  const dir = head.at.dir;
  const also = base.at.repo.id === head.at.repo.id ? [] : [base.at.dir];
  const mb = await mergeBase(dir, base.sha, head.sha, also);
  // The sides as written, as upstream's message has them ("v2 and someone:main").
  if (!mb) throw new NotFoundError(`No common ancestor between ${specs[0].text} and ${specs[1].text}.`);
  return { r, base, head, mergeBaseSha: mb, dir, also };
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
  const { dir, also } = e;
  const baseSha = e.base.sha;
  const headSha = e.head.sha;
  const [aheadBy, behindBy, shas, files] = await Promise.all([
    countRange(dir, baseSha, headSha, also),
    countRange(dir, headSha, baseSha, also),
    rangeShas(dir, baseSha, headSha, page.offset + page.limit, also),
    // The merge base is reachable from the head: the head's repository holds all of it.
    diffFiles(dir, e.mergeBaseSha, headSha, MAX_FILES),
  ]);
  const [records, ends] = await Promise.all([
    commitRecordsData(ctx, dir, shas.slice(page.offset)),
    commitRecordsData(ctx, e.base.at.dir, [baseSha, e.mergeBaseSha]),
  ]);
  const bySha = new Map(ends.map((d) => [d.commit.sha, d]));
  return {
    repo: e.r.repo, basehead, baseOwner: e.base.at.repo.owner.login, headOwner: e.head.at.repo.owner.login,
    headSha, base: bySha.get(baseSha)!, mergeBase: bySha.get(e.mergeBaseSha)!,
    status: statusOf(aheadBy, behindBy), aheadBy, behindBy, commits: records, files,
  };
}

/** The diff (`git diff base...head`) or the patch series of base..head: the text media types. */
export async function comparisonText(ctx: AppContext, actor: Actor, owner: string, name: string, basehead: string, kind: 'diff' | 'patch'): Promise<string> {
  const e = await resolve(ctx, actor, owner, name, basehead);
  return kind === 'diff' ? diffText(e.dir, e.mergeBaseSha, e.head.sha) : rangePatch(e.dir, e.base.sha, e.head.sha, e.also);
}
