// Answers to SQLite reads, kept in memory until anything is written. A small read of a
// request (the token, the repository, the caller's permission, counts) costs far more
// to run than to look up, and most requests read what the last ones read. The cache
// sits under Kysely, at the prepared statement, so every query of every module gets it
// without knowing, and nothing above can tell a remembered answer from a fresh one:
// - any statement that may write (INSERT, UPDATE, DELETE, DDL, COMMIT, ROLLBACK …)
//   forgets everything remembered, whatever table it touched: triggers and cascades
//   change tables the statement does not name, so no finer rule is safe;
// - another connection's commit (the CLI, a restore) is seen through
//   `PRAGMA data_version`, which SQLite changes for exactly that, asked once per turn
//   of the event loop that uses a remembered answer (asking costs half a small read; a
//   commit by another process within the same millisecond is a race either way);
// - an answer read inside a transaction is not remembered: it may show the
//   transaction's own uncommitted writes, which a rollback takes back;
// - callers get copies of the rows, never the remembered objects.
// Rate-limit counters are the one write exempt: every request counts itself. Reads of
// that table are never remembered, so nothing can read a stale count.
// The generation that every forgetting moves on is also what whole answers kept above
// the database are checked against (src/http/answer-cache.ts). For them a ROLLBACK
// counts as a change: an answer built while another request's transaction was open
// may show its uncommitted writes (one connection), which the rollback takes back.
// PostgreSQL has no such cache: there several processes write, and none can see the
// others' commits without asking the database.
import type SqliteDatabase from 'better-sqlite3';
import type { SqliteStatement } from 'kysely';

type Row = Record<string, unknown>;

interface Entry {
  generation: number;
  rows: readonly Row[];
  /** What the rows hold, roughly (sizeOf). */
  bytes: number;
}

/**
 * Statements that invalidate nothing: rate-limit counters (see the top of the file) and
 * transaction control. A transaction's writes each forgot everything as they ran, and
 * nothing read inside it was remembered, so its COMMIT has nothing to take back;
 * read-only transactions (the background workers' polls) then cost the cache nothing.
 * A ROLLBACK moves the generation on (see the top of the file).
 */
const EXEMPT_WRITE = /^(?:(?:insert into|update) "rate_limits" |(?:begin|commit|savepoint|release)\b)/i;
/** Reads never remembered: of the table whose writes forget nothing. */
const EXEMPT_TABLE = /"rate_limits"/;
/** Larger answers are not remembered: a cache of lists would hold a lot for little. */
const MAX_ROWS_PER_ENTRY = 200;

export interface ReadCacheOptions {
  maxEntries?: number;
  /** Rows held at most, over all entries. */
  maxRows?: number;
  /**
   * Bytes held at most, over all entries (as sizeOf counts them): a row can be large
   * (an issue's body, a file's indexed text), so counting rows alone does not bound memory.
   */
  maxBytes?: number;
  /** Larger answers are not remembered: one would push out hundreds of small ones. */
  maxEntryBytes?: number;
}

export class SqliteReadCache {
  private generation = 0;
  private readonly entries = new Map<string, Entry>();
  private heldRows = 0;
  private heldBytes = 0;
  private readonly maxEntries: number;
  private readonly maxRows: number;
  private readonly maxBytes: number;
  private readonly maxEntryBytes: number;
  private readonly dataVersion: SqliteDatabase.Statement<[], number>;
  private seenDataVersion: number;
  private versionCheckedThisTurn = false;
  hits = 0;
  misses = 0;

  constructor(private readonly file: SqliteDatabase.Database, options: ReadCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 2000;
    this.maxRows = options.maxRows ?? 10_000;
    this.maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
    this.maxEntryBytes = options.maxEntryBytes ?? 1024 * 1024;
    this.dataVersion = file.prepare<[], number>('PRAGMA data_version').pluck();
    this.seenDataVersion = this.dataVersion.get()!;
  }

  /** The statement Kysely runs: `stmt` itself, reads answered from memory, writes forgetting. */
  wrap(sql: string, stmt: SqliteDatabase.Statement): SqliteStatement {
    if (stmt.reader && stmt.readonly) return EXEMPT_TABLE.test(sql) ? stmt as unknown as SqliteStatement : this.cachedRead(sql, stmt);
    if (EXEMPT_WRITE.test(sql)) return stmt as unknown as SqliteStatement;
    const forget = () => { this.generation++; };
    return {
      reader: stmt.reader,
      all: (parameters) => { try { return stmt.all(parameters as unknown[]); } finally { forget(); } },
      run: (parameters) => { try { return stmt.run(parameters as unknown[]); } finally { forget(); } },
      iterate: (parameters) => { forget(); return stmt.iterate(parameters as unknown[]); },
    };
  }

  private cachedRead(sql: string, stmt: SqliteDatabase.Statement): SqliteStatement {
    return {
      reader: true,
      all: (parameters) => this.all(sql, stmt, parameters),
      run: (parameters) => stmt.run(parameters as unknown[]),
      iterate: (parameters) => stmt.iterate(parameters as unknown[]),
    };
  }

  private all(sql: string, stmt: SqliteDatabase.Statement, parameters: readonly unknown[]): unknown[] {
    const key = keyOf(sql, parameters);
    if (key === null) return stmt.all(parameters as unknown[]);
    this.checkOtherConnections();
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      if (entry.generation === this.generation) {
        this.entries.set(key, entry);
        this.hits++;
        return entry.rows.map((r) => ({ ...r }));
      }
      this.heldRows -= entry.rows.length;
      this.heldBytes -= entry.bytes;
    }
    this.misses++;
    const rows = stmt.all(parameters as unknown[]) as Row[];
    if (rows.length <= MAX_ROWS_PER_ENTRY && !this.file.inTransaction) {
      const bytes = sizeOf(key, rows);
      if (bytes <= this.maxEntryBytes) {
        this.entries.set(key, { generation: this.generation, rows: rows.map((r) => ({ ...r })), bytes });
        this.heldRows += rows.length;
        this.heldBytes += bytes;
        this.evict();
      }
    }
    return rows;
  }

  /**
   * A number that changes whenever the database may have changed since it was last
   * read: a write or rollback on this connection, or another connection's commit.
   */
  currentGeneration(): number {
    this.checkOtherConnections();
    return this.generation;
  }

  private checkOtherConnections(): void {
    if (this.versionCheckedThisTurn) return;
    this.versionCheckedThisTurn = true;
    setImmediate(() => { this.versionCheckedThisTurn = false; });
    const version = this.dataVersion.get()!;
    if (version !== this.seenDataVersion) {
      this.seenDataVersion = version;
      this.generation++;
    }
  }

  private evict(): void {
    while (this.entries.size > this.maxEntries || this.heldRows > this.maxRows || this.heldBytes > this.maxBytes) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.heldRows -= entry.rows.length;
      this.heldBytes -= entry.bytes;
    }
  }

  /** Bytes the remembered answers hold, as sizeOf counts them. */
  get bytes(): number {
    return this.heldBytes;
  }

  clear(): void {
    this.entries.clear();
    this.heldRows = 0;
    this.heldBytes = 0;
  }
}

/**
 * What an entry holds, roughly: its key and the rows' values (a string's characters at two
 * bytes, as V8 may store them; a Buffer's bytes), and a fixed cost per row and value.
 */
function sizeOf(key: string, rows: readonly Row[]): number {
  let bytes = 64 + key.length * 2;
  for (const row of rows) {
    bytes += 64;
    for (const k in row) {
      const v = row[k];
      bytes += 16;
      if (typeof v === 'string') bytes += v.length * 2;
      else if (v instanceof Uint8Array) bytes += v.byteLength;
    }
  }
  return bytes;
}

/** The statement and its parameters as one string, or null when a parameter is not a plain value (a Buffer …). */
function keyOf(sql: string, parameters: readonly unknown[]): string | null {
  let key = sql;
  for (const p of parameters) {
    switch (typeof p) {
      case 'string': key += `\u0000s${p.length}:${p}`; break;
      case 'number': key += `\u0000n${p}`; break;
      case 'boolean': key += `\u0000b${p ? 1 : 0}`; break;
      case 'object': if (p === null) { key += '\u0000z'; break; } return null;
      default: return null;
    }
  }
  return key;
}
