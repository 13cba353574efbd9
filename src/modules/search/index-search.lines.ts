// line_numbers of a code search item: where in the file the keywords are.
import { qualifierValues, type ParsedQuery } from './search-query.ts';

/** True when a code search looks in the files' text (no in:, or in:file), as codeWithin's filter does. */
export function searchesText(q: ParsedQuery): boolean {
  const inFields = qualifierValues(q, 'in');
  return !inFields.length || inFields.includes('file');
}

/**
 * The lines (from 1) of `text` holding any of `keywords`, matched without case as code
 * search matches them, each run of consecutive such lines as "first..last" (upstream's
 * form, e.g. "73..77"). None without text or keywords.
 */
export function matchingLines(text: string | null, keywords: readonly string[]): string[] {
  const words = keywords.map((k) => k.toLowerCase()).filter((k) => k !== '');
  if (!text || !words.length) return [];
  const runs: string[] = [];
  let first = 0;
  let last = 0;
  text.toLowerCase().split('\n').forEach((line, i) => {
    if (!words.some((w) => line.includes(w))) return;
    const n = i + 1;
    if (first && n === last + 1) {
      last = n;
      return;
    }
    if (first) runs.push(`${first}..${last}`);
    first = n;
    last = n;
  });
  if (first) runs.push(`${first}..${last}`);
  return runs;
}
