// The database side of backups (src/modules/backup): one consistent state of the
// database, taken while the server keeps writing, and read back through Kysely.
// - SQLite: a copy made by SQLite's online backup API (better-sqlite3's backup()) in one
//   step, that is inside one read transaction: in WAL mode it blocks no writer and sees
//   the last commit before it began. Should a write land between the backup's steps,
//   SQLite starts the copy again; with a single step there is nothing between steps.
// - PostgreSQL: a REPEATABLE READ transaction whose snapshot is exported
//   (pg_export_snapshot), so that pg_dump --snapshot dumps exactly what the transaction
//   reads; it stays open until the dump is done.
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Dialect } from './database.ts';
import type { Database } from './schema.ts';

/** The SQLite file in the data dir (as openDatabase in database.ts names it). */
export const SQLITE_FILE = 'wharf.sqlite';
/** What SQLite keeps beside it while the database is open in WAL mode. */
export const SQLITE_COMPANIONS = ['-wal', '-shm', '-journal'];

export interface DatabaseSnapshot {
  dialect: Dialect;
  /** Reads the snapshot's state and nothing newer. */
  db: Kysely<Database>;
  /** PostgreSQL: the schema the snapshot reads (and pg_dump dumps); null on SQLite. */
  schema: string | null;
  /** PostgreSQL: the exported snapshot's id, for pg_dump --snapshot; null on SQLite. */
  snapshotId: string | null;
  /** Rows in each table, by table name. */
  tableCounts(): Promise<Record<string, number>>;
  /** Names of the migrations applied, in order. */
  appliedMigrations(): Promise<string[]>;
  /** Ends the snapshot (PostgreSQL: its transaction, which must outlive pg_dump). */
  close(): Promise<void>;
}

/**
 * Copies the SQLite database of `dataDir` into `target` (a new file) through the online
 * backup API, then turns the copy's journal mode to DELETE so it is one self-contained
 * file. Throws when there is no database.
 */
export async function copySqliteDatabase(dataDir: string, target: string): Promise<void> {
  const live = new SqliteDatabase(path.join(dataDir, SQLITE_FILE), { fileMustExist: true });
  try {
    live.pragma('busy_timeout = 5000');
    // Every remaining page in the next step: one read transaction, one state.
    await live.backup(target, { progress: () => 0x7fffffff });
  } finally {
    live.close();
  }
  const copy = new SqliteDatabase(target, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/** Problems SQLite finds in the file (quick_check), empty when it is sound. */
export function checkSqliteFile(file: string): string[] {
  const db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma('quick_check') as { quick_check: string }[];
    return rows.map((r) => r.quick_check).filter((r) => r !== 'ok');
  } finally {
    db.close();
  }
}

async function countRows(db: Kysely<Database>, tables: string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of tables.sort()) {
    const { rows } = await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM ${sql.table(table)}`.execute(db);
    out[table] = Number(rows[0]?.n ?? 0);
  }
  return out;
}

/** A SQLite copy (made by copySqliteDatabase), read-only. */
export function openSqliteSnapshot(file: string): DatabaseSnapshot {
  const handle = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: handle }) });
  return {
    dialect: 'sqlite', db, schema: null, snapshotId: null,
    async tableCounts() {
      const { rows } = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`.execute(db);
      return countRows(db, rows.map((r) => r.name));
    },
    async appliedMigrations() {
      const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db);
      return rows.map((r) => r.name);
    },
    close: () => db.destroy(),
  };
}

/**
 * Opens a REPEATABLE READ, read-only transaction on the PostgreSQL database (in `schema`,
 * or the connection's default) and exports its snapshot. Until close(), db reads that
 * snapshot and pg_dump --snapshot=snapshotId dumps it.
 */
export async function openPostgresSnapshot(databaseUrl: string, schema: string | null): Promise<DatabaseSnapshot> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    if (schema) await client.query(`SET LOCAL search_path TO ${pg.escapeIdentifier(schema)}`);
    const { rows } = await client.query<{ id: string; schema: string | null }>('SELECT pg_export_snapshot() AS id, current_schema() AS schema');
    const current = rows[0]!.schema;
    if (!current) throw new Error(`the database has no schema ${schema ?? '(search_path)'}: nothing to back up`);
    // Kysely over this one connection: every query runs in the snapshot's transaction.
    const connection = { query: client.query.bind(client), release: () => {} };
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: { connect: async () => connection, end: async () => {} } as unknown as pg.Pool }),
    });
    return {
      dialect: 'postgres', db, schema: current, snapshotId: rows[0]!.id,
      async tableCounts() {
        const found = await sql<{ name: string }>`
          SELECT table_name AS name FROM information_schema.tables
          WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`.execute(db);
        return countRows(db, found.rows.map((r) => r.name));
      },
      async appliedMigrations() {
        const found = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db);
        return found.rows.map((r) => r.name);
      },
      async close() {
        await db.destroy();
        try {
          await client.query('COMMIT');
        } finally {
          await client.end();
        }
      },
    };
  } catch (err) {
    await client.end().catch(() => undefined);
    throw err;
  }
}

/**
 * What a PostgreSQL restore target holds: the schema Wharf would use there (`schema`, or
 * the connection's default; null when that does not exist yet) and its tables.
 */
export async function postgresTarget(databaseUrl: string, schema: string | null): Promise<{ schema: string | null; tables: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const name = schema ?? (await client.query<{ s: string | null }>('SELECT current_schema() AS s')).rows[0]!.s;
    if (name === null) return { schema: null, tables: 0 };
    const { rows } = await client.query<{ n: string }>(
      "SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = $1", [name],
    );
    return { schema: name, tables: Number(rows[0]!.n) };
  } finally {
    await client.end();
  }
}
