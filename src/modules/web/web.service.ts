// What each page shows, gathered from the services the API uses (repos.locate, the
// contents and commits of git-data, issue-lists, comments, pulls) with the viewer as
// the actor: no second path to the data, the same permissions, the same 404s.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { ConflictError, NotFoundError } from '../../domain/errors.ts';
import type { Page } from '../../domain/page.ts';
import type { FileChange } from '../../git/history.ts';
import * as commits from '../git-data/commits.service.ts';
import type { CommitDetail, CommitRecordData } from '../git-data/commits.service.ts';
import * as contents from '../git-data/contents.service.ts';
import type { ContentData, FileData } from '../git-data/contents.service.ts';
import { listMatchingRefs } from '../git-data/git-data.service.ts';
import { listReceivedEvents, type TimelineEvent } from '../events-api/events-api.service.ts';
import * as comments from '../issues/comments.service.ts';
import * as issueLists from '../issues/issue-lists.service.ts';
import type { CommentRecord, IssueRecord, LabelRecord } from '../issues/issues.model.ts';
import { labelsOfIssues } from '../issues/issues.present.ts';
import * as issues from '../issues/issues.service.ts';
import { renderHtml } from '../markdown/markdown.service.ts';
import * as pullChanges from '../pulls/pulls.changes.ts';
import { pullFigures } from '../pulls/pulls.present.ts';
import * as pulls from '../pulls/pulls.service.ts';
import type { PullRequestRecord } from '../pulls/pulls.model.ts';
import * as orgs from '../orgs/teams.service.ts';
import { getCombinedStatus, type CombinedStatus } from '../statuses/statuses.service.ts';
import type { Repo, Role } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import type { Presentable } from '../repos/repos.service.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';

/** Files larger than this are not shown in the page (the raw link serves them). */
export const MAX_SHOWN_BYTES = 512 * 1024;
export const PER_PAGE = 25;

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
  /** The rendered README of a directory (sanitized HTML), when it has one. */
  readme: { path: string; html: string } | null;
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
  const markdown = /\.(md|markdown)$/i.test(found.path);
  // A plain-text README is shown as written: markdown of a fenced block keeps it verbatim.
  const html = await renderHtml(ctx, markdown ? text : `\`\`\`\n${text.replace(/```/g, '` ` `')}\n\`\`\``, { mode: 'gfm', context: `${repo.owner.login}/${repo.name}` });
  return { path: found.path, html };
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
}

export async function commitsAt(ctx: AppContext, actor: Actor, owner: string, name: string, ref: string | null, path: string, page: number): Promise<CommitsView> {
  const { repo, refs } = await refNames(ctx, actor, owner, name);
  if (!refs) throw new NotFoundError();
  const at = ref ?? repo.defaultBranch;
  const list = await commits.listCommits(ctx, actor, owner, name, { sha: at, ...(path ? { path } : {}), offset: (page - 1) * PER_PAGE, limit: PER_PAGE });
  return { repo, refs, ref: at, path, page, items: list.items, total: list.total };
}

export interface CommitView {
  detail: CommitDetail;
  /** The latest status of each context, as the API's combined status. */
  status: CombinedStatus;
}

/** Contexts shown on a commit page. */
const MAX_CONTEXTS = 100;

export async function commitAt(ctx: AppContext, actor: Actor, owner: string, name: string, sha: string): Promise<CommitView> {
  const detail = await commits.getCommit(ctx, actor, owner, name, sha, { offset: 0, limit: commits.FILES_PER_PAGE });
  const status = await getCombinedStatus(ctx, actor, owner, name, detail.commit.sha, { perPage: MAX_CONTEXTS, offset: 0 });
  return { detail, status };
}

// ---------------------------------------------------------------- issues

export interface IssueFilter {
  state: 'open' | 'closed' | 'all';
  labels: string;
  page: number;
}

export interface IssueListView {
  repo: Repo;
  filter: IssueFilter;
  page: Page<IssueRecord>;
  authors: Map<number, Account>;
  labels: Map<number, LabelRecord[]>;
}

/** The repository's issues (and pull requests, as the API lists them) through the API's own list and filters. */
export async function issueList(ctx: AppContext, actor: Actor, owner: string, name: string, filter: IssueFilter): Promise<IssueListView> {
  const { repo, page } = await issueLists.listRepoIssues(ctx, actor, owner, name,
    { state: filter.state, ...(filter.labels ? { labels: filter.labels } : {}) },
    { perPage: PER_PAGE, offset: (filter.page - 1) * PER_PAGE });
  const [authors, labels] = await Promise.all([
    users.accountsByIds(ctx, page.items.map((i) => i.userId)),
    labelsOfIssues(ctx, page.items.map((i) => i.id)),
  ]);
  return { repo, filter, page, authors, labels };
}

export interface Rendered<T> {
  record: T;
  html: string;
}

export interface IssueView {
  repo: Repo;
  role: Role | null;
  issue: Rendered<IssueRecord>;
  labels: LabelRecord[];
  comments: Rendered<CommentRecord>[];
  people: Map<number, Account>;
  canComment: boolean;
}

/** Comments shown on one issue page; the API pages the rest. */
const MAX_COMMENTS = 100;

export async function issuePage(ctx: AppContext, actor: Actor, owner: string, name: string, number: number): Promise<IssueView> {
  const { repo, role, issue } = await issues.locateIssue(ctx, actor, owner, name, number);
  const list = await comments.listForIssue(ctx, actor, owner, name, number, {}, { perPage: MAX_COMMENTS, offset: 0 });
  const context = `${repo.owner.login}/${repo.name}`;
  const render = (body: string | null) => (body ? renderHtml(ctx, body, { mode: 'gfm', context }) : Promise.resolve(''));
  const [people, labels, issueHtml, commentHtml, canComment] = await Promise.all([
    users.accountsByIds(ctx, [issue.userId, ...list.page.items.map((c) => c.userId)]),
    labelsOfIssues(ctx, [issue.id]),
    render(issue.body),
    Promise.all(list.page.items.map((c) => render(c.body))),
    actor.user ? issues.canComment(ctx, actor, repo, issue) : Promise.resolve(false),
  ]);
  return {
    repo, role, issue: { record: issue, html: issueHtml }, labels: labels.get(issue.id) ?? [],
    comments: list.page.items.map((c, i) => ({ record: c, html: commentHtml[i]! })), people, canComment,
  };
}

export function newIssueRepo(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<repos.Located> {
  return repos.locate(ctx, actor, owner, name);
}

export async function openIssue(ctx: AppContext, actor: Actor, owner: string, name: string, title: string, body: string): Promise<number> {
  return (await issues.createIssue(ctx, actor, owner, name, { title, body })).issue.number;
}

export async function addComment(ctx: AppContext, actor: Actor, owner: string, name: string, number: number, body: string): Promise<void> {
  await comments.createComment(ctx, actor, owner, name, number, { body });
}

// ---------------------------------------------------------------- pull requests

export interface PullListView {
  repo: Repo;
  state: 'open' | 'closed' | 'all';
  page: number;
  items: { pull: PullRequestRecord; issue: IssueRecord }[];
  total: number;
  authors: Map<number, Account>;
}

export async function pullList(ctx: AppContext, actor: Actor, owner: string, name: string, state: 'open' | 'closed' | 'all', page: number): Promise<PullListView> {
  const list = await pulls.listPulls(ctx, actor, owner, name, { state, offset: (page - 1) * PER_PAGE, limit: PER_PAGE });
  const { repo } = await repos.locate(ctx, actor, owner, name);
  const authors = await users.accountsByIds(ctx, list.items.map((p) => p.issue.userId));
  return { repo, state, page, items: list.items, total: list.total, authors };
}

export interface PullView extends IssueView {
  pull: PullRequestRecord;
  mergeable: boolean | null;
  /** clean, blocked, behind, dirty, draft, unstable or unknown, as the API's mergeable_state. */
  mergeableState: string;
  files: FileChange[];
  fileCount: number;
  commits: CommitRecordData[];
  mergedBy: Account | null;
}

export async function pullPage(ctx: AppContext, actor: Actor, owner: string, name: string, number: number): Promise<PullView> {
  const located = await pulls.getPull(ctx, actor, owner, name, number);
  const [conversation, figures, files, commitList] = await Promise.all([
    issuePage(ctx, actor, owner, name, number),
    pullFigures(ctx, located.repo, located.pull, located.issue),
    pullChanges.listPullFiles(ctx, actor, owner, name, number, { offset: 0, limit: pullChanges.MAX_FILES }),
    pullChanges.listPullCommits(ctx, actor, owner, name, number, { offset: 0, limit: 250 }),
  ]);
  const mergedById = figures.pull.mergedById;
  const mergedBy = mergedById === null ? null : (await users.accountsByIds(ctx, [mergedById])).get(mergedById) ?? null;
  return {
    ...conversation, pull: figures.pull, mergeable: figures.figures.mergeable, mergeableState: figures.figures.mergeableState,
    files: files.items, fileCount: files.total, commits: commitList.items, mergedBy,
  };
}

export { mergePull } from '../pulls/pulls.merge.ts';

// ---------------------------------------------------------------- accounts

export interface ProfileView {
  account: Account;
  repos: Presentable[];
  total: number;
  page: number;
}

export async function profile(ctx: AppContext, actor: Actor, login: string, page: number): Promise<ProfileView> {
  const account = await users.requireAccount(ctx, login);
  const q = { sort: 'updated' as const, limit: PER_PAGE, offset: (page - 1) * PER_PAGE };
  const list = account.type === 'Organization' ? await repos.listForOrg(ctx, actor, account.login, q) : await repos.listForUser(ctx, actor, account.login, q);
  return { account, repos: list.items, total: list.total, page };
}

export interface HomeView {
  repos: Presentable[];
  total: number;
  /** The signed-in user's organizations and the events of the repositories they watch (empty for everyone else). */
  organizations: Account[];
  events: TimelineEvent[];
}

/** Events shown on the home page; the events API pages further back. */
const HOME_EVENTS = 20;

/** The signed-in user's repositories (owned, collaborating, through organizations); public ones for everyone else. */
export async function home(ctx: AppContext, actor: Actor): Promise<HomeView> {
  const q = { sort: 'updated' as const, limit: PER_PAGE, offset: 0 };
  if (!actor.user) {
    const list = await repos.searchRepositories(ctx, actor, { words: [], fields: ['name'], ownerLogins: [], visibility: 'public', forks: 'include', limit: PER_PAGE, offset: 0 });
    return { repos: list.items, total: list.total, organizations: [], events: [] };
  }
  const [list, memberships, feed] = await Promise.all([
    repos.listForAuthenticatedUser(ctx, actor, q),
    orgs.activeMembershipsOf(ctx, actor.user.id),
    listReceivedEvents(ctx, actor, actor.user.login, false, { offset: 0, limit: HOME_EVENTS }),
  ]);
  const accounts = await users.accountsByIds(ctx, memberships.map((m) => m.orgId));
  const organizations = [...accounts.values()].sort((a, b) => a.login.localeCompare(b.login));
  return { repos: list.items, total: list.total, organizations, events: feed.events };
}

/** A file's bytes at "{ref}/{path}", as the API's raw address reads them. */
export function rawFile(ctx: AppContext, actor: Actor, owner: string, name: string, refAndPath: string): Promise<Buffer> {
  return contents.getRaw(ctx, actor, owner, name, refAndPath);
}
