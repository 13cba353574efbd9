// Reads a migration archive (.tar.gz, the layout migrations.export writes) safely: every
// entry name is checked before anything is written (no absolute paths, no "..", no
// links or devices), the JSON record files are parsed into memory, and each
// repository's bare git copy is unpacked under a scratch directory. Anything wrong
// is a ValidationError naming what, so the caller answers 422 and imports nothing.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import { ValidationError } from '../../domain/errors.ts';

/** Record kinds the import reads; other files of upstream's layout are ignored. */
export const KINDS = ['users', 'organizations', 'teams', 'repositories', 'issues', 'pull_requests', 'issue_comments', 'labels', 'milestones', 'reactions',
  'pull_request_reviews', 'pull_request_review_comments', 'releases', 'issue_events', 'projects'] as const;
export type Kind = (typeof KINDS)[number];

/** One JSON record file may be this large; the archive's records are held in memory. */
const MAX_JSON_BYTES = 64 * 1024 * 1024;

export interface ArchiveContents {
  version: string;
  records: Record<Kind, unknown[]>;
  /** "owner/name" of each repository whose git data the archive holds (lower-cased). */
  gitData: Set<string>;
  /** Names of the files the records point at (release assets' bytes: releases/<guid>/<name>). */
  files: Set<string>;
}

/** Where a reading unpacks to: each repository's git data, and the files records point at. */
export interface UnpackTo {
  git: string;
  files: string;
}

export function archiveError(message: string): ValidationError {
  return new ValidationError([{ resource: 'MigrationImport', field: 'archive', code: 'invalid', message }], message);
}

/** The archive versions this import understands (upstream's 1.x layout). */
export function supportedVersion(v: unknown): v is string {
  return typeof v === 'string' && /^1\.\d+(\.\d+)?$/.test(v);
}

/** The entry's name as a safe relative path, or an error: nothing may land outside the target. */
function safeName(raw: string): string {
  if (raw.includes('\0') || raw.includes('\\')) throw archiveError(`unsafe entry name ${JSON.stringify(raw)}`);
  const name = raw.replace(/^\.\/+/, '').replace(/\/+$/, '');
  if (name === '' || path.posix.isAbsolute(name) || name.split('/').some((part) => part === '..' || part === '.' || part === '')) {
    throw archiveError(`unsafe entry name ${JSON.stringify(raw)} (absolute or leaving the archive)`);
  }
  return name;
}

const GIT_ENTRY = /^repositories\/([^/]+)\/([^/]+)\.git(?:\/(.*))?$/;

/**
 * The parts of a bare repository a fetch needs. Its config and hooks are left behind
 * (git must not run with settings an archive chose), and so are alternates, which
 * would lend the copy objects of any repository on this host.
 */
function keptGitPath(rest: string): boolean {
  if (rest === '' || rest === 'HEAD' || rest === 'packed-refs' || rest === 'refs' || rest.startsWith('refs/')) return true;
  return (rest === 'objects' || rest.startsWith('objects/')) && !/^objects\/info\/.*alternates$/.test(rest);
}
const RECORD_FILE = /^([a-z_]+)_(\d{6})\.json$/;
/** Release assets' bytes, where upstream's exporter puts them (named by the assets' asset_url). */
const ASSET_FILE = /^releases\/[^/]+\/[^/]+$/;

async function collect(stream: AsyncIterable<unknown>, limit: number, name: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of stream) {
    const chunk = c as Buffer;
    size += chunk.length;
    if (size > limit) throw archiveError(`${name} is larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads the archive at `file`. With `to`, each repository's git data is written to
 * to.git/<owner>/<name>.git and each asset file to to.files/<its name> (a scan without
 * it only validates).
 */
export async function readArchive(file: string, to: UnpackTo | null): Promise<ArchiveContents> {
  const gitRoot = to?.git ?? null;
  const records = Object.fromEntries(KINDS.map((k) => [k, [] as unknown[]])) as Record<Kind, unknown[]>;
  const files = new Map<Kind, { n: number; items: unknown[] }[]>();
  const gitData = new Set<string>();
  const assetFiles = new Set<string>();
  let version: unknown;
  let sawSchema = false;
  const extract = tar.extract();
  const entries = (async () => {
    for await (const entry of extract) {
      const header = entry.header;
      const name = safeName(header.name);
      if (header.type !== 'file' && header.type !== 'directory') {
        throw archiveError(`entry ${JSON.stringify(name)} is a ${header.type ?? 'special file'}; only files and directories are allowed`);
      }
      const git = GIT_ENTRY.exec(name);
      const record = RECORD_FILE.exec(name);
      if (git) {
        gitData.add(`${git[1]}/${git[2]}`.toLowerCase());
        if (gitRoot === null || !keptGitPath(git[3] ?? '')) { entry.resume(); continue; }
        const target = path.join(gitRoot, git[1]!, `${git[2]}.git`, git[3] ?? '');
        if (header.type === 'directory') {
          await fsp.mkdir(target, { recursive: true });
          entry.resume();
        } else {
          await fsp.mkdir(path.dirname(target), { recursive: true });
          await pipeline(entry, fs.createWriteStream(target, { mode: 0o644 }));
        }
      } else if (ASSET_FILE.test(name) && header.type === 'file') {
        assetFiles.add(name);
        if (to === null) { entry.resume(); continue; }
        const target = path.join(to.files, name);
        await fsp.mkdir(path.dirname(target), { recursive: true });
        await pipeline(entry, fs.createWriteStream(target, { mode: 0o644 }));
      } else if (name === 'schema.json' && header.type === 'file') {
        sawSchema = true;
        version = (parseJson(await collect(entry, MAX_JSON_BYTES, name), name) as { version?: unknown } | null)?.version;
      } else if (record && (KINDS as readonly string[]).includes(record[1]!) && header.type === 'file') {
        const items = parseJson(await collect(entry, MAX_JSON_BYTES, name), name);
        if (!Array.isArray(items)) throw archiveError(`${name} does not hold a JSON array`);
        const kind = record[1] as Kind;
        files.set(kind, [...(files.get(kind) ?? []), { n: Number(record[2]), items }]);
      } else {
        // Attachments of comments …: not imported (yet); read past them.
        entry.resume();
      }
    }
  })();
  try {
    await Promise.all([
      pipeline(fs.createReadStream(file), zlib.createGunzip(), extract).catch((err: unknown) => {
        throw err instanceof ValidationError ? err : archiveError(`not a readable .tar.gz: ${err instanceof Error ? err.message : String(err)}`);
      }),
      entries.catch((err: unknown) => {
        extract.destroy();
        throw err;
      }),
    ]);
  } catch (err) {
    // The first of the two failures wins; the other is its echo.
    throw err instanceof ValidationError ? err : archiveError(`not a readable .tar.gz: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!sawSchema) throw archiveError('the archive has no schema.json');
  if (!supportedVersion(version)) throw archiveError(`unsupported archive schema version ${JSON.stringify(version ?? null)} (1.x is supported)`);
  for (const [kind, parts] of files) records[kind] = parts.sort((a, b) => a.n - b.n).flatMap((p) => p.items);
  return { version, records, gitData, files: assetFiles };
}

function parseJson(bytes: Buffer, name: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw archiveError(`${name} is not valid JSON`);
  }
}

