// Git LFS objects on disk: $WHARF_DATA_DIR/lfs/<repository id>/objects/<oid[0:2]>/<oid[2:4]>/<oid>,
// the layout git-lfs itself keeps under .git/lfs. Named by repository id, as the git
// dirs are, so a rename moves nothing. The only code that touches these files: imports
// store the large files they rewrite here, the LFS API serves and receives them.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** An LFS object id: the SHA-256 of its content, in lower-case hex (git-lfs writes no other form). */
const OID = /^[0-9a-f]{64}$/;

export function isOid(value: string): boolean {
  return OID.test(value);
}

/** The LFS dir of a repository. */
export function lfsDir(dataDir: string, repositoryId: number): string {
  return path.join(dataDir, 'lfs', String(repositoryId));
}

/** Where an object of the repository whose LFS dir is `dir` lives (`oid` checked by the caller). */
export function objectPath(dir: string, oid: string): string {
  return path.join(dir, 'objects', oid.slice(0, 2), oid.slice(2, 4), oid);
}

/**
 * A fresh name for an object being written: inside the LFS dir, so that moving it into
 * place is a rename on one file system, and readers never see half an object.
 */
export function tempPath(dir: string): string {
  return path.join(dir, 'tmp', `${process.pid}-${randomBytes(8).toString('hex')}`);
}

/** The size of a stored object, or null when the repository does not hold it. */
export async function objectSize(dir: string, oid: string): Promise<number | null> {
  try {
    const st = await fs.stat(objectPath(dir, oid));
    return st.isFile() ? st.size : null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** The bytes of a stored object (its size from objectSize). */
export function openObject(dir: string, oid: string): ReadStream {
  return createReadStream(objectPath(dir, oid));
}

export type WriteResult =
  | { stored: true; size: number }
  /** The bytes received hash to another oid: nothing was stored. */
  | { stored: false; size: number; actualOid: string };

/** Hashes and counts the bytes passing through. */
class Digest extends Transform {
  readonly hash = createHash('sha256');
  size = 0;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    done(null, chunk);
  }
}

/**
 * Streams `body` into the object `oid` of the repository: written under a temporary
 * name, moved into place only when its SHA-256 is `oid`. A mismatch or a failed stream
 * (the client went away) leaves nothing behind.
 */
export async function writeObject(dir: string, oid: string, body: Readable): Promise<WriteResult> {
  const tmp = tempPath(dir);
  await fs.mkdir(path.dirname(tmp), { recursive: true });
  try {
    const digest = new Digest();
    await pipeline(body, digest, createWriteStream(tmp, { flags: 'wx', mode: 0o644 }));
    const actualOid = digest.hash.digest('hex');
    if (actualOid !== oid) return { stored: false, size: digest.size, actualOid };
    const dest = objectPath(dir, oid);
    await fs.mkdir(path.dirname(dest), { recursive: true });
    // Two uploads of one object write the same bytes: the later rename replaces it whole.
    await fs.rename(tmp, dest);
    return { stored: true, size: digest.size };
  } finally {
    await fs.rm(tmp, { force: true });
  }
}

/** Removes a repository's LFS dir (its repository is gone); a missing dir is no error. */
export async function removeLfsDir(dir: string): Promise<void> {
  await fs.rm(dir, { recursive: true, force: true });
}
