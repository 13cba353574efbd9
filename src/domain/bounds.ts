// Bounds of a numeric or time filter (search's created:>2020-01-01, stars:10..50 …),
// shared by the services that filter on them and the stores that turn them into SQL.
export interface Bounds<T> {
  gt?: T;
  gte?: T;
  lt?: T;
  lte?: T;
}

/** The comparisons a Bounds asks for, as [operator, value] pairs. */
export function comparisons<T>(b: Bounds<T>): ['>' | '>=' | '<' | '<=', T][] {
  const out: ['>' | '>=' | '<' | '<=', T][] = [];
  if (b.gt !== undefined) out.push(['>', b.gt]);
  if (b.gte !== undefined) out.push(['>=', b.gte]);
  if (b.lt !== undefined) out.push(['<', b.lt]);
  if (b.lte !== undefined) out.push(['<=', b.lte]);
  return out;
}
