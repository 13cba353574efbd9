// Repository subjects of reactions, looked up through the services that own them:
// issues and issue comments (issues), releases (releases), pull request review comments (pulls, through the
// bus: pulls imports reactions, so reactions may not import pulls). The owners answer
// NotFoundError for a subject that is not there, and GoneError (410, as upstream) for
// issues and their comments while issues are disabled.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { requireCommentInRepo } from '../issues/comments.service.ts';
import { requireIssue } from '../issues/issues.service.ts';
import { getRelease } from '../releases/releases.service.ts';
import type { Repo } from '../repos/repos.model.ts';

export type RepositorySubjectRef =
  | { kind: 'issue'; owner: string; repo: string; number: number }
  | { kind: 'issue_comment'; owner: string; repo: string; commentId: number }
  | { kind: 'pull_request_review_comment'; owner: string; repo: string; commentId: number }
  | { kind: 'pull_request_review'; owner: string; repo: string; reviewId: number }
  | { kind: 'release'; owner: string; repo: string; releaseId: number };

/** The id of review comment (or review) `id` of the repository, as the caller may see it. */
export type ReviewCommentSubjectProvider = (ctx: AppContext, actor: Actor, owner: string, name: string, commentId: number) => Promise<number>;

declare module '../../events/bus.ts' {
  interface Providers {
    /** The pulls module's: review comments as subjects of reactions. */
    reviewCommentSubject: ReviewCommentSubjectProvider;
    /** The pulls module's: submitted reviews as subjects of reactions (GraphQL only, as upstream). */
    reviewSubject: ReviewCommentSubjectProvider;
  }
}

/** The id of the subject in `repo` (the repository the caller located from the ref). */
export async function repositorySubject(ctx: AppContext, actor: Actor, repo: Repo, ref: RepositorySubjectRef): Promise<number> {
  switch (ref.kind) {
    case 'issue':
      return (await requireIssue(ctx, repo, ref.number)).id;
    case 'issue_comment':
      return (await requireCommentInRepo(ctx, repo, ref.commentId)).id;
    case 'pull_request_review_comment': {
      const provider = ctx.bus.provider('reviewCommentSubject');
      if (!provider) throw new NotFoundError();
      return provider(ctx, actor, repo.owner.login, repo.name, ref.commentId);
    }
    case 'release':
      // A draft is 404 to those who may not see it, as the release itself is.
      return (await getRelease(ctx, actor, repo.owner.login, repo.name, ref.releaseId)).release.id;
    case 'pull_request_review': {
      const provider = ctx.bus.provider('reviewSubject');
      if (!provider) throw new NotFoundError();
      return provider(ctx, actor, repo.owner.login, repo.name, ref.reviewId);
    }
  }
}
