// manifest.json, written last into a backup directory: what the backup holds and what
// made it. A directory without one is no (finished) backup, and restore refuses it.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Dialect } from '../../db/database.ts';
import { DomainError } from '../../domain/errors.ts';

export const MANIFEST_FILE = 'manifest.json';
/** The data dir's files (repositories, keys, LFS objects …) below the backup directory. */
export const DATA_SUBDIR = 'data';
const FORMAT = 'wharf-backup';
const FORMAT_VERSION = 1;

export const WHARF_VERSION = (createRequire(import.meta.url)('../../../package.json') as { version: string }).version;

export type DatabaseCopy =
  /** SQLite: the online backup's copy. */
  | { kind: 'sqlite'; file: string; bytes: number; sha256: string }
  /** PostgreSQL: pg_dump's custom-format archive of `schema`, by this command or by the operator before it. */
  | { kind: 'pg_dump'; file: string; bytes: number; sha256: string; schema: string; madeBy: 'backup' | 'operator' }
  /** PostgreSQL without pg_dump here: the database is not in the backup; `command` is what to run. */
  | { kind: 'none'; schema: string; command: string };

export interface Manifest {
  format: typeof FORMAT;
  formatVersion: number;
  wharfVersion: string;
  createdAt: string;
  dialect: Dialect;
  /** The migration level of the database copied. */
  migrations: { applied: number; latest: string | null };
  database: DatabaseCopy;
  /** Where the key sealing stored secrets came from: data/secret.key, or WHARF_SECRET_KEY (not in the backup). */
  secretKey: 'file' | 'environment';
  repositories: {
    /** Ids of the repositories copied (those the database copy holds). */
    ids: number[];
    refs: number;
    bytes: number;
    /** Repositories the database copy names that were deleted before their files were copied. */
    gone: number[];
  };
  /** The other data-dir files copied (keys, LFS objects, release assets, archives …). */
  files: { count: number; bytes: number; entries: string[] };
  /** Rows per table of the database copy. */
  counts: Record<string, number>;
}

/** A backup or restore refused or failed for a reason the operator can act on; the message says which. */
export class BackupError extends DomainError {
  readonly kind = 'backup';
}

export function newManifest(fields: Omit<Manifest, 'format' | 'formatVersion' | 'wharfVersion'>): Manifest {
  return { format: FORMAT, formatVersion: FORMAT_VERSION, wharfVersion: WHARF_VERSION, ...fields };
}

export async function writeManifest(dir: string, manifest: Manifest): Promise<void> {
  // Under a temporary name first: a manifest is there whole or not at all.
  const file = path.join(dir, MANIFEST_FILE);
  await fs.writeFile(`${file}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  await fs.rename(`${file}.tmp`, file);
}

/** The manifest of the backup in `dir`, checked for what restore relies on. */
export async function readManifest(dir: string): Promise<Manifest> {
  const file = path.join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new BackupError(`${dir} holds no Wharf backup: ${MANIFEST_FILE} is missing (a backup that did not finish has none)`);
    }
    throw err;
  }
  let m: Manifest;
  try {
    m = JSON.parse(text) as Manifest;
  } catch {
    throw new BackupError(`${file} is not valid JSON`);
  }
  if (m?.format !== FORMAT) throw new BackupError(`${file} is not a Wharf backup manifest`);
  if (m.formatVersion !== FORMAT_VERSION) {
    throw new BackupError(`${file} has format version ${String(m.formatVersion)}; this Wharf (${WHARF_VERSION}) reads version ${FORMAT_VERSION}`);
  }
  if ((m.dialect !== 'sqlite' && m.dialect !== 'postgres') || !m.database || !Array.isArray(m.repositories?.ids)) {
    throw new BackupError(`${file} is incomplete`);
  }
  return m;
}

/** SHA-256 (hex) and size of a file, streamed. */
export async function fileDigest(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** Checks that the database file the manifest names is in `dir`, unchanged. */
export async function verifyDatabaseFile(dir: string, m: Manifest): Promise<string | null> {
  if (m.database.kind === 'none') return null;
  const file = path.join(dir, m.database.file);
  const digest = await fileDigest(file).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') throw new BackupError(`${file} is missing: the backup is incomplete`);
    throw err;
  });
  if (digest.sha256 !== m.database.sha256 || digest.bytes !== m.database.bytes) {
    throw new BackupError(`${file} is not the file the backup wrote (its size or SHA-256 differs from ${MANIFEST_FILE})`);
  }
  return file;
}
