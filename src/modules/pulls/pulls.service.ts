// Pull requests: opening one from a branch of the repository or of a fork in its
// network (or from an existing issue), reading, listing and editing them. A pull
// request is an issue row (through the issues service) plus its own record; the head
// commit is copied into the base repository so that everything is compared there.
import { inTransaction, type AppContext } from '../../context.ts';
import { requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso, storedTimestamp } from '../../domain/clock.ts';
import { ForbiddenError, NotFoundError, ValidationError, type FieldError } from '../../domain/errors.ts';
import type { Page } from '../../domain/page.ts';
import { requireMaxLength, TEXT_LIMITS } from '../../domain/text-limits.ts';
import { countRange, mergeBase } from '../../git/compare.ts';
import * as issueLists from '../issues/issue-lists.service.ts';
import * as issues from '../issues/issues.service.ts';
import type { IssueRecord } from '../issues/issues.model.ts';
import { roleAtLeast, type Repo, type Role } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import * as users from '../users/users.service.ts';
import { recordPullEvent } from './pulls.events.ts';
import { bringCommit, branchTip, pinHead } from './pulls.git.ts';
import type { PullRequestRecord } from './pulls.model.ts';
import * as store from './pulls.store.ts';

export const RESOURCE = 'PullRequest';

/**
 * An error of upstream's shape without a field: {resource, code: custom, message}
 * ("No commits between …", "A pull request already exists for …").
 */
export function customError(message: string): ValidationError {
  const error = { resource: RESOURCE, code: 'custom', message } as Omit<FieldError, 'field'>;
  return new ValidationError([error as FieldError]);
}

function invalid(field: string, value?: unknown, message?: string): FieldError {
  return { resource: RESOURCE, field, code: 'invalid', ...(value === undefined ? {} : { value }), ...(message ? { message } : {}) };
}

// ---------------------------------------------------------------- lookup

export interface LocatedPull {
  repo: Repo;
  /** The caller's role on the repository, as the token may use it. */
  role: Role | null;
  pull: PullRequestRecord;
  issue: IssueRecord;
}

/** The pull request numbered `number`, as a reader of the repository sees it (404 for an issue). */
export async function locatePull(ctx: AppContext, actor: Actor, owner: string, name: string, number: number): Promise<LocatedPull> {
  const { repo, access } = await repos.locate(ctx, actor, owner, name);
  const pull = Number.isSafeInteger(number) && number > 0 ? await store.findByNumber(ctx.db, repo.id, number) : null;
  if (!pull) throw new NotFoundError();
  const [issue] = await issues.findIssuesByIds(ctx, [pull.issueId]);
  if (!issue) throw new NotFoundError();
  return { repo, role: access.effective, pull, issue };
}

/** Re-reads the records inside a transaction (concurrent changes see each other). */
export async function reload(tx: AppContext, located: LocatedPull): Promise<LocatedPull> {
  const pull = (await store.findById(tx.db, located.pull.id)) ?? located.pull;
  const [issue] = await issues.findIssuesByIds(tx, [pull.issueId]);
  return { ...located, pull, issue: issue ?? located.issue };
}

export function requireWritable(repo: Repo): void {
  if (repo.archived) throw new ForbiddenError('Repository was archived so is read-only.');
}

/** One pull request (REST's GET, GraphQL's Repository.pullRequest). */
export async function getPull(ctx: AppContext, actor: Actor, owner: string, name: string, number: number): Promise<LocatedPull> {
  return locatePull(ctx, actor, owner, name, number);
}

// ---------------------------------------------------------------- heads

export interface HeadSpec {
  /** The account part of `owner:branch`, or null for a branch of the base repository. */
  owner: string | null;
  branch: string;
}

export function parseHead(head: string): HeadSpec {
  const colon = head.indexOf(':');
  return colon < 0 ? { owner: null, branch: head } : { owner: head.slice(0, colon), branch: head.slice(colon + 1) };
}

function networkRoot(repo: Repo): number {
  return repo.sourceId ?? repo.id;
}

/**
 * The repository holding the head branch: the base repository, or the repository of the
 * same fork network that `owner` holds (or `head_repo` names). Null when there is none
 * the caller may read.
 */
async function headRepository(ctx: AppContext, actor: Actor, base: Repo, spec: HeadSpec, headRepo: string | undefined): Promise<Repo | null> {
  let repo: Repo | null = null;
  if (headRepo !== undefined) {
    const [owner, name] = headRepo.split('/');
    if (!owner || !name) return null;
    repo = await repos.findForGit(ctx, owner, name);
  } else if (spec.owner === null || spec.owner.toLowerCase() === base.owner.login.toLowerCase()) {
    return base;
  } else {
    const account = await users.findAccount(ctx, spec.owner);
    repo = account ? await repos.findRepoInNetwork(ctx, account.id, networkRoot(base)) : null;
  }
  if (!repo || networkRoot(repo) !== networkRoot(base)) return null;
  if (repo.id === base.id) return base;
  return (await repos.accessTo(ctx, actor, repo)).effective ? repo : null;
}

/** The label upstream names a head with in messages: owner:branch. */
function headLabel(repo: Repo, branch: string): string {
  return `${repo.owner.login}:${branch}`;
}

/** An open pull request of the repository with this head and base, if any. */
async function findOpenDuplicate(ctx: AppContext, base: Repo, headRepoId: number, headRef: string, baseRef: string, except: number | null): Promise<PullRequestRecord | null> {
  const same = (await store.findByHead(ctx.db, headRepoId, headRef))
    .filter((p) => p.repositoryId === base.id && p.baseRef === baseRef && p.id !== except);
  if (!same.length) return null;
  const open = new Set((await issues.findIssuesByIds(ctx, same.map((p) => p.issueId))).filter((i) => i.state === 'open').map((i) => i.id));
  return same.find((p) => open.has(p.issueId)) ?? null;
}

// ---------------------------------------------------------------- create

/**
 * Title and body within upstream's lengths, checked before any git work (the issue row
 * checks them again); head and base names are checked by branchTip (check-ref-format).
 */
function requireTextBounds(input: { title?: string; body?: string | null }): void {
  requireMaxLength(RESOURCE, 'title', input.title, TEXT_LIMITS.title);
  requireMaxLength(RESOURCE, 'body', input.body, TEXT_LIMITS.body);
}

export interface CreatePullInput {
  title?: string;
  body?: string | null;
  head: string;
  headRepo?: string;
  base: string;
  draft?: boolean;
  maintainerCanModify?: boolean;
  /** An issue to turn into the pull request. */
  issue?: number;
}

export async function createPull(ctx: AppContext, actor: Actor, owner: string, name: string, input: CreatePullInput): Promise<LocatedPull> {
  const user = requireUser(actor);
  const { repo, access } = await repos.locate(ctx, actor, owner, name);
  requireWritable(repo);
  repos.requireWriteScope(actor, repo);
  if (input.issue === undefined && (input.title === undefined || input.title.trim() === '')) {
    throw new ValidationError([{ resource: RESOURCE, field: 'title', code: 'missing_field' }]);
  }
  requireTextBounds(input);
  await issues.requireInteraction(ctx, user.id, repo, 'open pull requests');
  if (input.issue !== undefined) await requireConvertible(ctx, actor, repo, input.issue, user.id);

  const spec = parseHead(input.head);
  const headRepo = spec.branch === '' ? null : await headRepository(ctx, actor, repo, spec, input.headRepo);
  const dir = repos.gitDir(ctx, repo);
  const [headSha, baseSha] = await Promise.all([
    headRepo ? branchTip(repos.gitDir(ctx, headRepo), spec.branch) : Promise.resolve(null),
    branchTip(dir, input.base),
  ]);
  const errors: FieldError[] = [];
  if (!headSha) errors.push({ resource: RESOURCE, field: 'head', code: 'invalid' });
  if (!baseSha) errors.push({ resource: RESOURCE, field: 'base', code: 'invalid' });
  if (errors.length) throw new ValidationError(errors);

  await bringCommit(ctx, repo, headRepo!, headSha!);
  if ((await countRange(dir, baseSha!, headSha!)) === 0) throw customError(`No commits between ${input.base} and ${input.head}`);
  if (await findOpenDuplicate(ctx, repo, headRepo!.id, spec.branch, input.base, null)) {
    throw customError(`A pull request already exists for ${headLabel(headRepo!, spec.branch)}.`);
  }
  const foundBase = await mergeBase(dir, baseSha!, headSha!);

  const { pull, issue } = await inTransaction(ctx, async (tx) => {
    const issue = input.issue === undefined
      ? await issues.createIssueRecord(tx, repo, actor, { title: input.title!, body: input.body ?? null }, { isPullRequest: true })
      : await convertIssue(tx, actor, repo, input.issue, user.id);
    const pull = await store.insert(tx.db, {
      issueId: issue.id, repositoryId: repo.id, number: issue.number, headRepositoryId: headRepo!.id, headRef: spec.branch,
      headSha: headSha!, baseRef: input.base, baseSha: baseSha!, mergeBaseSha: foundBase,
      draft: input.draft ?? false, maintainerCanModify: input.maintainerCanModify ?? false,
    }, nowIso(tx.clock));
    await pinHead(tx, repo, pull.number, headSha!);
    await recordPullEvent(tx, actor, repo, pull, issue, 'opened');
    return { pull, issue };
  });
  return { repo, role: access.effective, pull: (await store.findById(ctx.db, pull.id)) ?? pull, issue };
}

/** The issue `number`, if it may become a pull request: an open issue, converted by its author or a triager. */
async function requireConvertible(ctx: AppContext, actor: Actor, repo: Repo, number: number, userId: number): Promise<IssueRecord> {
  const issue = await issues.findIssueByNumber(ctx, repo.id, number);
  if (!issue || issue.isPullRequest) throw new ValidationError([invalid('issue', number)]);
  if (issue.userId !== userId && !roleAtLeast((await repos.accessTo(ctx, actor, repo)).effective, 'triage')) {
    throw new ForbiddenError('Must have triage access or be the author to convert this issue.');
  }
  if (issue.state !== 'open') throw new ValidationError([invalid('issue', number, 'The issue is closed.')]);
  return issue;
}

/** The issue made into a pull request, checked again inside the transaction (a concurrent conversion loses). */
async function convertIssue(tx: AppContext, actor: Actor, repo: Repo, number: number, userId: number): Promise<IssueRecord> {
  return issues.convertIssueToPullRequest(tx, await requireConvertible(tx, actor, repo, number, userId));
}

// ---------------------------------------------------------------- update

export interface UpdatePullInput {
  title?: string;
  body?: string | null;
  state?: 'open' | 'closed';
  base?: string;
  maintainerCanModify?: boolean;
}

/** Its author and triagers edit a pull request (upstream). */
export function canEditPull(viewerId: number | null, role: Role | null, issue: IssueRecord): boolean {
  return issue.userId === viewerId || roleAtLeast(role, 'triage');
}

/** Its author and those with push access mark a pull request ready for review or turn it back into a draft. */
export function canChangeDraft(viewerId: number | null, role: Role | null, issue: IssueRecord): boolean {
  return issue.userId === viewerId || roleAtLeast(role, 'push');
}

export function requireEditor(located: LocatedPull, userId: number): void {
  if (canEditPull(userId, located.role, located.issue)) return;
  throw new ForbiddenError('Must have triage access or be the author to edit this pull request.');
}

export async function updatePull(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, input: UpdatePullInput,
): Promise<LocatedPull> {
  const user = requireUser(actor);
  const located = await locatePull(ctx, actor, owner, name, number);
  const { repo } = located;
  requireWritable(repo);
  repos.requireWriteScope(actor, repo);
  requireEditor(located, user.id);
  if (input.title !== undefined && input.title.trim() === '') throw new ValidationError([{ resource: RESOURCE, field: 'title', code: 'missing_field' }]);
  requireTextBounds(input);
  const dir = repos.gitDir(ctx, repo);
  let newBase: { ref: string; sha: string; mergeBase: string | null } | null = null;
  if (input.base !== undefined && input.base !== located.pull.baseRef) {
    if (located.pull.mergedAt) throw customError('Cannot change the base branch of a merged pull request.');
    const sha = await branchTip(dir, input.base);
    if (!sha) throw new ValidationError([invalid('base', input.base, `Proposed base branch '${input.base}' was not found`)]);
    if ((await countRange(dir, sha, located.pull.headSha)) === 0) {
      throw customError(`There are no new commits between base branch '${input.base}' and head branch '${located.pull.headRef}'.`);
    }
    newBase = { ref: input.base, sha, mergeBase: await mergeBase(dir, sha, located.pull.headSha) };
  }

  const { pull, issue } = await inTransaction(ctx, async (tx) => {
    const current = await reload(tx, located);
    let { pull, issue } = current;
    const reopening = input.state === 'open' && issue.state === 'closed';
    if (reopening) await requireReopenable(tx, repo, pull, newBase?.ref ?? pull.baseRef);
    const before = { title: issue.title, body: issue.body, baseRef: pull.baseRef, baseSha: pull.baseSha };
    issue = await issues.updateIssueRecord(tx, repo, actor, issue, { title: input.title, body: input.body, state: input.state });
    const closing = current.issue.state === 'open' && issue.state === 'closed';
    if (newBase || input.maintainerCanModify !== undefined || closing || reopening) {
      pull = await store.update(tx.db, pull.id, {
        ...(newBase ? { baseRef: newBase.ref, baseSha: newBase.sha, mergeBaseSha: newBase.mergeBase } : {}),
        ...(input.maintainerCanModify !== undefined ? { maintainerCanModify: input.maintainerCanModify } : {}),
        // A closed pull request keeps its range as it was when it closed.
        ...(closing ? await closedRange(tx, repo, pull) : {}),
      }, nowIso(tx.clock));
    }
    const changes: Record<string, unknown> = {};
    if (issue.title !== before.title) changes.title = { from: before.title };
    if (issue.body !== before.body) changes.body = { from: before.body ?? '' };
    if (newBase) changes.base = { ref: { from: before.baseRef }, sha: { from: before.baseSha } };
    if (Object.keys(changes).length) await recordPullEvent(tx, actor, repo, pull, issue, 'edited', { changes });
    if (closing) await recordPullEvent(tx, actor, repo, pull, issue, 'closed');
    if (reopening) await recordPullEvent(tx, actor, repo, pull, issue, 'reopened');
    return { pull, issue };
  });
  return { ...located, pull, issue };
}

/** The base and merge base a pull request closing now keeps. */
export async function closedRange(ctx: AppContext, repo: Repo, pull: PullRequestRecord): Promise<{ baseSha: string; mergeBaseSha: string | null }> {
  const dir = repos.gitDir(ctx, repo);
  const tip = await branchTip(dir, pull.baseRef);
  if (!tip) return { baseSha: pull.baseSha, mergeBaseSha: pull.mergeBaseSha };
  return { baseSha: tip, mergeBaseSha: await mergeBase(dir, tip, pull.headSha) };
}

/** A merged pull request stays closed; one whose head and base already have another open pull request too. */
async function requireReopenable(tx: AppContext, repo: Repo, pull: PullRequestRecord, baseRef: string): Promise<void> {
  if (pull.mergedAt) throw new ValidationError([{ resource: RESOURCE, field: 'state', code: 'custom', message: 'state cannot be changed. The pull request has been merged.' }]);
  if (pull.headRepositoryId === null) throw new ValidationError([{ resource: RESOURCE, field: 'state', code: 'custom', message: 'state cannot be changed. The head repository no longer exists.' }]);
  const duplicate = await findOpenDuplicate(tx, repo, pull.headRepositoryId, pull.headRef, baseRef, pull.id);
  if (duplicate) {
    const [head] = await repos.reposByIds(tx, [pull.headRepositoryId]);
    throw customError(`A pull request already exists for ${head ? headLabel(head, pull.headRef) : pull.headRef}.`);
  }
}

// ---------------------------------------------------------------- list

export type PullSort = 'created' | 'updated' | 'popularity' | 'long-running';

export interface ListPullsQuery {
  state?: 'open' | 'closed' | 'all';
  head?: string;
  base?: string;
  sort?: PullSort;
  direction?: 'asc' | 'desc';
  offset: number;
  limit: number;
}

export interface PullPage extends Page<PullPair> {
  repo: Repo;
}

const MONTH_MS = 30 * 24 * 60 * 60 * 1000;

/** Upstream's default: newest first when sorting by creation, otherwise ascending. */
export function directionOf(sort: PullSort | undefined, direction: 'asc' | 'desc' | undefined): 'asc' | 'desc' {
  return direction ?? (sort === undefined || sort === 'created' ? 'desc' : 'asc');
}

async function headRepositoryIds(ctx: AppContext, base: Repo, owner: string | null): Promise<number[]> {
  if (owner === null) return [base.id];
  const account = await users.findAccount(ctx, owner);
  if (!account) return [];
  const repo = await repos.findRepoInNetwork(ctx, account.id, networkRoot(base));
  return repo ? [repo.id] : [];
}

/**
 * A page of the repository's pull requests (REST's list): the same query GraphQL's
 * connections run, with REST's states, `head=owner:branch` and sorts translated.
 */
export async function listPulls(ctx: AppContext, actor: Actor, owner: string, name: string, q: ListPullsQuery): Promise<PullPage> {
  const { repo } = await repos.locate(ctx, actor, owner, name);
  const head = q.head === undefined || q.head === '' ? null : parseHead(q.head);
  const sort = q.sort ?? 'created';
  const state = q.state ?? 'open';
  const monthAgo = new Date(ctx.clock.now().getTime() - MONTH_MS).toISOString();
  const page = await listPullRecords(ctx, [repo], {
    states: state === 'all' ? ['open', 'closed', 'merged'] : state === 'open' ? ['open'] : ['closed', 'merged'],
    ...(q.base !== undefined && q.base !== '' ? { baseRef: q.base } : {}),
    ...(head ? { headRef: head.branch, headRepositoryIds: await headRepositoryIds(ctx, repo, head.owner) } : {}),
    // Long-running: open for more than a month, with activity within the past month (upstream's rule).
    ...(sort === 'long-running' ? { createdBefore: storedTimestamp(monthAgo), updatedSince: storedTimestamp(monthAgo) } : {}),
    sort: sort === 'popularity' ? 'comments' : sort === 'long-running' ? 'created' : sort,
    direction: directionOf(q.sort, q.direction), offset: q.offset, limit: q.limit,
  });
  return { repo, ...page };
}

// ---------------------------------------------------------------- records (REST's list, GraphQL: Repository.pullRequests, User.pullRequests)

/** A pull request, its issue row and its repository. */
export interface PullPair {
  repo: Repo;
  pull: PullRequestRecord;
  issue: IssueRecord;
}

export interface PullRecordsQuery {
  /** Any of these; merged pull requests are closed ones apart (GraphQL's MERGED). */
  states?: readonly ('open' | 'closed' | 'merged')[];
  /** Label names, any one of which a pull request must carry. */
  labels?: readonly string[];
  headRef?: string;
  /** Head repositories (REST's `head=owner:branch`). */
  headRepositoryIds?: readonly number[];
  baseRef?: string;
  /** The author's login. */
  author?: string;
  /** Stored timestamps: created before, updated at or after. */
  createdBefore?: string;
  updatedSince?: string;
  sort: 'created' | 'updated' | 'comments';
  direction: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** Every row: closed-but-not-merged (or merged only) is told apart after the issue query. */
const ALL_ROWS = 1_000_000;

function stateOf(p: PullPair): 'open' | 'closed' | 'merged' {
  return p.pull.mergedAt !== null ? 'merged' : p.issue.state;
}

/**
 * A page of the pull requests of `repositories` (ones the caller may read: the caller
 * has checked) matching the query. The issue rows are selected, ordered and paged by
 * the issues area's list, restricted to the issue ids this module's branch filters
 * choose. Only when merged and closed-unmerged pull requests must be told apart
 * (GraphQL's states) is the whole list read and filtered here.
 */
export async function listPullRecords(ctx: AppContext, repositories: readonly Repo[], q: PullRecordsQuery): Promise<Page<PullPair>> {
  if (!repositories.length) return { items: [], total: 0 };
  const repositoryIds = repositories.map((r) => r.id);
  const states = new Set(q.states?.length ? q.states : ['open', 'closed', 'merged'] as const);
  const issueStates = [...new Set([...states].map((s) => (s === 'merged' ? 'closed' : s)))];
  const mergedApart = states.has('closed') !== states.has('merged');
  const branches = q.headRef !== undefined || q.baseRef !== undefined || q.headRepositoryIds !== undefined;
  const ids = branches
    ? await store.issueIdsMatching(ctx.db, {
      repositoryIds,
      ...(q.baseRef !== undefined ? { baseRef: q.baseRef } : {}),
      ...(q.headRef !== undefined ? { headRef: q.headRef } : {}),
      ...(q.headRepositoryIds !== undefined ? { headRepositoryIds: q.headRepositoryIds } : {}),
    })
    : undefined;
  const rows = await issueLists.listIssueRecords(ctx, repositoryIds, {
    pullRequests: true, states: issueStates, sort: q.sort, direction: q.direction,
    ...(q.labels ? { anyLabels: q.labels } : {}),
    ...(q.author !== undefined ? { createdBy: q.author } : {}),
    ...(q.createdBefore !== undefined ? { createdBefore: q.createdBefore } : {}),
    ...(q.updatedSince !== undefined ? { since: q.updatedSince } : {}),
    ...(ids ? { ids } : {}),
  }, mergedApart ? { offset: 0, perPage: ALL_ROWS } : { offset: q.offset, perPage: q.limit });
  const pullByIssue = new Map((await store.findByIssueIds(ctx.db, rows.items.map((i) => i.id))).map((p) => [p.issueId, p]));
  const repoById = new Map(repositories.map((r) => [r.id, r]));
  const pairs = rows.items.flatMap((issue) => {
    const pull = pullByIssue.get(issue.id);
    const repo = repoById.get(issue.repositoryId);
    return pull && repo ? [{ repo, pull, issue }] : [];
  });
  if (!mergedApart) return { items: pairs, total: rows.total };
  const matching = pairs.filter((p) => states.has(stateOf(p)));
  return { items: matching.slice(q.offset, q.offset + q.limit), total: matching.length };
}

// ---------------------------------------------------------------- draft (GraphQL: markReadyForReview, convertPullRequestToDraft)

/** Marks a pull request ready for review (draft false) or turns it back into a draft; its author and those with push access may. */
export async function setDraft(ctx: AppContext, actor: Actor, owner: string, name: string, number: number, draft: boolean): Promise<LocatedPull> {
  const user = requireUser(actor);
  const located = await locatePull(ctx, actor, owner, name, number);
  requireWritable(located.repo);
  if (!canChangeDraft(user.id, located.role, located.issue)) throw new ForbiddenError('Must have push access or be the author to change the draft state.');
  if (located.issue.state !== 'open') throw customError('Pull request is closed.');
  const { pull, issue } = await inTransaction(ctx, async (tx) => {
    const current = await reload(tx, located);
    if (current.pull.draft === draft) return current;
    const pull = await store.update(tx.db, current.pull.id, { draft }, nowIso(tx.clock));
    await issues.touchIssue(tx, current.issue.id);
    await recordPullEvent(tx, actor, located.repo, pull, current.issue, draft ? 'converted_to_draft' : 'ready_for_review');
    return { ...current, pull };
  });
  return { ...located, pull, issue };
}

// ---------------------------------------------------------------- lookups for other areas (GraphQL node ids, notifications)

/** Pull request records by id (the `id` of the REST record and of PullRequest node ids); no caller check. */
/** The issue ids of the merged (or not merged) pull requests of these repositories: issue search's is:merged and is:unmerged. */
export function pullIssueIdsByMerged(ctx: AppContext, repositoryIds: readonly number[], merged: boolean): Promise<number[]> {
  return store.issueIdsMatching(ctx.db, { repositoryIds, merged });
}

export function findPullsByIds(ctx: AppContext, ids: readonly number[]): Promise<PullRequestRecord[]> {
  return store.findByIds(ctx.db, ids);
}

/** Pull request records of issue rows (an issue id of a pull request → its record); no caller check. */
export function findPullsByIssueIds(ctx: AppContext, issueIds: readonly number[]): Promise<PullRequestRecord[]> {
  return store.findByIssueIds(ctx.db, issueIds);
}

/** The open pull requests of a repository whose head is one of these commits; no caller check (check runs show them). */
export function openPullsWithHeads(ctx: AppContext, repositoryId: number, shas: readonly string[]): Promise<PullRequestRecord[]> {
  return store.openWithHeadShas(ctx.db, repositoryId, shas);
}
