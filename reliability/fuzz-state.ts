// The stored state of a running Wharf, as one fingerprint per table (and per git
// repository's refs), read beside the server: the SQLite file read-only (WAL lets a
// reader in while the server writes), or the PostgreSQL schema through its own
// connection. Two snapshots differ in the tables that changed between them.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';

/**
 * Tables left out of the comparison: written by any request, refused or not, by design
 * (rate-limit counters; failed sign-ins, which a refused credential is), or by the
 * background workers after an accepted write (the outbox they drain, webhook deliveries
 * and their attempts, the search index's progress), or never after start (migrations,
 * the secret key's check).
 */
export const VOLATILE_TABLES = /^(rate_limits|login_failures|outbox|hook_deliveries|hook_delivery_attempts|search_index_state|kysely_migration|kysely_migration_lock|secret_key_check)$/;
/**
 * Columns that change on use, left out of a table's fingerprint: a token's last use, and
 * a migration archive's download token, which reading the archive's address (a GET
 * answered 302) issues anew each time.
 */
const VOLATILE_COLUMNS = /^(last_used_at|last_accessed_at|last_seen_at|accessed_at|last_activity_at|download_token_hash|download_expires_at)$/;

export type Snapshot = Map<string, string>;

export interface StateReader {
  snapshot(): Promise<Snapshot>;
  close(): Promise<void>;
}

function digest(lines: string[]): string {
  lines.sort();
  const h = crypto.createHash('sha1');
  for (const l of lines) h.update(l).update('\n');
  return `${lines.length}:${h.digest('hex').slice(0, 12)}`;
}

/** Each bare repository's refs (loose and packed), by repository directory. */
function gitRefs(dataDir: string, into: Snapshot): void {
  const reposDir = path.join(dataDir, 'repos');
  let entries: string[] = [];
  try { entries = fs.readdirSync(reposDir).filter((e) => e.endsWith('.git')); } catch { return; }
  for (const repo of entries) {
    const lines: string[] = [];
    const dir = path.join(reposDir, repo);
    const walk = (rel: string) => {
      let names: fs.Dirent[] = [];
      try { names = fs.readdirSync(path.join(dir, rel), { withFileTypes: true }); } catch { return; }
      for (const d of names) {
        const r = path.join(rel, d.name);
        if (d.isDirectory()) walk(r);
        else if (!d.name.endsWith('.lock')) { try { lines.push(`${r} ${fs.readFileSync(path.join(dir, r), 'utf8').trim()}`); } catch { /* moved while read */ } }
      }
    };
    walk('refs');
    try { lines.push(`packed ${fs.readFileSync(path.join(dir, 'packed-refs'), 'utf8')}`); } catch { /* none */ }
    try { lines.push(`HEAD ${fs.readFileSync(path.join(dir, 'HEAD'), 'utf8').trim()}`); } catch { /* none */ }
    into.set(`git:${repo}`, digest(lines));
  }
}

export function sqliteState(dataDir: string): StateReader {
  const db = new SqliteDatabase(path.join(dataDir, 'wharf.sqlite'), { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  const tables = () => (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[])
    .map((t) => t.name).filter((t) => !VOLATILE_TABLES.test(t));
  const columns = new Map<string, string[]>();
  return {
    async snapshot() {
      const snap: Snapshot = new Map();
      // One read transaction: every table as of the same commit.
      db.transaction(() => {
        for (const t of tables()) {
          let cols = columns.get(t);
          if (!cols) {
            cols = (db.prepare(`PRAGMA table_info("${t}")`).all() as { name: string }[]).map((c) => c.name).filter((c) => !VOLATILE_COLUMNS.test(c));
            columns.set(t, cols);
          }
          const rows = db.prepare(`SELECT ${cols.map((c) => `quote("${c}")`).join(" || ',' || ")} AS r FROM "${t}"`).pluck().all() as string[];
          snap.set(t, digest(rows));
        }
      })();
      gitRefs(dataDir, snap);
      return snap;
    },
    async close() { db.close(); },
  };
}

export async function postgresState(databaseUrl: string, schema: string, dataDir: string): Promise<StateReader> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ table_name: string; cols: string[] }>(
    `SELECT table_name, array_agg(column_name::text ORDER BY ordinal_position) AS cols FROM information_schema.columns
      WHERE table_schema = $1 GROUP BY table_name`, [schema]);
  const tables = rows.filter((r) => !VOLATILE_TABLES.test(r.table_name));
  return {
    async snapshot() {
      const snap: Snapshot = new Map();
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      try {
        for (const t of tables) {
          const cols = t.cols.filter((c) => !VOLATILE_COLUMNS.test(c)).map((c) => `t."${c}"`).join(', ');
          const r = await client.query<{ n: string; h: string | null }>(
            `SELECT count(*)::text AS n, md5(string_agg(md5(ROW(${cols})::text), '' ORDER BY md5(ROW(${cols})::text))) AS h FROM "${schema}"."${t.table_name}" t`);
          snap.set(t.table_name, `${r.rows[0]!.n}:${(r.rows[0]!.h ?? '').slice(0, 12)}`);
        }
      } finally {
        await client.query('COMMIT');
      }
      gitRefs(dataDir, snap);
      return snap;
    },
    async close() { await client.end(); },
  };
}

/** The tables (and repositories) whose fingerprint differs, with both fingerprints. */
export function changed(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const k of new Set([...before.keys(), ...after.keys()])) {
    if (before.get(k) !== after.get(k)) out.push(`${k} (${before.get(k) ?? 'absent'} → ${after.get(k) ?? 'absent'})`);
  }
  return out;
}
