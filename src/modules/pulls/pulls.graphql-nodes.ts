// The GraphQL objects of the pulls area and the per-request loaders behind them,
// shared by the resolvers of pull requests, reviews and the mutations. A node is only
// made for a pull request of a repository the caller may read (reached through a
// RepositoryNode, or checked here through repositoryById).
import type { GraphQLContext } from '../../graphql/context.ts';
import { defineLoader, defineMapLoader, load, prime } from '../../graphql/loaders.ts';
import { issueRecordById } from '../issues/issues.graphql-helpers.ts';
import type { IssueRecord } from '../issues/issues.model.ts';
import type { Repo } from '../repos/repos.model.ts';
import { repositoryById } from '../repos/repos.resolvers.ts';
import type { PullRequestRecord, ReviewCommentRecord, ReviewRecord, ReviewRequestRecord } from './pulls.model.ts';
import { pullFigures, type FullPull } from './pulls.present.ts';
import { submittedReviewsByPull } from './pulls.protection.ts';
import * as pulls from './pulls.service.ts';
import * as requests from './review-requests.service.ts';
import * as reviews from './reviews.service.ts';

export interface PullRequestNode {
  __typename: 'PullRequest';
  repo: Repo;
  pull: PullRequestRecord;
  issue: IssueRecord;
}

export interface ReviewNode {
  __typename: 'PullRequestReview';
  pr: PullRequestNode;
  review: ReviewRecord;
}

export interface ReviewCommentNode {
  __typename: 'PullRequestReviewComment';
  pr: PullRequestNode;
  comment: ReviewCommentRecord;
}

export interface ReviewRequestNode {
  __typename: 'ReviewRequest';
  pr: PullRequestNode;
  request: ReviewRequestRecord;
}

export function pullRequestNode(repo: Repo, pull: PullRequestRecord, issue: IssueRecord): PullRequestNode {
  return { __typename: 'PullRequest', repo, pull, issue };
}

export function reviewNode(pr: PullRequestNode, review: ReviewRecord): ReviewNode {
  return { __typename: 'PullRequestReview', pr, review };
}

export function reviewCommentNode(pr: PullRequestNode, comment: ReviewCommentRecord): ReviewCommentNode {
  return { __typename: 'PullRequestReviewComment', pr, comment };
}

export function reviewRequestNode(pr: PullRequestNode, request: ReviewRequestRecord): ReviewRequestNode {
  return { __typename: 'ReviewRequest', pr, request };
}

// ---------------------------------------------------------------- loaders

/** Pull request records by id, without any check (visiblePull checks the repository). */
const pullRecordById = defineMapLoader('pullRecordById', async (g, ids: readonly number[]) =>
  new Map((await pulls.findPullsByIds(g.ctx, ids)).map((p) => [p.id, p])));

/** The pull request with this id, if its repository is one the caller may read. */
export async function visiblePull(g: GraphQLContext, pullId: number): Promise<PullRequestNode | null> {
  const pull = await load(g, pullRecordById, pullId);
  if (!pull) return null;
  const [issue, repo] = await Promise.all([load(g, issueRecordById, pull.issueId), load(g, repositoryById, pull.repositoryId)]);
  return issue && repo ? pullRequestNode(repo.repo, pull, issue) : null;
}

/** Seeds the loaders with records a list or a mutation already holds. */
export function primePull(g: GraphQLContext, node: PullRequestNode): void {
  prime(g, pullRecordById, node.pull.id, node.pull);
  prime(g, issueRecordById, node.issue.id, node.issue);
}

/**
 * Git figures and mergeability of a pull request: one comparison per pull request,
 * and only when a field asks for them.
 */
export const figuresOf = defineLoader('pullFigures',
  async (g, list: readonly PullRequestNode[]): Promise<FullPull[]> => {
    // The page's approvals (mergeable_state weighs them) in one query, not one per pull request.
    const submitted = await submittedReviewsByPull(g.ctx, list.map((p) => p.pull.id));
    return Promise.all(list.map((p) => pullFigures(g.ctx, p.repo, p.pull, p.issue, submitted.get(p.pull.id))));
  },
  (p: PullRequestNode) => p.pull.id);

/** Reviews of each pull request as the viewer sees them (their own pending one included), in order. */
export const reviewsOfPull = defineLoader('reviewsOfPull', async (g, ids: readonly number[]) => {
  const all = await reviews.reviewsOfPulls(g.ctx, ids, g.user.id);
  return ids.map((id) => all.filter((r) => r.pullRequestId === id));
});

export const reviewRequestsOfPull = defineLoader('reviewRequestsOfPull', async (g, ids: readonly number[]) => {
  const all = await requests.reviewRequestsOf(g.ctx, ids);
  return ids.map((id) => all.filter((r) => r.pullRequestId === id));
});

/** Comments of each review, in order. */
export const commentsOfReview = defineLoader('commentsOfReview', async (g, ids: readonly number[]) => {
  const all = await reviews.commentsOfReviews(g.ctx, ids);
  return ids.map((id) => all.filter((c) => c.reviewId === id));
});

/** Reviews by id as the viewer sees them, without a repository check (the pull request's is made by visiblePull). */
export const reviewRecordById = defineMapLoader('reviewRecordById', async (g, ids: readonly number[]) =>
  new Map((await reviews.reviewsByIds(g.ctx, ids, g.user.id)).map((r) => [r.id, r])));

export const reviewCommentRecordById = defineMapLoader('reviewCommentRecordById', async (g, ids: readonly number[]) =>
  new Map((await reviews.reviewCommentsByIds(g.ctx, ids, g.user.id)).map((c) => [c.id, c])));

export const reviewRequestRecordById = defineMapLoader('reviewRequestRecordById', async (g, ids: readonly number[]) =>
  new Map((await requests.reviewRequestsByIds(g.ctx, ids)).map((r) => [r.id, r])));

export async function visibleReview(g: GraphQLContext, id: number): Promise<ReviewNode | null> {
  const review = await load(g, reviewRecordById, id);
  const pr = review ? await visiblePull(g, review.pullRequestId) : null;
  return review && pr ? reviewNode(pr, review) : null;
}

export async function visibleReviewComment(g: GraphQLContext, id: number): Promise<ReviewCommentNode | null> {
  const comment = await load(g, reviewCommentRecordById, id);
  const pr = comment ? await visiblePull(g, comment.pullRequestId) : null;
  return comment && pr ? reviewCommentNode(pr, comment) : null;
}

export async function visibleReviewRequest(g: GraphQLContext, id: number): Promise<ReviewRequestNode | null> {
  const request = await load(g, reviewRequestRecordById, id);
  const pr = request ? await visiblePull(g, request.pullRequestId) : null;
  return request && pr ? reviewRequestNode(pr, request) : null;
}

/** /owner/name/pull/N */
export function pullPath(p: PullRequestNode): string {
  return `/${p.repo.owner.login}/${p.repo.name}/pull/${p.pull.number}`;
}
