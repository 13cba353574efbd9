// Source archives of a ref (a release's zipball_url and tarball_url): the tree of the
// commit the ref names, made by git archive. Read access, as the repository.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { archiveCommit, type ArchiveFormat } from '../../git/archive.ts';
import { peel } from '../../git/objects.ts';
import { isPlainRevision } from '../git-data/git-data.repository.ts';
import * as repos from '../repos/repos.service.ts';

export interface Archive {
  bytes: Buffer;
  /** The file name a browser saves it under. */
  fileName: string;
}

/** `ref`: a branch, tag, full ref name or sha; empty for the default branch. */
export async function archiveOf(ctx: AppContext, actor: Actor, owner: string, name: string, ref: string, format: ArchiveFormat): Promise<Archive> {
  const { repo } = await repos.locate(ctx, actor, owner, name, 'pull');
  const dir = repos.gitDir(ctx, repo);
  const rev = ref === '' ? repo.defaultBranch : ref;
  const commit = isPlainRevision(rev) ? await peel(dir, rev, 'commit') : null;
  if (!commit) throw new NotFoundError();
  // Upstream's top folder and file name: owner-repo-<short sha>.
  const base = `${repo.owner.login}-${repo.name}-${commit.slice(0, 7)}`;
  const bytes = await archiveCommit(dir, commit, format, base);
  return { bytes, fileName: `${base}.${format === 'zip' ? 'zip' : 'tar.gz'}` };
}
