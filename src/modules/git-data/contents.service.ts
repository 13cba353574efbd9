// Repository contents: files and directories at a ref, the README, raw files, and
// files created, updated and deleted as real commits on a branch.
import path from 'node:path/posix';
import type { AppContext } from '../../context.ts';
import { hasScope, type Actor } from '../../domain/actor.ts';
import { ConflictError, ForbiddenError, MissingScopeError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { madeCommitRefusal, refChangeRefusal } from '../branch-protection/protection.push.ts';
import { buildCommit, type Ident } from '../../git/object-format.ts';
import { isValidBranchName } from '../../git/ref-format.ts';
import { hasRefs, listTree, peel, readObject, readObjects, type TreeEntry } from '../../git/objects.ts';
import * as git from '../../git/repository.ts';
import { GitError } from '../../git/run.ts';
import type { Repo } from '../repos/repos.model.ts';
import { detectRepositoryLicense, findLicenseFile } from '../repos/repos.license-detect.ts';
import { blobBytes } from './git-data.service.ts';
import {
  actorIdent, changingRefs, identOf, isPlainRevision, loadCommits, openRepo, type CommitData, type GitRepo, type PersonInput,
} from './git-data.repository.ts';
import { buildTree, pathProblem } from './git-data.trees.ts';

export interface FileData {
  kind: 'file';
  path: string;
  sha: string;
  size: number;
  /** The bytes, or null when larger than the caller asked to read. */
  content: Buffer | null;
}

export interface DirEntryData {
  path: string;
  sha: string;
  /** file, dir, symlink, submodule */
  type: 'file' | 'dir' | 'symlink' | 'submodule';
  size: number;
}

export type ContentData =
  | FileData
  | { kind: 'dir'; path: string; sha: string; entries: DirEntryData[] }
  | { kind: 'symlink'; path: string; sha: string; size: number; target: string }
  | { kind: 'submodule'; path: string; sha: string; url: string | null };

export interface ContentResult {
  repo: Repo;
  /** The ref the content was read at (as given, or the default branch). */
  ref: string;
  content: ContentData;
}

function entryType(e: TreeEntry): DirEntryData['type'] {
  if (e.type === 'tree') return 'dir';
  if (e.type === 'commit') return 'submodule';
  return e.mode === '120000' ? 'symlink' : 'file';
}

/** The commit a ref names; 404 with upstream's message otherwise. */
async function commitAt(r: GitRepo, ref: string): Promise<string> {
  const sha = isPlainRevision(ref) ? await peel(r.dir, ref, 'commit') : null;
  if (!sha) throw new NotFoundError(`No commit found for the ref ${ref}`);
  return sha;
}

async function entryAt(dir: string, commit: string, p: string): Promise<TreeEntry | null> {
  return (await listTree(dir, commit, { paths: [p] })).find((e) => e.path === p) ?? null;
}

async function fileData(dir: string, e: TreeEntry, maxBytes: number): Promise<FileData> {
  const size = e.size ?? 0;
  const content = size <= maxBytes ? (await readObject(dir, e.sha))?.content ?? Buffer.alloc(0) : null;
  return { kind: 'file', path: e.path, sha: e.sha, size, content };
}

/** The URL .gitmodules gives the submodule at `p`, or null. */
async function submoduleUrl(dir: string, commit: string, p: string): Promise<string | null> {
  const modules = await readObject(dir, `${commit}:.gitmodules`);
  if (!modules || modules.type !== 'blob') return null;
  let current: string | null = null;
  const urls = new Map<string, string>();
  const paths = new Map<string, string>();
  for (const line of modules.content.toString('utf8').split('\n')) {
    const section = /^\s*\[submodule\s+"(.*)"\]\s*$/.exec(line);
    if (section) { current = section[1]!; continue; }
    const kv = /^\s*(path|url)\s*=\s*(.*?)\s*$/.exec(line);
    if (kv && current !== null) (kv[1] === 'url' ? urls : paths).set(current, kv[2]!);
  }
  for (const [name, at] of paths) if (at === p) return urls.get(name) ?? null;
  return null;
}

/**
 * What is at `p` (a file, a directory, a symlink or a submodule). A symlink to a
 * file of the repository reads as that file, as upstream answers.
 */
export async function getContent(
  ctx: AppContext, actor: Actor, owner: string, name: string, rawPath: string, refInput: string | undefined, maxBytes: number,
): Promise<ContentResult> {
  const r = await openRepo(ctx, actor, owner, name);
  if (!(await hasRefs(r.dir))) throw new NotFoundError('This repository is empty.');
  const ref = refInput || r.repo.defaultBranch;
  const commit = await commitAt(r, ref);
  const p = rawPath.replace(/^\/+|\/+$/g, '');
  if (p === '') {
    const tree = (await peel(r.dir, commit, 'tree'))!;
    return { repo: r.repo, ref, content: { kind: 'dir', path: '', sha: tree, entries: await dirEntries(r.dir, tree, '') } };
  }
  // A path git cannot hold (.., empty components) names nothing; git would refuse to look.
  const entry = pathProblem(p) ? null : await entryAt(r.dir, commit, p);
  if (!entry) throw new NotFoundError();
  const type = entryType(entry);
  if (type === 'dir') return { repo: r.repo, ref, content: { kind: 'dir', path: p, sha: entry.sha, entries: await dirEntries(r.dir, entry.sha, `${p}/`) } };
  if (type === 'submodule') return { repo: r.repo, ref, content: { kind: 'submodule', path: p, sha: entry.sha, url: await submoduleUrl(r.dir, commit, p) } };
  if (type === 'symlink') {
    const target = (await readObject(r.dir, entry.sha))?.content.toString('utf8') ?? '';
    const resolved = path.normalize(path.join(path.dirname(p), target));
    const linked = !target.startsWith('/') && !resolved.startsWith('..') ? await entryAt(r.dir, commit, resolved) : null;
    if (linked && entryType(linked) === 'file') return { repo: r.repo, ref, content: await fileData(r.dir, linked, maxBytes) };
    return { repo: r.repo, ref, content: { kind: 'symlink', path: p, sha: entry.sha, size: entry.size ?? 0, target } };
  }
  return { repo: r.repo, ref, content: await fileData(r.dir, entry, maxBytes) };
}

async function dirEntries(dir: string, tree: string, prefix: string): Promise<DirEntryData[]> {
  const entries = await listTree(dir, tree);
  return entries.map((e) => ({ path: `${prefix}${e.path}`, sha: e.sha, type: entryType(e), size: e.size ?? 0 }));
}

/** Where upstream looks for a README, in its order, and the names it prefers. */
const README_DIRS = ['.github', '', 'docs'];
const README = /^readme(\.[^/]*)?$/i;
const README_ORDER = ['.md', '.markdown', '', '.txt', '.rst', '.adoc', '.org'];

function readmeRank(name: string): number {
  const ext = path.extname(name).toLowerCase();
  const i = README_ORDER.indexOf(name.includes('.') ? ext : '');
  return i < 0 ? README_ORDER.length : i;
}

export async function getReadme(ctx: AppContext, actor: Actor, owner: string, name: string, refInput: string | undefined, maxBytes: number): Promise<ContentResult & { content: FileData }> {
  const r = await openRepo(ctx, actor, owner, name);
  if (!(await hasRefs(r.dir))) throw new NotFoundError();
  const ref = refInput || r.repo.defaultBranch;
  const commit = await commitAt(r, ref);
  const trees = await readObjects(r.dir, README_DIRS.map((d) => (d ? `${commit}:${d}` : `${commit}^{tree}`)));
  for (const d of README_DIRS) {
    const tree = trees.get(d ? `${commit}:${d}` : `${commit}^{tree}`);
    if (!tree || tree.type !== 'tree') continue;
    const found = (await listTree(r.dir, tree.sha))
      .filter((e) => e.type === 'blob' && e.mode !== '120000' && README.test(e.path))
      .sort((a, b) => readmeRank(a.path) - readmeRank(b.path) || a.path.localeCompare(b.path))[0];
    if (found) return { repo: r.repo, ref, content: await fileData(r.dir, { ...found, path: d ? `${d}/${found.path}` : found.path }, maxBytes) };
  }
  throw new NotFoundError();
}

/** GET /repos/{owner}/{repo}/license: the license file of the default branch and what it holds. */
export async function getLicenseFile(ctx: AppContext, actor: Actor, owner: string, name: string, maxBytes: number): Promise<ContentResult & { content: FileData; licenseKey: string }> {
  const r = await openRepo(ctx, actor, owner, name);
  const entry = await findLicenseFile(r.dir, r.repo.defaultBranch);
  if (!entry) throw new NotFoundError();
  return {
    repo: r.repo, ref: r.repo.defaultBranch, content: await fileData(r.dir, entry, maxBytes),
    licenseKey: (await detectRepositoryLicense(r.dir, r.repo.defaultBranch)) ?? 'other',
  };
}

/**
 * GET {base}/{owner}/{repo}/raw/{ref}/{path}: the ref may hold slashes, so each
 * split of the path is tried, the shortest ref first.
 */
export async function getRaw(ctx: AppContext, actor: Actor, owner: string, name: string, refAndPath: string): Promise<Buffer> {
  const r = await openRepo(ctx, actor, owner, name);
  const parts = refAndPath.split('/').filter(Boolean);
  for (let i = 1; i < parts.length; i++) {
    const ref = parts.slice(0, i).join('/');
    const p = parts.slice(i).join('/');
    const commit = isPlainRevision(ref) && !pathProblem(p) ? await peel(r.dir, ref, 'commit') : null;
    if (!commit) continue;
    const entry = await entryAt(r.dir, commit, p);
    if (entry?.type === 'blob') return (await readObject(r.dir, entry.sha))?.content ?? Buffer.alloc(0);
  }
  throw new NotFoundError();
}

// ---------------------------------------------------------------- changes

export interface FileChangeInput {
  message: string;
  sha?: string;
  branch?: string;
  committer?: PersonInput;
  author?: PersonInput;
}

export interface FileChangeResult {
  repo: Repo;
  branch: string;
  /** The file written; null after a deletion. */
  file: FileData | null;
  commit: CommitData;
  created: boolean;
}

function checkPath(p: string): string {
  const clean = p.replace(/^\/+|\/+$/g, '');
  const problem = pathProblem(clean);
  if (problem) throw new ValidationError([{ resource: 'Content', field: 'path', code: 'invalid', message: `path ${problem}` }], `path ${problem}`);
  return clean;
}

/**
 * Workflow files may be changed only by a token with the workflow scope (as upstream
 * refuses pushes of them). The contents API and GraphQL's createCommitOnBranch ask this.
 */
export function canChangeFileAt(actor: Actor, p: string): boolean {
  return actor.tokenId === null || !p.startsWith('.github/workflows/') || hasScope(actor, 'workflow');
}

function checkWorkflowScope(actor: Actor, p: string): void {
  if (!canChangeFileAt(actor, p)) {
    throw new MissingScopeError(['workflow'], `refusing to allow a token to create or update workflow \`${p}\` without \`workflow\` scope`);
  }
}

interface Where {
  r: GitRepo;
  branch: string;
  ref: string;
  /** The branch's commit, or null when the branch (and so the repository) has none yet. */
  head: string | null;
  headTree: string | undefined;
  committer: Ident;
  author: Ident;
}

async function prepare(ctx: AppContext, actor: Actor, owner: string, name: string, input: FileChangeInput): Promise<Where> {
  const r = await openRepo(ctx, actor, owner, name, 'push');
  const branch = input.branch || r.repo.defaultBranch;
  const ref = `refs/heads/${branch}`;
  if (!isValidBranchName(branch)) throw new ValidationError([{ resource: 'Content', field: 'branch', code: 'invalid', message: `${branch} is not a valid branch name` }], `${branch} is not a valid branch name`);
  if (input.message.includes('\0')) throw new ValidationError([{ resource: 'Content', field: 'message', code: 'invalid', message: 'message may not contain NUL' }]);
  const committer = input.committer ? identOf(ctx, 'Content', 'committer', input.committer) : await actorIdent(ctx, actor);
  const author = input.author ? identOf(ctx, 'Content', 'author', input.author) : committer;
  const head = (await git.listRefs(r.dir, [ref])).find((e) => e.ref === ref)?.sha ?? null;
  // A repository without branches gets its first commit on the branch asked for.
  if (!head && (await git.listRefs(r.dir, ['refs/heads/'])).length > 0) throw new NotFoundError(`Branch ${branch} not found`);
  // Branch protection: upstream's 409 with the rule's reason (a pull request is needed …).
  const refusal = await refChangeRefusal(ctx, actor, r.repo, ref, head ? 'update' : 'create');
  if (refusal) throw new ConflictError(refusal);
  return { r, branch, ref, head, headTree: head ? (await peel(r.dir, head, 'tree'))! : undefined, committer, author };
}

async function commitChange(ctx: AppContext, actor: Actor, w: Where, tree: string, message: string): Promise<CommitData> {
  const raw = buildCommit({ tree, parents: w.head ? [w.head] : [], author: w.author, committer: w.committer, message });
  // Rulesets' commit patterns judge the commit itself, so only now, before it is written.
  const refusal = await madeCommitRefusal(ctx, actor, w.r.repo, w.ref, Buffer.from(raw, 'utf8'));
  if (refusal) throw new ConflictError(refusal);
  const sha = await git.hashObject(w.r.dir, 'commit', raw);
  await changingRefs(ctx, actor, w.r, [w.ref], async () => {
    try {
      // Only if the branch is still where this change started from: concurrent writes fail cleanly.
      await git.updateRef(w.r.dir, w.ref, sha, w.head ?? git.ZERO_SHA);
    } catch (err) {
      if (err instanceof GitError) throw new ConflictError(`${w.ref} was updated while this change was made; read the file again and retry`);
      throw err;
    }
  });
  return (await loadCommits(ctx, w.r.dir, [sha])).get(sha)!;
}

/** The blob at `p` on the branch, checked against the sha the caller believes it has. */
async function currentFile(w: Where, p: string, sha: string | undefined, required: boolean): Promise<TreeEntry | null> {
  const entry = w.head ? await entryAt(w.r.dir, w.head, p) : null;
  if (entry && entry.type !== 'blob') {
    throw new ValidationError([{ resource: 'Content', field: 'path', code: 'invalid', message: `${p} is a ${entry.type === 'tree' ? 'directory' : 'submodule'}, not a file` }], `${p} is not a file`);
  }
  if (!entry) {
    if (required) throw new NotFoundError();
    if (sha) throw new ConflictError(`${p} does not match ${sha}`);
    return null;
  }
  if (!sha) throw new ValidationError([{ resource: 'Content', field: 'sha', code: 'missing_field', message: '"sha" wasn\'t supplied.' }], 'Invalid request.\n\n"sha" wasn\'t supplied.');
  if (sha.toLowerCase() !== entry.sha) throw new ConflictError(`${p} does not match ${sha}`);
  return entry;
}

export async function putFile(
  ctx: AppContext, actor: Actor, owner: string, name: string, rawPath: string, input: FileChangeInput & { content: string },
): Promise<FileChangeResult> {
  const p = checkPath(rawPath);
  const data = blobBytes('Content', input.content, 'base64');
  const w = await prepare(ctx, actor, owner, name, input);
  checkWorkflowScope(actor, p);
  const current = await currentFile(w, p, input.sha, false);
  const blob = await git.hashObject(w.r.dir, 'blob', data);
  const tree = await buildTree(w.r.dir, [{ path: p, mode: current?.mode ?? '100644', type: 'blob', sha: blob }], w.headTree);
  const commit = await commitChange(ctx, actor, w, tree, input.message);
  return { repo: w.r.repo, branch: w.branch, file: { kind: 'file', path: p, sha: blob, size: data.length, content: null }, commit, created: current === null };
}

export async function deleteFile(
  ctx: AppContext, actor: Actor, owner: string, name: string, rawPath: string, input: FileChangeInput & { sha: string },
): Promise<FileChangeResult> {
  const p = checkPath(rawPath);
  const w = await prepare(ctx, actor, owner, name, input);
  checkWorkflowScope(actor, p);
  if (!w.head) throw new NotFoundError();
  await currentFile(w, p, input.sha, true);
  const tree = await buildTree(w.r.dir, [{ path: p, sha: null }], w.headTree);
  const commit = await commitChange(ctx, actor, w, tree, input.message);
  return { repo: w.r.repo, branch: w.branch, file: null, commit, created: false };
}

/** Files over 1 MB are served only raw (or, with the object media type, without content), as upstream. */
export const MAX_JSON_FILE_BYTES = 1024 * 1024;

export function tooLargeError(): ForbiddenError {
  return new ForbiddenError('This API returns blobs up to 1 MB in size. The requested blob is too large to fetch via the API, but you can use the Git Data API to request blobs up to 100 MB in size.');
}
