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
 * form, e.g. "73..77"). None without text or keywords. The text is lowered whole and
 * each keyword looked for in it, its places then turned into lines: the page's files
 * are the best matches, often the largest, and splitting each into lowered lines cost
 * a sixth of a code search's CPU (issue #16). The same lines: a keyword without a line
 * break lies within one line of the text lowered whole, as it did in a split line.
 */
export function matchingLines(text: string | null, keywords: readonly string[]): string[] {
  const words = keywords.map((k) => k.toLowerCase()).filter((k) => k !== '');
  if (!text || !words.length) return [];
  const lowered = text.toLowerCase();
  if (words.some((w) => w.includes('\n'))) return linesSplitting(lowered, words);
  const starts: number[] = [];
  for (const w of words) for (let at = lowered.indexOf(w); at >= 0; at = lowered.indexOf(w, at + 1)) starts.push(at);
  if (!starts.length) return [];
  starts.sort((a, b) => a - b);
  const lines: number[] = [];
  let line = 1;
  let lineEnd = lowered.indexOf('\n');
  for (const at of starts) {
    while (lineEnd >= 0 && lineEnd < at) {
      line += 1;
      lineEnd = lowered.indexOf('\n', lineEnd + 1);
    }
    if (lines[lines.length - 1] !== line) lines.push(line);
  }
  return runsOf(lines);
}

/** The lines holding a keyword, line by line (a keyword holding a line break matches none, as ever). */
function linesSplitting(lowered: string, words: readonly string[]): string[] {
  const lines: number[] = [];
  lowered.split('\n').forEach((line, i) => {
    if (words.some((w) => line.includes(w))) lines.push(i + 1);
  });
  return runsOf(lines);
}

/** Ascending line numbers as runs of consecutive lines, "first..last". */
function runsOf(lines: readonly number[]): string[] {
  const runs: string[] = [];
  let first = 0;
  let last = 0;
  for (const n of lines) {
    if (first && n === last + 1) {
      last = n;
      continue;
    }
    if (first) runs.push(`${first}..${last}`);
    first = n;
    last = n;
  }
  if (first) runs.push(`${first}..${last}`);
  return runs;
}
