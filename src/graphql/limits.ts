// Bounds on one GraphQL call, so that no single request can exhaust the process:
// - nesting of the query text, checked before parsing (graphql-js parses recursively,
//   and thousands of nested selections overflow its stack);
// - field selections (fragments expanded), aliases, selection depth and introspection
//   roots, counted by the cost walk before anything runs (cost.ts);
// - the text a response carries: measured before it is written, and a response past
//   the budget is answered with one error instead of its data (a 5 MB issue body asked
//   for under 1,000 aliases would otherwise be 5 GB of JSON).

/** Deepest nesting of braces, brackets and parentheses in the query text. */
export const MAX_TEXT_NESTING = 64;
/** Deepest field selection (the introspection query GraphiQL sends nests 13 deep). */
export const MAX_SELECTION_DEPTH = 32;
/** Field selections in one operation, fragments expanded where they are spread. */
export const MAX_SELECTIONS = 5_000;
/** Aliased field selections in one operation. */
export const MAX_ALIASES = 500;
/** `__schema` and `__type` selections in one operation. */
export const MAX_INTROSPECTION_ROOTS = 10;
/** Characters of text values (strings, ids, enum values …) in one response. */
export const MAX_RESPONSE_CHARS = 16 * 1024 * 1024;

/**
 * The deepest nesting of `{`, `[` and `(` outside strings and comments; stops counting
 * once past `limit` (the caller refuses the query then).
 */
export function textNesting(query: string, limit = MAX_TEXT_NESTING): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < query.length; i++) {
    const c = query.charCodeAt(i);
    if (c === 0x23 /* # */) {
      while (i < query.length && query.charCodeAt(i) !== 0x0a && query.charCodeAt(i) !== 0x0d) i++;
    } else if (c === 0x22 /* " */) {
      if (query.startsWith('"""', i)) {
        const end = query.indexOf('"""', i + 3);
        i = end < 0 ? query.length : end + 2;
      } else {
        for (i++; i < query.length && query.charCodeAt(i) !== 0x22 && query.charCodeAt(i) !== 0x0a; i++) {
          if (query.charCodeAt(i) === 0x5c /* \ */) i++;
        }
      }
    } else if (c === 0x7b || c === 0x5b || c === 0x28) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x7d || c === 0x5d || c === 0x29) {
      depth--;
    }
  }
  return deepest;
}

/**
 * Characters of text (strings) in a result, counted until past `limit`. The result's
 * strings are shared with the records they came from, so the result itself stays small
 * however often a large text is selected; what would not is the JSON written from it,
 * which this measures first. Depth is bounded by MAX_SELECTION_DEPTH (the cost walk).
 */
export function textSize(value: unknown, limit = MAX_RESPONSE_CHARS): number {
  let total = 0;
  const walk = (v: unknown): void => {
    if (total > limit) return;
    if (typeof v === 'string') total += v.length;
    else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v !== null && typeof v === 'object') for (const k in v) walk((v as Record<string, unknown>)[k]);
  };
  walk(value);
  return total;
}
