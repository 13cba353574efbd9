// The words of a file's text as code search's count index keeps them (issue #16): each
// run of ASCII letters, digits and underscores, lowered, with how often it occurs.
// A keyword made only of those characters can occur only inside such a run, so its
// occurrences in the whole text (any case, counted left to right without overlap, as
// code search's score counts them in SQLite's lowered text) are the sum, over the
// runs holding it, of its occurrences in the run times the run's count. Pure.

const RUN = /[A-Za-z0-9_]+/g;

/** A keyword the count index can score: letters, digits and underscores only. */
export const COUNTABLE = /^[A-Za-z0-9_]+$/;

/**
 * Each run of `text`, lowered (ASCII only, as SQLite's lower(): the runs are ASCII),
 * with its number of occurrences.
 */
export function tokenCounts(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of text.matchAll(RUN)) {
    const token = m[0].toLowerCase();
    out.set(token, (out.get(token) ?? 0) + 1);
  }
  return out;
}

/** How many times `word` (lowered) occurs in `token`, left to right without overlap (as replace() removes it). */
export function occurrencesIn(token: string, word: string): number {
  let n = 0;
  for (let at = token.indexOf(word); at >= 0; at = token.indexOf(word, at + word.length)) n++;
  return n;
}
