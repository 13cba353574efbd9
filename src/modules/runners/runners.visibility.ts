// The one rule for which repositories may use a runner group's runners: a repository of
// the group's organization, that the group's visibility reaches (all; selected, with the
// repository among them; private, with it private), and, when the repository is public,
// only if the group allows public repositories. Used by `visible_to_repository` and when
// a runner takes a job.
import type { Repo } from '../repos/repos.model.ts';
import type { RunnerGroup } from './runners.model.ts';

export function groupVisibleTo(group: RunnerGroup, selectedRepositoryIds: readonly number[], repo: Repo): boolean {
  if (repo.ownerId !== group.organizationId) return false;
  const isPublic = repo.visibility === 'public';
  if (isPublic && !group.allowsPublicRepositories) return false;
  if (group.visibility === 'selected') return selectedRepositoryIds.includes(repo.id);
  if (group.visibility === 'private') return !isPublic;
  return true;
}

/**
 * Whether a group restricted to workflows lets this one run: its entries name
 * `owner/repo/path@ref` (or, without `@`, any ref of that file).
 */
export function workflowAllowed(group: RunnerGroup, repo: Repo, workflowPath: string, ref: string | null): boolean {
  if (!group.restrictedToWorkflows) return true;
  const file = `${repo.owner.login}/${repo.name}/${workflowPath}`.toLowerCase();
  return group.selectedWorkflows.some((entry) => {
    const e = entry.toLowerCase();
    const at = e.lastIndexOf('@');
    if (at < 0) return e === file;
    return e.slice(0, at) === file && ref !== null && e.slice(at + 1) === ref.toLowerCase();
  });
}
