// GraphQL resolvers of reviews, review comments and review requests of pull requests.
// Their records come from the reviews and review-requests services, seen as the viewer
// sees them (someone else's pending review and its comments are not there).
import { arrayConnection, type ConnectionArgs } from '../../graphql/connection.ts';
import type { GraphQLContext, Typed } from '../../graphql/context.ts';
import { defineMapLoader, load } from '../../graphql/loaders.ts';
import type { FieldResolver } from '../../graphql/module.ts';
import { encodeNodeId, numericId, type NodeResolver } from '../../graphql/node-id.ts';
import { commitNode } from '../git-data/git-data.resolvers.ts';
import {
  authorAssociationOf, authorOf, bodyHtmlOf, bodyTextOf, reactionGroupsFor, reactionsConnectionFor,
  registerReactableNode, registerReactionSubject, viewerCanReactOn, viewerRole, type ReactionsArgs,
} from '../issues/issues.graphql-helpers.ts';
import * as orgs from '../orgs/orgs.service.ts';
import { repositoryNode } from '../repos/repos.resolvers.ts';
import { accountById, accountNode } from '../users/users.resolvers.ts';
import {
  commentsOfReview, pullPath, reviewCommentNode, reviewCommentRecordById, reviewNode, reviewRecordById, visibleReview,
  visibleReviewComment, visibleReviewRequest, type ReviewCommentNode, type ReviewNode, type ReviewRequestNode,
} from './pulls.graphql-nodes.ts';
import * as comments from './review-comments.service.ts';
import * as reviews from './reviews.service.ts';

const teamById = defineMapLoader('requestedTeamById', async (g, ids: readonly number[]) =>
  new Map((await orgs.teamsWithOrgLogins(g.ctx, ids)).map((t) => [t.team.id, t.team])));

// ---------------------------------------------------------------- reviews

const reviewPath = (r: ReviewNode) => `${pullPath(r.pr)}#pullrequestreview-${r.review.id}`;

/** The reviews service's rules: only its author edits a review, and deletes it while it is pending. */
async function reviewCannotUpdate(g: GraphQLContext, r: ReviewNode): Promise<string[]> {
  if (r.pr.repo.archived) return ['ARCHIVED'];
  return reviews.canEditReview(g.user.id, r.review) ? [] : ['INSUFFICIENT_ACCESS'];
}

const reviewFields = {
  id: (r: ReviewNode) => encodeNodeId('PullRequestReview', r.review.id),
  databaseId: (r: ReviewNode) => r.review.id,
  author: (r: ReviewNode, _a: unknown, g: GraphQLContext) => authorOf(g, r.review.userId),
  authorAssociation: (r: ReviewNode, _a: unknown, g: GraphQLContext) => authorAssociationOf(g, r.pr.repo, r.review.userId),
  body: (r: ReviewNode) => r.review.body,
  bodyHTML: (r: ReviewNode, _a: unknown, g: GraphQLContext) => bodyHtmlOf(g.ctx, r.pr.repo, r.review.body),
  bodyText: (r: ReviewNode) => bodyTextOf(r.review.body),
  state: (r: ReviewNode) => r.review.state,
  submittedAt: (r: ReviewNode) => r.review.submittedAt,
  publishedAt: (r: ReviewNode) => r.review.submittedAt,
  createdAt: (r: ReviewNode) => r.review.createdAt,
  updatedAt: (r: ReviewNode) => r.review.updatedAt,
  // Wharf keeps no edit history and takes no content by e-mail.
  createdViaEmail: () => false,
  editor: () => null,
  includesCreatedEdit: () => false,
  lastEditedAt: () => null,
  commit: (r: ReviewNode) => commitNode(r.pr.repo, r.review.commitId),
  comments: async (r: ReviewNode, args: ConnectionArgs, g: GraphQLContext) =>
    arrayConnection(await load(g, commentsOfReview, r.review.id), args, (c) => ({ node: reviewCommentNode(r.pr, c) })),
  pullRequest: (r: ReviewNode) => r.pr,
  repository: (r: ReviewNode) => repositoryNode(r.pr.repo),
  resourcePath: reviewPath,
  url: (r: ReviewNode, _a: unknown, g: GraphQLContext) => g.ctx.urls.raw(reviewPath(r)),
  viewerDidAuthor: (r: ReviewNode, _a: unknown, g: GraphQLContext) => r.review.userId === g.user.id,
  viewerCanUpdate: async (r: ReviewNode, _a: unknown, g: GraphQLContext) => (await reviewCannotUpdate(g, r)).length === 0,
  viewerCannotUpdateReasons: reviewCannotUpdate,
  viewerCanDelete: (r: ReviewNode, _a: unknown, g: GraphQLContext) => !r.pr.repo.archived && reviews.canDeleteReview(g.user.id, r.review),
  reactionGroups: (r: ReviewNode, _a: unknown, g: GraphQLContext) => reactionGroupsFor(g, r, 'pull_request_review', r.review.id),
  reactions: (r: ReviewNode, args: ReactionsArgs, g: GraphQLContext) => reactionsConnectionFor(g, r, 'pull_request_review', r.review.id, args),
  // A pending review is its author's draft: nobody reacts to it.
  viewerCanReact: async (r: ReviewNode, _a: unknown, g: GraphQLContext) =>
    r.review.state !== 'PENDING' && viewerCanReactOn(g, r.pr.repo, r.pr.issue.locked),
};

// ---------------------------------------------------------------- review comments

const commentPath = (c: ReviewCommentNode) => `${pullPath(c.pr)}#discussion_r${c.comment.id}`;

/** The review comments service's rule: the author, or push access. */
async function commentCannotUpdate(c: ReviewCommentNode, _a: unknown, g: GraphQLContext): Promise<string[]> {
  if (c.pr.repo.archived) return ['ARCHIVED'];
  // Its author needs no role: the viewer's role is loaded for others' comments only.
  if (comments.canChangeReviewComment(g.user.id, null, c.comment)) return [];
  return comments.canChangeReviewComment(g.user.id, await load(g, viewerRole, c.pr.repo), c.comment) ? [] : ['INSUFFICIENT_ACCESS'];
}

const reviewCommentFields = {
  id: (c: ReviewCommentNode) => encodeNodeId('PullRequestReviewComment', c.comment.id),
  databaseId: (c: ReviewCommentNode) => c.comment.id,
  author: (c: ReviewCommentNode, _a: unknown, g: GraphQLContext) => authorOf(g, c.comment.userId),
  authorAssociation: (c: ReviewCommentNode, _a: unknown, g: GraphQLContext) => authorAssociationOf(g, c.pr.repo, c.comment.userId),
  body: (c: ReviewCommentNode) => c.comment.body,
  bodyHTML: (c: ReviewCommentNode, _a: unknown, g: GraphQLContext) => bodyHtmlOf(g.ctx, c.pr.repo, c.comment.body),
  bodyText: (c: ReviewCommentNode) => bodyTextOf(c.comment.body),
  createdAt: (c: ReviewCommentNode) => c.comment.createdAt,
  updatedAt: (c: ReviewCommentNode) => c.comment.updatedAt,
  publishedAt: (c: ReviewCommentNode) => c.comment.createdAt,
  createdViaEmail: () => false,
  editor: () => null,
  includesCreatedEdit: () => false,
  lastEditedAt: () => null,
  commit: (c: ReviewCommentNode) => commitNode(c.pr.repo, c.comment.commitId),
  originalCommit: (c: ReviewCommentNode) => commitNode(c.pr.repo, c.comment.originalCommitId),
  diffHunk: (c: ReviewCommentNode) => c.comment.diffHunk,
  path: (c: ReviewCommentNode) => c.comment.path,
  line: (c: ReviewCommentNode) => c.comment.line,
  originalLine: (c: ReviewCommentNode) => c.comment.originalLine,
  startLine: (c: ReviewCommentNode) => c.comment.startLine,
  originalStartLine: (c: ReviewCommentNode) => c.comment.originalStartLine,
  // A line comment whose line the current diff no longer shows (REST's position null).
  outdated: (c: ReviewCommentNode) => c.comment.subjectType === 'line' && c.comment.position === null,
  subjectType: (c: ReviewCommentNode) => c.comment.subjectType.toUpperCase(),
  state: async (c: ReviewCommentNode, _a: unknown, g: GraphQLContext) =>
    ((await load(g, reviewRecordById, c.comment.reviewId))?.state === 'PENDING' ? 'PENDING' : 'SUBMITTED'),
  pullRequest: (c: ReviewCommentNode) => c.pr,
  pullRequestReview: async (c: ReviewCommentNode, _a: unknown, g: GraphQLContext) => {
    const review = await load(g, reviewRecordById, c.comment.reviewId);
    return review ? reviewNode(c.pr, review) : null;
  },
  replyTo: async (c: ReviewCommentNode, _a: unknown, g: GraphQLContext) => {
    const parent = c.comment.inReplyToId === null ? null : await load(g, reviewCommentRecordById, c.comment.inReplyToId);
    return parent ? reviewCommentNode(c.pr, parent) : null;
  },
  repository: (c: ReviewCommentNode) => repositoryNode(c.pr.repo),
  resourcePath: commentPath,
  url: (c: ReviewCommentNode, _a: unknown, g: GraphQLContext) => g.ctx.urls.raw(commentPath(c)),
  viewerDidAuthor: (c: ReviewCommentNode, _a: unknown, g: GraphQLContext) => c.comment.userId === g.user.id,
  viewerCannotUpdateReasons: commentCannotUpdate,
  viewerCanUpdate: async (c: ReviewCommentNode, a: unknown, g: GraphQLContext) => (await commentCannotUpdate(c, a, g)).length === 0,
  viewerCanDelete: async (c: ReviewCommentNode, a: unknown, g: GraphQLContext) => (await commentCannotUpdate(c, a, g)).length === 0,
  reactionGroups: (c: ReviewCommentNode, _a: unknown, g: GraphQLContext) => reactionGroupsFor(g, c, 'pull_request_review_comment', c.comment.id),
  reactions: (c: ReviewCommentNode, args: ReactionsArgs, g: GraphQLContext) => reactionsConnectionFor(g, c, 'pull_request_review_comment', c.comment.id, args),
  viewerCanReact: (c: ReviewCommentNode, _a: unknown, g: GraphQLContext) => viewerCanReactOn(g, c.pr.repo, c.pr.issue.locked),
};

// ---------------------------------------------------------------- review requests

const reviewRequestFields = {
  id: (r: ReviewRequestNode) => encodeNodeId('ReviewRequest', r.request.id),
  databaseId: (r: ReviewRequestNode) => r.request.id,
  // Wharf never requests code owners' reviews by itself (CODEOWNERS only gates merges).
  asCodeOwner: () => false,
  pullRequest: (r: ReviewRequestNode) => r.pr,
  requestedReviewer: async (r: ReviewRequestNode, _a: unknown, g: GraphQLContext): Promise<Typed | null> => {
    if (r.request.userId !== null) {
      const a = await load(g, accountById, r.request.userId);
      return a ? accountNode(a) : null;
    }
    const team = r.request.teamId === null ? null : await load(g, teamById, r.request.teamId);
    return team ? { __typename: 'Team', team } as Typed : null;
  },
};

export const reviewResolvers: Record<string, Record<string, FieldResolver>> = {
  PullRequestReview: reviewFields,
  PullRequestReviewComment: reviewCommentFields,
  ReviewRequest: reviewRequestFields,
};

function byNumericId<T extends Typed>(find: (g: GraphQLContext, id: number) => Promise<T | null>): NodeResolver {
  return (g, id) => {
    const n = numericId(id);
    return n === null ? Promise.resolve(null) : find(g, n);
  };
}

export const reviewNodes: Record<string, NodeResolver> = {
  PullRequestReview: byNumericId(visibleReview),
  PullRequestReviewComment: byNumericId(visibleReviewComment),
  ReviewRequest: byNumericId(visibleReviewRequest),
};

/** Reactions on review comments (REST's pull_request_review_comment subjects); pullsGraphQL.register. */
export function registerReviewReactables(): void {
  registerReactableNode('PullRequestReviewComment', async (g, id) => {
    const n = numericId(id);
    const c = n === null ? null : await visibleReviewComment(g, n);
    if (!c) return null;
    return {
      ref: { kind: 'pull_request_review_comment', owner: c.pr.repo.owner.login, repo: c.pr.repo.name, commentId: c.comment.id },
      type: 'pull_request_review_comment', id: c.comment.id, node: c,
    };
  });
  registerReactionSubject('pull_request_review_comment', (g, id) => visibleReviewComment(g, id));
  registerReactableNode('PullRequestReview', async (g, id) => {
    const n = numericId(id);
    const r = n === null ? null : await visibleReview(g, n);
    if (!r) return null;
    return { ref: { kind: 'pull_request_review', owner: r.pr.repo.owner.login, repo: r.pr.repo.name, reviewId: r.review.id }, type: 'pull_request_review', id: r.review.id, node: r };
  });
  registerReactionSubject('pull_request_review', (g, id) => visibleReview(g, id));
}
