// Which numbers can name a stored row. Ids and numbers live in the database's integer
// columns (PostgreSQL `integer`); a larger one names nothing, and PostgreSQL refuses
// to compare a column with it (an error, so a 500). Path parameters declared as
// integers are bounded by schema validation (http/validation.ts boundIntegers); those
// declared as digit strings (so that anything else is a 404, as upstream) use this.

/** The largest value of an integer column. */
export const MAX_STORED_ID = 2 ** 31 - 1;

/** Whether `n` could be the id (or number) of a stored row. */
export function isStoredId(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && n <= MAX_STORED_ID;
}
