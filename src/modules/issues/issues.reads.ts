// Bulk reads of issue records for GraphQL: lists with GraphQL's filters, and the
// labels, assignees, milestones and comments of a page of issues in one query each,
// whatever the page size (the resolvers batch through per-request loaders). Records,
// not REST views: GraphQL selects fields one by one. Callers have located the
// repositories through the repos permission model first; cross-repository lists keep
// only the repositories the caller may read.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import type { Page, Slice } from '../../domain/page.ts';
import { accessToMany } from '../repos/repos.access.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import * as users from '../users/users.service.ts';
import type { CommentRecord, IssueRecord, IssueState, LabelRecord, MilestoneCounts, MilestoneRecord } from './issues.model.ts';
import * as store from './issues.store.ts';
import * as commentStore from './comments.store.ts';
import * as labelStore from './labels.store.ts';
import * as milestoneStore from './milestones.store.ts';

/** Everything a repository holds of one kind fits one read: labels and milestones are few per repository. */
const ALL: Slice = { perPage: 1_000_000, offset: 0 };

export function issuesByIds(ctx: AppContext, ids: readonly number[]): Promise<IssueRecord[]> {
  return store.findByIds(ctx.db, ids);
}

export function issueByNumber(ctx: AppContext, repositoryId: number, number: number): Promise<IssueRecord | null> {
  return Number.isSafeInteger(number) && number > 0 ? store.findByNumber(ctx.db, repositoryId, number) : Promise.resolve(null);
}

export function labelsOfIssues(ctx: AppContext, issueIds: readonly number[]): Promise<Map<number, LabelRecord[]>> {
  return labelStore.labelsOf(ctx.db, issueIds);
}

export function assigneeIdsOfIssues(ctx: AppContext, issueIds: readonly number[]): Promise<Map<number, number[]>> {
  return store.assigneesOf(ctx.db, issueIds);
}

export function labelsByIds(ctx: AppContext, ids: readonly number[]): Promise<LabelRecord[]> {
  return labelStore.findByIds(ctx.db, ids);
}

export function milestonesByIds(ctx: AppContext, ids: readonly number[]): Promise<MilestoneRecord[]> {
  return milestoneStore.findByIds(ctx.db, ids);
}

export function milestoneCountsOf(ctx: AppContext, ids: readonly number[]): Promise<Map<number, MilestoneCounts>> {
  return milestoneStore.countsOf(ctx.db, ids);
}

export function commentsByIds(ctx: AppContext, ids: readonly number[]): Promise<CommentRecord[]> {
  return commentStore.findByIds(ctx.db, ids);
}

export async function labelsOfRepository(ctx: AppContext, repositoryId: number): Promise<LabelRecord[]> {
  return (await labelStore.list(ctx.db, repositoryId, ALL)).rows;
}

export async function labelOfRepository(ctx: AppContext, repositoryId: number, name: string): Promise<LabelRecord | null> {
  return labelStore.findByName(ctx.db, repositoryId, name);
}

export async function milestonesOfRepository(ctx: AppContext, repositoryId: number): Promise<MilestoneRecord[]> {
  return (await milestoneStore.list(ctx.db, repositoryId, { state: 'all', sort: 'due_on', direction: 'asc' }, ALL)).rows;
}

export function milestoneOfRepository(ctx: AppContext, repositoryId: number, number: number): Promise<MilestoneRecord | null> {
  return milestoneStore.findByNumber(ctx.db, repositoryId, number);
}

/** The comments of one issue, oldest first (or newest first with 'desc'). */
export async function commentsOfIssue(
  ctx: AppContext, issue: IssueRecord, q: { sort: 'created' | 'updated'; direction: 'asc' | 'desc' }, slice: Slice,
): Promise<Page<CommentRecord>> {
  const { rows, total } = await commentStore.list(ctx.db, { repositoryId: issue.repositoryId, issueId: issue.id, ...q }, slice);
  return { items: rows, total };
}

// ---------------------------------------------------------------- lists

/** GraphQL's issue filters (the `issues` arguments and IssueFilters), with logins and milestones unresolved. */
export interface IssueQuery {
  states?: readonly IssueState[];
  /** Any one of these label names. */
  anyLabels?: readonly string[];
  /** All of these label names. */
  allLabels?: readonly string[];
  /** A login, '*' (anyone) or null (no one); undefined: no filter. */
  assignee?: string | null;
  createdBy?: string;
  mentioned?: string;
  /** A milestone id, '*' (any) or null (none). */
  milestoneId?: number | '*' | null;
  /** A milestone number, '*' or null. */
  milestoneNumber?: number | '*' | null;
  since?: string;
  /** Issues this user takes part in (IssueFilters.viewerSubscribed). */
  participantId?: number;
  /** true: only pull requests; false: only issues; undefined: both. */
  pullRequests?: boolean;
  words?: readonly string[];
  /** Repositories where only pull requests count (issues disabled there). */
  pullRequestsOnlyIn?: readonly number[];
  sort: 'created' | 'updated' | 'comments';
  direction: 'asc' | 'desc';
}

type Filter = Omit<store.ListFilter, 'repositoryIds' | 'limit' | 'offset'>;

/** The store's filter for a query; null when it names an account or milestone that does not exist (nothing matches). */
async function filterOf(ctx: AppContext, q: IssueQuery, repositoryId: number | null): Promise<Filter | null> {
  const states = new Set(q.states ?? []);
  const f: Filter = {
    state: states.size === 1 ? [...states][0]! : 'all',
    sort: q.sort, direction: q.direction,
    ...(q.pullRequests !== undefined ? { pullRequests: q.pullRequests } : {}),
    ...(q.since ? { since: q.since } : {}),
    ...(q.participantId !== undefined ? { participantId: q.participantId } : {}),
    ...(q.words?.length ? { words: q.words } : {}),
    ...(q.pullRequestsOnlyIn?.length ? { pullRequestsOnlyIn: q.pullRequestsOnlyIn } : {}),
  };
  if (q.anyLabels !== undefined) {
    if (!q.anyLabels.length) return null;
    f.anyLabels = q.anyLabels.map((l) => l.toLowerCase());
  }
  if (q.allLabels?.length) f.labels = q.allLabels.map((l) => l.toLowerCase());
  if (q.assignee === null || q.assignee === '*') f.assignee = q.assignee === null ? 'none' : '*';
  else if (q.assignee !== undefined) {
    const a = await users.findAccount(ctx, q.assignee);
    if (!a) return null;
    f.assignee = a.id;
  }
  for (const [key, login] of [['creatorId', q.createdBy], ['mentionedId', q.mentioned]] as const) {
    if (login === undefined) continue;
    const a = await users.findAccount(ctx, login);
    if (!a) return null;
    f[key] = a.id;
  }
  if (q.milestoneId === null || q.milestoneNumber === null) f.milestone = 'none';
  else if (q.milestoneId === '*' || q.milestoneNumber === '*') f.milestone = '*';
  else if (q.milestoneId !== undefined) f.milestone = q.milestoneId;
  else if (q.milestoneNumber !== undefined) {
    const m = repositoryId === null ? null : await milestoneStore.findByNumber(ctx.db, repositoryId, q.milestoneNumber);
    if (!m) return null;
    f.milestone = m.id;
  }
  return f;
}

/** A page of the issues of `repositoryIds` matching the query, and how many match. */
export async function listIssueRecords(ctx: AppContext, repositoryIds: readonly number[], q: IssueQuery, slice: Slice): Promise<Page<IssueRecord>> {
  if (!repositoryIds.length) return { items: [], total: 0 };
  const f = await filterOf(ctx, q, repositoryIds.length === 1 ? repositoryIds[0]! : null);
  if (!f) return { items: [], total: 0 };
  const { rows, total } = await store.list(ctx.db, { ...f, repositoryIds, limit: slice.perPage, offset: slice.offset });
  return { items: rows, total };
}

/** The repositories among `ids` the caller may read. */
export async function readableRepositories(ctx: AppContext, actor: Actor, ids: readonly number[]): Promise<Repo[]> {
  const list = await repos.reposByIds(ctx, [...new Set(ids)]);
  const access = await accessToMany(ctx, actor, list);
  return list.filter((r) => access.get(r.id)?.effective);
}

/** Repositories holding issues that match the query, whoever may read them (search without repo:, user: or org:). */
export async function repositoriesMatching(ctx: AppContext, q: IssueQuery): Promise<number[]> {
  const f = await filterOf(ctx, q, null);
  return f ? store.matchingRepositoryIds(ctx.db, f) : [];
}

/** Repositories where the user opened issues or pull requests (User.issues). */
export function repositoriesWithIssuesBy(ctx: AppContext, userId: number): Promise<number[]> {
  return store.repositoriesWithIssuesFor(ctx.db, 'created', userId);
}
