// Search over issues and pull requests, repositories, users, labels and topics, for
// REST (/search/*) and GraphQL (search(type:)) alike. Each search is a query over the
// records' own tables (through their modules' services), with upstream's qualifiers
// translated into those modules' filters and the caller's visibility applied by the
// same rules their lists use. Limits as the spec: 1,000 results per search.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import * as lists from '../issues/issue-lists.service.ts';
import type { IssueRecord, IssueState, LabelRecord } from '../issues/issues.model.ts';
import * as labels from '../issues/labels.service.ts';
import * as pulls from '../pulls/pulls.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import { withinBudget } from './search-budget.ts';
import * as codeStore from './search-code.store.ts';
import { bestFirst, issueFields, labelFields, relevance, repoFields, userFields } from './search-score.ts';
import {
  invalidQuery, numberRange, qualifier, qualifierValues, timeRange, type ParsedQuery,
} from './search-query.ts';

/** Upstream answers at most the first 1,000 results of a search. */
export const MAX_RESULTS = 1000;

export type Order = 'asc' | 'desc';

/**
 * The slice of the results a page asks for, within the first 1,000; a page wholly past
 * them is a 422, as upstream.
 */
export function cappedSlice(slice: Slice): Slice {
  if (slice.offset >= MAX_RESULTS) {
    throw new ValidationError([], `Only the first ${MAX_RESULTS} search results are available`);
  }
  return { offset: slice.offset, perPage: Math.min(slice.perPage, MAX_RESULTS - slice.offset) };
}

const UNREACHABLE = 'The listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them.';

export function unreachable(values: readonly string[]): ValidationError {
  return new ValidationError(values.map((value) => ({ resource: 'Search', field: 'q', code: 'invalid' as const, value, message: UNREACHABLE })));
}

/** Accounts the user:/org: qualifiers name; a missing one (or org: naming a user) is a 422 naming it. */
export async function ownersNamed(ctx: AppContext, q: ParsedQuery): Promise<{ logins: string[]; accounts: Account[] }> {
  const logins: string[] = [];
  const accounts: Account[] = [];
  const missing: string[] = [];
  for (const [key, login] of [...(q.qualifiers.get('user') ?? []).map((l) => ['user', l] as const), ...(q.qualifiers.get('org') ?? []).map((l) => ['org', l] as const)]) {
    const account = await users.findAccount(ctx, login);
    if (!account || (key === 'org' && account.type !== 'Organization')) missing.push(login);
    else {
      logins.push(account.login);
      accounts.push(account);
    }
  }
  if (missing.length) throw unreachable(missing);
  return { logins, accounts };
}

/**
 * The repositories `repo:`, `user:` and `org:` name (each `repo:` readable by the
 * caller, or a 422 naming it), or null when the query names none.
 */
export async function namedRepositoryIds(ctx: AppContext, actor: Actor, q: ParsedQuery): Promise<number[] | null> {
  const named = q.qualifiers.get('repo') ?? [];
  const missing: string[] = [];
  const ids: number[] = [];
  for (const full of named) {
    const [owner, name, extra] = full.split('/');
    try {
      if (extra !== undefined || !owner || !name) throw new NotFoundError();
      ids.push((await repos.locate(ctx, actor, owner, name)).repo.id);
    } catch {
      missing.push(full);
    }
  }
  if (missing.length) throw unreachable(missing);
  const { accounts } = await ownersNamed(ctx, q);
  for (const a of accounts) ids.push(...await repos.repositoryIdsOwnedBy(ctx, a.id));
  return named.length || accounts.length ? ids : null;
}

// ---------------------------------------------------------------- issues and pull requests

export const ISSUE_SORTS = ['comments', 'created', 'updated'] as const;
export type IssueSort = typeof ISSUE_SORTS[number];

export interface IssueHits {
  items: IssueRecord[];
  /** The repositories of the items, by id. */
  repos: ReadonlyMap<number, Repo>;
  total: number;
}

/** The repositories an issue search looks in: those repo:, user: and org: name (each readable, or a 422), or every readable one holding a match. */
async function issueRepositories(ctx: AppContext, actor: Actor, q: ParsedQuery, query: lists.IssueQuery): Promise<Repo[]> {
  const named = await namedRepositoryIds(ctx, actor, q);
  const candidates = named ?? await lists.repositoriesMatching(ctx, query);
  return lists.readableRepositories(ctx, actor, candidates);
}

/** is:/type:/state: values → which kinds and states; is:merged and is:unmerged pick pull requests by whether they were merged. */
function issueKinds(q: ParsedQuery): { pullRequests?: boolean; states: IssueState[]; merged?: boolean } {
  const is = [...qualifierValues(q, 'is'), ...qualifierValues(q, 'type'), ...qualifierValues(q, 'state')];
  const known = new Set(['issue', 'pr', 'pull-request', 'open', 'closed', 'public', 'private', 'merged', 'unmerged']);
  const unknown = is.filter((v) => !known.has(v));
  if (unknown.length) throw invalidQuery(`Wharf's issue search does not support is:${unknown[0]} yet.`, unknown[0]);
  // Both at once match nothing a pull request can be: the later one wins, as with sort:.
  const mergedAt = Math.max(is.lastIndexOf('merged'), is.lastIndexOf('unmerged'));
  const merged = mergedAt < 0 ? undefined : is[mergedAt] === 'merged';
  const wantsPulls = is.includes('pr') || is.includes('pull-request') || merged !== undefined;
  const issues = is.includes('issue');
  const states: IssueState[] = [];
  if (is.includes('open')) states.push('open');
  if (is.includes('closed')) states.push('closed');
  return { ...(wantsPulls !== issues ? { pullRequests: wantsPulls } : {}), states, ...(merged !== undefined ? { merged } : {}) };
}

/**
 * True when in: names only fields this search does not hold (in:readme on repositories):
 * keywords then match nothing rather than the default fields.
 */
function onlyUnknownFields(q: ParsedQuery, known: readonly string[]): boolean {
  const named = qualifierValues(q, 'in');
  return named.length > 0 && !named.some((f) => known.includes(f)) && q.terms.length > 0;
}

/** Issues and pull requests matching `q` that the caller may read, newest first unless `sort` says otherwise. */
async function issuesWithin(ctx: AppContext, actor: Actor, q: ParsedQuery, sort: IssueSort | undefined, order: Order | undefined, slice: Slice): Promise<IssueHits> {
  const { pullRequests, states, merged } = issueKinds(q);
  if (onlyUnknownFields(q, ['title', 'body', 'comments'])) return { items: [], repos: new Map(), total: 0 };
  const no = qualifierValues(q, 'no');
  const inFields = qualifierValues(q, 'in');
  const fields = inFields.filter((f): f is 'title' | 'body' | 'comments' => f === 'title' || f === 'body' || f === 'comments');
  const visibility = qualifierValues(q, 'is').filter((v) => v === 'public' || v === 'private');
  const assignee = qualifier(q, 'assignee');
  const milestone = q.qualifiers.get('milestone')?.at(-1);
  const text = q.terms.length || q.excluded.length
    ? { clauses: q.terms.map((c) => c.any), excluded: q.excluded, fields: fields.length ? fields : ['title', 'body'] as const }
    : undefined;
  const query: lists.IssueQuery = {
    sort: sort ?? 'created', direction: sort ? order ?? 'desc' : 'desc',
    ...(states.length ? { states } : {}),
    ...(pullRequests !== undefined ? { pullRequests } : {}),
    ...(text ? { text } : {}),
    ...(qualifier(q, 'author') ? { createdBy: qualifier(q, 'author') } : {}),
    ...(no.includes('assignee') ? { assignee: null } : assignee ? { assignee } : {}),
    ...(qualifier(q, 'mentions') ? { mentioned: qualifier(q, 'mentions') } : {}),
    ...(qualifier(q, 'commenter') ? { commenter: qualifier(q, 'commenter') } : {}),
    ...(qualifier(q, 'involves') ? { involves: qualifier(q, 'involves') } : {}),
    ...(q.qualifiers.get('label')?.length ? { allLabels: [...q.qualifiers.get('label')!] } : {}),
    ...(q.excludedQualifiers.get('label')?.length ? { withoutLabels: [...q.excludedQualifiers.get('label')!] } : {}),
    ...(no.includes('label') ? { noLabel: true } : {}),
    ...(no.includes('milestone') || milestone?.toLowerCase() === 'none' ? { milestoneId: null }
      : milestone === '*' ? { milestoneId: '*' as const } : milestone !== undefined ? { milestoneTitle: milestone } : {}),
    ...optional('created', timeRange(q, 'created')),
    ...optional('updated', timeRange(q, 'updated')),
    ...optional('closed', timeRange(q, 'closed')),
    ...optional('commentCount', numberRange(q, 'comments')),
  };
  let candidates = await issueRepositories(ctx, actor, q, query);
  if (visibility.length === 1) candidates = candidates.filter((r) => (r.visibility === 'public') === (visibility[0] === 'public'));
  // Where issues are disabled only the pull requests can be found.
  const pullOnly = candidates.filter((r) => !r.hasIssues).map((r) => r.id);
  const searchIn = query.pullRequests === false ? candidates.filter((r) => r.hasIssues) : candidates;
  if (merged !== undefined) {
    const ids = await pulls.pullIssueIdsByMerged(ctx, searchIn.map((r) => r.id), merged);
    if (!ids.length) return { items: [], repos: new Map(), total: 0 };
    query.ids = ids;
  }
  // Without a sort, keywords rank: the first 1,000 in the default order, best first.
  const ranked = !sort && q.keywords.length > 0;
  const found = await lists.listIssueRecords(ctx, searchIn.map((r) => r.id),
    query.pullRequests === undefined && pullOnly.length ? { ...query, pullRequestsOnlyIn: pullOnly } : query,
    ranked ? { offset: 0, perPage: MAX_RESULTS } : slice);
  const items = ranked ? pageOf(bestFirst(found.items, (i) => relevance(issueFields(i), q.keywords)), slice) : found.items;
  return { items, repos: new Map(candidates.map((r) => [r.id, r])), total: found.total };
}

function pageOf<T>(items: readonly T[], slice: Slice): T[] {
  return items.slice(slice.offset, slice.offset + slice.perPage);
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

// ---------------------------------------------------------------- repositories

export const REPO_SORTS = ['stars', 'forks', 'updated'] as const;
export type RepoSort = typeof REPO_SORTS[number];

/** For each word, the repositories whose README holds it (in:readme). */
async function readmeHolders(ctx: AppContext, words: readonly string[]): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  for (const w of new Set(words)) out.set(w, await codeStore.readmeHolders(ctx.db, ctx.dialect, w));
  return out;
}

/** Repositories matching `q` that the caller may read, most recently updated first unless `sort` says otherwise. */
async function repositoriesWithin(ctx: AppContext, actor: Actor, q: ParsedQuery, sort: RepoSort | undefined, order: Order | undefined, slice: Slice): Promise<repos.RepoPage> {
  const inFields = qualifierValues(q, 'in').filter((f): f is repos.RepoSearchField => f === 'name' || f === 'description' || f === 'readme');
  const is = qualifierValues(q, 'is');
  const fork = qualifier(q, 'fork');
  const archived = qualifier(q, 'archived');
  const { logins } = await ownersNamed(ctx, q);
  if (onlyUnknownFields(q, ['name', 'description', 'readme'])) return { items: [], total: 0 };
  // READMEs are read from the code index (the default branch's root README).
  const readmes = inFields.includes('readme') ? await readmeHolders(ctx, [...q.terms.flatMap((c) => c.any), ...q.excluded]) : undefined;
  const topics = qualifierValues(q, 'topic');
  // A topic is lower-case letters, digits and hyphens; anything else names none.
  if (topics.some((t) => !/^[a-z0-9][a-z0-9-]*$/.test(t))) return { items: [], total: 0 };
  const repoNames = q.qualifiers.get('repo') ?? [];
  const ranked = !sort && q.keywords.length > 0;
  const ids: number[] = [];
  const missing: string[] = [];
  for (const full of repoNames) {
    const [owner, name] = full.split('/');
    try {
      ids.push((await repos.locate(ctx, actor, owner ?? '', name ?? '')).repo.id);
    } catch {
      missing.push(full);
    }
  }
  if (missing.length) throw unreachable(missing);
  const found = await repos.searchRepositories(ctx, actor, {
    words: [],
    clauses: q.terms.map((c) => c.any),
    excluded: q.excluded,
    fields: inFields.length ? inFields : ['name', 'description'],
    ...(readmes ? { readmeHolders: readmes } : {}),
    ownerLogins: logins,
    visibility: is.includes('private') ? 'private' : is.includes('public') ? 'public' : undefined,
    forks: fork === 'only' ? 'only' : fork === 'true' ? 'include' : repoNames.length ? 'include' : 'exclude',
    language: q.qualifiers.get('language')?.at(-1),
    archived: archived === 'true' ? true : archived === 'false' ? false : undefined,
    ...(topics.length ? { topics } : {}),
    ...(repoNames.length ? { ids } : {}),
    ...optional('stars', numberRange(q, 'stars')),
    ...optional('forksCount', numberRange(q, 'forks')),
    ...optional('sizeKb', numberRange(q, 'size')),
    ...optional('pushed', timeRange(q, 'pushed')),
    ...optional('created', timeRange(q, 'created')),
    ...(sort ? { sort, direction: order ?? 'desc' } : {}),
    ...(ranked ? { limit: MAX_RESULTS, offset: 0 } : { limit: slice.perPage, offset: slice.offset }),
  });
  return ranked ? { ...found, items: pageOf(bestFirst(found.items, (p) => relevance(repoFields(p.repo), q.keywords)), slice) } : found;
}

// ---------------------------------------------------------------- users

/** What a user's score reads: the address only when public (a private one never shows, not even in a rank). */
export function publicUserFields(a: Account) {
  return userFields({ login: a.login, name: a.name, email: a.emailPrivate ? null : a.email });
}

export const USER_SORTS = ['followers', 'repositories', 'joined'] as const;
export type UserSort = typeof USER_SORTS[number];

/** Users and organizations matching `q` (every account is public). */
async function usersWithin(ctx: AppContext, q: ParsedQuery, sort: UserSort | undefined, order: Order | undefined, slice: Slice): Promise<Page<Account>> {
  const type = qualifier(q, 'type');
  if (type !== undefined && type !== 'user' && type !== 'org') throw invalidQuery('The type qualifier must be user or org.', type);
  const inFields = qualifierValues(q, 'in').filter((f): f is 'login' | 'name' | 'email' => f === 'login' || f === 'name' || f === 'email');
  if (onlyUnknownFields(q, ['login', 'name', 'email'])) return { items: [], total: 0 };
  const followers = numberRange(q, 'followers');
  // Wharf has no followers yet: every account has none, so only bounds admitting 0 match.
  if (followers && !((followers.gt === undefined || 0 > followers.gt) && (followers.gte === undefined || 0 >= followers.gte))) return { items: [], total: 0 };
  const location = q.qualifiers.get('location')?.at(-1);
  const ranked = !sort && q.keywords.length > 0;
  const found = await users.searchAccounts(ctx, {
    words: [],
    clauses: q.terms.map((c) => c.any),
    excluded: q.excluded,
    fields: inFields.length ? inFields : ['login', 'name', 'email'],
    type: type === 'user' ? 'User' : type === 'org' ? 'Organization' : undefined,
    ...(location !== undefined ? { location } : {}),
    ...optional('created', timeRange(q, 'created')),
    ...optional('repos', numberRange(q, 'repos')),
    // Followers all being 0, sorting by them leaves the default order.
    ...(sort && sort !== 'followers' ? { sort, direction: order ?? 'desc' } : {}),
    ...(ranked ? { limit: MAX_RESULTS, offset: 0 } : { limit: slice.perPage, offset: slice.offset }),
  });
  return ranked ? { ...found, items: pageOf(bestFirst(found.items, (a) => relevance(publicUserFields(a), q.keywords)), slice) } : found;
}

// ---------------------------------------------------------------- labels

export const LABEL_SORTS = ['created', 'updated'] as const;
export type LabelSort = typeof LABEL_SORTS[number];

export interface LabelHits {
  repo: Repo;
  items: LabelRecord[];
  total: number;
}

/** Labels of one readable repository whose name or description holds the keywords. */
async function labelsWithin(ctx: AppContext, actor: Actor, repositoryId: number, q: ParsedQuery, sort: LabelSort | undefined, order: Order | undefined, slice: Slice): Promise<LabelHits> {
  const [repo] = await lists.readableRepositories(ctx, actor, [repositoryId]);
  if (!repo) throw new NotFoundError();
  const all = await labels.listLabels(ctx, actor, repo.owner.login, repo.name, { offset: 0, perPage: 1_000_000 });
  const holds = (l: LabelRecord, word: string) => {
    const w = word.toLowerCase();
    return l.name.toLowerCase().includes(w) || (l.description ?? '').toLowerCase().includes(w);
  };
  let matching = all.page.items.filter((l) => q.terms.every((c) => c.any.some((w) => holds(l, w))) && !q.excluded.some((w) => holds(l, w)));
  if (sort) {
    const key = sort === 'created' ? 'createdAt' : 'updatedAt';
    const dir = order === 'asc' ? 1 : -1;
    matching = [...matching].sort((a, b) => dir * (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : a.id - b.id));
  } else matching = bestFirst(matching, (l) => relevance(labelFields(l), q.keywords));
  return { repo, items: matching.slice(slice.offset, slice.offset + slice.perPage), total: matching.length };
}

// ---------------------------------------------------------------- topics

export interface TopicHit {
  name: string;
  /** Readable repositories carrying it. */
  repositoryCount: number;
  /** When the first of them got it (its created_at), and the latest change. */
  createdAt: string;
  updatedAt: string;
}

/** Topics of repositories the caller may read whose name holds the keywords, most used first. */
async function topicsWithin(ctx: AppContext, actor: Actor, q: ParsedQuery, slice: Slice): Promise<Page<TopicHit>> {
  const all = await repos.topicsInUse(ctx, actor);
  const holds = (t: string, w: string) => t.includes(w.toLowerCase());
  const matching = all.filter((t) => q.terms.every((c) => c.any.some((w) => holds(t.name, w))) && !q.excluded.some((w) => holds(t.name, w)))
    .sort((a, b) => b.repositoryCount - a.repositoryCount || (a.name < b.name ? -1 : 1));
  return { items: matching.slice(slice.offset, slice.offset + slice.perPage), total: matching.length };
}

// ---------------------------------------------------------------- under the time budget

// Each is one query (or a few) over the records' tables: under the budget it either
// finishes or, spent before it starts or cancelled on PostgreSQL, is a SearchTimedOut.

export function searchIssues(ctx: AppContext, actor: Actor, q: ParsedQuery, sort: IssueSort | undefined, order: Order | undefined, slice: Slice): Promise<IssueHits> {
  return withinBudget(ctx, (tx) => issuesWithin(tx, actor, q, sort, order, slice));
}

export function searchRepositories(ctx: AppContext, actor: Actor, q: ParsedQuery, sort: RepoSort | undefined, order: Order | undefined, slice: Slice): Promise<repos.RepoPage> {
  return withinBudget(ctx, (tx) => repositoriesWithin(tx, actor, q, sort, order, slice));
}

export function searchUsers(ctx: AppContext, q: ParsedQuery, sort: UserSort | undefined, order: Order | undefined, slice: Slice): Promise<Page<Account>> {
  return withinBudget(ctx, (tx) => usersWithin(tx, q, sort, order, slice));
}

export function searchLabels(ctx: AppContext, actor: Actor, repositoryId: number, q: ParsedQuery, sort: LabelSort | undefined, order: Order | undefined, slice: Slice): Promise<LabelHits> {
  return withinBudget(ctx, (tx) => labelsWithin(tx, actor, repositoryId, q, sort, order, slice));
}

export function searchTopics(ctx: AppContext, actor: Actor, q: ParsedQuery, slice: Slice): Promise<Page<TopicHit>> {
  return withinBudget(ctx, (tx) => topicsWithin(tx, actor, q, slice));
}
