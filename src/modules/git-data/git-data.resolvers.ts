// GraphQL resolvers of the git data area. Writes go through the git-data services
// (the ones REST calls, so pushes are recorded and events follow); reads of refs and
// objects of a repository already resolved as a RepositoryNode (which the caller may
// read) batch per repository: one for-each-ref, one cat-file batch per request.
import type { ProtectionRule } from '../branch-protection/protection.model.ts';
import * as protection from '../branch-protection/protection.service.ts';
import { ConflictError, MissingScopeError, NotFoundError } from '../../domain/errors.ts';
import { isoOfEpoch, isSha, parseTag, type Ident, type ParsedTag } from '../../git/object-format.ts';
import type { ObjectInfo, TreeEntry } from '../../git/objects.ts';
import type { RefEntry } from '../../git/repository.ts';
import { arrayConnection, offsetConnection, type ConnectionArgs } from '../../graphql/connection.ts';
import type { GraphQLContext, Typed } from '../../graphql/context.ts';
import { GraphQLApiError, notFound } from '../../graphql/errors.ts';
import { defineLoader, load, loaderOf, prime } from '../../graphql/loaders.ts';
import type { GraphQLModule } from '../../graphql/module.ts';
import { decodeNodeId, encodeNodeId, idOfType, splitRepositoryScoped } from '../../graphql/node-id.ts';
import type { Repo } from '../repos/repos.model.ts';
import { repositoryById, repositoryNode, type RepositoryNode } from '../repos/repos.resolvers.ts';
import * as repos from '../repos/repos.service.ts';
import { accountById, accountNode } from '../users/users.resolvers.ts';
import * as commits from './commits.service.ts';
import { canChangeFileAt } from './contents.service.ts';
import { shownMessage } from './git-data.views.ts';
import { gitDataTypeDefs } from './git-data.graphql.ts';
import * as gitData from './git-data.service.ts';
import type { CommitData } from './git-data.repository.ts';

type ObjectTypeName = 'Commit' | 'Tree' | 'Blob' | 'Tag';

/** A git object of a repository the caller may read. Trees remember the path they were reached by (TreeEntry.path). */
export interface GitObjectNode {
  __typename: ObjectTypeName;
  repo: Repo;
  oid: string;
  path?: string;
}

export interface RefNode {
  __typename: 'Ref';
  repo: Repo;
  /** Fully qualified: refs/heads/main. */
  ref: string;
  sha: string;
  /** Type of the object the ref points at. */
  type: string;
}

interface TreeEntryNode {
  repo: Repo;
  entry: TreeEntry;
  /** Path of the entry from the root of the tree's commit. */
  path: string;
}

const TYPE_NAME: Record<string, ObjectTypeName> = { commit: 'Commit', tree: 'Tree', blob: 'Blob', tag: 'Tag' };

export function objectNode(repo: Repo, type: string, oid: string, path?: string): GitObjectNode | null {
  const typename = TYPE_NAME[type];
  return typename ? { __typename: typename, repo, oid, ...(path !== undefined ? { path } : {}) } : null;
}

export function commitNode(repo: Repo, oid: string): GitObjectNode {
  return { __typename: 'Commit', repo, oid };
}

export function refNode(repo: Repo, entry: RefEntry): RefNode {
  return { __typename: 'Ref', repo, ref: entry.ref, sha: entry.sha, type: entry.type };
}

const dirOf = (g: GraphQLContext, repo: Repo) => repos.gitDir(g.ctx, repo);

interface ObjectKey {
  repo: Repo;
  oid: string;
}

const objectKey = (k: ObjectKey) => `${k.repo.id}:${k.oid}`;

/** Runs `fetch` once per repository for the keys of that repository; answers in key order. */
async function perRepository<V>(
  keys: readonly ObjectKey[], fetch: (repo: Repo, oids: string[]) => Promise<ReadonlyMap<string, V | null>>,
): Promise<(V | null)[]> {
  const groups = new Map<number, { repo: Repo; oids: string[] }>();
  for (const k of keys) {
    const group = groups.get(k.repo.id) ?? { repo: k.repo, oids: [] };
    group.oids.push(k.oid);
    groups.set(k.repo.id, group);
  }
  const found = new Map<string, V | null>();
  await Promise.all([...groups.values()].map(async ({ repo, oids }) => {
    const got = await fetch(repo, oids);
    for (const oid of oids) found.set(`${repo.id}:${oid}`, got.get(oid) ?? null);
  }));
  return keys.map((k) => found.get(objectKey(k)) ?? null);
}

/** Refs by full name, one cat-file round trip per repository and request (findRef). */
const refNamed = defineLoader('refNamed',
  (g, keys: readonly ObjectKey[]) => perRepository(keys, (repo, refs) => gitData.namedRefsOfRepository(g.ctx, repo, refs)),
  objectKey);

/** Every ref of a repository (one for-each-ref per repository and request). */
const refsOf = defineLoader('refsOf',
  (g, list: readonly Repo[]) => Promise.all(list.map((repo) => gitData.refsOfRepository(g.ctx, repo))),
  (repo: Repo) => repo.id);

const commitData = defineLoader('commitData',
  (g, keys: readonly ObjectKey[]) => perRepository(keys, (repo, oids) => gitData.commitsOfRepository(g.ctx, repo, oids)),
  objectKey);

/** The Wharf users behind a commit's author and committer addresses. */
const commitUsers = defineLoader('commitUsers',
  (g, keys: readonly ObjectKey[]) => perRepository(keys, async (repo, oids) => {
    const records = await commits.commitRecordsData(g.ctx, dirOf(g, repo), oids);
    return new Map(records.map((r) => [r.commit.sha, r]));
  }),
  objectKey);

const objectContent = defineLoader('objectContent',
  (g, keys: readonly ObjectKey[]) => perRepository(keys, (repo, oids) => gitData.objectsOfRepository(g.ctx, repo, oids)),
  objectKey);

const objectInfoOf = defineLoader('objectInfo',
  (g, keys: readonly ObjectKey[]) => perRepository<ObjectInfo>(keys, (repo, oids) => gitData.objectInfoOfRepository(g.ctx, repo, oids)),
  objectKey);

/** Additions, deletions and files of one commit (one diff each; only when asked for). */
const commitStats = defineLoader('commitStats',
  (g, keys: readonly ObjectKey[]) => Promise.all(keys.map((k) =>
    commits.getCommit(g.ctx, g.actor, k.repo.owner.login, k.repo.name, k.oid, { offset: 0, limit: 0 }))),
  objectKey);

async function requireCommit(g: GraphQLContext, c: GitObjectNode): Promise<CommitData> {
  const data = await load(g, commitData, c);
  if (!data) throw new NotFoundError(`Could not resolve to a Commit with the oid '${c.oid}'.`);
  return data;
}

async function requireTag(g: GraphQLContext, t: GitObjectNode): Promise<ParsedTag> {
  const obj = await load(g, objectContent, t);
  if (!obj || obj.type !== 'tag') throw new NotFoundError(`Could not resolve to a Tag with the oid '${t.oid}'.`);
  return parseTag(obj.content);
}

// ---------------------------------------------------------------- refs

/** "refs/heads/a/b" → prefix "refs/heads/", name "a/b", as upstream splits them. */
function splitRef(ref: string): { prefix: string; name: string } {
  const parts = ref.split('/');
  if (parts.length < 3) return { prefix: '', name: ref };
  return { prefix: `${parts.slice(0, 2).join('/')}/`, name: parts.slice(2).join('/') };
}

/** The ref a name reaches (refs/…, or a short name: a branch, else a tag), as Ref; other areas use it (headRef, Deployment.ref). */
export async function findRef(g: GraphQLContext, repo: Repo, qualifiedName: string): Promise<RefNode | null> {
  const candidates = qualifiedName.startsWith('refs/') ? [qualifiedName] : [`refs/heads/${qualifiedName}`, `refs/tags/${qualifiedName}`];
  const found = await Promise.all(candidates.map((ref) => load(g, refNamed, { repo, oid: ref })));
  const first = found.find((r) => r !== null);
  return first ? refNode(repo, first) : null;
}

function ruleNode(rule: ProtectionRule) {
  const reviews = rule.rules.requiredPullRequestReviews;
  return {
    id: encodeNodeId('BranchProtectionRule', rule.id),
    pattern: rule.pattern,
    requiredApprovingReviewCount: reviews?.requiredApprovingReviewCount ?? null,
    requireLastPushApproval: reviews?.requireLastPushApproval ?? false,
    requiresApprovingReviews: (reviews?.requiredApprovingReviewCount ?? 0) > 0,
    requiresStrictStatusChecks: rule.rules.requiredStatusChecks?.strict ?? false,
  };
}

const refFields = {
  id: (r: RefNode) => encodeNodeId('Ref', `${r.repo.id}:${r.ref}`),
  name: (r: RefNode) => splitRef(r.ref).name,
  prefix: (r: RefNode) => splitRef(r.ref).prefix,
  // The rule covering a branch (tags have none), as the branch listings show it to readers.
  branchProtectionRule: async (r: RefNode, _a: unknown, g: GraphQLContext) => {
    if (!r.ref.startsWith('refs/heads/')) return null;
    const rule = await protection.ruleOfBranch(g.ctx, r.repo.id, r.ref.slice('refs/heads/'.length));
    return rule ? ruleNode(rule) : null;
  },
  repository: (r: RefNode) => repositoryNode(r.repo),
  target: (r: RefNode) => objectNode(r.repo, r.type, r.sha),
};

// ---------------------------------------------------------------- git objects

function commonFields(typeName: ObjectTypeName) {
  return {
    id: (o: GitObjectNode) => encodeNodeId(typeName, `${o.repo.id}:${o.oid}`),
    oid: (o: GitObjectNode) => o.oid,
    abbreviatedOid: (o: GitObjectNode) => o.oid.slice(0, 7),
    repository: (o: GitObjectNode) => repositoryNode(o.repo),
    commitUrl: (o: GitObjectNode, _args: unknown, g: GraphQLContext) => `${g.ctx.urls.html(o.repo.owner.login, o.repo.name)}/commit/${o.oid}`,
    commitResourcePath: (o: GitObjectNode) => `/${o.repo.owner.login}/${o.repo.name}/commit/${o.oid}`,
  };
}

/** A git identity as GitActor; the user is looked up only when asked for. */
interface GitActorSource {
  ident: Ident;
  commit: GitObjectNode | null;
  role: 'author' | 'committer' | 'tagger';
}

/** GitTimestamp keeps the identity's own offset: 2013-01-05T13:13:22+05:00. */
function gitTimestamp(i: Ident): string {
  const offsetMinutes = (i.tz.startsWith('-') ? -1 : 1) * (Number(i.tz.slice(1, 3)) * 60 + Number(i.tz.slice(3, 5)));
  const local = isoOfEpoch(i.epoch + offsetMinutes * 60).slice(0, -1);
  return `${local}${i.tz.slice(0, 3)}:${i.tz.slice(3, 5)}`;
}

const gitActorFields = {
  name: (a: GitActorSource) => a.ident.name,
  email: (a: GitActorSource) => a.ident.email,
  date: (a: GitActorSource) => gitTimestamp(a.ident),
  user: async (a: GitActorSource, _args: unknown, g: GraphQLContext) => {
    if (!a.commit || a.role === 'tagger') return null;
    const record = await load(g, commitUsers, a.commit);
    const account = record?.[a.role] ?? null;
    return account ? accountNode(account) : null;
  },
  avatarUrl: async (a: GitActorSource, args: { size?: number | null }, g: GraphQLContext) => {
    const record = a.commit && a.role !== 'tagger' ? await load(g, commitUsers, a.commit) : null;
    const account = record?.[a.role as 'author' | 'committer'] ?? null;
    return `${g.ctx.urls.avatar(account?.id ?? 0)}${args.size ? `&s=${args.size}` : ''}`;
  },
};

function headlineAndBody(message: string): { headline: string; body: string } {
  const text = shownMessage(message);
  const newline = text.indexOf('\n');
  if (newline < 0) return { headline: text, body: '' };
  return { headline: text.slice(0, newline), body: text.slice(newline + 1).replace(/^\n+/, '') };
}

interface HistoryArgs extends ConnectionArgs {
  path?: string | null;
  author?: { id?: string | null; emails?: string[] | null } | null;
  since?: string | null;
  until?: string | null;
}

async function historyAuthor(g: GraphQLContext, author: HistoryArgs['author']): Promise<string | undefined> {
  if (!author) return undefined;
  if (author.id) {
    const ref = idOfType(author.id, 'User');
    const account = ref ? await load(g, accountById, ref.id) : null;
    if (!account) throw notFound(`Could not resolve to a User with the global id of '${author.id}'.`);
    return account.login;
  }
  const emails = author.emails ?? [];
  if (emails.length > 1) throw new GraphQLApiError('UNPROCESSABLE', 'Filtering history by more than one email address is not supported.');
  return emails[0];
}

const commitFields = {
  ...commonFields('Commit'),
  message: async (c: GitObjectNode, _args: unknown, g: GraphQLContext) => shownMessage((await requireCommit(g, c)).parsed.message),
  messageHeadline: async (c: GitObjectNode, _args: unknown, g: GraphQLContext) => headlineAndBody((await requireCommit(g, c)).parsed.message).headline,
  messageBody: async (c: GitObjectNode, _args: unknown, g: GraphQLContext) => headlineAndBody((await requireCommit(g, c)).parsed.message).body,
  author: async (c: GitObjectNode, _args: unknown, g: GraphQLContext): Promise<GitActorSource> => ({ ident: (await requireCommit(g, c)).parsed.author, commit: c, role: 'author' }),
  committer: async (c: GitObjectNode, _args: unknown, g: GraphQLContext): Promise<GitActorSource> => ({ ident: (await requireCommit(g, c)).parsed.committer, commit: c, role: 'committer' }),
  authoredDate: async (c: GitObjectNode, _args: unknown, g: GraphQLContext) => isoOfEpoch((await requireCommit(g, c)).parsed.author.epoch),
  committedDate: async (c: GitObjectNode, _args: unknown, g: GraphQLContext) => isoOfEpoch((await requireCommit(g, c)).parsed.committer.epoch),
  authoredByCommitter: async (c: GitObjectNode, _args: unknown, g: GraphQLContext) => {
    const p = (await requireCommit(g, c)).parsed;
    return p.author.name === p.committer.name && p.author.email === p.committer.email;
  },
  tree: async (c: GitObjectNode, _args: unknown, g: GraphQLContext) => ({ __typename: 'Tree', repo: c.repo, oid: (await requireCommit(g, c)).parsed.tree, path: '' }),
  parents: async (c: GitObjectNode, args: ConnectionArgs, g: GraphQLContext) =>
    arrayConnection((await requireCommit(g, c)).parsed.parents.map((p) => commitNode(c.repo, p)), args),
  additions: async (c: GitObjectNode, _args: unknown, g: GraphQLContext) => (await load(g, commitStats, c)).stats.additions,
  deletions: async (c: GitObjectNode, _args: unknown, g: GraphQLContext) => (await load(g, commitStats, c)).stats.deletions,
  changedFilesIfAvailable: async (c: GitObjectNode, _args: unknown, g: GraphQLContext) => (await load(g, commitStats, c)).fileCount,
  url: (c: GitObjectNode, _args: unknown, g: GraphQLContext) => `${g.ctx.urls.html(c.repo.owner.login, c.repo.name)}/commit/${c.oid}`,
  resourcePath: (c: GitObjectNode) => `/${c.repo.owner.login}/${c.repo.name}/commit/${c.oid}`,
  treeUrl: (c: GitObjectNode, _args: unknown, g: GraphQLContext) => `${g.ctx.urls.html(c.repo.owner.login, c.repo.name)}/tree/${c.oid}`,
  treeResourcePath: (c: GitObjectNode) => `/${c.repo.owner.login}/${c.repo.name}/tree/${c.oid}`,
  history: async (c: GitObjectNode, args: HistoryArgs, g: GraphQLContext) => {
    const author = await historyAuthor(g, args.author);
    return offsetConnection(args, async (offset, limit) => {
      const page = await commits.listCommits(g.ctx, g.actor, c.repo.owner.login, c.repo.name, {
        sha: c.oid, path: args.path ?? undefined, author, since: args.since ?? undefined, until: args.until ?? undefined, offset, limit,
      });
      return {
        items: page.items.map((record) => {
          const node = commitNode(c.repo, record.commit.sha);
          prime(g, commitData, node, record.commit);
          prime(g, commitUsers, node, record);
          return node;
        }),
        total: page.total,
      };
    });
  },
};

const treeFields = {
  ...commonFields('Tree'),
  entries: async (t: GitObjectNode, _args: unknown, g: GraphQLContext): Promise<TreeEntryNode[]> => {
    const entries = await gitData.treeEntriesOfRepository(g.ctx, t.repo, t.oid);
    return entries.map((entry) => ({ repo: t.repo, entry, path: t.path ? `${t.path}/${entry.path}` : entry.path }));
  },
};

const base64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

const treeEntryFields = {
  name: (e: TreeEntryNode) => e.entry.path,
  path: (e: TreeEntryNode) => e.path,
  nameRaw: (e: TreeEntryNode) => base64(e.entry.path),
  pathRaw: (e: TreeEntryNode) => base64(e.path),
  // Upstream reports the mode as the decimal value of git's octal mode (100644 → 33188).
  mode: (e: TreeEntryNode) => Number.parseInt(e.entry.mode, 8),
  type: (e: TreeEntryNode) => e.entry.type,
  oid: (e: TreeEntryNode) => e.entry.sha,
  size: (e: TreeEntryNode) => e.entry.size ?? 0,
  extension: (e: TreeEntryNode) => {
    const dot = e.entry.path.lastIndexOf('.');
    return e.entry.type === 'blob' && dot > 0 ? e.entry.path.slice(dot) : null;
  },
  isGenerated: () => false,
  repository: (e: TreeEntryNode) => repositoryNode(e.repo),
  // A submodule's commit lives in another repository: there is no object here.
  object: (e: TreeEntryNode) => (e.entry.type === 'commit' ? null : objectNode(e.repo, e.entry.type, e.entry.sha, e.path)),
};

/** Blob text is shown up to this size, as upstream truncates large blobs. */
const MAX_BLOB_TEXT = 512 * 1024;

async function blobContent(g: GraphQLContext, b: GitObjectNode): Promise<Buffer> {
  const obj = await load(g, objectContent, b);
  if (!obj || obj.type !== 'blob') throw new NotFoundError(`Could not resolve to a Blob with the oid '${b.oid}'.`);
  return obj.content;
}

const isBinary = (content: Buffer) => content.subarray(0, 8000).includes(0);

const blobFields = {
  ...commonFields('Blob'),
  byteSize: async (b: GitObjectNode, _args: unknown, g: GraphQLContext) => (await load(g, objectInfoOf, b))?.size ?? 0,
  isBinary: async (b: GitObjectNode, _args: unknown, g: GraphQLContext) => isBinary(await blobContent(g, b)),
  isTruncated: async (b: GitObjectNode, _args: unknown, g: GraphQLContext) => ((await load(g, objectInfoOf, b))?.size ?? 0) > MAX_BLOB_TEXT,
  text: async (b: GitObjectNode, _args: unknown, g: GraphQLContext) => {
    const content = await blobContent(g, b);
    return isBinary(content) ? null : content.subarray(0, MAX_BLOB_TEXT).toString('utf8');
  },
};

const tagFields = {
  ...commonFields('Tag'),
  name: async (t: GitObjectNode, _args: unknown, g: GraphQLContext) => (await requireTag(g, t)).tag,
  message: async (t: GitObjectNode, _args: unknown, g: GraphQLContext) => shownMessage((await requireTag(g, t)).message),
  tagger: async (t: GitObjectNode, _args: unknown, g: GraphQLContext): Promise<GitActorSource | null> => {
    const tagger = (await requireTag(g, t)).tagger;
    return tagger ? { ident: tagger, commit: null, role: 'tagger' } : null;
  },
  target: async (t: GitObjectNode, _args: unknown, g: GraphQLContext) => {
    const tag = await requireTag(g, t);
    return objectNode(t.repo, tag.type, tag.object);
  },
};

// ---------------------------------------------------------------- Repository fields

interface RefsArgs extends ConnectionArgs {
  refPrefix: string;
  query?: string | null;
  direction?: 'ASC' | 'DESC' | null;
  orderBy?: { field: string; direction: 'ASC' | 'DESC' } | null;
}

/** What object(expression:) may hand to cat-file: a revision, optionally rev:path. */
function safeExpression(expression: string): boolean {
  return expression !== '' && !expression.startsWith('-') && !/[\r\n\0]/.test(expression);
}

const repositoryGitFields = {
  refs: async (r: RepositoryNode, args: RefsArgs, g: GraphQLContext) => {
    if (!args.refPrefix.startsWith('refs/') || !args.refPrefix.endsWith('/')) {
      throw new GraphQLApiError('UNPROCESSABLE', `refPrefix must start with "refs/" and end with "/", as in "refs/heads/", not ${JSON.stringify(args.refPrefix)}.`);
    }
    const query = args.query?.toLowerCase();
    let list = (await load(g, refsOf, r.repo)).filter((e) => e.ref.startsWith(args.refPrefix)
      && (!query || e.ref.slice(args.refPrefix.length).toLowerCase().includes(query)));
    if ((args.orderBy?.direction ?? args.direction) === 'DESC') list = [...list].reverse();
    return arrayConnection(list, args, (e) => ({ node: refNode(r.repo, e) }));
  },
  ref: (r: RepositoryNode, args: { qualifiedName: string }, g: GraphQLContext) => findRef(g, r.repo, args.qualifiedName),
  defaultBranchRef: (r: RepositoryNode, _args: unknown, g: GraphQLContext) => findRef(g, r.repo, `refs/heads/${r.repo.defaultBranch}`),
  isEmpty: async (r: RepositoryNode, _args: unknown, g: GraphQLContext) => (await load(g, refsOf, r.repo)).length === 0,
  object: async (r: RepositoryNode, args: { oid?: string | null; expression?: string | null }, g: GraphQLContext) => {
    const name = args.oid ?? args.expression;
    if (!name) throw new GraphQLApiError('UNPROCESSABLE', 'Either oid or expression must be given.');
    if (args.oid && !isSha(args.oid.toLowerCase())) return null;
    if (!safeExpression(name)) return null;
    const info = (await gitData.objectInfoOfRepository(g.ctx, r.repo, [args.oid ? name.toLowerCase() : name])).values().next().value;
    if (!info) return null;
    // "main:docs" reaches a tree whose entries have paths under docs/.
    const colon = args.oid ? -1 : name.indexOf(':');
    const path = colon >= 0 ? name.slice(colon + 1).replace(/^\/+|\/+$/g, '') : '';
    return objectNode(r.repo, info.type, info.sha, path);
  },
};

// ---------------------------------------------------------------- mutations

function unresolvable(id: string): GraphQLApiError {
  return notFound(`Could not resolve to a node with the global id of '${id}'.`);
}

/** The repository behind a global id of a Repository, as the caller may see it. */
async function repositoryOfId(g: GraphQLContext, id: string): Promise<Repo> {
  const ref = idOfType(id, 'Repository');
  const node = ref ? await load(g, repositoryById, ref.id) : null;
  if (!node) throw unresolvable(id);
  return node.repo;
}

/** The repository and fully qualified ref behind a global id of a Ref. */
async function refOfId(g: GraphQLContext, id: string): Promise<{ repo: Repo; ref: string }> {
  const decoded = decodeNodeId(id);
  const scoped = decoded?.type === 'Ref' ? splitRepositoryScoped(decoded.id) : null;
  const node = scoped ? await load(g, repositoryById, scoped.repositoryId) : null;
  if (!node || !scoped) throw unresolvable(id);
  return { repo: node.repo, ref: scoped.rest };
}

const payloadOf = (input: { clientMutationId?: string | null }) => ({ clientMutationId: input.clientMutationId ?? null });

/** The ref listing cached for this request is stale once a mutation moved a ref. */
function forgetRefs(g: GraphQLContext, repo: Repo): void {
  loaderOf(g, refsOf).clear(repo);
}

interface CreateCommitOnBranchInput {
  clientMutationId?: string | null;
  branch: { id?: string | null; repositoryNameWithOwner?: string | null; branchName?: string | null };
  fileChanges?: { additions?: { path: string; contents: string }[] | null; deletions?: { path: string }[] | null } | null;
  message: { headline: string; body?: string | null };
  expectedHeadOid: string;
}

async function branchOf(g: GraphQLContext, b: CreateCommitOnBranchInput['branch']): Promise<{ repo: Repo; branch: string }> {
  let repo: Repo;
  let ref: string;
  if (b.id) {
    ({ repo, ref } = await refOfId(g, b.id));
  } else {
    const [owner, name, ...rest] = (b.repositoryNameWithOwner ?? '').split('/');
    if (!owner || !name || rest.length || !b.branchName) {
      throw new GraphQLApiError('UNPROCESSABLE', 'A branch is given by its id, or by repositoryNameWithOwner and branchName.');
    }
    try {
      repo = (await repos.locate(g.ctx, g.actor, owner, name)).repo;
    } catch (err) {
      if (err instanceof NotFoundError) throw notFound(`Could not resolve to a Repository with the name '${owner}/${name}'.`);
      throw err;
    }
    ref = b.branchName.startsWith('refs/') ? b.branchName : `refs/heads/${b.branchName}`;
  }
  if (!ref.startsWith('refs/heads/')) throw new GraphQLApiError('UNPROCESSABLE', `${ref} is not a branch.`);
  return { repo, branch: ref.slice('refs/heads/'.length) };
}

async function createCommitOnBranch(_: unknown, { input }: { input: CreateCommitOnBranchInput }, g: GraphQLContext) {
  const { repo, branch } = await branchOf(g, input.branch);
  const owner = repo.owner.login;
  const additions = input.fileChanges?.additions ?? [];
  const deletions = input.fileChanges?.deletions ?? [];
  const paths = [...additions.map((a) => a.path), ...deletions.map((d) => d.path)];
  const duplicate = paths.find((p, i) => paths.indexOf(p) !== i);
  if (duplicate !== undefined) throw new GraphQLApiError('UNPROCESSABLE', `The path ${duplicate} appears more than once in fileChanges.`);
  // As a push or the contents API would: workflow files need the workflow scope.
  if (!paths.every((p) => canChangeFileAt(g.actor, p))) {
    throw new MissingScopeError(['workflow']);
  }
  let head: RefEntry;
  try {
    head = (await gitData.getRef(g.ctx, g.actor, owner, repo.name, `heads/${branch}`)).ref;
  } catch (err) {
    if (err instanceof NotFoundError || err instanceof ConflictError) throw notFound(`Could not resolve to a Ref with the name 'refs/heads/${branch}'.`);
    throw err;
  }
  if (head.sha !== input.expectedHeadOid.toLowerCase()) {
    throw new GraphQLApiError('STALE_DATA', `Expected branch to point to "${input.expectedHeadOid}" but it did not. Pull and try again.`);
  }
  const message = input.message.body ? `${input.message.headline}\n\n${input.message.body}` : input.message.headline;
  const { commit, ref } = await gitData.commitOnBranch(g.ctx, g.actor, owner, repo.name, branch, head.sha, { additions, deletions }, message);
  forgetRefs(g, repo);
  const node = commitNode(repo, commit.sha);
  prime(g, commitData, node, commit);
  return { ...payloadOf(input), commit: node, ref: refNode(repo, ref) };
}

const mutations = {
  createRef: async (_: unknown, { input }: { input: { clientMutationId?: string | null; repositoryId: string; name: string; oid: string } }, g: GraphQLContext) => {
    const repo = await repositoryOfId(g, input.repositoryId);
    const { ref } = await gitData.createRef(g.ctx, g.actor, repo.owner.login, repo.name, { ref: input.name, sha: input.oid });
    forgetRefs(g, repo);
    return { ...payloadOf(input), ref: refNode(repo, ref) };
  },
  updateRef: async (_: unknown, { input }: { input: { clientMutationId?: string | null; refId: string; oid: string; force?: boolean | null } }, g: GraphQLContext) => {
    const target = await refOfId(g, input.refId);
    const { ref } = await gitData.updateRef(g.ctx, g.actor, target.repo.owner.login, target.repo.name, target.ref, { sha: input.oid, force: input.force ?? false });
    forgetRefs(g, target.repo);
    return { ...payloadOf(input), ref: refNode(target.repo, ref) };
  },
  deleteRef: async (_: unknown, { input }: { input: { clientMutationId?: string | null; refId: string } }, g: GraphQLContext) => {
    const target = await refOfId(g, input.refId);
    await gitData.deleteRef(g.ctx, g.actor, target.repo.owner.login, target.repo.name, target.ref);
    forgetRefs(g, target.repo);
    return payloadOf(input);
  },
  createCommitOnBranch,
};

// ---------------------------------------------------------------- node ids

/** A git object by "<repository id>:<oid>", if the repository is visible and the object is of that type. */
function objectResolver(typeName: ObjectTypeName) {
  return async (g: GraphQLContext, id: string): Promise<Typed | null> => {
    const scoped = splitRepositoryScoped(id);
    if (!scoped || !isSha(scoped.rest)) return null;
    const node = await load(g, repositoryById, scoped.repositoryId);
    if (!node) return null;
    const info = await load(g, objectInfoOf, { repo: node.repo, oid: scoped.rest });
    return info && TYPE_NAME[info.type] === typeName ? objectNode(node.repo, info.type, scoped.rest) : null;
  };
}

const REPO_WRITE = ['public_repo', 'repo'];

export const gitDataGraphQL: GraphQLModule = {
  name: 'git-data',
  typeDefs: gitDataTypeDefs,
  resolvers: {
    Repository: repositoryGitFields,
    Ref: refFields,
    Commit: commitFields,
    Tree: treeFields,
    TreeEntry: treeEntryFields,
    Blob: blobFields,
    Tag: tagFields,
    GitActor: gitActorFields,
    Mutation: mutations,
  },
  nodes: {
    // No branch protection rules exist in Wharf: no id names one.
    BranchProtectionRule: async () => null,
    Ref: async (g, id) => {
      const scoped = splitRepositoryScoped(id);
      const node = scoped ? await load(g, repositoryById, scoped.repositoryId) : null;
      return node && scoped!.rest.startsWith('refs/') ? findRef(g, node.repo, scoped!.rest) : null;
    },
    Commit: objectResolver('Commit'),
    Tree: objectResolver('Tree'),
    Blob: objectResolver('Blob'),
    Tag: objectResolver('Tag'),
  },
  scopes: {
    'Mutation.createRef': REPO_WRITE,
    'Mutation.updateRef': REPO_WRITE,
    'Mutation.deleteRef': REPO_WRITE,
    'Mutation.createCommitOnBranch': REPO_WRITE,
  },
};
