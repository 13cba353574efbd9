// Search strings in upstream's syntax: free words and "quoted phrases", and
// qualifiers key:value (value possibly quoted), e.g. `wharf in:name user:alice is:public`.
export interface SearchQuery {
  /** The free words and phrases, in order. */
  terms: string[];
  /** Qualifier key (lower case) → every value given, in order. */
  qualifiers: ReadonlyMap<string, readonly string[]>;
}

const TOKEN = /(?:([A-Za-z][\w-]*):(?:"([^"]*)"|(\S+)))|"([^"]*)"|(\S+)/g;

export function parseSearchQuery(q: string): SearchQuery {
  const terms: string[] = [];
  const qualifiers = new Map<string, string[]>();
  for (const m of q.matchAll(TOKEN)) {
    if (m[1] !== undefined) {
      const key = m[1].toLowerCase();
      qualifiers.set(key, [...(qualifiers.get(key) ?? []), m[2] ?? m[3] ?? '']);
    } else {
      const term = m[4] ?? m[5] ?? '';
      if (term !== '') terms.push(term);
    }
  }
  return { terms, qualifiers };
}

/** The last value given for the qualifier, lower-cased; undefined when absent. */
export function qualifier(q: SearchQuery, key: string): string | undefined {
  const values = q.qualifiers.get(key);
  return values?.length ? values[values.length - 1]!.toLowerCase() : undefined;
}

/** Every value of the qualifier, comma lists split (in:name,description), lower-cased. */
export function qualifierValues(q: SearchQuery, key: string): string[] {
  return (q.qualifiers.get(key) ?? []).flatMap((v) => v.split(',')).map((v) => v.trim().toLowerCase()).filter(Boolean);
}
