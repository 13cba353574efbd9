// Import-shaped entry points for migration archives (migration-import): a repository
// put in as the archive describes it (settings, timestamps) with the archive's git
// data, and its way back out for a failed import. No actor, no `repository` event: the
// site admin or operator running the import decided, and nobody pushed anything.
import { inTransaction, type AppContext } from '../../context.ts';
import { ValidationError } from '../../domain/errors.ts';
import { fetchRefs } from '../../git/copy.ts';
import { lfsDir, removeLfsDir } from '../../git/lfs-store.ts';
import * as git from '../../git/repository.ts';
import type { Account } from '../users/users.model.ts';
import { detectRepositoryLicense } from './repos.license-detect.ts';
import { languagesAt, primaryLanguage } from './repos.languages.ts';
import type { Repo, RepoSettings } from './repos.model.ts';
import { validateRepoName } from './repos.names.ts';
import * as store from './repos.store.ts';

export interface ImportedRepo extends Partial<Omit<RepoSettings, 'visibility' | 'defaultBranch'>> {
  name: string;
  visibility: RepoSettings['visibility'];
  defaultBranch: string;
  createdAt: string;
  updatedAt: string;
  pushedAt: string | null;
}

/** Whether `owner` has a repository named `name` (any case). */
export async function repositoryNameTaken(ctx: AppContext, ownerId: number, name: string): Promise<boolean> {
  return (await store.findByOwnerAndName(ctx.db, ownerId, name)) !== null;
}

/**
 * Creates the repository with every ref of the bare repository at `gitSource` (null:
 * the archive has no git data for it, so it starts empty). Runs in the caller's
 * transaction when there is one; the git directory is removed again when it fails.
 */
export async function importRepository(ctx: AppContext, owner: Account, r: ImportedRepo, gitSource: string | null): Promise<Repo> {
  validateRepoName(r.name);
  let createdId: number | null = null;
  try {
    return await inTransaction(ctx, async (tx) => {
      if (await store.findByOwnerAndName(tx.db, owner.id, r.name)) {
        throw new ValidationError([{ resource: 'Repository', field: 'name', code: 'custom', message: 'name already exists on this account' }]);
      }
      const { createdAt, updatedAt, pushedAt, ...settings } = r;
      const record = await store.insert(tx.db, { ...settings, ownerId: owner.id, now: createdAt });
      createdId = record.id;
      const dir = git.repoDir(ctx.config.dataDir, record.id);
      await git.initBare(dir, r.defaultBranch);
      if (gitSource !== null) await fetchRefs(dir, gitSource, ['+refs/*:refs/*']);
      await store.removeRedirect(tx.db, `${owner.login}/${r.name}`.toLowerCase());
      const derived = gitSource === null ? {} : {
        sizeKb: await git.sizeKb(dir),
        licenseKey: await detectRepositoryLicense(dir, r.defaultBranch),
        language: primaryLanguage(await languagesAt(dir, r.defaultBranch)),
      };
      const updated = await store.update(tx.db, record.id, { ...derived, pushedAt }, updatedAt);
      return { ...updated, owner };
    });
  } catch (err) {
    if (createdId !== null) await git.removeRepo(git.repoDir(ctx.config.dataDir, createdId));
    throw err;
  }
}

/** Removes repositories an import created (their rows, with everything hanging off them, and their git data). */
export async function removeImportedRepositories(ctx: AppContext, ids: readonly number[]): Promise<void> {
  for (const id of ids) {
    await store.remove(ctx.db, id);
    await git.removeRepo(git.repoDir(ctx.config.dataDir, id));
    await removeLfsDir(lfsDir(ctx.config.dataDir, id));
  }
}
