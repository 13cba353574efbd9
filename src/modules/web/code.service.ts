// The code pages' data: refs, directories with their README, files, history and one
// commit, read through git-data's services (and statuses') with the viewer as actor.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { ConflictError, NotFoundError } from '../../domain/errors.ts';
import * as commits from '../git-data/commits.service.ts';
import type { CommitDetail, CommitRecordData } from '../git-data/commits.service.ts';
import * as contents from '../git-data/contents.service.ts';
import type { ContentData, FileData } from '../git-data/contents.service.ts';
import { listMatchingRefs } from '../git-data/git-data.service.ts';
import { renderHtml } from '../markdown/markdown.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { getCombinedStatus, type CombinedStatus } from '../statuses/statuses.service.ts';
import type { CheckRunView } from '../checks/checks.schemas.ts';
import { commitMarks, commitRuns, type Mark } from './commit-checks.service.ts';
import { PER_PAGE } from './web.service.ts';

/** Files larger than this are not shown in the page (the raw link serves them). */
export const MAX_SHOWN_BYTES = 512 * 1024;

export interface RefNames {
  branches: string[];
  tags: string[];
}

/** Branches and tags of a repository (none while it is empty). */
async function refNames(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<{ repo: Repo; refs: RefNames } | { repo: Repo; refs: null }> {
  try {
    const { repo, refs } = await listMatchingRefs(ctx, actor, owner, name, '');
    const named = (prefix: string) => refs.filter((r) => r.ref.startsWith(prefix)).map((r) => r.ref.slice(prefix.length));
    return { repo, refs: { branches: named('refs/heads/'), tags: named('refs/tags/') } };
  } catch (err) {
    // An empty repository has no refs to list; the page says so and shows how to push.
    if (!(err instanceof ConflictError)) throw err;
    return { repo: (await repos.locate(ctx, actor, owner, name)).repo, refs: null };
  }
}

/**
 * Splits "{ref}/{path}" of a tree or blob address: a ref may hold slashes, so the
 * longest branch or tag the address starts with wins; otherwise the first segment is
 * the ref (a commit sha).
 */
export function splitRefPath(refAndPath: string, refs: RefNames): { ref: string; path: string } {
  const clean = refAndPath.replace(/^\/+|\/+$/g, '');
  const names = [...refs.branches, ...refs.tags].filter((r) => clean === r || clean.startsWith(`${r}/`)).sort((a, b) => b.length - a.length);
  const ref = names[0] ?? clean.split('/')[0]!;
  return { ref, path: clean.slice(ref.length).replace(/^\/+/, '') };
}

export interface CodeView {
  repo: Repo;
  refs: RefNames | null;
  ref: string;
  path: string;
  content: ContentData | null;
  /** A directory's README: Markdown rendered (sanitized HTML), any other as its text. */
  readme: { path: string; html: string } | { path: string; text: string } | null;
}

const README = /^readme(\.(md|markdown|txt))?$/i;

async function readmeOf(ctx: AppContext, actor: Actor, repo: Repo, ref: string, dir: ContentData): Promise<CodeView['readme']> {
  if (dir.kind !== 'dir') return null;
  const found = dir.entries.filter((e) => e.type === 'file' && README.test(e.path.split('/').pop()!))
    .sort((a, b) => Number(!/\.(md|markdown)$/i.test(a.path)) - Number(!/\.(md|markdown)$/i.test(b.path)))[0];
  if (!found) return null;
  const file = await contents.getContent(ctx, actor, repo.owner.login, repo.name, found.path, ref, MAX_SHOWN_BYTES);
  if (file.content.kind !== 'file' || !file.content.content) return null;
  const text = file.content.content.toString('utf8');
  if (!/\.(md|markdown)$/i.test(found.path)) return { path: found.path, text };
  return { path: found.path, html: await renderHtml(ctx, text, { mode: 'gfm', context: `${repo.owner.login}/${repo.name}` }) };
}

/** The repository's home page or a directory at a ref: its entries and README. */
export async function treeAt(ctx: AppContext, actor: Actor, owner: string, name: string, refAndPath: string | null): Promise<CodeView> {
  const { repo, refs } = await refNames(ctx, actor, owner, name);
  if (!refs) return { repo, refs: null, ref: repo.defaultBranch, path: '', content: null, readme: null };
  const at = refAndPath === null ? { ref: repo.defaultBranch, path: '' } : splitRefPath(refAndPath, refs);
  const found = await contents.getContent(ctx, actor, owner, name, at.path, at.ref, 0);
  if (found.content.kind !== 'dir') throw new NotFoundError();
  return { repo, refs, ref: at.ref, path: at.path, content: found.content, readme: await readmeOf(ctx, actor, repo, at.ref, found.content) };
}

export interface BlobView {
  repo: Repo;
  refs: RefNames;
  ref: string;
  path: string;
  file: FileData;
}

/** A file at a ref, its bytes read up to MAX_SHOWN_BYTES. */
export async function blobAt(ctx: AppContext, actor: Actor, owner: string, name: string, refAndPath: string): Promise<BlobView> {
  const { repo, refs } = await refNames(ctx, actor, owner, name);
  if (!refs) throw new NotFoundError();
  const at = splitRefPath(refAndPath, refs);
  const found = await contents.getContent(ctx, actor, owner, name, at.path, at.ref, MAX_SHOWN_BYTES);
  if (found.content.kind !== 'file' || at.path === '') throw new NotFoundError();
  return { repo, refs, ref: at.ref, path: at.path, file: found.content };
}

export interface CommitsView {
  repo: Repo;
  refs: RefNames;
  ref: string;
  /** Only commits touching this path ('' for all). */
  path: string;
  page: number;
  items: CommitRecordData[];
  total: number;
  /** Each commit's status mark (the rollup of its statuses and check runs), where anything reported. */
  marks: Map<string, Mark>;
}

export async function commitsAt(ctx: AppContext, actor: Actor, owner: string, name: string, ref: string | null, path: string, page: number): Promise<CommitsView> {
  const { repo, refs } = await refNames(ctx, actor, owner, name);
  if (!refs) throw new NotFoundError();
  const at = ref ?? repo.defaultBranch;
  const list = await commits.listCommits(ctx, actor, owner, name, { sha: at, ...(path ? { path } : {}), offset: (page - 1) * PER_PAGE, limit: PER_PAGE });
  const marks = await commitMarks(ctx, repo, list.items.map((c) => c.commit.sha));
  return { repo, refs, ref: at, path, page, items: list.items, total: list.total, marks };
}

export interface CommitView {
  detail: CommitDetail;
  /** The latest status of each context, as the API's combined status. */
  status: CombinedStatus;
  /** The latest check run of each name, as the API presents them. */
  checks: { runs: CheckRunView[]; total: number };
}

/** Contexts shown on a commit page. */
const MAX_CONTEXTS = 100;

export async function commitAt(ctx: AppContext, actor: Actor, owner: string, name: string, sha: string): Promise<CommitView> {
  const detail = await commits.getCommit(ctx, actor, owner, name, sha, { offset: 0, limit: commits.FILES_PER_PAGE });
  const [status, checks] = await Promise.all([
    getCombinedStatus(ctx, actor, owner, name, detail.commit.sha, { perPage: MAX_CONTEXTS, offset: 0 }),
    commitRuns(ctx, actor, owner, name, detail.commit.sha),
  ]);
  return { detail, status, checks };
}

/** A file's bytes at "{ref}/{path}", as the API's raw address reads them. */
export function rawFile(ctx: AppContext, actor: Actor, owner: string, name: string, refAndPath: string): Promise<Buffer> {
  return contents.getRaw(ctx, actor, owner, name, refAndPath);
}
