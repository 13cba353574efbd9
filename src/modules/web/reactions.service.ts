// Reactions for the conversation pages: each subject's counts of the eight reactions
// and whether the viewer left each (one query for the issue, one for all its comments),
// and the reaction buttons' writes through the reactions service with the viewer as actor;
// a pull request's submitted reviews have bars of their own.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import * as comments from '../issues/comments.service.ts';
import type { IssueRecord } from '../issues/issues.model.ts';
import * as issues from '../issues/issues.service.ts';
import { REACTION_CONTENTS, type ReactionContent } from '../reactions/reactions.rollup.ts';
import * as reactions from '../reactions/reactions.service.ts';
import * as reviews from '../pulls/reviews.service.ts';
import type { Repo } from '../repos/repos.model.ts';

export interface ReactionCount {
  content: ReactionContent;
  count: number;
  /** The viewer left this reaction. */
  mine: boolean;
}

/** The eight reactions of one subject, in upstream's order, zeros included. */
export type ReactionBar = ReactionCount[];

export interface ConversationReactions {
  issue: ReactionBar;
  comments: Map<number, ReactionBar>;
}

function barsOf(rows: Map<number, reactions.GroupRow[]>, id: number): ReactionBar {
  const groups = rows.get(id) ?? [];
  return REACTION_CONTENTS.map((content) => {
    const g = groups.find((row) => row.content === content);
    return { content, count: g?.count ?? 0, mine: g?.viewerHasReacted ?? false };
  });
}

/** The bars of an issue (or pull request) and its comments, which the caller has already found visible. */
export async function conversationReactions(ctx: AppContext, actor: Actor, issueId: number, commentIds: readonly number[]): Promise<ConversationReactions> {
  // Nobody has the id 0: an anonymous reader has left no reaction.
  const viewer = actor.user?.id ?? 0;
  const [onIssue, onComments] = await Promise.all([
    reactions.reactionGroupsOf(ctx, 'issue', [issueId], viewer),
    reactions.reactionGroupsOf(ctx, 'issue_comment', commentIds, viewer),
  ]);
  return { issue: barsOf(onIssue, issueId), comments: new Map(commentIds.map((id) => [id, barsOf(onComments, id)])) };
}

/** The bars of submitted reviews (the caller has found them visible), by review id. */
export async function reviewReactions(ctx: AppContext, actor: Actor, reviewIds: readonly number[]): Promise<Map<number, ReactionBar>> {
  const rows = await reactions.reactionGroupsOf(ctx, 'pull_request_review', reviewIds, actor.user?.id ?? 0);
  return new Map(reviewIds.map((id) => [id, barsOf(rows, id)]));
}

/** A button's value: `content:add` or `content:remove`. */
function parseButton(raw: string | undefined): { content: ReactionContent; add: boolean } {
  const at = raw?.lastIndexOf(':') ?? -1;
  const content = REACTION_CONTENTS.find((c) => c === raw?.slice(0, at));
  const action = raw?.slice(at + 1);
  if (!content || (action !== 'add' && action !== 'remove')) {
    throw new ValidationError([{ resource: 'Reaction', field: 'content', code: 'invalid', message: 'Choose one of the reactions.' }]);
  }
  return { content, add: action === 'add' };
}

/**
 * Leaves or takes back the viewer's reaction on issue `number` or, with `commentId`, on
 * one of its comments. The button says which, so a form sent twice changes nothing the
 * second time (the service answers an existing reaction, and removing a missing one is nothing).
 */
export async function toggleReaction(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, commentId: number | null, button: string | undefined,
): Promise<{ repo: Repo; issue: IssueRecord }> {
  const { repo, issue } = await issues.locateIssue(ctx, actor, owner, name, number);
  if (commentId !== null) {
    const at = await comments.getComment(ctx, actor, owner, name, commentId);
    // A comment of another issue is not at this address.
    if (at.issue.number !== number) throw new NotFoundError();
  }
  const { content, add } = parseButton(button);
  const ref = commentId === null
    ? { kind: 'issue' as const, owner, repo: name, number }
    : { kind: 'issue_comment' as const, owner, repo: name, commentId };
  if (add) await reactions.createReaction(ctx, actor, ref, content);
  else await reactions.removeOwnReaction(ctx, actor, ref, content);
  return { repo, issue };
}

/**
 * The same for a submitted review of pull request `number` (upstream has these through
 * GraphQL's addReaction alone; the reactions service decides as it does there).
 */
export async function toggleReviewReaction(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, reviewId: number, button: string | undefined,
): Promise<{ repo: Repo; issue: IssueRecord }> {
  // A review of another pull request is not at this address.
  const at = await reviews.getReview(ctx, actor, owner, name, number, reviewId);
  const { content, add } = parseButton(button);
  const ref = { kind: 'pull_request_review' as const, owner, repo: name, reviewId };
  if (add) await reactions.createReaction(ctx, actor, ref, content);
  else await reactions.removeOwnReaction(ctx, actor, ref, content);
  return { repo: at.repo, issue: at.issue };
}
