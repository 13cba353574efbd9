// Failures of what Wharf stands on rather than of the request: the database cannot be
// reached, or the disk is full. The HTTP layer answers them 503 and 507 (errors.ts)
// instead of 500: they pass without anything in Wharf changing, and a client may try
// again later.

/** Network errors of a connection to PostgreSQL: refused while it is down, cut when it stops. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/**
 * SQLSTATEs of a server going away or not taking connections: class 08 (connection
 * exception), admin_shutdown, crash_shutdown, cannot_connect_now (starting up,
 * shutting down, in recovery), too_many_connections.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** What pg says of a connection that ended under it, which carries no code. */
const CONNECTION_MESSAGES = [/^Connection terminated/, /not queryable/, /^timeout exceeded when trying to connect$/];

/** Errors and their causes (pg and AggregateError wrap the one that says what happened). */
function* chain(err: unknown): Generator<{ code?: unknown; message?: unknown }> {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    yield e as { code?: unknown; message?: unknown };
    for (const inner of (e as { errors?: unknown }).errors instanceof Array ? (e as { errors: unknown[] }).errors : []) yield* chain(inner);
    e = (e as { cause?: unknown }).cause;
  }
}

/** The database did not answer: PostgreSQL is down, restarting, or out of connections. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (const e of chain(err)) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08')) return true;
    if (typeof e.message === 'string' && !code && CONNECTION_MESSAGES.some((m) => m.test(e.message as string))) return true;
  }
  return false;
}

/** ENOSPC's and EDQUOT's text, as git (a GitError carries its stderr) and node's fs errors say it. */
const NO_SPACE_MESSAGES = /No space left on device|Disk quota exceeded/i;

/** A write failed for want of space: SQLite's SQLITE_FULL, PostgreSQL's disk_full, a file's or git's ENOSPC. */
export function isStorageFull(err: unknown): boolean {
  for (const e of chain(err)) {
    if (e.code === 'SQLITE_FULL' || e.code === '53100' || e.code === 'ENOSPC' || e.code === 'EDQUOT') return true;
    if (typeof e.message === 'string' && NO_SPACE_MESSAGES.test(e.message)) return true;
  }
  return false;
}
