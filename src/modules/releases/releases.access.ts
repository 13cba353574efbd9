// Who may do what with releases: reading needs read access to the repository, and
// drafts are shown only to those with push access (upstream hides them from readers);
// writing needs push access and a repository that is not archived.
import type { AppContext } from '../../context.ts';
import { requireUser, type Actor } from '../../domain/actor.ts';
import { ForbiddenError, NotFoundError } from '../../domain/errors.ts';
import type { GitRepo } from '../git-data/git-data.repository.ts';
import { roleAtLeast, type Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import type { Release } from './releases.model.ts';
import * as store from './releases.store.ts';

export interface ReadableRepo {
  repo: Repo;
  /** The caller may see drafts (push access). */
  seesDrafts: boolean;
}

export async function forReading(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<ReadableRepo> {
  const { repo, access } = await repos.locate(ctx, actor, owner, name, 'pull');
  return { repo, seesDrafts: roleAtLeast(access.effective, 'push') };
}

export async function forWriting(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<GitRepo> {
  requireUser(actor);
  const { repo, access } = await repos.locate(ctx, actor, owner, name, 'pull');
  await repos.requireRole(ctx, actor, repo, 'push');
  if (repo.archived) throw new ForbiddenError('Repository was archived so is read-only.');
  return { repo, access, dir: repos.gitDir(ctx, repo) };
}

/** The release, if the caller may see it (a draft is 404 to readers). */
export async function requireRelease(ctx: AppContext, r: { repo: Repo; seesDrafts: boolean }, id: number): Promise<Release> {
  const release = await store.findRelease(ctx.db, r.repo.id, id);
  if (!release || (release.draft && !r.seesDrafts)) throw new NotFoundError();
  return release;
}

/** Whether the caller may see the drafts of a repository they may read (GraphQL node ids). */
export async function seesDraftsOf(ctx: AppContext, actor: Actor, repo: Repo): Promise<boolean> {
  return roleAtLeast((await repos.accessTo(ctx, actor, repo)).effective, 'push');
}
