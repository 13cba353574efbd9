// The bytes of release assets, as files under the data directory
// ($WHARF_DATA_DIR/release-assets/<repository id>/<asset id>): large uploads stay out
// of the database. A file is written under a temporary name first and moved into place
// once its row is committed, so a failed upload leaves no row without bytes.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { AppContext } from '../../context.ts';

function root(ctx: AppContext): string {
  return path.join(ctx.config.dataDir, 'release-assets');
}

/** Where an asset's bytes are (a migration export streams them from there). */
export function fileOf(ctx: AppContext, repositoryId: number, assetId: number): string {
  return path.join(root(ctx), String(repositoryId), String(assetId));
}

export interface StagedFile {
  path: string;
  size: number;
  /** "sha256:<hex>", upstream's digest. */
  digest: string;
}

/** Writes the bytes under a temporary name in the repository's folder. */
export async function stage(ctx: AppContext, repositoryId: number, bytes: Buffer): Promise<StagedFile> {
  const dir = path.join(root(ctx), String(repositoryId));
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `.upload-${randomBytes(8).toString('hex')}`);
  await fs.writeFile(file, bytes);
  return { path: file, size: bytes.length, digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}` };
}

/** Copies a file (an archive's asset, unpacked) under a temporary name, as stage() writes bytes, without holding it in memory. */
export async function stageCopy(ctx: AppContext, repositoryId: number, source: string): Promise<StagedFile> {
  const dir = path.join(root(ctx), String(repositoryId));
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `.upload-${randomBytes(8).toString('hex')}`);
  await fs.copyFile(source, file);
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return { path: file, size: (await fs.stat(file)).size, digest: `sha256:${hash.digest('hex')}` };
}

/** Moves a staged file to the asset's name. */
export async function keep(ctx: AppContext, staged: StagedFile, repositoryId: number, assetId: number): Promise<void> {
  await fs.rename(staged.path, fileOf(ctx, repositoryId, assetId));
}

export async function discard(staged: StagedFile): Promise<void> {
  await fs.rm(staged.path, { force: true });
}

export function read(ctx: AppContext, repositoryId: number, assetId: number): Promise<Buffer> {
  return fs.readFile(fileOf(ctx, repositoryId, assetId));
}

/** Removes assets' files (after their rows went); a missing file is no error. */
export async function remove(ctx: AppContext, repositoryId: number, assetIds: readonly number[]): Promise<void> {
  await Promise.all(assetIds.map((id) => fs.rm(fileOf(ctx, repositoryId, id), { force: true })));
}

/** Removes every asset file of a repository. */
export async function removeRepository(ctx: AppContext, repositoryId: number): Promise<void> {
  await fs.rm(path.join(root(ctx), String(repositoryId)), { recursive: true, force: true });
}
