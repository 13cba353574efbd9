// Relevance of a record to a search's keywords, for the searches that run over the
// records' own tables (issues, repositories, users, labels, topics): each keyword's
// occurrences in each text field (any case), weighted by the field (a title or name
// counts double), at least 1 for a record that matched at all (through a field not
// scored here, such as an issue's comments). Pure; the services rank by it where no
// sort is asked for, and the views report it as `score`.

export type ScoredField = readonly [text: string | null | undefined, weight: number];

function occurrences(text: string, word: string): number {
  let n = 0;
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + word.length)) n++;
  return n;
}

export function relevance(fields: readonly ScoredField[], keywords: readonly string[]): number {
  let score = 0;
  for (const k of keywords) {
    const w = k.toLowerCase();
    if (!w) continue;
    for (const [text, weight] of fields) if (text) score += weight * occurrences(text.toLowerCase(), w);
  }
  return Math.max(1, score);
}

/** `items` best first (a stable sort: ties keep their order, the search's default one). */
export function bestFirst<T>(items: readonly T[], score: (item: T) => number): T[] {
  return items.map((item, i) => ({ item, i, s: score(item) })).sort((a, b) => b.s - a.s || a.i - b.i).map((x) => x.item);
}

export const issueFields = (i: { title: string; body: string | null }): ScoredField[] => [[i.title, 2], [i.body, 1]];
export const repoFields = (r: { name: string; description: string | null }): ScoredField[] => [[r.name, 2], [r.description, 1]];
export const userFields = (u: { login: string; name: string | null; email: string | null }): ScoredField[] => [[u.login, 2], [u.name, 1], [u.email, 1]];
export const labelFields = (l: { name: string; description: string | null }): ScoredField[] => [[l.name, 2], [l.description, 1]];
