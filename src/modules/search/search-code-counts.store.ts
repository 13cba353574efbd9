// SQL of code search's count index on SQLite (migration 0052): for each indexed file,
// how often each run of letters, digits and underscores occurs in its text, so that a
// keyword of those characters is found and scored from counts rather than by reading
// every matching file's text (issue #16; search-index.tokens.ts says why the counts are
// the ones the text gives). Written with the file's text (search-code.store.ts), gone
// with its row (a trigger). Only the search module calls this.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { occurrencesIn, tokenCounts } from './search-index.tokens.ts';

/** Ids of files, by the id of their repository. */
export type FilesByRepository = ReadonlyMap<number, readonly number[]>;

/** Writes the counts of `files` (replacing any they had), their new tokens added to the vocabulary. */
export async function writeCounts(db: Executor, files: readonly { id: number; content: string }[]): Promise<void> {
  if (!files.length) return;
  const perFile = files.map((f) => ({ id: f.id, counts: tokenCounts(f.content) }));
  const tokens = new Set<string>();
  for (const f of perFile) for (const t of f.counts.keys()) tokens.add(t);
  if (!tokens.size) return;
  const listed = JSON.stringify([...tokens]);
  // Only the rows inserted come back: those are indexed for lookup by substring.
  const added = await sql<{ id: number; token: string }>`INSERT INTO search_code_tokens (token)
    SELECT value FROM json_each(${listed}) WHERE true ON CONFLICT (token) DO NOTHING RETURNING id, token`.execute(db);
  if (added.rows.length) {
    await sql`INSERT INTO search_code_tokens_fts (rowid, token)
      SELECT value ->> 0, value ->> 1 FROM json_each(${JSON.stringify(added.rows.map((r) => [Number(r.id), r.token]))})`.execute(db);
  }
  const ids = await sql<{ id: number; token: string }>`SELECT id, token FROM search_code_tokens
    WHERE token IN (SELECT value FROM json_each(${listed}))`.execute(db);
  const idOf = new Map(ids.rows.map((r) => [r.token, Number(r.id)]));
  const triples: [number, number, number][] = [];
  for (const f of perFile) for (const [t, n] of f.counts) triples.push([idOf.get(t)!, f.id, n]);
  await sql`DELETE FROM search_code_counts WHERE file_id IN (SELECT value FROM json_each(${JSON.stringify(files.map((f) => f.id))}))`.execute(db);
  await sql`INSERT INTO search_code_counts (token_id, file_id, n)
    SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(${JSON.stringify(triples)})`.execute(db);
}

/** True once every indexed file's counts are written (none left from before migration 0052). */
export async function countsComplete(db: Executor): Promise<boolean> {
  const r = await sql<{ left: number }>`SELECT EXISTS (SELECT 1 FROM search_code_uncounted) AS "left"`.execute(db);
  return Number(r.rows[0]?.left ?? 1) === 0;
}

/** How many indexed files still wait for their counts. */
export async function uncountedFiles(db: Executor): Promise<number> {
  const r = await sql<{ n: number }>`SELECT count(*) AS n FROM search_code_uncounted`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}

/**
 * Writes the counts of up to `limit` files indexed before the count index (read from
 * their lowered text: the runs are the same), and takes them off the list. Returns how
 * many it counted.
 */
export async function countSome(db: Executor, limit: number): Promise<number> {
  const rows = await sql<{ id: number; content: string }>`SELECT u.rowid AS id, l.content FROM search_code_uncounted u
    JOIN search_code_lowered l ON l.rowid = u.rowid ORDER BY u.rowid LIMIT ${limit}`.execute(db);
  const ids = await sql<{ id: number }>`SELECT rowid AS id FROM search_code_uncounted ORDER BY rowid LIMIT ${limit}`.execute(db);
  await writeCounts(db, rows.rows.map((r) => ({ id: Number(r.id), content: r.content })));
  const done = JSON.stringify(ids.rows.map((r) => Number(r.id)));
  await sql`DELETE FROM search_code_uncounted WHERE rowid IN (SELECT value FROM json_each(${done}))`.execute(db);
  return ids.rows.length;
}

/** By repository, by file, a number (a keyword's occurrences in the file's text). */
export type CountsByRepository = ReadonlyMap<number, ReadonlyMap<number, number>>;

export interface WordCounts {
  /** By repository, by file, the word's occurrences in its text (files without it left out). */
  counts: CountsByRepository;
  /** The files holding it, by repository. */
  files: FilesByRepository;
  /** Those of the files whose text a NUL cuts short for LIKE (search_code_recheck): the caller checks them. */
  recheck: readonly number[];
}

/**
 * The occurrences of `word` (letters, digits and underscores) in every file holding
 * it, from the counts: the tokens holding it (looked up in the vocabulary's trigram
 * index, or read whole for a word under three characters), then their files.
 */
export async function wordCounts(db: Executor, word: string): Promise<WordCounts> {
  const w = word.toLowerCase();
  const tokens = w.length >= 3
    ? await sql<{ id: number; token: string }>`SELECT rowid AS id, token FROM search_code_tokens_fts
        WHERE search_code_tokens_fts MATCH ${`"${w}"`}`.execute(db)
    : await sql<{ id: number; token: string }>`SELECT id, token FROM search_code_tokens WHERE instr(token, ${w}) > 0`.execute(db);
  const weight = new Map<number, number>();
  for (const t of tokens.rows) {
    const n = occurrencesIn(t.token, w);
    if (n > 0) weight.set(Number(t.id), n);
  }
  const counts = new Map<number, Map<number, number>>();
  const files = new Map<number, number[]>();
  if (!weight.size) return { counts, files, recheck: [] };
  const rows = await sql<{ token_id: number; file_id: number; n: number; repository_id: number }>`
    SELECT k.token_id, k.file_id, k.n, c.repository_id FROM search_code_counts k JOIN search_code c ON c.id = k.file_id
    WHERE k.token_id IN (SELECT value FROM json_each(${JSON.stringify([...weight.keys()])}))`.execute(db);
  for (const r of rows.rows) {
    const id = Number(r.file_id);
    const repositoryId = Number(r.repository_id);
    let inRepository = counts.get(repositoryId);
    if (!inRepository) counts.set(repositoryId, inRepository = new Map());
    const was = inRepository.get(id);
    inRepository.set(id, (was ?? 0) + Number(r.n) * weight.get(Number(r.token_id))!);
    if (was === undefined) {
      const list = files.get(repositoryId);
      if (list) list.push(id);
      else files.set(repositoryId, [id]);
    }
  }
  const recheck = await sql<{ id: number }>`SELECT rowid AS id FROM search_code_recheck
    WHERE rowid IN (SELECT value FROM json_each(${JSON.stringify([...files.values()].flat())}))`.execute(db);
  return { counts, files, recheck: recheck.rows.map((r) => Number(r.id)) };
}
