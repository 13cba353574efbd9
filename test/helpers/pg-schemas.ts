// PostgreSQL schemas for test servers, reused across test processes instead of made anew.
//
// Migrating a fresh schema costs PostgreSQL a file per table, index and sequence (~430)
// and ~2 s of CPU on a loaded CI machine; dropping one costs ~1 s more. Copying the DDL
// from a migrated template (CREATE TABLE … per table) is no cheaper: the files are the
// cost, not the round trips. Emptying a used schema is: its rows deleted and its sequences
// set back take ~30 ms. So a schema, once made and migrated, serves one test server after
// another, each starting on the state the migrator leaves in a new schema.
//
// - A schema belongs to the test process that made or took it (the pool table's owner),
//   for as long as that process lives: tests may use a closed server's schema again
//   (a restart, a restore, a second process sharing it). A process holds an advisory lock
//   on its owner id on a connection of its own; when it ends, PostgreSQL drops the lock,
//   and its schemas may be taken by another process.
// - Only schemas of the same migrations are reused (key: a hash of src/db/migrations), and
//   only when their tables, columns, constraints, indexes and sequences still match a
//   template migrated by the real migrator (a test may have changed or dropped one): a
//   schema that differs is dropped. Taken, it gets the template's rows (the migrator's
//   bookkeeping: kysely_migration, kysely_migration_lock) and nothing else, and the
//   template's sequence positions; the server's own migrator, which still runs at startup,
//   finds nothing to do.
// - Emptying a schema deletes with session_replication_role = replica (foreign keys are
//   not checked in between): that takes a superuser, as the tests' database has. Without
//   one, or without the migrations' sources, each server gets a new schema as before.
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrations/index.ts';

/** Bump when what is kept or compared changes, so that older pools are left alone. */
const FORMAT = 1;
/** First key of every advisory lock here (the second is the owner id, or 0 for the template). */
const LOCK_SPACE = 0x57686172; // 'Whar'
const POOL = 'wharf_test_pool';
const READY = 'wharf test template: migrated';

const q = (name: string) => pg.escapeIdentifier(name);

/** The migrations' sources, read from this checkout (from sources or from the test bundle). */
function migrationsDir(): string | null {
  const candidates = [fileURLToPath(new URL('../../src/db/migrations/', import.meta.url)), path.resolve('src/db/migrations')];
  return candidates.find((d) => fs.existsSync(path.join(d, 'index.ts'))) ?? null;
}

/** One key per version of the migrations (and of this file's format); null without their sources. */
function migrationsKey(): string | null {
  const dir = migrationsDir();
  if (!dir) return null;
  const hash = createHash('sha256').update(`format ${FORMAT}\n`);
  for (const f of fs.readdirSync(dir).sort()) hash.update(`${f}\n`).update(fs.readFileSync(path.join(dir, f)));
  return hash.digest('hex').slice(0, 16);
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * What a schema is made of, one line per object, names unqualified (read with the schema
 * alone on search_path): equal lines, equal structure. Rows are not part of it.
 */
export async function describeSchema(c: pg.Client, schema: string): Promise<string[]> {
  await c.query('BEGIN READ ONLY');
  try {
    await c.query(`SET LOCAL search_path TO ${q(schema)}`);
    const { rows } = await c.query<{ line: string }>(`
      SELECT 'relation ' || relname || ' ' || relkind::text || ' ' || relpersistence::text || ' ' || coalesce(reloptions::text, '') AS line
        FROM pg_class WHERE relnamespace = $1::regnamespace
      UNION ALL
      SELECT 'column ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
             || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END || ' identity:' || a.attidentity::text
             || ' generated:' || a.attgenerated::text || ' collation:' || a.attcollation::regcollation::text
             || ' default:' || coalesce(pg_get_expr(ad.adbin, ad.adrelid, true), '')
        FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        LEFT JOIN pg_attrdef ad ON ad.adrelid = c.oid AND ad.adnum = a.attnum
       WHERE c.relnamespace = $1::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
      UNION ALL
      SELECT 'constraint ' || c.relname || ' ' || co.conname || ' ' || pg_get_constraintdef(co.oid, true)
        FROM pg_constraint co JOIN pg_class c ON c.oid = co.conrelid WHERE c.relnamespace = $1::regnamespace
      UNION ALL
      SELECT 'index ' || pg_get_indexdef(i.indexrelid, 0, true)
        FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid WHERE c.relnamespace = $1::regnamespace
      UNION ALL
      SELECT 'sequence ' || c.relname || ' ' || format_type(s.seqtypid, NULL) || ' ' || s.seqstart || ' ' || s.seqincrement
             || ' ' || s.seqmin || ' ' || s.seqmax || ' ' || s.seqcache || ' ' || s.seqcycle
             || ' owned by ' || coalesce((SELECT oc.relname || '.' || oa.attname || ' ' || d.deptype::text FROM pg_depend d
                  JOIN pg_class oc ON oc.oid = d.refobjid JOIN pg_attribute oa ON oa.attrelid = d.refobjid AND oa.attnum = d.refobjsubid
                 WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')), '-')
        FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid WHERE c.relnamespace = $1::regnamespace
      UNION ALL
      SELECT 'view ' || c.relname || ' ' || pg_get_viewdef(c.oid, true)
        FROM pg_class c WHERE c.relnamespace = $1::regnamespace AND c.relkind IN ('v', 'm')
      UNION ALL
      SELECT 'trigger ' || pg_get_triggerdef(t.oid, true)
        FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relnamespace = $1::regnamespace AND NOT t.tgisinternal
      UNION ALL
      SELECT 'rule ' || r.rulename || ' ' || pg_get_ruledef(r.oid, true)
        FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class WHERE c.relnamespace = $1::regnamespace AND r.rulename <> '_RETURN'
      UNION ALL
      SELECT 'policy ' || c.relname || ' ' || p.polname FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid
       WHERE c.relnamespace = $1::regnamespace
      UNION ALL
      SELECT 'function ' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') ' || md5(pg_get_functiondef(p.oid))
        FROM pg_proc p WHERE p.pronamespace = $1::regnamespace
      UNION ALL
      SELECT 'type ' || t.typname || ' ' || t.typtype::text FROM pg_type t
       WHERE t.typnamespace = $1::regnamespace AND t.typrelid = 0 AND t.typelem = 0
      UNION ALL
      SELECT 'comment ' || d.classoid::regclass::text || ' ' || d.objsubid || ' ' || d.description
        FROM pg_description d JOIN pg_class c ON c.oid = d.objoid
       WHERE d.classoid = 'pg_class'::regclass AND c.relnamespace = $1::regnamespace
      ORDER BY 1`, [schema]);
    return rows.map((r) => r.line);
  } finally {
    await c.query('ROLLBACK');
  }
}

interface Template {
  name: string;
  key: string;
  structure: string;
  /** Tables holding rows right after migrating (copied into a reused schema). */
  tablesWithRows: string[];
  /** Each sequence's position right after migrating: setval's arguments. */
  sequences: { name: string; value: string; called: boolean }[];
}

/** Migrates the template once per database and migrations; other processes wait for it. */
async function loadTemplate(url: string, key: string): Promise<Template> {
  const name = `wharf_tpl_${key}`;
  return withClient(url, async (c) => {
    await c.query('SELECT pg_advisory_lock($1, 0)', [LOCK_SPACE]);
    try {
      await c.query(`CREATE SCHEMA IF NOT EXISTS ${q(POOL)}`);
      await c.query(`CREATE TABLE IF NOT EXISTS ${q(POOL)}.schemas (name text PRIMARY KEY, key text NOT NULL, owner integer NOT NULL)`);
      const { rows } = await c.query<{ ready: string | null }>(`SELECT obj_description(oid, 'pg_namespace') AS ready FROM pg_namespace WHERE nspname = $1`, [name]);
      if (rows[0]?.ready !== READY) {
        // Left half-made by a process that died: start again.
        await c.query(`DROP SCHEMA IF EXISTS ${q(name)} CASCADE`);
        const handle = openDatabase({ databaseUrl: url, dataDir: '', pgSchema: name });
        try {
          await migrateToLatest(handle.db, 'postgres', name);
        } finally {
          await handle.close();
        }
        await c.query(`COMMENT ON SCHEMA ${q(name)} IS ${pg.escapeLiteral(READY)}`);
      }
    } finally {
      await c.query('SELECT pg_advisory_unlock($1, 0)', [LOCK_SPACE]);
    }
    const structure = (await describeSchema(c, name)).join('\n');
    const tables = await c.query<{ relname: string }>(`SELECT relname FROM pg_class WHERE relnamespace = $1::regnamespace AND relkind = 'r' ORDER BY 1`, [name]);
    const tablesWithRows: string[] = [];
    for (const { relname } of tables.rows) {
      const { rows } = await c.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${q(name)}.${q(relname)}) AS any`);
      if (rows[0]!.any) tablesWithRows.push(relname);
    }
    const seqs = await c.query<{ name: string; start: string; last: string | null }>(`
      SELECT sequencename AS name, start_value::text AS start, last_value::text AS last FROM pg_sequences WHERE schemaname = $1`, [name]);
    const sequences = seqs.rows.map((s) => ({ name: s.name, value: s.last ?? s.start, called: s.last !== null }));
    return { name, key, structure, tablesWithRows, sequences };
  });
}

/** This process's owner id, held as an advisory lock for as long as the process lives. */
async function holdOwnerLock(url: string): Promise<number> {
  const id = randomInt(1, 2 ** 31 - 1);
  const hold = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('SELECT pg_advisory_lock($1, $2)', [LOCK_SPACE, id]);
    // Should the connection break while the process lives, take the lock again at once (else
    // another process could empty a schema in use). Best effort: PostgreSQL is likely down.
    client.on('error', () => {});
    client.once('end', () => { hold().catch(() => {}); });
    // Never closed: the lock goes when the process does. Unreferenced, so it keeps no process alive.
    (client as unknown as { connection: { stream: { unref(): void } } }).connection.stream.unref();
  };
  await hold();
  return id;
}

interface Pool { url: string; template: Template; owner: number }

const pools = new Map<string, Promise<Pool | null>>();

function poolFor(url: string): Promise<Pool | null> {
  let pool = pools.get(url);
  if (!pool) {
    pool = (async () => {
      const key = migrationsKey();
      if (!key) return null;
      const superuser = await withClient(url, (c) => c.query<{ on: boolean }>(`SELECT current_setting('is_superuser') = 'on' AS on`));
      if (!superuser.rows[0]!.on) return null;
      const template = await loadTemplate(url, key);
      return { url, template, owner: await holdOwnerLock(url) };
    })();
    pools.set(url, pool);
  }
  return pool;
}

/** A schema of a process that has ended, now this one's; null when there is none. */
async function take(c: pg.Client, p: Pool): Promise<string | null> {
  await c.query('BEGIN');
  try {
    const { rows } = await c.query<{ name: string }>(`
      SELECT s.name FROM ${q(POOL)}.schemas s
       WHERE s.key = $1 AND NOT EXISTS (
         SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
            AND l.classid = $2::int::oid AND l.objid = s.owner::oid AND l.objsubid = 2)
       LIMIT 1 FOR UPDATE SKIP LOCKED`, [p.template.key, LOCK_SPACE]);
    const name = rows[0]?.name ?? null;
    if (name) await c.query(`UPDATE ${q(POOL)}.schemas SET owner = $2 WHERE name = $1`, [name, p.owner]);
    await c.query('COMMIT');
    return name;
  } catch (err) {
    await c.query('ROLLBACK');
    throw err;
  }
}

/** Puts a taken schema back in the state migrating it left it in; false when it is no longer like the template. */
async function reset(c: pg.Client, p: Pool, schema: string): Promise<boolean> {
  const exists = await c.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  if (!exists.rowCount) return false;
  if ((await describeSchema(c, schema)).join('\n') !== p.template.structure) return false;
  const tables = await c.query<{ relname: string }>(`SELECT relname FROM pg_class WHERE relnamespace = $1::regnamespace AND relkind = 'r' ORDER BY 1`, [schema]);
  const t = p.template;
  const statements = [
    'BEGIN', 'SET LOCAL session_replication_role = replica', `SET LOCAL search_path TO ${q(schema)}`,
    ...tables.rows.map((r) => `DELETE FROM ${q(r.relname)}`),
    ...t.tablesWithRows.map((r) => `INSERT INTO ${q(r)} OVERRIDING SYSTEM VALUE SELECT * FROM ${q(t.name)}.${q(r)}`),
    ...t.sequences.map((s) => `SELECT setval(${pg.escapeLiteral(q(s.name))}, ${s.value}, ${s.called})`),
    'COMMIT',
  ];
  await c.query(statements.join(';\n'));
  return true;
}

/**
 * A schema for a new test server: one a finished test process left, emptied, or else a new
 * empty one (the server migrates it); kept for reuse afterwards. null when schemas are not
 * reused here (the caller makes one of its own).
 */
export async function reusableSchema(url: string): Promise<string | null> {
  const p = await poolFor(url);
  if (!p) return null;
  return withClient(url, async (c) => {
    for (;;) {
      const name = await take(c, p);
      if (!name) break;
      if (await reset(c, p, name)) return name;
      await c.query(`DROP SCHEMA IF EXISTS ${q(name)} CASCADE`);
      await c.query(`DELETE FROM ${q(POOL)}.schemas WHERE name = $1`, [name]);
    }
    const schema = `wharf_test_${randomBytes(6).toString('hex')}`;
    await c.query(`CREATE SCHEMA ${q(schema)}`);
    await c.query(`INSERT INTO ${q(POOL)}.schemas (name, key, owner) VALUES ($1, $2, $3)`, [schema, p.template.key, p.owner]);
    return schema;
  });
}

/**
 * Empties `schema` as taking it from the pool would (test/pg-schemas.test.ts); false when it is
 * no longer like the template (and so would be dropped instead). Throws where schemas are not reused.
 */
export async function emptySchema(url: string, schema: string): Promise<boolean> {
  const p = await poolFor(url);
  if (!p) throw new Error('schemas are not reused here (no superuser, or no migration sources)');
  return withClient(url, (c) => reset(c, p, schema));
}
