// Backup and restore of a whole Wharf (issue #22 § Operations): the database, every git
// repository and the rest of the data dir's state, taken while the server keeps serving.
// `npm run cli -- backup DIR` / `restore DIR` (cli/backup.ts) call the two functions here.
//
// What WHARF_DATA_DIR holds (src/config.ts), and what a backup does with it:
//   wharf.sqlite (-wal, -shm)  SQLite database (src/db/database.ts): SQLite's online backup
//   repos/<id>.git             bare repositories (src/git/repository.ts): src/git/repository-copy.ts
//   lfs/<id>/                  Git LFS objects (src/git/lfs-store.ts); tmp/ (uploads under way) left out
//   release-assets/<id>/       release asset bytes (releases/release-asset-files.ts); .upload-* (staged) left out
//   secret.key                 the key sealing stored secrets (src/secret-key.ts), unless WHARF_SECRET_KEY
//   keys/                      SSH host keys (meta/meta.host-keys.ts)
//   migrations/                migration export archives (org-migrations)
//   migration-imports/         uploaded archives awaiting import (migration-import)
//   imports/<id>/              source imports' work dirs (imports/imports.job.ts): left out. Scratch
//                              that an import in progress fetches again when it is missing, holding
//                              the import's credentials.
//   anything else              copied as it is
// The entries named by repository id (repos, lfs, release-assets) are copied only for the
// repositories the database copy holds: ids are never reused by the database, so a
// repository created after the database copy would otherwise leave files that a
// repository created after the restore, under the same id, would inherit.
//
// Consistency while the server keeps serving (pushes, API writes):
// 1. The database first: one snapshot (src/db/snapshot.ts), on PostgreSQL dumped by pg_dump
//    from that same snapshot.
// 2. Then the repositories, each consistent in itself (refs read, then the object files they
//    reach: src/git/repository-copy.ts). Wharf writes git before it records what it wrote
//    (a repository's dir exists before its row commits; a push's objects and refs move before
//    its bookkeeping; an API commit's objects before the ref and rows naming them), and git
//    objects are append-only, so every repository, commit, tag and ref the database copy names
//    is in the copy. The reverse does not hold: a push that lands after the database snapshot
//    may be in the copied refs without its bookkeeping in the database (a push in flight at
//    the snapshot has its journal row there, and the restored server records it at start,
//    src/modules/git-http/git-http.reconcile.ts; one started after has no row, and is in git
//    without its push event or pull request synchronization).
// 3. Then the other files. LFS objects are written whole then renamed, and named by content;
//    release asset bytes are renamed into place once their row commits (so a row committed in
//    the instant before the snapshot whose file is not yet renamed is the one gap). A file
//    deleted during the backup (its repository or asset deleted after the snapshot) is
//    missing from the copy although the database copy names it.
// 4. manifest.json last: a directory without one is an unfinished backup, refused by restore.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config.ts';
import { openDatabase, type Dialect } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrations/index.ts';
import { commandLine, findProgram, pgConnection, pgDumpArgs, pgRestoreArgs, runPgTool } from '../../db/pg-tools.ts';
import {
  checkSqliteFile, copySqliteDatabase, openPostgresSnapshot, openSqliteSnapshot, postgresTarget,
  SQLITE_COMPANIONS, SQLITE_FILE, type DatabaseSnapshot,
} from '../../db/snapshot.ts';
import { nowIso, systemClock } from '../../domain/clock.ts';
import { copyRepository, RepositoryGoneError } from '../../git/repository-copy.ts';
import { repoDir } from '../../git/repository.ts';
import { loadSecretBox, SECRET_KEY_FILE, verifySecretKey } from '../../secret-key.ts';
import { copyTree, names } from './backup.files.ts';
import {
  BackupError, DATA_SUBDIR, fileDigest, MANIFEST_FILE, newManifest, readManifest, verifyDatabaseFile, writeManifest,
  type DatabaseCopy, type Manifest,
} from './backup.manifest.ts';
import { repositoryIds } from './backup.store.ts';

/** The PostgreSQL dump's name in a backup directory. */
export const PG_DUMP_FILE = 'database.dump';
/** Data-dir entries named by repository id. */
const PER_REPOSITORY = new Set(['lfs', 'release-assets']);
/** Data-dir entries never copied: the database (copied through its snapshot), repositories (through git), scratch. */
const SCRATCH = new Set(['imports']);

export type Say = (line: string) => void;

function dialectOf(config: Config): Dialect {
  return config.databaseUrl ? 'postgres' : 'sqlite';
}

function isDatabaseFile(name: string): boolean {
  return name === SQLITE_FILE || SQLITE_COMPANIONS.some((s) => name === `${SQLITE_FILE}${s}`);
}

function within(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

async function exists(p: string): Promise<boolean> {
  return fs.stat(p).then(() => true, () => false);
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** What of an entry named by repository id is left out: other repositories', and files not yet stored. */
function perRepositorySkip(entry: string, ids: Set<string>): (relative: string) => boolean {
  return (relative) => {
    const parts = relative.split('/');
    if (parts.length === 1) return !ids.has(parts[0]!);
    if (entry === 'lfs') return parts.length === 2 && parts[1] === 'tmp';
    return parts[parts.length - 1]!.startsWith('.upload-');
  };
}

function refuseOverlap(dir: string, dataDir: string): void {
  if (within(dir, dataDir) || within(dataDir, dir)) {
    throw new BackupError(`${dir} and the data dir ${dataDir} overlap: the backup directory must lie outside WHARF_DATA_DIR`);
  }
}

interface DatabasePart {
  copy: DatabaseCopy;
  snapshot: DatabaseSnapshot;
  guidance: string[];
}

async function snapshotDatabase(config: Config, dir: string, operatorDump: boolean, say: Say): Promise<DatabasePart> {
  if (dialectOf(config) === 'sqlite') {
    const file = path.join(dir, SQLITE_FILE);
    say(`database: copying ${SQLITE_FILE} through SQLite's online backup`);
    await copySqliteDatabase(config.dataDir, file);
    const digest = await fileDigest(file);
    say(`database: copied (${size(digest.bytes)})`);
    return { copy: { kind: 'sqlite', file: SQLITE_FILE, ...digest }, snapshot: openSqliteSnapshot(file), guidance: [] };
  }
  const snapshot = await openPostgresSnapshot(config.databaseUrl!, config.databaseSchema);
  try {
    const schema = snapshot.schema!;
    const conn = pgConnection(config.databaseUrl!);
    const file = path.join(dir, PG_DUMP_FILE);
    if (operatorDump) {
      const digest = await fileDigest(file);
      say(`database: ${PG_DUMP_FILE} was in ${dir} already: taken as the database's dump, made before this backup (${size(digest.bytes)})`);
      return { copy: { kind: 'pg_dump', file: PG_DUMP_FILE, ...digest, schema, madeBy: 'operator' }, snapshot, guidance: [] };
    }
    const pgDump = findProgram('pg_dump');
    if (pgDump) {
      say(`database: pg_dump of schema ${schema} from the backup's snapshot (${pgDump})`);
      try {
        await runPgTool(pgDump, pgDumpArgs(conn, schema, file, snapshot.snapshotId), conn.password);
      } catch (err) {
        throw new BackupError(message(err));
      }
      const digest = await fileDigest(file);
      say(`database: dumped (${size(digest.bytes)})`);
      return { copy: { kind: 'pg_dump', file: PG_DUMP_FILE, ...digest, schema, madeBy: 'backup' }, snapshot, guidance: [] };
    }
    const command = commandLine('pg_dump', pgDumpArgs(conn, schema, file));
    say('database: pg_dump is not installed on this host: the database is not copied (see below)');
    return {
      copy: { kind: 'none', schema, command }, snapshot,
      guidance: [
        'The database is NOT in this backup: pg_dump is not installed on this host, and Wharf does not install it.',
        'Dump it into the backup with (PostgreSQL client tools of the server\'s major version or newer):',
        `  ${command}`,
        ...(conn.password !== null ? ['  (the password is not shown: give it as PGPASSWORD or in ~/.pgpass)'] : []),
        'A dump taken now may name commits pushed after the repositories were copied, which the copy',
        'lacks. For a backup consistent throughout, run pg_dump first, with --file=DIR/database.dump',
        `into a new directory DIR, then \`backup DIR\`: it takes the ${PG_DUMP_FILE} it finds there as the database.`,
      ],
    };
  } catch (err) {
    await snapshot.close();
    throw err;
  }
}

/**
 * Backs up the data dir and database `config` names into `target` (new or empty; on
 * PostgreSQL it may hold only an operator's pg_dump, database.dump), while the server
 * keeps serving. Progress lines go to `say`. Returns the manifest written.
 */
export async function backup(config: Config, target: string, say: Say): Promise<Manifest> {
  const dir = path.resolve(target);
  const dataDir = config.dataDir;
  refuseOverlap(dir, dataDir);
  const dialect = dialectOf(config);
  const stat = await fs.stat(dir).catch(() => null);
  if (stat && !stat.isDirectory()) throw new BackupError(`${dir} is not a directory`);
  const present = await names(dir);
  const operatorDump = dialect === 'postgres' && present.length === 1 && present[0] === PG_DUMP_FILE;
  if (present.length > 0 && !operatorDump) {
    throw new BackupError(`${dir} is not empty: a backup goes into a new or empty directory`);
  }
  if (dialect === 'sqlite' && !(await exists(path.join(dataDir, SQLITE_FILE)))) {
    throw new BackupError(`no database in ${dataDir} (no ${SQLITE_FILE}): nothing to back up; check WHARF_DATA_DIR`);
  }
  const created = !(await exists(dir));
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  try {
    say(`backup of ${dataDir} (${dialect}) into ${dir}`);
    const createdAt = nowIso(systemClock);
    const db = await snapshotDatabase(config, dir, operatorDump, say);
    let ids: number[];
    let counts: Record<string, number>;
    let applied: string[];
    try {
      ids = await repositoryIds(db.snapshot.db);
      counts = await db.snapshot.tableCounts();
      applied = await db.snapshot.appliedMigrations();
    } finally {
      await db.snapshot.close();
    }
    const latest = applied[applied.length - 1] ?? null;
    say(`database: migration level ${latest ?? 'none'} (${applied.length} applied); ${count(counts.users ?? 0, 'account')}, ${count(counts.repositories ?? 0, 'repository', 'repositories')}, ${count(counts.issues ?? 0, 'issue or pull request', 'issues and pull requests')}`);

    const into = path.join(dir, DATA_SUBDIR);
    await fs.mkdir(into, { recursive: true, mode: 0o700 });
    const repositories = { ids: [] as number[], refs: 0, bytes: 0, gone: [] as number[] };
    say(`repositories: ${ids.length} to copy`);
    for (const [i, id] of ids.entries()) {
      const to = repoDir(into, id);
      try {
        const c = await copyRepository(repoDir(dataDir, id), to);
        repositories.ids.push(id);
        repositories.refs += c.refs;
        repositories.bytes += c.bytes;
        const retried = c.attempts > 1 ? `, ${c.attempts} passes (objects were repacked meanwhile)` : '';
        say(`repository ${i + 1}/${ids.length} (id ${id}): ${count(c.refs, 'ref')}, ${count(c.files, 'file')}, ${size(c.bytes)}${retried}`);
      } catch (err) {
        if (!(err instanceof RepositoryGoneError)) throw new BackupError(`copying repository ${id} failed: ${message(err)}`);
        await fs.rm(to, { recursive: true, force: true });
        repositories.gone.push(id);
        say(`repository ${i + 1}/${ids.length} (id ${id}): deleted since the database copy was taken; left out`);
      }
    }

    const files = { count: 0, bytes: 0, entries: [] as string[] };
    const idNames = new Set(ids.map(String));
    for (const name of await names(dataDir)) {
      if (isDatabaseFile(name) || name === 'repos' || SCRATCH.has(name) || name.startsWith('.restore-')) continue;
      const from = path.join(dataDir, name);
      const stat = await fs.lstat(from).catch(() => null);
      if (!stat) continue;
      const counter = { files: 0, bytes: 0 };
      if (stat.isDirectory()) {
        await copyTree(from, path.join(into, name), PER_REPOSITORY.has(name) ? perRepositorySkip(name, idNames) : () => false, counter);
      } else if (stat.isFile()) {
        await fs.copyFile(from, path.join(into, name));
        counter.files = 1;
        counter.bytes = stat.size;
      } else {
        continue;
      }
      files.count += counter.files;
      files.bytes += counter.bytes;
      files.entries.push(name);
      say(`data: ${name}${stat.isDirectory() ? `/ (${count(counter.files, 'file')}, ${size(counter.bytes)})` : ''}`);
    }

    const secretKey = config.secretKey !== null ? 'environment' : 'file';
    if (secretKey === 'environment') say('data: the secret key comes from WHARF_SECRET_KEY and is not in the backup: keep it with the backup');
    const manifest = newManifest({
      createdAt, dialect, migrations: { applied: applied.length, latest }, database: db.copy, secretKey, repositories, files, counts,
    });
    await writeManifest(dir, manifest);
    say(`manifest: ${path.join(dir, MANIFEST_FILE)}`);
    for (const line of db.guidance) say(line);
    say(`backup ${db.copy.kind === 'none' ? 'of the files complete (the database still to dump, above)' : 'complete'}: `
      + `${count(repositories.ids.length, 'repository', 'repositories')} (${size(repositories.bytes)}), ${count(files.count, 'other file')}; `
      + 'it holds the secret key and token hashes: keep it private');
    return manifest;
  } catch (err) {
    // Nothing half-written stays behind (but an operator's dump): a retry finds the directory as it was.
    for (const name of await names(dir)) {
      if (!(operatorDump && name === PG_DUMP_FILE)) await fs.rm(path.join(dir, name), { recursive: true, force: true });
    }
    if (created) await fs.rmdir(dir).catch(() => undefined);
    throw err;
  }
}

export interface RestoreOptions {
  /** Replace the database and files a data dir (and database schema) already holds. */
  force: boolean;
}

/** Opens the restored database as the server would (migrations, secret key check); the repositories it holds. */
async function openRestored(config: Config, dataDir: string): Promise<number[]> {
  const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir, pgSchema: config.databaseSchema ?? undefined });
  try {
    await migrateToLatest(database.db, database.dialect, database.schema);
    await verifySecretKey(database.db, loadSecretBox(config), nowIso(systemClock));
    return await repositoryIds(database.db);
  } catch (err) {
    throw new BackupError(`the restored database does not open with this Wharf: ${message(err)}`);
  } finally {
    await database.close();
  }
}

/** Removes per-repository files of repositories the restored database does not hold. */
async function removeStrays(dataDir: string, held: number[], say: Say): Promise<void> {
  const keep = new Set(held.map(String));
  const strays: string[] = [];
  for (const name of await names(path.join(dataDir, 'repos'))) {
    const id = /^(\d+)\.git$/.exec(name)?.[1];
    if (id !== undefined && !keep.has(id)) strays.push(path.join('repos', name));
  }
  for (const entry of PER_REPOSITORY) {
    for (const name of await names(path.join(dataDir, entry))) if (/^\d+$/.test(name) && !keep.has(name)) strays.push(path.join(entry, name));
  }
  for (const s of strays) await fs.rm(path.join(dataDir, s), { recursive: true, force: true });
  if (strays.length) say(`data: removed ${strays.join(', ')}: the restored database holds no such repository (made after the dump)`);
}

/**
 * Restores the backup in `source` into the data dir (and database) `config` names, which
 * must be new or empty unless `force`. Verifies the manifest and the files it names first.
 */
export async function restore(config: Config, source: string, options: RestoreOptions, say: Say): Promise<void> {
  const dir = path.resolve(source);
  const dataDir = config.dataDir;
  refuseOverlap(dir, dataDir);
  const m = await readManifest(dir);
  const dialect = dialectOf(config);
  if (m.dialect !== dialect) {
    throw new BackupError(`the backup is of a Wharf on ${m.dialect} and this configuration uses ${dialect} (DATABASE_URL ${config.databaseUrl ? 'set' : 'unset'})`);
  }
  const backupData = path.join(dir, DATA_SUBDIR);
  if (m.secretKey === 'environment' && config.secretKey === null) {
    throw new BackupError('the backup was made with WHARF_SECRET_KEY, which is not in it: set WHARF_SECRET_KEY to that key to restore');
  }
  if (m.secretKey === 'file' && config.secretKey === null && !(await exists(path.join(backupData, SECRET_KEY_FILE)))) {
    throw new BackupError(`${path.join(backupData, SECRET_KEY_FILE)} is missing: the backup is incomplete`);
  }
  const dbFile = await verifyDatabaseFile(dir, m);
  for (const id of m.repositories.ids) {
    if (!(await exists(path.join(repoDir(backupData, id), 'HEAD')))) throw new BackupError(`repository ${id} is missing from ${backupData}: the backup is incomplete`);
  }
  if (dbFile && dialect === 'sqlite') {
    const problems = checkSqliteFile(dbFile);
    if (problems.length) throw new BackupError(`${dbFile} is damaged: ${problems.slice(0, 3).join('; ')}`);
  }
  say(`backup of ${m.createdAt} by Wharf ${m.wharfVersion} (${m.dialect}, migration level ${m.migrations.latest ?? 'none'}): `
    + `${count(m.repositories.ids.length, 'repository', 'repositories')}, ${count(m.files.count, 'other file')}; manifest and files verified`);

  // The target: refused when it holds anything, unless --force.
  const held = await names(dataDir);
  const problems: string[] = [];
  if (held.some(isDatabaseFile)) problems.push(`${dataDir} already holds a database (${SQLITE_FILE})`);
  if ((await names(path.join(dataDir, 'repos'))).length) problems.push(`${dataDir} already holds repositories`);
  // lost+found: a fresh file system mounted as the data dir is empty all the same.
  const others = held.filter((n) => !isDatabaseFile(n) && n !== 'repos' && n !== 'lost+found');
  if (!problems.length && others.length) problems.push(`${dataDir} is not empty (${others.slice(0, 5).join(', ')})`);
  let pgSchema: string | null = null;
  const dumped = m.database.kind === 'sqlite' ? null : m.database.schema;
  if (dialect === 'postgres') {
    const target = await postgresTarget(config.databaseUrl!, config.databaseSchema);
    pgSchema = target.schema;
    if (target.tables > 0) problems.push(`the database schema ${target.schema} already holds ${target.tables} tables`);
    if (dumped !== null && (config.databaseSchema ?? pgSchema ?? dumped) !== dumped) {
      throw new BackupError(`the dump holds schema ${dumped} and Wharf here uses schema ${config.databaseSchema ?? pgSchema}: `
        + `set WHARF_DATABASE_SCHEMA=${dumped} (pg_restore cannot rename a schema)`);
    }
  }
  if (problems.length && !options.force) {
    throw new BackupError(`${problems.join('; ')}: restore goes into a new or empty data dir (and database), or pass --force to replace what is there`);
  }
  try {
    await restoreInto(config, dir, m, dbFile, held, problems.length > 0, say);
  } catch (err) {
    if (err instanceof BackupError) {
      throw new BackupError(`${err.message} (${dataDir} holds what was restored before this failed: fix the cause, then restore again with --force)`);
    }
    throw err;
  }
}

/** The writing half of restore, once the backup and the target are checked. */
async function restoreInto(config: Config, dir: string, m: Manifest, dbFile: string | null, held: string[], replace: boolean, say: Say): Promise<void> {
  const dataDir = config.dataDir;
  const dialect = m.dialect;
  const backupData = path.join(dir, DATA_SUBDIR);
  const dumped = m.database.kind === 'sqlite' ? null : m.database.schema;
  if (replace) {
    const replaced = new Set([...held.filter(isDatabaseFile), 'repos', ...SCRATCH, ...(await names(backupData))]);
    for (const name of held.filter((n) => replaced.has(n))) await fs.rm(path.join(dataDir, name), { recursive: true, force: true });
    say(`--force: removed ${held.filter((n) => replaced.has(n)).join(', ') || 'nothing'} from ${dataDir}`);
  }

  await fs.mkdir(dataDir, { recursive: true });
  for (const name of await names(backupData)) {
    const from = path.join(backupData, name);
    const stat = await fs.lstat(from);
    if (stat.isDirectory()) {
      const c = await copyTree(from, path.join(dataDir, name));
      say(`data: ${name}/ restored (${count(c.files, 'file')}, ${size(c.bytes)})`);
    } else if (stat.isFile()) {
      await fs.copyFile(from, path.join(dataDir, name));
      say(`data: ${name} restored`);
    }
  }

  let restoredIds: number[] | null = null;
  if (dialect === 'sqlite') {
    // Opened and migrated beside the data dir first; moved into place only when it opens.
    const scratch = path.join(dataDir, `.restore-${process.pid}`);
    await fs.mkdir(scratch, { recursive: true });
    try {
      await fs.copyFile(dbFile!, path.join(scratch, SQLITE_FILE));
      restoredIds = await openRestored(config, scratch);
      for (const suffix of [...SQLITE_COMPANIONS, '']) {
        const file = `${SQLITE_FILE}${suffix}`;
        if (await exists(path.join(scratch, file))) await fs.rename(path.join(scratch, file), path.join(dataDir, file));
      }
    } finally {
      await fs.rm(scratch, { recursive: true, force: true });
    }
    say(`database: ${SQLITE_FILE} restored, opened and migrated, secret key checked`);
  } else {
    const conn = pgConnection(config.databaseUrl!);
    const dump = dbFile ?? ((await exists(path.join(dir, PG_DUMP_FILE))) ? path.join(dir, PG_DUMP_FILE) : null);
    const pgRestore = dump ? findProgram('pg_restore') : null;
    if (dump && pgRestore) {
      say(`database: pg_restore of ${path.basename(dump)} into schema ${dumped} (${pgRestore})`);
      try {
        await runPgTool(pgRestore, pgRestoreArgs(conn, dump), conn.password);
      } catch (err) {
        throw new BackupError(message(err));
      }
      restoredIds = await openRestored(config, dataDir);
      say('database: restored, opened and migrated, secret key checked');
    } else {
      say(`database: NOT restored: ${dump ? 'pg_restore is not installed on this host, and Wharf does not install it' : 'the backup holds no database dump (pg_dump was not installed where it was made)'}.`);
      say('Restore the dump with (PostgreSQL client tools of the dump\'s version or newer):');
      say(`  ${commandLine('pg_restore', pgRestoreArgs(conn, dump ?? path.join(dir, PG_DUMP_FILE)))}`);
      if (conn.password !== null) say('  (the password is not shown: give it as PGPASSWORD or in ~/.pgpass)');
      say('then start Wharf on this data dir: it migrates the database at start.');
    }
  }
  if (restoredIds) await removeStrays(dataDir, restoredIds, say);
  if (m.repositories.gone.length) {
    say(`note: repositories ${m.repositories.gone.join(', ')} were deleted while the backup ran: the database names them, but their files are not in the backup`);
  }
  say(`restore complete into ${dataDir}${restoredIds ? ': start Wharf on it' : ' (the database still to restore, above)'}`);
}
