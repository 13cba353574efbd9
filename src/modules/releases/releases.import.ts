// Import-shaped entry point for migration archives (migration-import): a release put in
// as the archive has it (tag, target, texts, draft and prerelease, author, times) on a
// repository the import created. No actor, no events and no tag made: the archive's git
// data carries the tags its published releases had. Removing the repository removes it.
import type { AppContext } from '../../context.ts';
import type { Release } from './releases.model.ts';
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
