// Import-shaped entry point for migration archives (migration-import): a pull request
// put in with the archive's number, author, state, merge facts and timestamps, over
// commits the repository's imported git data already holds; then its submitted reviews
// and their comments. No actor and no events.
import { inTransaction, type AppContext } from '../../context.ts';
import { mergeBase } from '../../git/compare.ts';
import * as git from '../../git/repository.ts';
import { importIssue, type ImportedIssue } from '../issues/issues.import.ts';
import type { IssueRecord } from '../issues/issues.model.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { pinHead } from './pulls.git.ts';
import type { ReviewCommentRecord, ReviewState } from './pulls.model.ts';
import * as store from './pulls.store.ts';
import * as reviewStore from './reviews.store.ts';

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

export interface ImportedReview {
  userId: number;
  state: Exclude<ReviewState, 'PENDING'>;
  body: string;
  commitId: string;
  submittedAt: string | null;
  createdAt: string;
}

/** A submitted review of an imported pull request, with the archive's dates; answers its id. */
export async function importReview(tx: AppContext, pull: { id: number; repositoryId: number }, r: ImportedReview): Promise<number> {
  const made = await reviewStore.insertReview(tx.db, {
    pullRequestId: pull.id, repositoryId: pull.repositoryId, userId: r.userId, state: r.state, body: r.body, commitId: r.commitId, submittedAt: r.submittedAt,
  }, r.createdAt);
  return made.id;
}

export interface ImportedReviewComment extends Pick<ReviewCommentRecord,
  'userId' | 'body' | 'path' | 'commitId' | 'originalCommitId' | 'diffHunk' | 'position' | 'line' | 'side' | 'startLine' | 'startSide' | 'subjectType'> {
  /** The imported comment this one answers (already imported: replies come after what they answer). */
  inReplyToId: number | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * A comment of an imported review; answers its id. The store keeps the original
 * position and lines equal to the current ones, so an outdated comment comes back
 * with those of its last place.
 */
export async function importReviewComment(tx: AppContext, pull: { id: number; repositoryId: number }, reviewId: number, c: ImportedReviewComment): Promise<number> {
  const [made] = await reviewStore.insertComments(tx.db, [{
    pullRequestId: pull.id, repositoryId: pull.repositoryId, reviewId, userId: c.userId, inReplyToId: c.inReplyToId, body: c.body, path: c.path,
    commitId: c.commitId, originalCommitId: c.originalCommitId, diffHunk: c.diffHunk, position: c.position, line: c.line, side: c.side,
    startLine: c.startLine, startSide: c.startSide, subjectType: c.subjectType,
  }], c.createdAt);
  // Inserted with its creation date for both; an edited comment gets its later one back.
  if (c.updatedAt !== c.createdAt) await reviewStore.updateComment(tx.db, made!.id, c.body, c.updatedAt);
  return made!.id;
}

/** The pull request row behind an imported pull request's issue. */
export async function pullOfIssue(tx: AppContext, repo: Repo, number: number): Promise<{ id: number; repositoryId: number } | null> {
  const found = await store.findByNumber(tx.db, repo.id, number);
  return found ? { id: found.id, repositoryId: repo.id } : null;
}
