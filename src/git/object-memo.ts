// Answers about commits named by object id never change: the merge base of two commits,
// the commits between them, the diff stat of two trees. A bounded map remembers them so
// that reading a pull request again does not start the same git processes again (each
// one costs milliseconds of Wharf's own thread to spawn). Names that are not object ids
// (branches, `HEAD`) are never remembered, and failures are forgotten at once. The
// answers depend on the ids alone (an id names its whole history), so a repository
// removed and made again at the same directory cannot make one wrong.

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const DEFAULT_ENTRIES = 4096;

export class ObjectMemo<T> {
  private readonly entries = new Map<string, Promise<T>>();

  constructor(private readonly limit = DEFAULT_ENTRIES) {}

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
    made.catch(() => { if (this.entries.get(key) === made) this.entries.delete(key); });
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
    return made;
  }

  get size(): number {
    return this.entries.size;
  }
}
