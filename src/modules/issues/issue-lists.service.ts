// Issue lists, for REST and GraphQL alike: one filter type (IssueQuery), one
// visibility rule (readableRepositories), one list function (listIssueRecords).
// REST's lists (one repository's; across repositories for the authenticated user or an
// organization) translate their query strings into an IssueQuery and return records;
// the routes present them. Lists include pull requests, as upstream.
import type { AppContext } from '../../context.ts';
import { requireUser, type Actor } from '../../domain/actor.ts';
import type { Bounds } from '../../domain/bounds.ts';
import { storedTimestamp } from '../../domain/clock.ts';
import { isStoredId } from '../../domain/ids.ts';
import type { Page, Slice } from '../../domain/page.ts';
import * as orgAccess from '../orgs/orgs.access.ts';
import * as orgs from '../orgs/orgs.service.ts';
import { accessToMany } from '../repos/repos.access.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import * as users from '../users/users.service.ts';
import type { IssueRecord, IssueState } from './issues.model.ts';
import * as store from './issues.store.ts';
import * as milestoneStore from './milestones.store.ts';

// ---------------------------------------------------------------- the filter

/** An issue list's filters (REST's query strings and GraphQL's arguments), with logins and milestones unresolved. */
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
  /** The same three by account id (the caller's own lists). */
  assigneeId?: number;
  createdById?: number;
  mentionedId?: number;
  /** A milestone id, '*' (any) or null (none). */
  milestoneId?: number | '*' | null;
  /** A milestone number, '*' or null. */
  milestoneNumber?: number | '*' | null;
  /** Stored timestamp form (storedTimestamp). */
  since?: string;
  /** Created before this; stored timestamp form. */
  createdBefore?: string;
  /** Only these issues (e.g. the pull requests of a branch, chosen by the pulls area). */
  ids?: readonly number[];
  /** Issues this user takes part in: author, assignee, mentioned or commenter. */
  participantId?: number;
  /** true: only pull requests; false: only issues; undefined: both. */
  pullRequests?: boolean;
  words?: readonly string[];
  /** Repositories where only pull requests count (issues disabled there). */
  pullRequestsOnlyIn?: readonly number[];
  /** Search: keyword clauses in the fields; no labels; none of these labels; a milestone by title; a commenter's or participant's login; time and count bounds. */
  text?: store.ListFilter['text'];
  noLabel?: boolean;
  withoutLabels?: readonly string[];
  milestoneTitle?: string;
  commenter?: string;
  involves?: string;
  created?: Bounds<string>;
  updated?: Bounds<string>;
  closed?: Bounds<string>;
  commentCount?: Bounds<number>;
  sort: 'created' | 'updated' | 'comments';
  direction: 'asc' | 'desc';
}

type Filter = Omit<store.ListFilter, 'repositoryIds' | 'limit' | 'offset'>;

const NONE: Page<IssueRecord> = { items: [], total: 0 };

/** The store's filter for a query; null when it names an account or milestone that does not exist (nothing matches). */
async function filterOf(ctx: AppContext, q: IssueQuery, repositoryId: number | null): Promise<Filter | null> {
  const states = new Set(q.states ?? []);
  const f: Filter = {
    state: states.size === 1 ? [...states][0]! : 'all',
    sort: q.sort, direction: q.direction,
    ...(q.pullRequests !== undefined ? { pullRequests: q.pullRequests } : {}),
    ...(q.since ? { since: q.since } : {}),
    ...(q.createdBefore ? { createdBefore: q.createdBefore } : {}),
    ...(q.ids ? { ids: q.ids } : {}),
    ...(q.participantId !== undefined ? { participantId: q.participantId } : {}),
    ...(q.words?.length ? { words: q.words } : {}),
    ...(q.pullRequestsOnlyIn?.length ? { pullRequestsOnlyIn: q.pullRequestsOnlyIn } : {}),
    ...(q.assigneeId !== undefined ? { assignee: q.assigneeId } : {}),
    ...(q.createdById !== undefined ? { creatorId: q.createdById } : {}),
    ...(q.mentionedId !== undefined ? { mentionedId: q.mentionedId } : {}),
    ...(q.text ? { text: q.text } : {}),
    ...(q.noLabel ? { noLabel: true } : {}),
    ...(q.withoutLabels?.length ? { withoutLabels: q.withoutLabels.map((l) => l.toLowerCase()) } : {}),
    ...(q.milestoneTitle !== undefined ? { milestoneTitle: q.milestoneTitle } : {}),
    ...(q.created ? { created: q.created } : {}),
    ...(q.updated ? { updated: q.updated } : {}),
    ...(q.closed ? { closed: q.closed } : {}),
    ...(q.commentCount ? { commentCount: q.commentCount } : {}),
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
  for (const [key, login] of [['creatorId', q.createdBy], ['mentionedId', q.mentioned], ['commenterId', q.commenter], ['participantId', q.involves]] as const) {
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

// ---------------------------------------------------------------- visibility and lists

/** The repositories among `ids` the caller may read: the repos permission model decides. */
export async function readableRepositories(ctx: AppContext, actor: Actor, ids: readonly number[]): Promise<Repo[]> {
  const list = await repos.reposByIds(ctx, [...new Set(ids)]);
  const access = await accessToMany(ctx, actor, list);
  return list.filter((r) => access.get(r.id)?.effective);
}

/** A page of the issues of `repositoryIds` matching the query, and how many match. */
export async function listIssueRecords(ctx: AppContext, repositoryIds: readonly number[], q: IssueQuery, slice: Slice): Promise<Page<IssueRecord>> {
  if (!repositoryIds.length) return NONE;
  const f = await filterOf(ctx, q, repositoryIds.length === 1 ? repositoryIds[0]! : null);
  if (!f) return NONE;
  const { rows, total } = await store.list(ctx.db, { ...f, repositoryIds, limit: slice.perPage, offset: slice.offset });
  return { items: rows, total };
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

// ---------------------------------------------------------------- REST's query strings

export interface CommonListQuery {
  state?: 'open' | 'closed' | 'all';
  labels?: string;
  sort?: 'created' | 'updated' | 'comments';
  direction?: 'asc' | 'desc';
  /** An ISO 8601 timestamp (the route's schema validated it). */
  since?: string;
}

export interface RepoListQuery extends CommonListQuery {
  milestone?: string;
  assignee?: string;
  creator?: string;
  mentioned?: string;
}

export type Involvement = 'assigned' | 'created' | 'mentioned' | 'subscribed' | 'repos' | 'all';

export interface UserListQuery extends CommonListQuery {
  filter?: Involvement;
  collab?: boolean;
  orgs?: boolean;
  owned?: boolean;
  pulls?: boolean;
}

function commonQuery(q: CommonListQuery): IssueQuery {
  const state = q.state ?? 'open';
  const labels = (q.labels ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const since = storedTimestamp(q.since);
  return {
    states: state === 'all' ? ['open', 'closed'] : [state],
    sort: q.sort ?? 'created',
    direction: q.direction ?? 'desc',
    ...(labels.length ? { allLabels: labels } : {}),
    ...(since ? { since } : {}),
  };
}

/** The filters of GET /repos/{owner}/{repo}/issues; null when a milestone that cannot exist is named (nothing matches). */
function repoQuery(q: RepoListQuery): IssueQuery | null {
  const out = commonQuery(q);
  if (q.milestone !== undefined && q.milestone !== '') {
    if (q.milestone === '*') out.milestoneNumber = '*';
    else if (q.milestone === 'none') out.milestoneNumber = null;
    else if (/^\d+$/.test(q.milestone)) {
      // A number past the integer column's range names no milestone (and PostgreSQL refuses to compare with it).
      if (!isStoredId(Number(q.milestone))) return null;
      out.milestoneNumber = Number(q.milestone);
    } else return null;
  }
  if (q.assignee !== undefined && q.assignee !== '') out.assignee = q.assignee === 'none' ? null : q.assignee;
  if (q.creator) out.createdBy = q.creator;
  if (q.mentioned) out.mentioned = q.mentioned;
  return out;
}

/** A page of one repository's issues (GET /repos/{owner}/{repo}/issues), with the repository. */
export async function listRepoIssues(
  ctx: AppContext, actor: Actor, owner: string, name: string, q: RepoListQuery, slice: Slice,
): Promise<{ repo: Repo; page: Page<IssueRecord> }> {
  const { repo } = await repos.locate(ctx, actor, owner, name);
  const query = repoQuery(q);
  if (!query) return { repo, page: NONE };
  // With issues disabled, only the pull requests are left to list.
  if (!repo.hasIssues) query.pullRequests = true;
  return { repo, page: await listIssueRecords(ctx, [repo.id], query, slice) };
}

interface Affiliations {
  owned: boolean;
  collab: boolean;
  orgs: boolean;
}

/** Repositories the user owns, collaborates on, or reaches through organization membership. */
async function affiliatedIds(ctx: AppContext, userId: number, a: Affiliations): Promise<number[]> {
  const ids: number[] = [];
  if (a.owned) ids.push(...await repos.repositoryIdsOwnedBy(ctx, userId));
  if (a.collab) ids.push(...await repos.collaborationRepositoryIds(ctx, userId));
  if (a.orgs) {
    const memberships = await orgs.activeMembershipsOf(ctx, userId);
    for (const m of memberships) ids.push(...await repos.repositoryIdsOwnedBy(ctx, m.orgId));
    ids.push(...await orgAccess.teamRepositoryIds(ctx, userId));
  }
  return ids;
}

function affiliationsOf(q: UserListQuery, defaults: Affiliations): Affiliations {
  if (q.owned === undefined && q.collab === undefined && q.orgs === undefined) return defaults;
  return { owned: q.owned === true, collab: q.collab === true, orgs: q.orgs === true };
}

/** Issues across repositories the caller may read; `repos` are the repositories the page's issues live in. */
export interface IssuesAcross {
  repos: Repo[];
  page: Page<IssueRecord>;
}

async function listAcross(
  ctx: AppContext, candidates: Repo[], involvement: Involvement, userId: number, q: UserListQuery, slice: Slice,
): Promise<IssuesAcross> {
  if (!candidates.length) return { repos: candidates, page: NONE };
  const query: IssueQuery = { ...commonQuery(q), ...(q.pulls === false ? { pullRequests: false } : {}) };
  if (involvement === 'assigned') query.assigneeId = userId;
  else if (involvement === 'created') query.createdById = userId;
  else if (involvement === 'mentioned') query.mentionedId = userId;
  // No thread subscriptions to read yet: subscribed means taking part (author,
  // assignee, mentioned or commenter), which is what subscribes a user upstream.
  else if (involvement === 'subscribed') query.participantId = userId;
  // Issues of repositories with issues disabled are not listed; their pull requests are.
  let ids = candidates.map((r) => r.id);
  const disabled = candidates.filter((r) => !r.hasIssues);
  if (disabled.length === candidates.length) query.pullRequests = true;
  else if (disabled.length && query.pullRequests !== false) ids = candidates.filter((r) => r.hasIssues).map((r) => r.id);
  return { repos: candidates, page: await listIssueRecords(ctx, ids, query, slice) };
}

/**
 * GET /issues (`everywhere`: every repository the user can see) and GET /user/issues
 * (owned and member repositories). filter=all/repos lists every issue of the
 * affiliated repositories; the others list the user's issues there.
 */
export async function listUserIssues(
  ctx: AppContext, actor: Actor, q: UserListQuery, slice: Slice, everywhere: boolean,
): Promise<IssuesAcross> {
  const user = requireUser(actor);
  const involvement = q.filter ?? 'assigned';
  const affiliated = new Set(await affiliatedIds(ctx, user.id, affiliationsOf(q, { owned: true, collab: true, orgs: true })));
  let ids: number[];
  if (involvement === 'all' || involvement === 'repos') ids = [...affiliated];
  else {
    const withMine = await store.repositoriesWithIssuesFor(ctx.db, involvement, user.id);
    const flagged = q.owned !== undefined || q.collab !== undefined || q.orgs !== undefined;
    ids = everywhere && !flagged ? withMine : withMine.filter((id) => affiliated.has(id));
  }
  return listAcross(ctx, await readableRepositories(ctx, actor, ids), involvement, user.id, q, slice);
}

/** GET /orgs/{org}/issues: the user's issues (by `filter`) in the organization's repositories. */
export async function listOrgIssues(ctx: AppContext, actor: Actor, login: string, q: UserListQuery, slice: Slice): Promise<IssuesAcross> {
  const user = requireUser(actor);
  const org = await orgs.requireOrganization(ctx, login);
  const ids = await repos.repositoryIdsOwnedBy(ctx, org.account.id);
  return listAcross(ctx, await readableRepositories(ctx, actor, ids), q.filter ?? 'assigned', user.id, q, slice);
}
