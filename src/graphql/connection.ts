// Relay connections, written once for every list: edges { cursor node }, nodes,
// pageInfo and totalCount over any source that can answer "items offset..offset+limit
// and how many there are" (every service's page functions can). Cursors are opaque
// to clients: base64 of "cursor:v2:" and the item's position in the whole list.
// first/last bounds are checked before execution (cost.ts) with upstream's messages;
// the checks here only keep a resolver safe when called some other way.
import { GraphQLApiError } from './errors.ts';

export const MAX_PAGE_SIZE = 100;

export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export type Edge<N, X extends object = object> = { cursor: string; node: N } & X;

export interface Connection<N, X extends object = object> {
  edges: Edge<N, X>[];
  nodes: N[];
  pageInfo: PageInfo;
  totalCount: number;
}

/** A page of a list and the list's length. */
export interface Slice<T> {
  items: T[];
  total: number;
}

/** Answers the items at positions offset .. offset+limit-1 (fewer at the end) and the total. */
export type Fetch<T> = (offset: number, limit: number) => Promise<Slice<T>>;

const PREFIX = 'cursor:v2:';

export function encodeCursor(position: number): string {
  return Buffer.from(`${PREFIX}${position}`).toString('base64');
}

export function decodeCursor(cursor: string, arg: 'after' | 'before'): number {
  const text = Buffer.from(cursor, 'base64').toString('utf8');
  const n = text.startsWith(PREFIX) ? Number(text.slice(PREFIX.length)) : NaN;
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new GraphQLApiError('INVALID_CURSOR_ARGUMENTS', `\`${arg}\` does not appear to be a valid cursor.`);
  }
  return n;
}

function checkBound(value: number | null | undefined, arg: 'first' | 'last'): void {
  if (value === null || value === undefined) return;
  if (value < 0) throw new GraphQLApiError('EXCESSIVE_PAGINATION', `\`${arg}\` on this connection cannot be less than zero.`);
  if (value > MAX_PAGE_SIZE) {
    throw new GraphQLApiError('EXCESSIVE_PAGINATION', `Requesting ${value} records on this connection exceeds the \`${arg}\` limit of ${MAX_PAGE_SIZE} records.`);
  }
}

/**
 * The connection the arguments select from `fetch`. Without first or last only the
 * count is fetched (a query asking for totalCount alone). `last` without `before`
 * needs the length of the list first: one extra call of `fetch` with limit 0.
 */
export async function offsetConnection<T, N = T, X extends object = object>(
  args: ConnectionArgs, fetch: Fetch<T>, edgeOf?: (item: T) => { node: N } & X,
): Promise<Connection<N, X>> {
  checkBound(args.first, 'first');
  checkBound(args.last, 'last');
  const start = args.after ? decodeCursor(args.after, 'after') + 1 : 0;
  let end = args.before ? Math.max(start, decodeCursor(args.before, 'before')) : null;
  const { first, last } = args;
  let sliceStart = start;
  let items: T[];
  let total: number;
  if ((first === null || first === undefined) && (last === null || last === undefined)) {
    ({ total } = await fetch(0, 0));
    items = [];
  } else if (first !== null && first !== undefined) {
    const limit = end === null ? first : Math.min(first, end - start);
    ({ items, total } = await fetch(start, limit));
    if (last !== null && last !== undefined && items.length > last) {
      sliceStart += items.length - last;
      items = items.slice(items.length - last);
    }
  } else {
    if (end === null) end = (await fetch(0, 0)).total;
    sliceStart = Math.max(start, end - last!);
    ({ items, total } = await fetch(sliceStart, Math.max(0, end - sliceStart)));
  }
  const edges = items.map((item, i) => {
    const extra = edgeOf ? edgeOf(item) : { node: item as unknown as N };
    return { ...extra, cursor: encodeCursor(sliceStart + i) } as Edge<N, X>;
  });
  return {
    edges,
    nodes: edges.map((e) => e.node),
    totalCount: total,
    pageInfo: {
      hasPreviousPage: sliceStart > 0 && total > 0,
      hasNextPage: sliceStart + items.length < total,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

/** A connection over a list already in memory. */
export function arrayConnection<T, N = T, X extends object = object>(
  all: readonly T[], args: ConnectionArgs, edgeOf?: (item: T) => { node: N } & X,
): Promise<Connection<N, X>> {
  return offsetConnection(args, async (offset, limit) => ({ items: all.slice(offset, offset + limit), total: all.length }), edgeOf);
}

/** The same source read backwards (a DESC order over a source that only reads ASC). */
export function reversed<T>(fetch: Fetch<T>): Fetch<T> {
  let total: number | null = null;
  return async (offset, limit) => {
    total ??= (await fetch(0, 0)).total;
    const end = Math.max(0, total - offset);
    const start = Math.max(0, end - limit);
    const page = await fetch(start, end - start);
    return { items: [...page.items].reverse(), total: page.total };
  };
}

/** Adapts a service page function ({limit, offset} → {items, total}) to a Fetch. */
export function pages<T>(list: (page: { limit: number; offset: number }) => Promise<Slice<T>>): Fetch<T> {
  return (offset, limit) => list({ offset, limit });
}
