// Commit search and code search, over the search index (search-commits.store.ts, search-code.store.ts). The
// repositories searched are chosen as for issues: those repo:, user: and org: name
// (each readable, or a 422 naming it), or every indexed one; the caller's visibility
// is applied by the issue lists' rule at query time, against each repository's current
// visibility, so a repository made private drops out at once.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { ValidationError } from '../../domain/errors.ts';
import type { Slice } from '../../domain/page.ts';
import * as lists from '../issues/issue-lists.service.ts';
import { noreplyEmail } from '../repos/repos.init.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as users from '../users/users.service.ts';
import { invalidQuery, numberRange, qualifier, qualifierValues, timeRange, type ParsedQuery } from './search-query.ts';
import * as codeStore from './search-code.store.ts';
import * as counts from './search-code-counts.store.ts';
import { COUNTABLE } from './search-index.tokens.ts';
import * as commitStore from './search-commits.store.ts';
import * as store from './search-index-state.store.ts';
import { attempt, SearchTimedOut, withinBudget, type SearchDeadline } from './search-budget.ts';
import { namedRepositoryIds, type Order } from './search.service.ts';

export interface IndexHits<T> {
  items: T[];
  /** The repositories of the items, by id, with the commit their index holds. */
  repos: ReadonlyMap<number, Repo>;
  indexedCommits: ReadonlyMap<number, string | null>;
  total: number;
  /** The time budget ran out before every repository was scanned: items and total are of those that were. */
  incomplete: boolean;
}

/** The readable repositories a commit or code search looks in (is:public / is:private and fork: applied). */
async function searchedRepositories(ctx: AppContext, actor: Actor, q: ParsedQuery): Promise<Repo[]> {
  const named = await namedRepositoryIds(ctx, actor, q);
  const candidates = named ?? await store.indexedRepositoryIds(ctx.db);
  let found = await lists.readableRepositories(ctx, actor, candidates);
  const visibility = qualifierValues(q, 'is').filter((v) => v === 'public' || v === 'private');
  if (visibility.length === 1) found = found.filter((r) => (r.visibility === 'public') === (visibility[0] === 'public'));
  // Forks are searched when named, or asked for (fork:true, fork:only), as upstream.
  const fork = qualifier(q, 'fork');
  if (!q.qualifiers.get('repo')?.length) found = found.filter((r) => (fork === 'only' ? r.isFork : fork === 'true' || !r.isFork));
  return found;
}

async function hits<T extends { repositoryId: number }>(
  ctx: AppContext, found: Repo[], page: { items: T[]; total: number }, incomplete = false,
): Promise<IndexHits<T>> {
  const byId = new Map(found.map((r) => [r.id, r]));
  const wanted = [...new Set(page.items.map((i) => i.repositoryId))];
  return {
    items: page.items, total: page.total, incomplete,
    repos: new Map(wanted.map((id) => [id, byId.get(id)!])),
    indexedCommits: await store.indexedCommits(ctx.db, wanted),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

// ---------------------------------------------------------------- commits

export const COMMIT_SORTS = ['author-date', 'committer-date'] as const;
export type CommitSort = typeof COMMIT_SORTS[number];

const SHA_PREFIX = /^[0-9a-f]{4,40}$/i;

function shaQualifier(q: ParsedQuery, key: string): string | undefined {
  const v = qualifier(q, key);
  if (v !== undefined && !SHA_PREFIX.test(v)) throw invalidQuery(`The ${key} qualifier must be a commit sha or a prefix of at least 4 hex digits.`, v);
  return v;
}

/** The addresses commits by the user carry: primary, verified ones, and the noreply one; [] for no such user. */
async function addressesOf(ctx: AppContext, login: string | undefined): Promise<string[] | undefined> {
  if (login === undefined) return undefined;
  const account = await users.findAccount(ctx, login);
  if (!account || account.type !== 'User') return [];
  const emails = (await users.listEmailAddresses(ctx, account.id)).filter((e) => e.verified || e.email === account.email).map((e) => e.email);
  return [...new Set([...emails, ...(account.email ? [account.email] : []), noreplyEmail(ctx, account)])];
}

/** Commits matching `q` (one statement, under the time budget: cut off, it is a SearchTimedOut). */
export function searchCommits(
  ctx: AppContext, actor: Actor, q: ParsedQuery, sort: CommitSort | undefined, order: Order | undefined, slice: Slice,
): Promise<IndexHits<commitStore.CommitHit>> {
  return withinBudget(ctx, (tx) => commitsWithin(tx, actor, q, sort, order, slice));
}

async function commitsWithin(
  ctx: AppContext, actor: Actor, q: ParsedQuery, sort: CommitSort | undefined, order: Order | undefined, slice: Slice,
): Promise<IndexHits<commitStore.CommitHit>> {
  const merge = qualifier(q, 'merge');
  if (merge !== undefined && merge !== 'true' && merge !== 'false') throw invalidQuery('The merge qualifier must be true or false.', merge);
  const filter: commitStore.CommitFilter = {
    repositoryIds: [],
    clauses: q.terms.map((c) => c.any),
    excluded: q.excluded,
    ...optional('authorEmails', await addressesOf(ctx, qualifier(q, 'author'))),
    ...optional('committerEmails', await addressesOf(ctx, qualifier(q, 'committer'))),
    ...optional('authorName', qualifier(q, 'author-name')),
    ...optional('committerName', qualifier(q, 'committer-name')),
    ...optional('authorEmail', qualifier(q, 'author-email')),
    ...optional('committerEmail', qualifier(q, 'committer-email')),
    ...optional('authorDate', timeRange(q, 'author-date')),
    ...optional('committerDate', timeRange(q, 'committer-date')),
    ...(merge !== undefined ? { merge: merge === 'true' } : {}),
    ...optional('hash', shaQualifier(q, 'hash')),
    ...optional('parent', shaQualifier(q, 'parent')),
    ...optional('tree', shaQualifier(q, 'tree')),
    ...(sort ? { sort } : {}),
    order: sort ? order ?? 'desc' : 'desc',
    limit: slice.perPage, offset: slice.offset,
  };
  const found = await searchedRepositories(ctx, actor, q);
  const page = await commitStore.searchCommits(ctx.db, ctx.dialect, { ...filter, repositoryIds: found.map((r) => r.id) });
  return hits(ctx, found, page);
}

// ---------------------------------------------------------------- code

export const CODE_SORTS = ['indexed'] as const;
export type CodeSort = typeof CODE_SORTS[number];

/**
 * Files matching `q`. The scan goes through the searched repositories in chunks under
 * the time budget; when it runs out the files of the chunks scanned are the answer
 * (incomplete), and when not even the first chunk finished, SearchTimedOut.
 */
export function searchCode(
  ctx: AppContext, actor: Actor, q: ParsedQuery, sort: CodeSort | undefined, order: Order | undefined, slice: Slice,
): Promise<IndexHits<codeStore.CodeHit>> {
  return withinBudget(ctx, (tx, deadline) => codeWithin(tx, deadline, actor, q, sort, order, slice));
}

async function codeWithin(
  ctx: AppContext, deadline: SearchDeadline, actor: Actor, q: ParsedQuery, sort: CodeSort | undefined, order: Order | undefined, slice: Slice,
): Promise<IndexHits<codeStore.CodeHit>> {
  // Code search needs a keyword (the spec; upstream answers 422 too).
  if (!q.terms.length) {
    throw new ValidationError([{ resource: 'Search', field: 'q', code: 'missing', message: 'Code search needs at least one keyword.' }]);
  }
  const inFields = qualifierValues(q, 'in');
  const unknownIn = inFields.filter((f) => f !== 'file' && f !== 'path');
  if (unknownIn.length) throw invalidQuery('The in qualifier of code search takes file and path.', unknownIn[0]);
  const list = (key: string) => {
    const v = qualifierValues(q, key);
    return v.length ? v : undefined;
  };
  const paths = q.qualifiers.get('path')?.map((p) => p.trim().replace(/^\/+|\/+$/g, ''));
  const filter: codeStore.CodeFilter = {
    repositoryIds: [],
    clauses: q.terms.map((c) => c.any),
    excluded: q.excluded,
    inContent: !inFields.length || inFields.includes('file'),
    inPath: !inFields.length || inFields.includes('path'),
    ...optional('languages', list('language')),
    ...optional('extensions', list('extension')?.map((e) => e.replace(/^\./, ''))),
    ...optional('filenames', list('filename')),
    ...optional('paths', paths),
    ...optional('size', numberRange(q, 'size')),
    ...(sort ? { sort } : {}),
    order: sort ? order ?? 'desc' : 'desc',
    limit: slice.perPage, offset: slice.offset,
  };
  const found = await searchedRepositories(ctx, actor, q);
  // SQLite: each word looked up in the text index once, not again for every chunk
  // (one statement; the deadline is checked before each chunk as ever).
  if (ctx.dialect === 'sqlite' && filter.inContent && found.length > 1) await lookUpWords(ctx, filter);
  // Each chunk answers its own best `offset + perPage`; the page is cut from them all.
  // With the text matches looked up, the files of the chunks scanned are counted in one
  // statement after the scan (a cheap one: no text is read), not one per chunk.
  const countedOnce = filter.textMatches !== undefined;
  const wanted = slice.offset + slice.perPage;
  const items: codeStore.CodeHit[] = [];
  const scannedIds: number[] = [];
  let total = 0;
  let incomplete = false;
  let scanned = 0;
  for (const part of scanChunks(found.map((r) => r.id).sort((a, b) => a - b))) {
    const got = await attempt(ctx, deadline, () => codeStore.searchCode(
      ctx.db, ctx.dialect, { ...filter, repositoryIds: part, limit: wanted, offset: 0 }, { counted: !countedOnce },
    ));
    if (!got) {
      incomplete = true;
      break;
    }
    items.push(...got.items);
    total += got.total;
    scannedIds.push(...part);
    scanned += 1;
  }
  if (incomplete && !scanned) throw new SearchTimedOut();
  if (countedOnce) total = await codeStore.countCode(ctx.db, ctx.dialect, { ...filter, repositoryIds: scannedIds });
  items.sort(sort ? byIndexed(filter.order) : bestMatch);
  return hits(ctx, found, { items: items.slice(slice.offset, wanted), total }, incomplete);
}

/**
 * Repository ids in chunks of 1, 2, 4 … up to 64: the first is small so that a tight
 * budget still finds something, the later ones larger so that a big instance does not
 * pay a statement per repository.
 */
function scanChunks(ids: readonly number[]): number[][] {
  const out: number[][] = [];
  for (let at = 0, size = 1; at < ids.length; at += size, size = Math.min(size * 2, 64)) out.push(ids.slice(at, at + size));
  return out;
}

/** The store's best-match order (score, then repository and path), across chunks. */
function bestMatch(a: codeStore.CodeHit, b: codeStore.CodeHit): number {
  return b.score - a.score || a.repositoryId - b.repositoryId || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

/**
 * The files holding each keyword (filter.textMatches), and when every keyword the
 * score counts is made of letters, digits and underscores, their occurrences
 * (filter.contentScores), from the count index once it covers every file: a scored
 * search then reads no file's text, where counting in the text read most of the
 * text indexed for a common keyword (function: 9.2 of 10.8 MB on the bench; issue
 * #16). Other keywords are looked up in the text index as before.
 */
async function lookUpWords(ctx: AppContext, filter: codeStore.CodeFilter): Promise<void> {
  const words = [...filter.clauses.flat(), ...filter.excluded];
  const countable = words.filter((w) => COUNTABLE.test(w));
  const counted = countable.length && await counts.countsComplete(ctx.db)
    ? await codeStore.countedMatches(ctx.db, ctx.dialect, countable)
    : new Map<string, { files: codeStore.FilesByRepository; counts: codeStore.CountsByRepository }>();
  const rest = await codeStore.textMatches(ctx.db, ctx.dialect, words.filter((w) => !counted.has(w)));
  filter.textMatches = new Map([...rest, ...[...counted].map(([w, c]) => [w, c.files] as const)]);
  const scored = filter.clauses.flat();
  if (!filter.sort && scored.every((w) => counted.has(w))) {
    const scores = new Map<number, Map<number, number>>();
    for (const w of scored) {
      for (const [repositoryId, files] of counted.get(w)!.counts) {
        let inRepository = scores.get(repositoryId);
        if (!inRepository) scores.set(repositoryId, inRepository = new Map());
        for (const [id, n] of files) inRepository.set(id, (inRepository.get(id) ?? 0) + n);
      }
    }
    filter.contentScores = scores;
  }
}

function byIndexed(order: Order): (a: codeStore.CodeHit, b: codeStore.CodeHit) => number {
  const sign = order === 'asc' ? 1 : -1;
  return (a, b) => sign * (a.indexedAt < b.indexedAt ? -1 : a.indexedAt > b.indexedAt ? 1 : 0) || a.id - b.id;
}

/** The text of the files found (for text matches). */
export function textsOf(ctx: AppContext, ids: readonly number[]): Promise<Map<number, string>> {
  return codeStore.fileTexts(ctx.db, ids);
}
