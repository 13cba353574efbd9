// SQL of the code index (search_code and its text in search_code_text): files written
// and removed as the default branch moves, and code search's query. Only the search
// module calls this.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Dialect, Executor } from '../../db/database.ts';
import type { Bounds } from '../../domain/bounds.ts';
import { all, any, bounded, chunks, col, holds, inRepositories, occurrences } from './search-index.sql.ts';
import { wordCounts, writeCounts, type CountsByRepository, type FilesByRepository } from './search-code-counts.store.ts';

export type { CountsByRepository, FilesByRepository } from './search-code-counts.store.ts';

export interface FileRow {
  repositoryId: number;
  path: string;
  blobSha: string;
  size: number;
  language: string | null;
  content: string;
}

/**
 * Text in which an FTS5 MATCH of an ASCII keyword may find more than LIKE does: a NUL
 * (LIKE stops at it), ſ or the Kelvin sign (the trigram tokenizer folds them to s and
 * k, the only characters it folds to ASCII: test/search-code-exact.test.ts asks SQLite
 * about every code point). Migration 0050 lists the files indexed before it alike.
 */
const MATCH_INEXACT = /[\0\u017f\u212a]/;

/**
 * Writes files of one repository (replacing those at the same paths) with their text, a
 * statement per 50 files; on SQLite their lowered text too (search_code_lowered, by
 * SQLite's lower() as a query would lower it: see searchCode), the files whose
 * keywords a MATCH cannot settle (search_code_recheck: see textHolding), and the
 * files' counts (search-code-counts.store.ts).
 */
export async function upsertFiles(db: Executor, dialect: Dialect, rows: readonly FileRow[], at: string): Promise<void> {
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
    if (dialect === 'sqlite') {
      await sql`INSERT INTO search_code_lowered (rowid, content)
        SELECT rowid, lower(content) FROM search_code_text WHERE rowid IN (${sql.join([...idOf.values()])})`.execute(db);
      const recheck = part.filter((r) => MATCH_INEXACT.test(r.content)).map((r) => sql`(${idOf.get(r.path)!})`);
      if (recheck.length) await sql`INSERT INTO search_code_recheck (rowid) VALUES ${sql.join(recheck)}`.execute(db);
      await writeCounts(db, part.map((r) => ({ id: idOf.get(r.path)!, content: r.content })));
    }
  }
}

export async function clearFiles(db: Executor, repositoryId: number): Promise<void> {
  await db.deleteFrom('search_code').where('repository_id', '=', repositoryId).execute();
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
  /**
   * By word, the files whose text holds it, when already looked up (textMatches): the
   * scan of each chunk of repositories then reads those of its repositories instead of
   * asking the text index again.
   */
  textMatches?: ReadonlyMap<string, FilesByRepository>;
  /**
   * By repository, by file, the occurrences of the keywords in its text summed (each
   * keyword as often as the clauses name it), when counted already (the count index,
   * SQLite): a scored search then reads no text (see searchCode).
   */
  contentScores?: CountsByRepository;
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
  /** When the file was last indexed (sort=indexed, and merging chunks of a scan). */
  indexedAt: string;
}

/**
 * The ids of the indexed files whose text holds `word` (any case), as a subquery: those
 * whose text LIKE finds it (holds). On SQLite an ASCII word of three characters or more
 * is looked up with FTS5 MATCH, which answers from the trigram index where LIKE reads
 * every candidate's text (3-7 times less CPU a word on the bench's corpus: function
 * 9.2 → 2.8 ms, Promise 2.7 → 0.8 ms; issue #16). The files are the same: MATCH folds
 * case as LIKE does for ASCII, and a text can match an ASCII word under MATCH but not
 * LIKE only by holding a NUL or a character the tokenizer folds to ASCII (ſ, the Kelvin
 * sign): such files are listed in search_code_recheck and a match in them is checked
 * with LIKE. A CASE, not an OR, so that SQLite reads no other file's text. Shorter words
 * (no trigram) and words outside ASCII (LIKE compares those characters as they are,
 * MATCH folds them) are looked up with LIKE as before.
 */
function textHolding(dialect: Dialect, word: string): RawBuilder<unknown> {
  const exact = holds(dialect, sql.ref('t.content'), word);
  if (dialect !== 'sqlite' || !/^[\x01-\x7f]{3,}$/.test(word)) return sql`SELECT t.rowid FROM search_code_text t WHERE ${exact}`;
  const phrase = `"${word.replace(/"/g, '""')}"`;
  return sql`SELECT t.rowid FROM search_code_text t WHERE search_code_text MATCH ${phrase}
    AND CASE WHEN t.rowid IN (SELECT rowid FROM search_code_recheck) THEN ${exact} ELSE 1 END`;
}

function codeConditions(dialect: Dialect, f: CodeFilter): RawBuilder<SqlBool>[] {
  const inText = (w: string) => {
    const known = f.textMatches?.get(w);
    // One JSON parameter, so that the statement's text stays the same whatever the ids;
    // only the ids of the repositories searched, as SQLite reads every id the JSON holds.
    if (known !== undefined) return sql<SqlBool>`${col('id')} IN (SELECT value FROM json_each(${idsIn(known, f.repositoryIds)}))`;
    return sql<SqlBool>`${col('id')} IN (${textHolding(dialect, w)})`;
  };
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
 *
 * A scored search joins each file's text once (a scalar subquery named in the score was
 * read once per mention). Lowering the matching files' text was most of a query's time:
 * SQLite reads it lowered at index time (search_code_lowered), which measured 15-40 %
 * less CPU a query than lowering it here, and counts in bytes (occurrences). On PostgreSQL, with several words the matching
 * files are gathered first (MATERIALIZED), their text lowered once: measured faster
 * from two words on, slower for one (the copy costs more than one lower() saves). The count is a second statement
 * when the text matches were looked up already (textMatches: counting them again is
 * cheap, where a window over all matches costs more than the count); otherwise it is a
 * window over the same rows, as a second statement would run the text match again.
 * `counted: false` leaves that second statement out (total 0): the caller counts the
 * matches itself (countCode), once for several calls.
 */
export async function searchCode(
  db: Executor, dialect: Dialect, f: CodeFilter, options: { counted?: boolean } = {},
): Promise<{ items: CodeHit[]; total: number }> {
  if (!f.repositoryIds.length) return { items: [], total: 0 };
  const where = all(codeConditions(dialect, f));
  const words = f.clauses.flat();
  const scored = !f.sort && f.inContent && words.length > 0;
  const lowered = dialect === 'sqlite';
  const counted = scored && f.contentScores !== undefined;
  const gathered = scored && words.length > 1 && !lowered && !counted;
  const parts = [...(counted ? [sql<number>`coalesce(k.n, 0)`] : []), ...words.flatMap((w) => [
    ...(f.inContent && !counted ? [gathered ? occurrences(sql.ref('c.lowered'), w, true) : occurrences(sql.ref('t.content'), w, lowered, lowered)] : []),
    ...(f.inPath ? [sql<number>`(CASE WHEN ${holds(dialect, col('path'), w)} THEN 5 ELSE 0 END)`,
      sql<number>`(CASE WHEN ${holds(dialect, col('name'), w)} THEN 5 ELSE 0 END)`] : []),
  ])];
  const score = !f.sort && parts.length ? sql<number>`(${sql.join(parts, sql` + `)})` : sql<number>`1`;
  const orderBy = f.sort
    ? sql`${col('indexed_at')} ${sql.raw(f.order === 'asc' ? 'ASC' : 'DESC')}, ${col('id')}`
    : sql`score DESC, ${col('repository_id')}, ${col('path')}`;
  // Counted: each file's occurrences of the keywords joined from the counts given (a
  // table of this statement's repositories' files; its ids cast to INTEGER, so that
  // SQLite gives it an automatic index for the join: without, it read the table for each file).
  const joined = counted
    ? sql`search_code c LEFT JOIN k ON k.id = c.id`
    : sql`search_code c LEFT JOIN ${sql.raw(lowered ? 'search_code_lowered' : 'search_code_text')} t ON t.rowid = c.id`;
  const prefix = counted
    ? sql`WITH k(id, n) AS MATERIALIZED (SELECT CAST(value ->> 0 AS INTEGER), value ->> 1 FROM json_each(${scoresIn(f.contentScores!, f.repositoryIds)})) `
    : sql``;
  const windowed = f.textMatches === undefined;
  const columns = sql`c.id, c.repository_id, c.path, c.name, c.blob_sha, c.size, c.language, c.indexed_at`;
  const select = sql`SELECT ${columns}, ${score} AS score ${windowed ? sql`, count(*) OVER () AS total` : sql``}`;
  const page = sql`ORDER BY ${orderBy} LIMIT ${f.limit} OFFSET ${f.offset}`;
  const statement = gathered
    ? sql`WITH matched AS MATERIALIZED (SELECT ${columns}, lower(t.content) AS lowered FROM ${joined} WHERE ${where})
      ${select} FROM matched c ${page}`
    : sql`${prefix}${select} FROM ${scored ? joined : sql`search_code c`} WHERE ${where} ${page}`;
  const rows = await sql<{ id: number; repository_id: number; path: string; name: string; blob_sha: string; size: number; language: string | null; score: number; indexed_at: string; total?: number }>`${statement}`.execute(db);
  // The window's count rides on a row: with none (a page past the end, or a count with
  // no page, limit 0) it is counted on its own; no row on a first page means none match.
  const total = windowed && (rows.rows.length || (f.offset === 0 && f.limit > 0))
    ? Number(rows.rows[0]?.total ?? 0)
    : options.counted === false ? 0 : await countCode(db, dialect, f);
  return {
    total,
    items: rows.rows.map((r) => ({
      id: Number(r.id), repositoryId: Number(r.repository_id), path: r.path, name: r.name, blobSha: r.blob_sha,
      size: Number(r.size), language: r.language, score: Number(r.score), indexedAt: String(r.indexed_at),
    })),
  };
}

/**
 * How many files match `f` (its page left aside). Code search's scan counts with this
 * once for all the repositories it scanned, when the text matches were looked up
 * already (see searchCode's `counted`), rather than a statement per chunk.
 */
export async function countCode(db: Executor, dialect: Dialect, f: CodeFilter): Promise<number> {
  if (!f.repositoryIds.length) return 0;
  const rows = await sql<{ n: number }>`SELECT count(*) AS n FROM search_code c WHERE ${all(codeConditions(dialect, f))}`.execute(db);
  return Number(rows.rows[0]?.n ?? 0);
}

/**
 * The repositories whose README holds `word` (any case): a file at the root of the
 * indexed default branch named README or README.<anything>, in any case, as upstream
 * shows one on a repository's page.
 */
export async function readmeHolders(db: Executor, dialect: Dialect, word: string): Promise<number[]> {
  const rows = await sql<{ repository_id: number }>`
    SELECT DISTINCT c.repository_id FROM search_code c
    WHERE ${col('path')} NOT LIKE '%/%' AND (lower(${col('name')}) = 'readme' OR lower(${col('name')}) LIKE 'readme.%')
      AND ${col('id')} IN (${textHolding(dialect, word)})`.execute(db);
  return rows.rows.map((r) => Number(r.repository_id));
}

/** The [file, number] pairs of `scores` in the repositories `ids`, as a JSON array. */
function scoresIn(scores: CountsByRepository, ids: readonly number[]): string {
  const out: [number, number][] = [];
  for (const id of ids) {
    const found = scores.get(Number(id));
    if (found) for (const pair of found) out.push(pair);
  }
  return JSON.stringify(out);
}

/** The ids of `files` in the repositories `ids`, as a JSON array. */
function idsIn(files: FilesByRepository, ids: readonly number[]): string {
  const out: number[] = [];
  for (const id of ids) {
    const found = files.get(Number(id));
    if (found) for (const f of found) out.push(f);
  }
  return JSON.stringify(out);
}

/**
 * By word, every indexed file whose text holds it, by repository. On SQLite a
 * statement asks the text index anew for each IN (SELECT …) it holds, however few
 * repositories it searches: code search looks each word up once with this and scans
 * its chunks of repositories against the ids of their files (see CodeFilter.textMatches).
 * By repository, so that each chunk's statement reads its own files' ids only, not
 * the ids of every file found (function: 1,925 files, read by each of the nine
 * statements of a scan of 200 repositories; issue #16).
 */
export async function textMatches(db: Executor, dialect: Dialect, words: readonly string[]): Promise<Map<string, FilesByRepository>> {
  const out = new Map<string, FilesByRepository>();
  for (const w of new Set(words)) {
    const rows = await sql<{ id: number; repository_id: number }>`SELECT c.id, c.repository_id FROM search_code c
      WHERE ${col('id')} IN (${textHolding(dialect, w)})`.execute(db);
    const byRepository = new Map<number, number[]>();
    for (const r of rows.rows) {
      const repositoryId = Number(r.repository_id);
      const files = byRepository.get(repositoryId);
      if (files) files.push(Number(r.id));
      else byRepository.set(repositoryId, [Number(r.id)]);
    }
    out.set(w, byRepository);
  }
  return out;
}

/**
 * By word (each made of letters, digits and underscores only), the files whose text
 * holds it, by repository, and its occurrences in each, from the count index: the
 * same files textMatches finds, but for those whose text holds a NUL (LIKE stops at
 * it), checked against their text as textHolding checks them; the occurrences are
 * those searchCode counts in the whole lowered text.
 */
export async function countedMatches(
  db: Executor, dialect: Dialect, words: readonly string[],
): Promise<Map<string, { files: FilesByRepository; counts: CountsByRepository }>> {
  const out = new Map<string, { files: FilesByRepository; counts: CountsByRepository }>();
  for (const w of new Set(words)) {
    const found = await wordCounts(db, w);
    let files = found.files;
    if (found.recheck.length) {
      const held = await sql<{ rowid: number }>`SELECT t.rowid FROM search_code_text t
        WHERE t.rowid IN (SELECT value FROM json_each(${JSON.stringify(found.recheck)})) AND ${holds(dialect, sql.ref('t.content'), w)}`.execute(db);
      const keep = new Set(held.rows.map((r) => Number(r.rowid)));
      const dropped = new Set(found.recheck.filter((id) => !keep.has(id)));
      if (dropped.size) {
        files = new Map([...found.files].map(([repo, ids]) => [repo, ids.filter((id) => !dropped.has(id))]));
      }
    }
    out.set(w, { files, counts: found.counts });
  }
  return out;
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
