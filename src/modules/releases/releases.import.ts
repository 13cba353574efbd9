// Entry points for migration archives: the export (org-migrations) reads where an
// asset's bytes are; the import (migration-import) puts a release in as the archive has
// it (tag, target, texts, draft and prerelease, author, times) on a repository the
// import created, with its assets and their bytes. No actor, no events and no tag made:
// the archive's git data carries the tags its published releases had. Removing the
// repository removes it (the asset files through removeImportedAssetFiles).
import type { AppContext } from '../../context.ts';
import * as files from './release-asset-files.ts';
import type { Release, ReleaseAsset } from './releases.model.ts';
import * as store from './releases.store.ts';

/** The release as the archive has it: the record's own fields, without ids or the latest order. */
export type ImportedRelease = Pick<Release,
  'tagName' | 'targetCommitish' | 'name' | 'body' | 'draft' | 'prerelease' | 'authorId' | 'createdAt' | 'publishedAt' | 'updatedAt'>;

/**
 * The archive does not say which release the source had made latest explicitly: each
 * goes in as "legacy", so the latest is the newest published one until someone marks one.
 */
export async function importRelease(tx: AppContext, repositoryId: number, r: ImportedRelease): Promise<number> {
  const made = await store.insertRelease(tx.db, {
    repositoryId, tagName: r.tagName, targetCommitish: r.targetCommitish, name: r.name, body: r.body, draft: r.draft, prerelease: r.prerelease,
    makeLatest: 'legacy', latestOrder: 0, authorId: r.authorId, publishedAt: r.draft ? null : r.publishedAt,
  }, r.createdAt);
  if (r.updatedAt !== r.createdAt) await store.updateRelease(tx.db, made.id, {}, r.updatedAt);
  return made.id;
}

/** An asset as the archive has it; its bytes are the file at `source` (size and digest are computed from them, not believed). */
export type ImportedAsset = Pick<ReleaseAsset, 'name' | 'label' | 'contentType' | 'uploaderId' | 'downloadCount' | 'createdAt' | 'updatedAt'>;

/**
 * Puts an asset on a release the import made, in the caller's transaction. The file is
 * in place before the row commits: when the transaction fails, the caller removes the
 * repository's asset files (removeImportedAssetFiles).
 */
export async function importAsset(tx: AppContext, repositoryId: number, releaseId: number, a: ImportedAsset, source: string): Promise<number> {
  const staged = await files.stageCopy(tx, repositoryId, source);
  try {
    const asset = await store.insertAsset(tx.db, {
      releaseId, repositoryId, name: a.name, label: a.label, contentType: a.contentType, size: staged.size, digest: staged.digest, uploaderId: a.uploaderId,
    }, a.createdAt);
    if (a.downloadCount !== 0 || a.updatedAt !== a.createdAt) await store.setImportedAssetFacts(tx.db, asset.id, { downloadCount: a.downloadCount, updatedAt: a.updatedAt });
    await files.keep(tx, staged, repositoryId, asset.id);
    return asset.id;
  } catch (err) {
    await files.discard(staged);
    throw err;
  }
}

/** Removes the asset files of repositories an import made and takes back out (their rows go with the repository). */
export async function removeImportedAssetFiles(ctx: AppContext, repositoryIds: readonly number[]): Promise<void> {
  for (const id of repositoryIds) await files.removeRepository(ctx, id);
}

/** Where an asset's bytes are: an export streams them into its archive from there. */
export function assetFilePath(ctx: AppContext, repositoryId: number, assetId: number): string {
  return files.fileOf(ctx, repositoryId, assetId);
}
