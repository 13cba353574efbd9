// SQL pieces the search index stores share. Substring matching is the one place the
// dialects differ: LIKE on SQLite (case-blind for ASCII, and served by the FTS5
// trigram index on file text), ILIKE on PostgreSQL (served by the pg_trgm GIN indexes).
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import { comparisons, type Bounds } from '../../domain/bounds.ts';

/** Rows written per statement (well under either dialect's bound-parameter limit). */
export const CHUNK = 200;

export function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
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

/**
 * How many times `word` occurs in `column` (any case): the core of a score. `lowered`:
 * the column holds text lowered already, so it is not lowered again. `octets` (SQLite):
 * the text's length in bytes, which SQLite knows without reading it where length()
 * walks the text to count characters; the bytes removed over the word's bytes is the
 * same count (measured a quarter less CPU a scored query, issue #16).
 */
export function occurrences(column: Expression<unknown> | RawBuilder<unknown>, word: string, lowered = false, octets = false): RawBuilder<number> {
  const w = word.toLowerCase();
  const text = lowered ? sql`${column}` : sql`lower(${column})`;
  const size = sql.raw(octets ? 'octet_length' : 'length');
  return sql<number>`((${size}(${text}) - ${size}(replace(${text}, ${w}, ''))) / ${octets ? Buffer.byteLength(w, 'utf8') : w.length})`;
}

export function bounded(column: RawBuilder<unknown>, b: Bounds<string | number> | undefined): RawBuilder<SqlBool>[] {
  return b ? comparisons(b).map(([op, v]) => sql<SqlBool>`${column} ${sql.raw(op)} ${v}`) : [];
}

export function all(conditions: RawBuilder<SqlBool>[]): RawBuilder<SqlBool> {
  return conditions.length ? sql<SqlBool>`(${sql.join(conditions, sql` AND `)})` : sql<SqlBool>`1 = 1`;
}

export function any(conditions: RawBuilder<SqlBool>[]): RawBuilder<SqlBool> {
  return conditions.length ? sql<SqlBool>`(${sql.join(conditions, sql` OR `)})` : sql<SqlBool>`1 = 0`;
}

export const col = (name: string) => sql.ref(`c.${name}`);

/**
 * `c.repository_id IN (…)` with the ids written out: they are integers from the
 * database, and an instance may hold more repositories than a statement takes
 * parameters.
 */
export function inRepositories(ids: readonly number[]): RawBuilder<SqlBool> {
  return sql<SqlBool>`${col('repository_id')} IN (${sql.raw(ids.map((id) => String(Math.trunc(Number(id)))).join(', '))})`;
}
