// The reviews of a repository's imported pull requests and their comments, through the
// pulls module's import entry points. Archive ids are the source's: reviews and replies
// are matched through maps from those to the ids made here. A review of a pull request
// the import skipped (its commits missing) is skipped with it. Answers the id here of
// each review and review comment by its archive id (dismissal events name the review,
// reactions go on the comments).
import type { AppContext } from '../../context.ts';
import { importReview, importReviewComment, pullOfIssue } from '../pulls/pulls.import.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { Account } from '../users/users.model.ts';
import type { ReviewCommentRecord, ReviewRecord } from './import.records.ts';

export async function importReviews(
  tx: AppContext, repo: Repo, imported: ReadonlySet<number>, reviews: readonly ReviewRecord[], comments: readonly ReviewCommentRecord[],
  who: (login: string | null) => Account,
): Promise<{ reviewIds: Map<number, number>; commentIds: Map<number, number> }> {
  const pulls = new Map<number, { id: number; repositoryId: number }>();
  const pullOf = async (n: number) => {
    if (!imported.has(n)) return null;
    if (!pulls.has(n)) {
      const p = await pullOfIssue(tx, repo, n);
      if (!p) return null;
      pulls.set(n, p);
    }
    return pulls.get(n)!;
  };
  const reviewIds = new Map<number, number>();
  // Source ids grow with creation: in that order, the pull request's review list reads as it did.
  for (const r of [...reviews].sort((a, b) => a.sourceId - b.sourceId)) {
    const pull = await pullOf(r.pullNumber);
    if (!pull) continue;
    reviewIds.set(r.sourceId, await importReview(tx, pull, {
      userId: who(r.user).id, state: r.state, body: r.body, commitId: r.commitId, submittedAt: r.submittedAt, createdAt: r.createdAt,
    }));
  }
  const commentIds = new Map<number, number>();
  // Replies come after what they answer, so their in_reply_to is known when they go in.
  for (const c of [...comments].sort((a, b) => a.sourceId - b.sourceId)) {
    const pull = await pullOf(c.pullNumber);
    const reviewId = reviewIds.get(c.reviewSourceId);
    if (!pull || reviewId === undefined) continue;
    commentIds.set(c.sourceId, await importReviewComment(tx, pull, reviewId, {
      userId: who(c.user).id, body: c.body, path: c.path, commitId: c.commitId, originalCommitId: c.originalCommitId, diffHunk: c.diffHunk,
      position: c.position, line: c.line, side: c.side, startLine: c.startLine, startSide: c.startSide, subjectType: c.subjectType,
      inReplyToId: c.inReplyTo === null ? null : commentIds.get(c.inReplyTo) ?? null, createdAt: c.createdAt, updatedAt: c.updatedAt,
    }));
  }
  return { reviewIds, commentIds };
}
