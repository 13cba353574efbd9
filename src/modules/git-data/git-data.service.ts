// The Git database API: blobs, trees, commits, references and annotated tags,
// written as real objects into the repository and read back from it.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { requireMaxLength, TEXT_LIMITS } from '../../domain/text-limits.ts';
import {
  buildCommit, buildTag, decodeBase64, isSha, parseTag, type Ident, type ParsedTag,
} from '../../git/object-format.ts';
import { isValidBranchName, isValidRefName } from '../../git/ref-format.ts';
import {
  hasRefs, listTree, objectInfo, peel, readObject, readObjects, writeTree, type ObjectInfo, type ObjectType, type TreeEntry,
} from '../../git/objects.ts';
import * as git from '../../git/repository.ts';
import type { GitObject } from '../../git/repository.ts';
import { GitError } from '../../git/run.ts';
import { addedCommits } from '../../git/compare.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { verifyTag, type Verification } from '../verification/verification.service.ts';
import {
  actorIdent, changingRefs, emptyRepositoryError, identOf, isPlainRevision, loadCommits, openRepo, requireNotEmpty,
  type CommitData, type GitRepo, type PersonInput,
} from './git-data.repository.ts';
import { MAX_BLOB_BYTES } from './git-data.limits.ts';
import { buildTree, type TreeEntryInput } from './git-data.trees.ts';
import { refChangeRefusal, type RefChange } from '../branch-protection/protection.push.ts';
import { networkCommitDir } from './commits.network.ts';


const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** A missing object: 404, or upstream's 409 when the repository has no ref at all. */
async function missing(r: GitRepo): Promise<Error> {
  return (await hasRefs(r.dir)) ? new NotFoundError() : emptyRepositoryError();
}

function checkSha(resource: string, field: string, value: string): string {
  const sha = value.toLowerCase();
  if (!isSha(sha)) throw new ValidationError([{ resource, field, code: 'invalid', message: `${field} is not a valid SHA-1: ${value}` }], `${field} is not a valid SHA-1`);
  return sha;
}

// ---------------------------------------------------------------- blobs

export interface BlobInput {
  content: string;
  encoding?: string;
}

/** The bytes a blob body describes; 422 for an unknown encoding, bad base64 or more than 100 MB. */
export function blobBytes(resource: string, content: string, encoding: string): Buffer {
  let data: Buffer | null;
  if (encoding === 'utf-8' || encoding === 'utf8') data = Buffer.from(content, 'utf8');
  else if (encoding === 'base64') {
    data = decodeBase64(content);
    if (!data) throw new ValidationError([{ resource, field: 'content', code: 'invalid', message: 'content is not valid Base64' }], 'content is not valid Base64');
  } else {
    const message = `encoding must be "utf-8" or "base64", not ${JSON.stringify(encoding)}`;
    throw new ValidationError([{ resource, field: 'encoding', code: 'invalid', message }], message);
  }
  if (data.length > MAX_BLOB_BYTES) {
    const message = `content is too large: ${data.length} bytes, more than the ${MAX_BLOB_BYTES / 1024 / 1024} MB a blob may hold`;
    throw new ValidationError([{ resource, field: 'content', code: 'custom', message }], message);
  }
  return data;
}

// Upstream refuses Git database writes to an empty repository (409); Wharf accepts
// them, so that a repository can be filled through this API alone (blob, tree,
// commit, then the first ref).
export async function createBlob(ctx: AppContext, actor: Actor, owner: string, name: string, input: BlobInput): Promise<{ repo: Repo; sha: string }> {
  const r = await openRepo(ctx, actor, owner, name, 'push');
  const data = blobBytes('Blob', input.content, (input.encoding ?? 'utf-8').toLowerCase());
  return { repo: r.repo, sha: await git.hashObject(r.dir, 'blob', data) };
}

export interface BlobData {
  repo: Repo;
  sha: string;
  size: number;
  content: Buffer;
}

export async function getBlob(ctx: AppContext, actor: Actor, owner: string, name: string, fileSha: string): Promise<BlobData> {
  const r = await openRepo(ctx, actor, owner, name);
  const sha = checkSha('Blob', 'file_sha', fileSha);
  const obj = await readObject(r.dir, sha);
  if (!obj || obj.type !== 'blob') throw await missing(r);
  return { repo: r.repo, sha: obj.sha, size: obj.size, content: obj.content };
}

// ---------------------------------------------------------------- trees

export interface TreeData {
  repo: Repo;
  sha: string;
  entries: TreeEntry[];
  truncated: boolean;
}

/** Upstream's cap on a recursive listing. */
const MAX_TREE_ENTRIES = 100_000;

export async function createTree(
  ctx: AppContext, actor: Actor, owner: string, name: string, input: { tree: TreeEntryInput[]; base_tree?: string },
): Promise<TreeData> {
  const r = await openRepo(ctx, actor, owner, name, 'push');
  const sha = await buildTree(r.dir, input.tree, input.base_tree);
  return { repo: r.repo, sha, entries: await listTree(r.dir, sha), truncated: false };
}

/** A tree by sha, or the tree of a commit, branch or tag (as upstream accepts). */
export async function getTree(ctx: AppContext, actor: Actor, owner: string, name: string, treeSha: string, recursive: boolean): Promise<TreeData> {
  const r = await openRepo(ctx, actor, owner, name);
  const sha = isPlainRevision(treeSha) ? await peel(r.dir, treeSha, 'tree') : null;
  if (!sha) throw await missing(r);
  const entries = await listTree(r.dir, sha, { recursive });
  const truncated = entries.length > MAX_TREE_ENTRIES;
  return { repo: r.repo, sha, entries: truncated ? entries.slice(0, MAX_TREE_ENTRIES) : entries, truncated };
}

// ---------------------------------------------------------------- commits

export interface CreateCommitInput {
  message: string;
  tree: string;
  parents?: string[];
  author?: PersonInput;
  committer?: PersonInput;
  signature?: string;
}

function noNul(resource: string, field: string, value: string): void {
  if (value.includes('\0')) throw new ValidationError([{ resource, field, code: 'invalid', message: `${field} may not contain NUL` }], `${field} may not contain NUL`);
}

export async function createCommit(ctx: AppContext, actor: Actor, owner: string, name: string, input: CreateCommitInput): Promise<{ repo: Repo; commit: CommitData }> {
  const r = await openRepo(ctx, actor, owner, name, 'push');
  noNul('Commit', 'message', input.message);
  requireMaxLength('Commit', 'message', input.message, TEXT_LIMITS.gitMessage);
  if (input.signature !== undefined) noNul('Commit', 'signature', input.signature);
  const author = input.author ? identOf(ctx, 'Commit', 'author', input.author) : await actorIdent(ctx, actor);
  const committer = input.committer ? identOf(ctx, 'Commit', 'committer', input.committer) : author;
  const tree = input.tree.toLowerCase();
  const parents = (input.parents ?? []).map((p) => p.toLowerCase());
  const info = await objectInfo(r.dir, [tree, ...parents].filter(isSha));
  if (!isSha(tree) || info.get(tree)?.type !== 'tree') {
    throw new ValidationError([{ resource: 'Commit', field: 'tree', code: 'invalid', message: `Tree SHA does not exist: ${input.tree}` }], 'Tree SHA does not exist');
  }
  const badParent = parents.find((p) => !isSha(p) || info.get(p)?.type !== 'commit');
  if (badParent !== undefined) {
    throw new ValidationError([{ resource: 'Commit', field: 'parents', code: 'invalid', message: `Parent SHA does not exist or is not a commit object: ${badParent}` }], 'Parent SHA does not exist or is not a commit object');
  }
  // git knows the empty tree without storing it; a commit of it must carry the object.
  if (tree === EMPTY_TREE) await writeTree(r.dir, []);
  const raw = buildCommit({ tree, parents, author, committer, signature: input.signature || null, message: input.message });
  const sha = await git.hashObject(r.dir, 'commit', raw);
  const commit = (await loadCommits(ctx, r.dir, [sha])).get(sha)!;
  return { repo: r.repo, commit };
}

export async function getGitCommit(ctx: AppContext, actor: Actor, owner: string, name: string, commitSha: string): Promise<{ repo: Repo; commit: CommitData }> {
  const r = await openRepo(ctx, actor, owner, name);
  const sha = commitSha.toLowerCase();
  if (!isSha(sha)) throw await missing(r);
  // A commit only a readable fork (or other relative) has reads here too, as upstream.
  let commit = (await loadCommits(ctx, r.dir, [sha])).get(sha);
  if (!commit) {
    const dir = await networkCommitDir(ctx, actor, r.repo, sha);
    commit = dir ? (await loadCommits(ctx, dir, [sha])).get(sha) : undefined;
  }
  if (!commit) throw await missing(r);
  return { repo: r.repo, commit };
}

// ---------------------------------------------------------------- references

export interface RefsData {
  repo: Repo;
  refs: git.RefEntry[];
}

/** "heads/main" (upstream's form) or "refs/heads/main" → "refs/heads/main". */
function fullRef(ref: string): string {
  return ref.startsWith('refs/') ? ref : `refs/${ref}`;
}

async function findRef(r: GitRepo, ref: string): Promise<git.RefEntry | null> {
  if (!isValidRefName(ref)) return null;
  return (await git.listRefs(r.dir, [ref])).find((e) => e.ref === ref) ?? null;
}

export async function getRef(ctx: AppContext, actor: Actor, owner: string, name: string, ref: string): Promise<{ repo: Repo; ref: git.RefEntry }> {
  const r = await openRepo(ctx, actor, owner, name);
  await requireNotEmpty(r);
  const found = await findRef(r, fullRef(ref));
  if (!found) throw new NotFoundError();
  return { repo: r.repo, ref: found };
}

/** Refs whose name starts with refs/{prefix}, in name order (an empty prefix lists all). */
export async function listMatchingRefs(ctx: AppContext, actor: Actor, owner: string, name: string, prefix: string): Promise<RefsData> {
  const r = await openRepo(ctx, actor, owner, name);
  await requireNotEmpty(r);
  const wanted = prefix === '' ? 'refs/' : fullRef(prefix);
  return { repo: r.repo, refs: (await git.listRefs(r.dir)).filter((e) => e.ref.startsWith(wanted)) };
}

function refError(message: string, field = 'ref'): ValidationError {
  return new ValidationError([{ resource: 'Reference', field, code: 'custom', message }], message);
}

/** Branch protection: a change its rule refuses is upstream's 422 with the rule's reason. */
async function requireUnprotected(ctx: AppContext, actor: Actor, r: GitRepo, ref: string, change: RefChange, move?: { from: string | null; to: string }): Promise<void> {
  const refusal = await refChangeRefusal(ctx, actor, r.repo, ref, change, move && (() => addedCommits(r.dir, move.from, move.to)));
  if (refusal) throw refError(refusal);
}

/** The object a ref is about to point at: it must exist, and a branch must point at a commit. */
async function targetOf(r: GitRepo, ref: string, shaInput: string): Promise<{ sha: string; type: ObjectType }> {
  const sha = shaInput.toLowerCase();
  const info = isSha(sha) ? (await objectInfo(r.dir, [sha])).get(sha) : null;
  if (!info) throw refError('Object does not exist', 'sha');
  if (ref.startsWith('refs/heads/') && info.type !== 'commit') throw refError(`A branch must point at a commit, and ${sha} is a ${info.type}`, 'sha');
  return { sha, type: info.type };
}

export async function createRef(ctx: AppContext, actor: Actor, owner: string, name: string, input: { ref: string; sha: string }): Promise<{ repo: Repo; ref: git.RefEntry }> {
  const r = await openRepo(ctx, actor, owner, name, 'push');
  const ref = input.ref;
  // A ref under refs/heads/ is a branch: the branch rules hold too (no leading "-").
  const branchOk = !ref.startsWith('refs/heads/') || isValidBranchName(ref.slice('refs/heads/'.length));
  if (!ref.startsWith('refs/') || ref.split('/').length < 3 || !isValidRefName(ref) || !branchOk) {
    throw refError(`Reference name is invalid: ${JSON.stringify(ref)} must start with "refs/", have at least two slashes and be a valid git ref name`);
  }
  const target = await targetOf(r, ref, input.sha);
  if (await findRef(r, ref)) throw refError('Reference already exists');
  await requireUnprotected(ctx, actor, r, ref, 'create', { from: null, to: target.sha });
  await changingRefs(ctx, actor, r, [ref], async () => {
    try {
      await git.updateRef(r.dir, ref, target.sha, git.ZERO_SHA);
    } catch (err) {
      if (!(err instanceof GitError)) throw err;
      // Lost a race, or a ref such as refs/heads/a stands where refs/heads/a/b would go.
      throw refError(await findRef(r, ref) ? 'Reference already exists' : 'Reference update failed');
    }
  });
  return { repo: r.repo, ref: { ref, sha: target.sha, type: target.type } };
}

async function fastForward(r: GitRepo, from: string, to: string): Promise<boolean> {
  const [a, b] = await Promise.all([peel(r.dir, from, 'commit'), peel(r.dir, to, 'commit')]);
  return a !== null && b !== null && git.isAncestor(r.dir, a, b);
}

export async function updateRef(
  ctx: AppContext, actor: Actor, owner: string, name: string, refParam: string, input: { sha: string; force?: boolean },
): Promise<{ repo: Repo; ref: git.RefEntry }> {
  const r = await openRepo(ctx, actor, owner, name, 'push');
  await requireNotEmpty(r);
  const ref = fullRef(refParam);
  const current = await findRef(r, ref);
  if (!current) throw refError('Reference does not exist');
  const target = await targetOf(r, ref, input.sha);
  if (!input.force && current.sha !== target.sha && !(await fastForward(r, current.sha, target.sha))) {
    throw refError('Update is not a fast forward', 'sha');
  }
  await requireUnprotected(ctx, actor, r, ref, current.sha === target.sha || (await fastForward(r, current.sha, target.sha)) ? 'update' : 'force', { from: current.sha, to: target.sha });
  await changingRefs(ctx, actor, r, [ref], async () => {
    try {
      await git.updateRef(r.dir, ref, target.sha, current.sha);
    } catch (err) {
      if (err instanceof GitError) throw refError('Reference update failed: it moved while this update was made');
      throw err;
    }
  });
  return { repo: r.repo, ref: { ref, sha: target.sha, type: target.type } };
}

export async function deleteRef(ctx: AppContext, actor: Actor, owner: string, name: string, refParam: string): Promise<void> {
  const r = await openRepo(ctx, actor, owner, name, 'push');
  await requireNotEmpty(r);
  const ref = fullRef(refParam);
  const current = await findRef(r, ref);
  if (!current) throw refError('Reference does not exist');
  await requireUnprotected(ctx, actor, r, ref, 'delete');
  await changingRefs(ctx, actor, r, [ref], async () => {
    try {
      await git.deleteRef(r.dir, ref, current.sha);
    } catch (err) {
      if (err instanceof GitError) throw refError('Reference update failed: it moved while this update was made');
      throw err;
    }
  });
}

// ---------------------------------------------------------------- a commit of file changes on a branch

export interface FileChanges {
  /** Files to write, their contents in base64. */
  additions: readonly { path: string; contents: string }[];
  deletions: readonly { path: string }[];
}

/**
 * Writes the changes as one commit on top of `headSha` and moves the branch to it (a
 * fast-forward only): GraphQL's createCommitOnBranch, made of the blob, tree, commit and
 * ref writes the REST routes make, so pushes are recorded and events follow alike.
 */
export async function commitOnBranch(
  ctx: AppContext, actor: Actor, owner: string, name: string, branch: string, headSha: string, changes: FileChanges, message: string,
): Promise<{ repo: Repo; commit: CommitData; ref: git.RefEntry }> {
  const headCommit = (await getGitCommit(ctx, actor, owner, name, headSha)).commit;
  const entries: TreeEntryInput[] = changes.deletions.map((d) => ({ path: d.path, sha: null }));
  for (const a of changes.additions) {
    const blob = await createBlob(ctx, actor, owner, name, { content: a.contents, encoding: 'base64' });
    entries.push({ path: a.path, mode: '100644', type: 'blob', sha: blob.sha });
  }
  const tree = entries.length
    ? (await createTree(ctx, actor, owner, name, { tree: entries, base_tree: headCommit.parsed.tree })).sha
    : headCommit.parsed.tree;
  const { commit } = await createCommit(ctx, actor, owner, name, { message, tree, parents: [headSha] });
  const { repo, ref } = await updateRef(ctx, actor, owner, name, `heads/${branch}`, { sha: commit.sha, force: false });
  return { repo, commit, ref };
}

// ---------------------------------------------------------------- annotated tags

export interface TagData {
  repo: Repo;
  sha: string;
  tag: ParsedTag;
  verification: Verification;
}

export interface CreateTagInput {
  tag: string;
  message: string;
  object: string;
  type: 'commit' | 'tree' | 'blob';
  tagger?: PersonInput;
}

export async function createTag(ctx: AppContext, actor: Actor, owner: string, name: string, input: CreateTagInput): Promise<TagData> {
  const r = await openRepo(ctx, actor, owner, name, 'push');
  if (!isValidRefName(`refs/tags/${input.tag}`)) {
    throw new ValidationError([{ resource: 'Tag', field: 'tag', code: 'invalid', message: `${JSON.stringify(input.tag)} is not a valid tag name` }], 'Tag name is invalid');
  }
  noNul('Tag', 'message', input.message);
  requireMaxLength('Tag', 'message', input.message, TEXT_LIMITS.gitMessage);
  const tagger: Ident = input.tagger ? identOf(ctx, 'Tag', 'tagger', input.tagger) : await actorIdent(ctx, actor);
  const object = input.object.toLowerCase();
  const info = isSha(object) ? (await objectInfo(r.dir, [object])).get(object) : null;
  if (!info) throw new ValidationError([{ resource: 'Tag', field: 'object', code: 'invalid', message: `Object does not exist: ${input.object}` }], 'Object does not exist');
  if (info.type !== input.type) {
    const message = `Object ${object} is a ${info.type}, not a ${input.type}`;
    throw new ValidationError([{ resource: 'Tag', field: 'type', code: 'invalid', message }], message);
  }
  const raw = buildTag({ object, type: input.type, tag: input.tag, tagger, message: input.message });
  const sha = await git.hashObject(r.dir, 'tag', raw);
  const bytes = Buffer.from(raw, 'utf8');
  return { repo: r.repo, sha, tag: parseTag(bytes), verification: await verifyTag(ctx, bytes) };
}

export async function getTag(ctx: AppContext, actor: Actor, owner: string, name: string, tagSha: string): Promise<TagData> {
  const r = await openRepo(ctx, actor, owner, name);
  const sha = tagSha.toLowerCase();
  const obj = isSha(sha) ? await readObject(r.dir, sha) : null;
  if (!obj || obj.type !== 'tag') throw await missing(r);
  return { repo: r.repo, sha, tag: parseTag(obj.content), verification: await verifyTag(ctx, obj.content) };
}

// ---------------------------------------------------------------- reads of a repository already found readable

// GraphQL resolves git fields of a Repository node the caller may read (its resolution
// made the check) and batches them per repository and request: these read the same git
// data the routes above read, without locating the repository again.

/** Every ref of the repository, in name order. */
export function refsOfRepository(ctx: AppContext, repo: Repo): Promise<git.RefEntry[]> {
  return git.listRefs(repos.gitDir(ctx, repo));
}

/** Refs by full name (a name git would refuse is absent, as is a ref that does not exist). */
export function namedRefsOfRepository(ctx: AppContext, repo: Repo, refs: readonly string[]): Promise<Map<string, git.RefEntry>> {
  return git.readRefs(repos.gitDir(ctx, repo), [...new Set(refs)].filter((r) => r.startsWith('refs/') && isValidRefName(r)));
}

/** Commits by full sha, each with its verification (missing ones are absent). */
export function commitsOfRepository(ctx: AppContext, repo: Repo, oids: readonly string[]): Promise<Map<string, CommitData>> {
  return loadCommits(ctx, repos.gitDir(ctx, repo), oids);
}

/** Objects with their content, by sha or revision expression (null: none). */
export function objectsOfRepository(ctx: AppContext, repo: Repo, names: readonly string[]): Promise<Map<string, GitObject | null>> {
  return readObjects(repos.gitDir(ctx, repo), names);
}

/** Type and size of objects, by sha or revision expression (null: none). */
export function objectInfoOfRepository(ctx: AppContext, repo: Repo, names: readonly string[]): Promise<Map<string, ObjectInfo | null>> {
  return objectInfo(repos.gitDir(ctx, repo), names);
}

/** The entries of one tree (not recursive). */
export function treeEntriesOfRepository(ctx: AppContext, repo: Repo, treeSha: string): Promise<TreeEntry[]> {
  return listTree(repos.gitDir(ctx, repo), treeSha);
}
