// Team discussion and comment → API representation. Pure; every URL from the URL
// builder, addressed through the team's ids as upstream's team `url` is.
import type { Static } from '@sinclair/typebox';
import { encodeNodeId } from '../../domain/node-id.ts';
import type { Urls } from '../../urls.ts';
import { teamUrl } from '../orgs/orgs.views.ts';
import { reactionRollup } from '../reactions/reactions.rollup.ts';
import { simpleUser } from '../users/users.views.ts';
import type { TeamDiscussion, TeamDiscussionComment } from './team-discussions.schemas.ts';
import type { CommentDetail, DiscussionDetail } from './team-discussions.present.ts';
import type { TeamPlace } from './team-discussions.service.ts';

/** The representations are the response schemas' types: the serializer and the views agree field by field. */
export type TeamDiscussionView = Static<typeof TeamDiscussion>;
export type TeamDiscussionCommentView = Static<typeof TeamDiscussionComment>;

export function discussionUrl(place: TeamPlace, number: number, urls: Urls): string {
  return `${teamUrl(place.team, urls)}/discussions/${number}`;
}

function discussionHtmlUrl(place: TeamPlace, number: number, urls: Urls): string {
  return urls.html('orgs', place.orgLogin, 'teams', place.team.slug, 'discussions', number);
}

export function teamDiscussion(x: DiscussionDetail, urls: Urls): TeamDiscussionView {
  const d = x.discussion;
  const url = discussionUrl(x, d.number, urls);
  return {
    author: x.author ? simpleUser(x.author, urls) : null,
    body: d.body,
    body_html: d.bodyHtml,
    body_version: d.bodyVersion,
    comments_count: d.commentsCount,
    comments_url: `${url}/comments`,
    created_at: d.createdAt,
    last_edited_at: d.lastEditedAt,
    html_url: discussionHtmlUrl(x, d.number, urls),
    node_id: encodeNodeId('TeamDiscussion', d.id),
    number: d.number,
    pinned: d.pinned,
    private: d.private,
    team_url: teamUrl(x.team, urls),
    title: d.title,
    updated_at: d.updatedAt,
    url,
    reactions: reactionRollup(x.reactions, `${url}/reactions`),
  };
}

export function teamDiscussionComment(x: CommentDetail, urls: Urls): TeamDiscussionCommentView {
  const c = x.comment;
  const discussion = discussionUrl(x, x.discussion.number, urls);
  const url = `${discussion}/comments/${c.number}`;
  return {
    author: x.author ? simpleUser(x.author, urls) : null,
    body: c.body,
    body_html: c.bodyHtml,
    body_version: c.bodyVersion,
    created_at: c.createdAt,
    last_edited_at: c.lastEditedAt,
    discussion_url: discussion,
    html_url: `${discussionHtmlUrl(x, x.discussion.number, urls)}/comments/${c.number}`,
    node_id: encodeNodeId('TeamDiscussionComment', c.id),
    number: c.number,
    updated_at: c.updatedAt,
    url,
    reactions: reactionRollup(x.reactions, `${url}/reactions`),
  };
}
