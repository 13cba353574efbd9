// SQL of the search index (migration 0023): the per-repository queue and state, the
// commit rows and the file rows with their text. Only the search module calls this.
// Substring matching is the one place the dialects differ: LIKE on SQLite (case-blind
// for ASCII, and served by the FTS5 trigram index on file text), ILIKE on PostgreSQL
// (served by the pg_trgm GIN indexes).
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Dialect, Executor } from '../../db/database.ts';
import { comparisons, type Bounds } from '../../domain/bounds.ts';

/** Rows written per statement (well under either dialect's bound-parameter limit). */
const CHUNK = 200;

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** `word` as a LIKE pattern matching it anywhere, its wildcards escaped. */
function containing(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * column holds `word` (any case). SQLite's FTS5 index serves only a LIKE without
 * ESCAPE: there a word with a wildcard character (foo_bar) is looked up unescaped (a
 * superset, through the index) and then checked exactly with instr.
 */
export function holds(dialect: Dialect, column: Expression<unknown> | RawBuilder<unknown>, word: string): RawBuilder<SqlBool> {
  const pattern = containing(word);
  if (pattern === `%${word}%`) return sql<SqlBool>`${column} ${sql.raw(dialect === 'postgres' ? 'ILIKE' : 'LIKE')} ${pattern}`;
  if (dialect === 'postgres') return sql<SqlBool>`${column} ILIKE ${pattern}`;
  return sql<SqlBool>`(${column} LIKE ${`%${word}%`} AND instr(lower(${column}), ${word.toLowerCase()}) > 0)`;
}

/** How many times `word` occurs in `column` (any case): the core of a score. */
function occurrences(column: RawBuilder<unknown>, word: string): RawBuilder<number> {
  const w = word.toLowerCase();
  return sql<number>`((length(lower(${column})) - length(replace(lower(${column}), ${w}, ''))) / ${w.length})`;
}

function bounded(column: RawBuilder<unknown>, b: Bounds<string | number> | undefined): RawBuilder<SqlBool>[] {
  return b ? comparisons(b).map(([op, v]) => sql<SqlBool>`${column} ${sql.raw(op)} ${v}`) : [];
}

function all(conditions: RawBuilder<SqlBool>[]): RawBuilder<SqlBool> {
  return conditions.length ? sql<SqlBool>`(${sql.join(conditions, sql` AND `)})` : sql<SqlBool>`1 = 1`;
}

function any(conditions: RawBuilder<SqlBool>[]): RawBuilder<SqlBool> {
  return conditions.length ? sql<SqlBool>`(${sql.join(conditions, sql` OR `)})` : sql<SqlBool>`1 = 0`;
}

// ---------------------------------------------------------------- queue and state

export interface IndexState {
  repositoryId: number;
  indexedBranch: string | null;
  indexedCommit: string | null;
  pending: boolean;
  indexedAt: string | null;
}

/** Queues the repository for the indexer (again, if it is being indexed now). */
export async function markPending(db: Executor, repositoryId: number): Promise<void> {
  await db.insertInto('search_index_state')
    .values({ repository_id: repositoryId, indexed_branch: null, indexed_commit: null, pending: 1, claimed_until: null, indexed_at: null })
    .onConflict((oc) => oc.column('repository_id').doUpdateSet({ pending: 1 }))
    .execute();
}

/** Queues every repository (re-index of a whole data directory). */
export async function markAllPending(db: Executor, repositoryIds: readonly number[]): Promise<void> {
  for (const ids of chunks(repositoryIds)) for (const id of ids) await markPending(db, id);
}

/**
 * Takes up to `limit` queued repositories nobody holds, for `leaseMs`: their pending
 * flag is cleared, so an event arriving meanwhile queues them again. Run in a
 * transaction; on PostgreSQL rows another worker is taking are skipped.
 */
export async function claimPending(db: Executor, dialect: Dialect, nowMs: number, leaseMs: number, limit: number): Promise<number[]> {
  let q = db.selectFrom('search_index_state').select('repository_id')
    .where('pending', '=', 1)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', nowMs)]))
    .orderBy('repository_id').limit(limit);
  if (dialect === 'postgres') q = q.forUpdate().skipLocked();
  const ids = (await q.execute()).map((r) => Number(r.repository_id));
  if (ids.length) {
    await db.updateTable('search_index_state').set({ pending: 0, claimed_until: nowMs + leaseMs }).where('repository_id', 'in', ids).execute();
  }
  return ids;
}

export async function stateOf(db: Executor, repositoryId: number): Promise<IndexState | null> {
  const r = await db.selectFrom('search_index_state').selectAll().where('repository_id', '=', repositoryId).executeTakeFirst();
  return r ? {
    repositoryId: Number(r.repository_id), indexedBranch: r.indexed_branch, indexedCommit: r.indexed_commit,
    pending: Number(r.pending) === 1, indexedAt: r.indexed_at,
  } : null;
}

/** The indexer finished a repository: what the index now holds; the claim is given back. */
export async function recordIndexed(db: Executor, repositoryId: number, branch: string | null, commit: string | null, at: string): Promise<void> {
  await db.updateTable('search_index_state')
    .set({ indexed_branch: branch, indexed_commit: commit, claimed_until: null, indexed_at: at })
    .where('repository_id', '=', repositoryId).execute();
}

/** Indexing failed: queued again, not before `retryAtMs`. */
export async function retryLater(db: Executor, repositoryId: number, retryAtMs: number): Promise<void> {
  await db.updateTable('search_index_state').set({ pending: 1, claimed_until: retryAtMs }).where('repository_id', '=', repositoryId).execute();
}

/** How many repositories wait for the indexer and may be taken now (not held, nor waiting for a retry). */
export async function countOutstanding(db: Executor, nowMs: number): Promise<number> {
  const r = await db.selectFrom('search_index_state').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('pending', '=', 1)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', nowMs)])).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The commit each indexed repository's index holds (null: not indexed yet). */
export async function indexedCommits(db: Executor, repositoryIds: readonly number[]): Promise<Map<number, string | null>> {
  if (!repositoryIds.length) return new Map();
  const rows = await db.selectFrom('search_index_state').select(['repository_id', 'indexed_commit'])
    .where('repository_id', 'in', [...repositoryIds]).execute();
  return new Map(rows.map((r) => [Number(r.repository_id), r.indexed_commit]));
}

/** Every repository the index knows (searches without repo:, user: or org: start here). */
export async function indexedRepositoryIds(db: Executor): Promise<number[]> {
  const rows = await db.selectFrom('search_index_state').select('repository_id').where('indexed_commit', 'is not', null).execute();
  return rows.map((r) => Number(r.repository_id));
}

// ---------------------------------------------------------------- commits

export interface CommitRow {
  repositoryId: number;
  sha: string;
  tree: string;
  parents: string[];
  authorName: string;
  authorEmail: string;
  authorDate: string;
  committerName: string;
  committerEmail: string;
  committerDate: string;
  message: string;
}

export async function insertCommits(db: Executor, rows: readonly CommitRow[]): Promise<void> {
  for (const part of chunks(rows)) {
    await db.insertInto('search_commits').values(part.map((c) => ({
      repository_id: c.repositoryId, sha: c.sha, tree_sha: c.tree, parents: c.parents.join(' '), parent_count: c.parents.length,
      author_name: c.authorName, author_email: c.authorEmail, author_date: c.authorDate,
      committer_name: c.committerName, committer_email: c.committerEmail, committer_date: c.committerDate, message: c.message,
    }))).onConflict((oc) => oc.columns(['repository_id', 'sha']).doNothing()).execute();
  }
}

export async function deleteCommits(db: Executor, repositoryId: number, shas: readonly string[]): Promise<void> {
  for (const part of chunks(shas)) {
    await db.deleteFrom('search_commits').where('repository_id', '=', repositoryId).where('sha', 'in', part).execute();
  }
}

export async function clearRepository(db: Executor, repositoryId: number): Promise<void> {
  await db.deleteFrom('search_commits').where('repository_id', '=', repositoryId).execute();
  await db.deleteFrom('search_code').where('repository_id', '=', repositoryId).execute();
}

export interface CommitFilter {
  repositoryIds: readonly number[];
  clauses: string[][];
  excluded: string[];
  authorEmails?: string[];
  committerEmails?: string[];
  authorName?: string;
  committerName?: string;
  authorEmail?: string;
  committerEmail?: string;
  authorDate?: Bounds<string>;
  committerDate?: Bounds<string>;
  merge?: boolean;
  hash?: string;
  parent?: string;
  tree?: string;
  sort?: 'author-date' | 'committer-date';
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

const col = (name: string) => sql.ref(`c.${name}`);

/**
 * `c.repository_id IN (…)` with the ids written out: they are integers from the
 * database, and an instance may hold more repositories than a statement takes
 * parameters.
 */
function inRepositories(ids: readonly number[]): RawBuilder<SqlBool> {
  return sql<SqlBool>`${col('repository_id')} IN (${sql.raw(ids.map((id) => String(Math.trunc(Number(id)))).join(', '))})`;
}

function commitConditions(dialect: Dialect, f: CommitFilter): RawBuilder<SqlBool>[] {
  const lowerIn = (column: string, values: string[]) =>
    sql<SqlBool>`lower(${col(column)}) IN (${sql.join(values.map((v) => v.toLowerCase()))})`;
  // A sha qualifier names a commit by its full sha or a prefix of it.
  const prefix = (column: string, value: string) => sql<SqlBool>`${col(column)} LIKE ${`${value.toLowerCase()}%`}`;
  const out: RawBuilder<SqlBool>[] = [
    inRepositories(f.repositoryIds),
    ...f.clauses.map((words) => any(words.map((w) => holds(dialect, col('message'), w)))),
    ...f.excluded.map((w) => sql<SqlBool>`NOT ${holds(dialect, col('message'), w)}`),
    ...bounded(col('author_date'), f.authorDate),
    ...bounded(col('committer_date'), f.committerDate),
  ];
  if (f.authorEmails) out.push(f.authorEmails.length ? lowerIn('author_email', f.authorEmails) : sql<SqlBool>`1 = 0`);
  if (f.committerEmails) out.push(f.committerEmails.length ? lowerIn('committer_email', f.committerEmails) : sql<SqlBool>`1 = 0`);
  if (f.authorName !== undefined) out.push(lowerIn('author_name', [f.authorName]));
  if (f.committerName !== undefined) out.push(lowerIn('committer_name', [f.committerName]));
  if (f.authorEmail !== undefined) out.push(lowerIn('author_email', [f.authorEmail]));
  if (f.committerEmail !== undefined) out.push(lowerIn('committer_email', [f.committerEmail]));
  if (f.merge !== undefined) out.push(f.merge ? sql<SqlBool>`${col('parent_count')} > 1` : sql<SqlBool>`${col('parent_count')} <= 1`);
  if (f.hash !== undefined) out.push(prefix('sha', f.hash));
  if (f.tree !== undefined) out.push(prefix('tree_sha', f.tree));
  if (f.parent !== undefined) {
    const p = f.parent.toLowerCase();
    out.push(any([sql<SqlBool>`${col('parents')} LIKE ${`${p}%`}`, sql<SqlBool>`${col('parents')} LIKE ${`% ${p}%`}`]));
  }
  return out;
}

export interface CommitHit extends CommitRow {
  score: number;
}

/** A page of the commits matching `f`, best first (keyword hits) unless sorted by a date, and how many match. */
export async function searchCommits(db: Executor, dialect: Dialect, f: CommitFilter): Promise<{ items: CommitHit[]; total: number }> {
  if (!f.repositoryIds.length) return { items: [], total: 0 };
  const where = all(commitConditions(dialect, f));
  const words = f.clauses.flat();
  const score = words.length ? sql<number>`(${sql.join(words.map((w) => occurrences(col('message'), w)), sql` + `)})` : sql<number>`1`;
  const dir = sql.raw(f.order === 'asc' ? 'ASC' : 'DESC');
  const orderBy = f.sort
    ? sql`${col(f.sort === 'author-date' ? 'author_date' : 'committer_date')} ${dir}, ${col('repository_id')}, ${col('sha')}`
    : sql`score DESC, ${col('committer_date')} DESC, ${col('repository_id')}, ${col('sha')}`;
  const rows = await sql<{
    repository_id: number; sha: string; tree_sha: string; parents: string; author_name: string; author_email: string; author_date: string;
    committer_name: string; committer_email: string; committer_date: string; message: string; score: number;
  }>`SELECT c.repository_id, c.sha, c.tree_sha, c.parents, c.author_name, c.author_email, c.author_date, c.committer_name,
      c.committer_email, c.committer_date, c.message, ${score} AS score
    FROM search_commits c WHERE ${where} ORDER BY ${orderBy} LIMIT ${f.limit} OFFSET ${f.offset}`.execute(db);
  const count = await sql<{ n: number }>`SELECT count(*) AS n FROM search_commits c WHERE ${where}`.execute(db);
  return {
    total: Number(count.rows[0]?.n ?? 0),
    items: rows.rows.map((r) => ({
      repositoryId: Number(r.repository_id), sha: r.sha, tree: r.tree_sha, parents: r.parents ? r.parents.split(' ') : [],
      authorName: r.author_name, authorEmail: r.author_email, authorDate: r.author_date, committerName: r.committer_name,
      committerEmail: r.committer_email, committerDate: r.committer_date, message: r.message, score: Number(r.score),
    })),
  };
}

// ---------------------------------------------------------------- code

export interface FileRow {
  repositoryId: number;
  path: string;
  blobSha: string;
  size: number;
  language: string | null;
  content: string;
}

/** Writes files of one repository (replacing those at the same paths) with their text, a statement per 50 files. */
export async function upsertFiles(db: Executor, rows: readonly FileRow[], at: string): Promise<void> {
  for (const part of chunks(rows, 50)) {
    const repositoryId = part[0]!.repositoryId;
    await deleteFiles(db, repositoryId, part.map((r) => r.path));
    const inserted = await db.insertInto('search_code').values(part.map((r) => {
      const name = r.path.slice(r.path.lastIndexOf('/') + 1);
      const dot = name.lastIndexOf('.');
      return {
        repository_id: r.repositoryId, path: r.path, name, extension: dot > 0 ? name.slice(dot + 1).toLowerCase() : '',
        blob_sha: r.blobSha, size: r.size, language: r.language, indexed_at: at,
      };
    })).returning(['id', 'path']).execute();
    const idOf = new Map(inserted.map((r) => [r.path, Number(r.id)]));
    await db.insertInto('search_code_text').values(part.map((r) => ({ rowid: idOf.get(r.path)!, content: r.content }))).execute();
  }
}

export async function deleteFiles(db: Executor, repositoryId: number, paths: readonly string[]): Promise<void> {
  for (const part of chunks(paths)) {
    await db.deleteFrom('search_code').where('repository_id', '=', repositoryId).where('path', 'in', part).execute();
  }
}

export interface CodeFilter {
  repositoryIds: readonly number[];
  clauses: string[][];
  excluded: string[];
  inContent: boolean;
  inPath: boolean;
  languages?: string[];
  extensions?: string[];
  filenames?: string[];
  /** Directories (no leading or trailing slash; '' is the root) the file lies under. */
  paths?: string[];
  size?: Bounds<number>;
  sort?: 'indexed';
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export interface CodeHit {
  id: number;
  repositoryId: number;
  path: string;
  name: string;
  blobSha: string;
  size: number;
  language: string | null;
  score: number;
}

const text = sql`(SELECT t.content FROM search_code_text t WHERE t.rowid = c.id)`;

function codeConditions(dialect: Dialect, f: CodeFilter): RawBuilder<SqlBool>[] {
  const inText = (w: string) => sql<SqlBool>`${col('id')} IN (SELECT t.rowid FROM search_code_text t WHERE ${holds(dialect, sql.ref('t.content'), w)})`;
  const where = (w: string) => [...(f.inContent ? [inText(w)] : []), ...(f.inPath ? [holds(dialect, col('path'), w)] : [])];
  const out: RawBuilder<SqlBool>[] = [
    inRepositories(f.repositoryIds),
    ...f.clauses.map((words) => any(words.flatMap(where))),
    ...f.excluded.map((w) => sql<SqlBool>`NOT ${any(where(w))}`),
    ...bounded(col('size'), f.size),
  ];
  if (f.languages) out.push(sql<SqlBool>`lower(${col('language')}) IN (${sql.join(f.languages)})`);
  if (f.extensions) out.push(sql<SqlBool>`${col('extension')} IN (${sql.join(f.extensions)})`);
  if (f.filenames) {
    out.push(any(f.filenames.map((n) => sql<SqlBool>`lower(${col('name')}) = ${n}`)));
  }
  if (f.paths) {
    out.push(any(f.paths.map((p) => (p === ''
      ? sql<SqlBool>`${col('path')} NOT LIKE '%/%'`
      : any([sql<SqlBool>`${col('path')} LIKE ${`${p}/%`}`, sql<SqlBool>`${col('path')} LIKE ${`%/${p}/%`}`])))));
  }
  return out;
}

/**
 * A page of the files matching `f` and how many match. Best match first: each keyword
 * scores its occurrences in the text, and more when the path (most when the file name)
 * holds it; `sort=indexed` orders by when the file was last indexed instead.
 */
export async function searchCode(db: Executor, dialect: Dialect, f: CodeFilter): Promise<{ items: CodeHit[]; total: number }> {
  if (!f.repositoryIds.length) return { items: [], total: 0 };
  const where = all(codeConditions(dialect, f));
  const words = f.clauses.flat();
  const parts = words.flatMap((w) => [
    ...(f.inContent ? [occurrences(text, w)] : []),
    ...(f.inPath ? [sql<number>`(CASE WHEN ${holds(dialect, col('path'), w)} THEN 5 ELSE 0 END)`,
      sql<number>`(CASE WHEN ${holds(dialect, col('name'), w)} THEN 5 ELSE 0 END)`] : []),
  ]);
  const score = parts.length ? sql<number>`(${sql.join(parts, sql` + `)})` : sql<number>`1`;
  const orderBy = f.sort
    ? sql`${col('indexed_at')} ${sql.raw(f.order === 'asc' ? 'ASC' : 'DESC')}, ${col('id')}`
    : sql`score DESC, ${col('repository_id')}, ${col('path')}`;
  const rows = await sql<{ id: number; repository_id: number; path: string; name: string; blob_sha: string; size: number; language: string | null; score: number }>`
    SELECT c.id, c.repository_id, c.path, c.name, c.blob_sha, c.size, c.language, ${score} AS score
    FROM search_code c WHERE ${where} ORDER BY ${orderBy} LIMIT ${f.limit} OFFSET ${f.offset}`.execute(db);
  const count = await sql<{ n: number }>`SELECT count(*) AS n FROM search_code c WHERE ${where}`.execute(db);
  return {
    total: Number(count.rows[0]?.n ?? 0),
    items: rows.rows.map((r) => ({
      id: Number(r.id), repositoryId: Number(r.repository_id), path: r.path, name: r.name, blobSha: r.blob_sha,
      size: Number(r.size), language: r.language, score: Number(r.score),
    })),
  };
}

/** The text of files by id (the page's text matches). */
export async function fileTexts(db: Executor, ids: readonly number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('search_code_text').select(['rowid', 'content']).where('rowid', 'in', [...ids]).execute();
  return new Map(rows.map((r) => [Number(r.rowid), r.content]));
}

/** The indexed paths and blobs of a repository (a full re-index compares against them). */
export async function indexedFiles(db: Executor, repositoryId: number): Promise<Map<string, string>> {
  const rows = await db.selectFrom('search_code').select(['path', 'blob_sha']).where('repository_id', '=', repositoryId).execute();
  return new Map(rows.map((r) => [r.path, r.blob_sha]));
}

/** Every repository the index has a row for (each gets one when created, or by migration 0023). */
export async function knownRepositoryIds(db: Executor): Promise<number[]> {
  const rows = await db.selectFrom('search_index_state').select('repository_id').orderBy('repository_id').execute();
  return rows.map((r) => Number(r.repository_id));
}

export async function clearPending(db: Executor, repositoryId: number): Promise<void> {
  await db.updateTable('search_index_state').set({ pending: 0 }).where('repository_id', '=', repositoryId).where('claimed_until', 'is', null).execute();
}
