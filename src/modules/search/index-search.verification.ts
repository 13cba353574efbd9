// The verification of the commits a commit search page shows: Wharf's own result for
// each commit, as the commits API gives it, read with one git process per repository
// on the page, never one per commit.
import type { AppContext } from '../../context.ts';
import { commitsOfRepository } from '../git-data/git-data.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { Verification } from '../verification/verification.service.ts';

/** The key of a commit of a repository in the map verificationsOf answers. */
export function commitKey(repositoryId: number, sha: string): string {
  return `${repositoryId}:${sha}`;
}

/** By commitKey: the verification of each commit found (one the repository no longer holds is absent). */
export async function verificationsOf(
  ctx: AppContext, commits: readonly { repositoryId: number; sha: string }[], repos: ReadonlyMap<number, Repo>,
): Promise<Map<string, Verification>> {
  const byRepo = new Map<number, string[]>();
  for (const c of commits) byRepo.set(c.repositoryId, [...byRepo.get(c.repositoryId) ?? [], c.sha]);
  const out = new Map<string, Verification>();
  await Promise.all([...byRepo].map(async ([id, shas]) => {
    const repo = repos.get(id);
    if (!repo) return;
    for (const [sha, data] of await commitsOfRepository(ctx, repo, shas)) out.set(commitKey(id, sha), data.verification);
  }));
  return out;
}
