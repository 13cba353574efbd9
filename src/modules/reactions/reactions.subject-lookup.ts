// Repository subjects of reactions, looked up through the services that own them:
// issues and issue comments (issues), pull request review comments (pulls). The
// owners answer NotFoundError for a subject that is not there, and GoneError (410,
// as upstream) for issues and their comments while issues are disabled.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { requireCommentInRepo } from '../issues/comments.service.ts';
import { requireIssue } from '../issues/issues.service.ts';
import { requireReviewComment } from '../pulls/review-comments.service.ts';
import type { Repo } from '../repos/repos.model.ts';

export type RepositorySubjectRef =
  | { kind: 'issue'; owner: string; repo: string; number: number }
  | { kind: 'issue_comment'; owner: string; repo: string; commentId: number }
  | { kind: 'pull_request_review_comment'; owner: string; repo: string; commentId: number };

/** The id of the subject in `repo` (the repository the caller located from the ref). */
export async function repositorySubject(ctx: AppContext, actor: Actor, repo: Repo, ref: RepositorySubjectRef): Promise<number> {
  switch (ref.kind) {
    case 'issue':
      return (await requireIssue(ctx, repo, ref.number)).id;
    case 'issue_comment':
      return (await requireCommentInRepo(ctx, repo, ref.commentId)).id;
    case 'pull_request_review_comment':
      return (await requireReviewComment(ctx, actor, repo.owner.login, repo.name, ref.commentId)).comment.id;
  }
}
