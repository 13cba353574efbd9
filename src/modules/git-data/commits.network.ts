// Commits of a fork network. Upstream keeps one object store per network, so a commit
// pushed only to a fork reads through its parent's URLs (and any relative's) too. Wharf
// keeps each repository's objects apart (a fork is a copy made when forking), so when a
// repository lacks a commit named by its full sha, this looks in the other repositories
// of its network that the caller may read, never in one they cannot: a private fork's
// commits do not show through a relative the caller reads. Reads only; nothing is
// copied into the repository asked.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { isSha } from '../../git/object-format.ts';
import { objectInfo } from '../../git/objects.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';

/**
 * The git directory of the readable relative of `repo` holding the commit `sha` (a full
 * sha: an abbreviation is resolved in the repository asked only, as it could name
 * different objects in different relatives), or null.
 */
export async function networkCommitDir(ctx: AppContext, actor: Actor, repo: Repo, sha: string): Promise<string | null> {
  const oid = sha.toLowerCase();
  if (!isSha(oid)) return null;
  for (const relative of await repos.readableNetworkRelatives(ctx, actor, repo)) {
    const dir = repos.gitDir(ctx, relative);
    if ((await objectInfo(dir, [oid])).get(oid)?.type === 'commit') return dir;
  }
  return null;
}

/** `sha` in full (lower case) when a readable relative of `repo` holds that commit, else null. */
export async function networkCommitSha(ctx: AppContext, actor: Actor, repo: Repo, sha: string): Promise<string | null> {
  return (await networkCommitDir(ctx, actor, repo, sha)) ? sha.toLowerCase() : null;
}
