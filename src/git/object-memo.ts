// Answers about commits named by object id never change: the merge base of two commits,
// the commits between them, the diff stat of two trees. A bounded map remembers them so
// that reading a pull request again does not start the same git processes again (each
// one costs milliseconds of Wharf's own thread to spawn). Names that are not object ids
// (branches, `HEAD`) are never remembered, and failures are forgotten at once. The
// answers depend on the ids alone (an id names its whole history), so a repository
// removed and made again at the same directory cannot make one wrong. Where one answer
// can be large (a file's blame, the names a diff touches) the memo is also bounded by
// the bytes its answers hold, as `sizeOf` counts them: a few huge answers then push out
// the oldest instead of holding hundreds of megabytes, and one larger than an eighth of
// the bound is not remembered at all.

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const DEFAULT_ENTRIES = 4096;

export interface MemoBytes<T> {
  /** What an answer holds, roughly, in bytes. */
  sizeOf(value: T): number;
  /** Bytes held at most, over all answers. */
  maxBytes: number;
}

export class ObjectMemo<T> {
  private readonly entries = new Map<string, Promise<T>>();
  /** The size of each answer settled, when bounded by bytes. */
  private readonly sizes = new Map<string, number>();
  private held = 0;

  constructor(private readonly limit = DEFAULT_ENTRIES, private readonly bytes?: MemoBytes<T>) {}

  /**
   * `compute()` once per (dir, ids, options) while remembered; computed each time when
   * any id is not an object id. `options` is whatever else selects the answer.
   */
  get(dir: string, ids: readonly string[], compute: () => Promise<T>, options = ''): Promise<T> {
    if (!ids.every((id) => OBJECT_ID.test(id))) return compute();
    const key = `${dir}\0${ids.join('\0')}\0${options}`;
    const known = this.entries.get(key);
    if (known) {
      // Most recently used last: the first entry is the one to drop.
      this.entries.delete(key);
      this.entries.set(key, known);
      return known;
    }
    const made = compute();
    this.entries.set(key, made);
    made.then((value) => {
      if (this.bytes && this.entries.get(key) === made) this.weigh(key, this.bytes.sizeOf(value), this.bytes.maxBytes);
    }, () => { if (this.entries.get(key) === made) this.drop(key); });
    if (this.entries.size > this.limit) this.drop(this.entries.keys().next().value!);
    return made;
  }

  /** Counts a settled answer's bytes, dropping it when too large and the oldest while over the bound. */
  private weigh(key: string, size: number, maxBytes: number): void {
    if (size > maxBytes / 8) {
      this.drop(key);
      return;
    }
    this.sizes.set(key, size);
    this.held += size;
    while (this.held > maxBytes) this.drop(this.entries.keys().next().value!);
  }

  private drop(key: string): void {
    this.entries.delete(key);
    this.held -= this.sizes.get(key) ?? 0;
    this.sizes.delete(key);
  }

  /** Bytes the settled answers hold, as `sizeOf` counts them (0 when bounded by count alone). */
  get heldBytes(): number {
    return this.held;
  }

  get size(): number {
    return this.entries.size;
  }
}
