// The search query language, as upstream documents it: keywords, "quoted phrases",
// qualifiers key:value (value possibly quoted; a leading '-' or NOT excludes), and the
// operators AND, OR, NOT (upper case only, as upstream). The limits are the spec's:
// 256 characters not counting operators or qualifiers, at most five operators.
import { isoSeconds } from '../../domain/clock.ts';
import type { Bounds } from '../../domain/bounds.ts';
import { ValidationError } from '../../domain/errors.ts';

/** One keyword clause: any of `any` (a OR b OR c) must match. */
export interface TermClause {
  any: string[];
}

export interface ParsedQuery {
  /** Keyword clauses, all of which must match (AND). */
  terms: TermClause[];
  /** Keywords that must not match (NOT word, -word). */
  excluded: string[];
  /** Qualifier key (lower case) → every value given, in order. */
  qualifiers: ReadonlyMap<string, readonly string[]>;
  /** Qualifiers given with NOT or a leading '-'. */
  excludedQualifiers: ReadonlyMap<string, readonly string[]>;
  /** Every keyword that may match, for text matches. */
  keywords: string[];
}

export const MAX_QUERY_LENGTH = 256;
export const MAX_OPERATORS = 5;

const TOKEN = /(-?)([A-Za-z][\w-]*):(?:"([^"]*)"?|(\S*))|(-?)"([^"]*)"?|(\S+)/g;

function invalid(message: string, value?: string): ValidationError {
  return new ValidationError([{ resource: 'Search', field: 'q', code: 'invalid', ...(value !== undefined ? { value } : {}), message }]);
}

/** Parses `q`; a query past the limits is a 422 Validation Failed, as upstream. */
export function parseQuery(q: string): ParsedQuery {
  if (!q.trim()) throw new ValidationError([{ resource: 'Search', field: 'q', code: 'missing' }]);
  const clauses: TermClause[] = [];
  const excluded: string[] = [];
  const qualifiers = new Map<string, string[]>();
  const excludedQualifiers = new Map<string, string[]>();
  let operators = 0;
  let textLength = 0;
  let pendingNot = false;
  let pendingOr = false;
  for (const m of q.matchAll(TOKEN)) {
    const bare = m[7];
    if (bare === 'AND' || bare === 'OR' || bare === 'NOT') {
      operators++;
      if (bare === 'NOT') pendingNot = true;
      if (bare === 'OR') pendingOr = clauses.length > 0;
      continue;
    }
    if (m[2] !== undefined) {
      const key = m[2].toLowerCase();
      const value = m[3] ?? m[4] ?? '';
      const into = m[1] === '-' || pendingNot ? excludedQualifiers : qualifiers;
      into.set(key, [...(into.get(key) ?? []), value]);
      pendingNot = false;
      pendingOr = false;
      continue;
    }
    const negated = m[5] === '-' || pendingNot || (bare !== undefined && bare.startsWith('-') && bare.length > 1);
    const text = m[6] ?? (bare !== undefined && bare.startsWith('-') && bare.length > 1 ? bare.slice(1) : bare) ?? '';
    pendingNot = false;
    if (!text) continue;
    textLength += text.length;
    if (negated) excluded.push(text);
    else if (pendingOr) clauses[clauses.length - 1]!.any.push(text);
    else clauses.push({ any: [text] });
    pendingOr = false;
  }
  if (operators > MAX_OPERATORS) {
    throw invalid(`The search contains more than ${MAX_OPERATORS} AND / OR / NOT operators.`, q);
  }
  if (textLength > MAX_QUERY_LENGTH) {
    throw invalid(`The search is longer than ${MAX_QUERY_LENGTH} characters.`, q);
  }
  return { terms: clauses, excluded, qualifiers, excludedQualifiers, keywords: clauses.flatMap((c) => c.any) };
}

/** The last value given for the qualifier, lower-cased; undefined when absent. */
export function qualifier(q: ParsedQuery, key: string): string | undefined {
  const values = q.qualifiers.get(key);
  return values?.length ? values[values.length - 1]!.toLowerCase() : undefined;
}

/** Every value of the qualifier, comma lists split (in:name,description), lower-cased. */
export function qualifierValues(q: ParsedQuery, key: string): string[] {
  return (q.qualifiers.get(key) ?? []).flatMap((v) => v.split(',')).map((v) => v.trim().toLowerCase()).filter(Boolean);
}

// ---------------------------------------------------------------- ranges

/** Bounds of a numeric or time qualifier (>n, >=n, <n, <=n, a..b, a..*, *..b, n). */
export type Range<T> = Bounds<T>;

function rangeOf<T>(raw: string, parse: (s: string) => T | null, exact: (v: T, s: string) => Range<T>): Range<T> | null {
  const ops: [string, keyof Range<T>][] = [['>=', 'gte'], ['<=', 'lte'], ['>', 'gt'], ['<', 'lt']];
  for (const [op, key] of ops) {
    if (raw.startsWith(op)) {
      const v = parse(raw.slice(op.length));
      return v === null ? null : { [key]: v } as Range<T>;
    }
  }
  const dots = raw.indexOf('..');
  if (dots >= 0) {
    const lo = raw.slice(0, dots);
    const hi = raw.slice(dots + 2);
    const r: Range<T> = {};
    if (lo !== '*') {
      const v = parse(lo);
      if (v === null) return null;
      r.gte = v;
    }
    if (hi !== '*') {
      const v = parse(hi);
      if (v === null) return null;
      // A date as the upper bound includes the whole day, as upstream reads it.
      const e = exact(v, hi);
      if (e.lt !== undefined) r.lt = e.lt;
      else r.lte = v;
    }
    return r;
  }
  const v = parse(raw);
  return v === null ? null : exact(v, raw);
}

function parseCount(s: string): number | null {
  return /^\d{1,15}$/.test(s) ? Number(s) : null;
}

/** A numeric qualifier's bounds; a value that is not one is a 422. */
export function numberRange(q: ParsedQuery, key: string): Range<number> | undefined {
  const raw = q.qualifiers.get(key)?.at(-1);
  if (raw === undefined) return undefined;
  const r = rangeOf(raw, parseCount, (v) => ({ gte: v, lte: v }));
  if (!r) throw invalid(`The ${key} qualifier must be a number or a range of numbers.`, raw);
  return r;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

function parseTime(s: string): Date | null {
  if (!DATE.test(s) && !DATE_TIME.test(s)) return null;
  const d = new Date(DATE.test(s) ? `${s}T00:00:00Z` : /Z|[+-]\d{2}:?\d{2}$/.test(s) ? s : `${s}Z`);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A time qualifier's bounds as ISO strings (a bare date covers its whole day, UTC); a bad value is a 422. */
export function timeRange(q: ParsedQuery, key: string): Range<string> | undefined {
  const raw = q.qualifiers.get(key)?.at(-1);
  if (raw === undefined) return undefined;
  const dayEnd = (d: Date, s: string): Date | null => (DATE.test(s) ? new Date(d.getTime() + 86_400_000) : null);
  const r = rangeOf<Date>(raw, parseTime, (d, s) => {
    const end = dayEnd(d, s);
    return end ? { gte: d, lt: end } : { gte: d, lte: d };
  });
  if (!r) throw invalid(`The ${key} qualifier must be a date (YYYY-MM-DD or ISO 8601) or a range of dates.`, raw);
  // `>date` of a bare date means after that whole day; `<=date` up to its end.
  const out: Range<string> = {};
  const iso = (d: Date) => isoSeconds(d);
  if (r.gt) out[DATE.test(raw.slice(1)) ? 'gte' : 'gt'] = iso(DATE.test(raw.slice(1)) ? new Date(r.gt.getTime() + 86_400_000) : r.gt);
  if (r.gte) out.gte = iso(r.gte);
  if (r.lt) out.lt = iso(r.lt);
  if (r.lte) {
    if (DATE.test(raw.replace(/^<=/, ''))) out.lt = iso(new Date(r.lte.getTime() + 86_400_000));
    else out.lte = iso(r.lte);
  }
  return out;
}

export { invalid as invalidQuery };

/**
 * GraphQL's sort: qualifier (sort:created-asc, sort:updated, …): the sort and order it
 * names among `allowed`; an unknown one is a 422.
 */
export function sortQualifier<S extends string>(q: ParsedQuery, allowed: readonly S[]): { sort?: S; order?: 'asc' | 'desc' } {
  const raw = qualifier(q, 'sort');
  if (raw === undefined) return {};
  const m = /^(.*?)(?:-(asc|desc))?$/.exec(raw)!;
  const sort = allowed.find((s) => s === m[1]);
  if (!sort) throw invalid(`The sort qualifier must be one of ${allowed.join(', ')} (optionally -asc or -desc).`, raw);
  return { sort, order: m[2] === 'asc' ? 'asc' : 'desc' };
}
