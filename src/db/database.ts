// Kysely over SQLite (default, embedded) or PostgreSQL (DATABASE_URL).
// The only place that knows which dialect is in use.
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  Kysely, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDatabase as KyselySqliteDatabase,
  type SqliteDialectConfig, type SqliteStatement, type Transaction,
} from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';
import { CurrentSchemaPostgresDialect } from './schema-introspector.ts';
import { BACKSTOP_PAGES, startCheckpointer } from './sqlite-checkpointer.ts';
import { SqliteReadCache } from './sqlite-read-cache.ts';

// COUNT(*) and other int8 results: small enough for a JS number here.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;
export type Executor = Kysely<Database> | Transaction<Database>;

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /** PostgreSQL schema in use, when not the default. */
  schema?: string;
  /**
   * A number that changes whenever the database may have changed (SQLite's read cache
   * generation); absent on PostgreSQL, where other processes write unseen.
   */
  generation?: () => number;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** PostgreSQL schema to use (tests run each suite in a schema of its own). */
  pgSchema?: string;
  /** Where a broken PostgreSQL connection is reported (the app's pino logger); unset: nowhere. */
  log?: PoolLog;
}

/** The part of a pino logger the pool's listeners use. */
export interface PoolLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.pgSchema, options.log);
  fs.mkdirSync(options.dataDir, { recursive: true });
  const filename = path.join(options.dataDir, 'wharf.sqlite');
  const file = new SqliteDatabase(filename);
  // WAL with synchronous NORMAL: a commit is on disk when it returns, short of a power
  // cut (the README says so); checkpoints run in a worker thread (sqlite-checkpointer.ts).
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  file.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  const checkpointer = startCheckpointer(filename);
  const reads = new SqliteReadCache(file);
  const db = new Kysely<Database>({ dialect: new RolledBackAwareSqliteDialect(file, { database: withStatementCache(file, reads) }) });
  return {
    db, dialect: 'sqlite', generation: () => reads.currentGeneration(),
    close: async () => {
      await checkpointer.stop();
      await db.destroy();
    },
  };
}

/**
 * SQLite rolls a transaction back by itself on some errors (SQLITE_FULL, SQLITE_IOERR,
 * SQLITE_NOMEM); Kysely's ROLLBACK after it then fails with "no transaction is active",
 * and that error, not the one that says what happened (the disk is full: 507), would
 * reach the request. The ROLLBACK is skipped when there is nothing left to roll back.
 */
class RolledBackAwareSqliteDialect extends SqliteDialect {
  constructor(private readonly file: SqliteDatabase.Database, private readonly config: SqliteDialectConfig) {
    super(config);
  }

  override createDriver(): Driver {
    const { file } = this;
    return new (class extends SqliteDriver {
      override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
        if (file.inTransaction) await super.rollbackTransaction(connection);
      }
    })(this.config);
  }
}

/**
 * Kysely asks better-sqlite3 to prepare every statement anew; for the small queries
 * of a request, preparing costs more than running. Statements are kept by SQL text
 * (bounded), which is safe because Kysely runs one query at a time per connection.
 * Each is wrapped by the read cache (sqlite-read-cache.ts).
 */
export function withStatementCache(file: SqliteDatabase.Database, reads = new SqliteReadCache(file), max = 1000): KyselySqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => { cache.clear(); reads.clear(); file.close(); },
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = reads.wrap(sql, file.prepare(sql));
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}

/**
 * What is logged of a connection's error: its code and message only. The error itself
 * is not handed to the logger: pg's errors can carry the client, whose parameters hold
 * the connection string and its password.
 */
export function poolErrorFields(err: unknown): Record<string, unknown> {
  const e = err as { code?: unknown; message?: unknown };
  return {
    code: typeof e?.code === 'string' ? e.code : null,
    error: typeof e?.message === 'string' ? e.message.slice(0, 300) : String(err),
  };
}

function openPostgres(url: string, schema?: string, log?: PoolLog): DatabaseHandle {
  const safeSchema = schema?.replace(/[^a-zA-Z0-9_]/g, '');
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // Quoted, as the migrator creates it: an unquoted name would be folded to lower case.
    ...(safeSchema ? { options: `-c search_path="${safeSchema}"` } : {}),
  });
  // A connection that breaks (PostgreSQL restarted, the network cut) is an 'error'
  // event: on the pool when the connection was idle, on the client when it was checked
  // out (even with its query failed already), and either one unheard ends the process.
  // pg drops a broken connection from the pool and the next query opens a new one, so
  // there is nothing to mend here (a query that fails answers its own request: 503,
  // http/errors.ts), but the operator is told: connections dropping is a sign of trouble
  // on the database's side. Every client's own listener hears its error, idle or
  // checked out; the pool's 'error' repeats an idle one's, so only the client's is
  // logged (once per connection lost).
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', (err: unknown) => log?.warn(poolErrorFields(err), 'PostgreSQL connection lost'));
  });
  const db = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) });
  return { db, dialect: 'postgres', schema: safeSchema, close: () => db.destroy() };
}
