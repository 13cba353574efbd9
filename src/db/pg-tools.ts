// pg_dump and pg_restore for backups of a PostgreSQL database (src/modules/backup): the
// command lines, built from DATABASE_URL and the schema in use, and running them when
// they are installed on this host (Wharf never installs them). The password never goes
// on a command line, printed or run: it is handed to the tools as PGPASSWORD.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface PgConnection {
  /** DATABASE_URL without its password, as libpq takes it (--dbname). */
  url: string;
  password: string | null;
}

export function pgConnection(databaseUrl: string): PgConnection {
  const url = new URL(databaseUrl);
  let password = url.password ? decodeURIComponent(url.password) : null;
  url.password = '';
  const inQuery = url.searchParams.get('password');
  if (inQuery !== null) {
    password ??= inQuery;
    url.searchParams.delete('password');
  }
  return { url: url.toString(), password };
}

/** Where `name` is on PATH (what `command -v` answers), or null. */
export function findProgram(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return null;
}

/** A schema as a pg_dump pattern matching it alone. */
function schemaPattern(schema: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(schema) ? schema : `"${schema.replaceAll('"', '""')}"`;
}

/** pg_dump's arguments: the schema in custom format into `file`, from the exported snapshot when given. */
export function pgDumpArgs(conn: PgConnection, schema: string, file: string, snapshotId: string | null = null): string[] {
  return [
    '--format=custom', '--no-owner', '--no-privileges', `--schema=${schemaPattern(schema)}`, `--file=${file}`,
    ...(snapshotId ? [`--snapshot=${snapshotId}`] : []), `--dbname=${conn.url}`,
  ];
}

/**
 * pg_restore's arguments: `file` into the database, in one transaction that stops at the
 * first error. --clean --if-exists: the dump creates its schema, which may exist (empty)
 * already, as `public` always does.
 */
export function pgRestoreArgs(conn: PgConnection, file: string): string[] {
  return ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', '--clean', '--if-exists', `--dbname=${conn.url}`, file];
}

/** A command line to print, each word quoted for a POSIX shell where it needs it. */
export function commandLine(program: string, args: string[]): string {
  const quote = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", "'\\''")}'`);
  return [program, ...args].map(quote).join(' ');
}

/** Runs pg_dump or pg_restore; throws with what it wrote on stderr when it fails. */
export function runPgTool(program: string, args: string[], password: string | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, ...(password !== null ? { PGPASSWORD: password } : {}) };
    const child = spawn(program, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const err: Buffer[] = [];
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${path.basename(program)} failed (exit ${code}): ${Buffer.concat(err).toString('utf8').trim()}`));
    });
  });
}
