// Import-shaped entry points for migration archives (migration-import): a repository
// put in as the archive describes it (settings, timestamps, the fork it is) with the
// archive's git data, and its way back out for a failed import. No actor, no
// `repository` or `fork` event: the site admin or operator running the import decided,
// and nobody pushed anything.
import { inTransaction, type AppContext } from '../../context.ts';
import { ValidationError } from '../../domain/errors.ts';
import { fetchRefs } from '../../git/copy.ts';
import { lfsDir, removeLfsDir } from '../../git/lfs-store.ts';
import * as git from '../../git/repository.ts';
import type { Account } from '../users/users.model.ts';
import { detectRepositoryLicense } from './repos.license-detect.ts';
import { languagesAt, primaryLanguage } from './repos.languages.ts';
import type { Repo, RepoRecord, RepoSettings } from './repos.model.ts';
import { findForGit } from './repos.service.ts';
import { validateRepoName } from './repos.names.ts';
import * as store from './repos.store.ts';

export interface ImportedRepo extends Partial<Omit<RepoSettings, 'visibility' | 'defaultBranch'>> {
  name: string;
  visibility: RepoSettings['visibility'];
  defaultBranch: string;
  createdAt: string;
  updatedAt: string;
  pushedAt: string | null;
  /** A fork: the parent it is linked to when that is here (else it goes in as a plain repository). */
  forkOf?: ForkParent | null;
}

/** An imported fork's parent: the repository the same import made of it, else the one of that full name here. */
export interface ForkParent {
  importedId: number | null;
  /** "owner/name" as the archive names it. */
  fullName: string;
}

/** The parent here, or null: neither imported nor present (a renamed one is found under its old name). */
async function parentHere(tx: AppContext, p: ForkParent): Promise<RepoRecord | null> {
  if (p.importedId !== null) {
    const made = await store.findById(tx.db, p.importedId);
    if (made) return made;
  }
  const [login, name] = p.fullName.split('/');
  if (!login || !name) return null;
  return findForGit(tx, login, name);
}

/** Whether `owner` has a repository named `name` (any case). */
export async function repositoryNameTaken(ctx: AppContext, ownerId: number, name: string): Promise<boolean> {
  return (await store.findByOwnerAndName(ctx.db, ownerId, name)) !== null;
}

/**
 * Creates the repository with every ref of the bare repository at `gitSource` (null:
 * the archive has no git data for it, so it starts empty), a fork of `r.forkOf` when
 * that parent is here (its source the parent's source). Runs in the caller's
 * transaction when there is one; the git directory is removed again when this fails
 * (when the caller's transaction fails later, the caller removes it: removeImportedRepositoryFiles).
 */
export async function importRepository(ctx: AppContext, owner: Account, r: ImportedRepo, gitSource: string | null): Promise<Repo> {
  validateRepoName(r.name);
  let createdId: number | null = null;
  try {
    return await inTransaction(ctx, async (tx) => {
      if (await store.findByOwnerAndName(tx.db, owner.id, r.name)) {
        throw new ValidationError([{ resource: 'Repository', field: 'name', code: 'custom', message: 'name already exists on this account' }]);
      }
      const { createdAt, updatedAt, pushedAt, forkOf, ...settings } = r;
      const parent = forkOf ? await parentHere(tx, forkOf) : null;
      const lineage = parent ? { isFork: true, parentId: parent.id, sourceId: parent.sourceId ?? parent.id } : {};
      const record = await store.insert(tx.db, { ...settings, ...lineage, ownerId: owner.id, now: createdAt });
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
    await removeImportedRepositoryFiles(ctx, [id]);
  }
}

/**
 * Removes what imported repositories hold on disk (git data, LFS objects) once the
 * transaction that made their rows rolled back: nothing else would, and on SQLite the
 * next repository made would get the id, and with it the leftover directory.
 */
export async function removeImportedRepositoryFiles(ctx: AppContext, ids: readonly number[]): Promise<void> {
  for (const id of ids) {
    await git.removeRepo(git.repoDir(ctx.config.dataDir, id));
    await removeLfsDir(lfsDir(ctx.config.dataDir, id));
  }
}
