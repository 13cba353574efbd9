// Import-shaped entry point for migration archives (migration-import): a pull request
// put in with the archive's number, author, state, merge facts and timestamps, over
// commits the repository's imported git data already holds. No actor and no events.
import { inTransaction, type AppContext } from '../../context.ts';
import { mergeBase } from '../../git/compare.ts';
import * as git from '../../git/repository.ts';
import { importIssue, type ImportedIssue } from '../issues/issues.import.ts';
import type { IssueRecord } from '../issues/issues.model.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { pinHead } from './pulls.git.ts';
import * as store from './pulls.store.ts';

export interface ImportedPull {
  issue: Omit<ImportedIssue, 'isPullRequest'>;
  /** The head repository when the archive brought it along; otherwise the base (the head commit is pinned there). */
  headRepositoryId: number | null;
  headRef: string;
  headSha: string;
  baseRef: string;
  baseSha: string;
  draft: boolean;
  maintainerCanModify: boolean;
  mergedAt: string | null;
  mergedById: number | null;
  mergeCommitSha: string | null;
}

/** Whether the repository's git data has both ends of the pull request. */
export async function hasCommits(ctx: AppContext, repo: Repo, p: Pick<ImportedPull, 'headSha' | 'baseSha'>): Promise<boolean> {
  const dir = repos.gitDir(ctx, repo);
  const [head, base] = await Promise.all([git.resolve(dir, `${p.headSha}^{commit}`), git.resolve(dir, `${p.baseSha}^{commit}`)]);
  return head !== null && base !== null;
}

/** Creates the pull request (hasCommits must hold) and pins its head at refs/pull/{n}/head; answers its issue row. */
export async function importPull(ctx: AppContext, repo: Repo, p: ImportedPull): Promise<IssueRecord> {
  const foundBase = await mergeBase(repos.gitDir(ctx, repo), p.baseSha, p.headSha);
  return inTransaction(ctx, async (tx) => {
    const issue = await importIssue(tx, repo.id, { ...p.issue, isPullRequest: true });
    const pull = await store.insert(tx.db, {
      issueId: issue.id, repositoryId: repo.id, number: issue.number, headRepositoryId: p.headRepositoryId ?? repo.id,
      headRef: p.headRef, headSha: p.headSha, baseRef: p.baseRef, baseSha: p.baseSha, mergeBaseSha: foundBase,
      draft: p.draft, maintainerCanModify: p.maintainerCanModify,
    }, issue.createdAt);
    await store.update(tx.db, pull.id, { mergedAt: p.mergedAt, mergedById: p.mergedById, mergeCommitSha: p.mergeCommitSha }, issue.updatedAt);
    await pinHead(tx, repo, issue.number, p.headSha);
    return issue;
  });
}
