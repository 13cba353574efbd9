// Lists in the domain: which slice a caller asked for, and the page it gets back.

/** A slice of a list: PageRequest from the HTTP layer fits. */
export interface Slice {
  perPage: number;
  offset: number;
}

export interface Page<T> {
  items: T[];
  total: number;
}

/** Every page of a paged read, in order, `batch` items a read (exports walk whole lists). */
export async function everyPage<T>(read: (slice: Slice) => Promise<Page<T>>, batch = 100): Promise<T[]> {
  const out: T[] = [];
  for (let offset = 0; ; offset += batch) {
    const page = await read({ perPage: batch, offset });
    out.push(...page.items);
    if (page.items.length < batch || out.length >= page.total) return out;
  }
}
