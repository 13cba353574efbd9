// What is made once per query text and kept for the next call with the same text (parsed
// and validated documents, compiled operations). What each holds grows with its text (a
// document's nodes and tokens, an operation's code), and a query may be long (50,000
// tokens), so the bound is on the text kept as well as on the count: a few long queries
// do not hold hundreds of megabytes, and one longer than an entry may be is made afresh
// on each call instead of pushing out every short one. Oldest first out.
export class KeptByText<V> {
  private readonly entries = new Map<string, V>();
  private chars = 0;

  constructor(
    private readonly maxEntries: number,
    /** Characters of key text held at most, over all entries. */
    private readonly maxChars: number,
    private readonly maxEntryChars: number,
  ) {}

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: V): void {
    if (key.length > this.maxEntryChars) return;
    if (this.entries.delete(key)) this.chars -= key.length;
    this.entries.set(key, value);
    this.chars += key.length;
    while (this.entries.size > this.maxEntries || this.chars > this.maxChars) {
      const oldest = this.entries.keys().next().value!;
      this.entries.delete(oldest);
      this.chars -= oldest.length;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
