// Loads what the team discussion and comment views need, in bulk for a page (authors,
// reaction counts), then builds the views.
import type { AppContext } from '../../context.ts';
import { loadReactionCounts, type ReactionCounts } from '../reactions/reactions.rollup.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import type { CommentRecord, DiscussionRecord } from './team-discussions.service.ts';
import { teamDiscussion, teamDiscussionComment, type TeamDiscussionCommentView, type TeamDiscussionView } from './team-discussions.views.ts';

/** What a view shows beyond the records: the author's account and the reaction counts. */
interface Extras {
  author: Account | null;
  reactions: ReactionCounts | undefined;
}

export type DiscussionDetail = DiscussionRecord & Extras;
export type CommentDetail = CommentRecord & Extras;

async function extrasOf(ctx: AppContext, type: 'team_discussion' | 'team_discussion_comment', posts: readonly { id: number; authorId: number | null }[]) {
  const [authors, counts] = await Promise.all([
    users.accountsByIds(ctx, posts.flatMap((p) => (p.authorId === null ? [] : [p.authorId]))),
    loadReactionCounts(ctx, type, posts.map((p) => p.id)),
  ]);
  return (p: { id: number; authorId: number | null }): Extras => ({
    author: p.authorId === null ? null : authors.get(p.authorId) ?? null,
    reactions: counts.get(p.id),
  });
}

export async function presentDiscussions(ctx: AppContext, records: readonly DiscussionRecord[]): Promise<TeamDiscussionView[]> {
  const extras = await extrasOf(ctx, 'team_discussion', records.map((r) => r.discussion));
  return records.map((r) => teamDiscussion({ ...r, ...extras(r.discussion) }, ctx.urls));
}

export async function presentComments(ctx: AppContext, records: readonly CommentRecord[]): Promise<TeamDiscussionCommentView[]> {
  const extras = await extrasOf(ctx, 'team_discussion_comment', records.map((r) => r.comment));
  return records.map((r) => teamDiscussionComment({ ...r, ...extras(r.comment) }, ctx.urls));
}

export async function presentDiscussion(ctx: AppContext, record: DiscussionRecord): Promise<TeamDiscussionView> {
  return (await presentDiscussions(ctx, [record]))[0]!;
}

export async function presentComment(ctx: AppContext, record: CommentRecord): Promise<TeamDiscussionCommentView> {
  return (await presentComments(ctx, [record]))[0]!;
}
