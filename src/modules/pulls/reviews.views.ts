// Reviews and review comments → API representation. Pure: the service loads users,
// author associations, rendered bodies and reaction counts first.
import type { Static } from '@sinclair/typebox';
import { encodeNodeId } from '../../domain/node-id.ts';
import type { Urls } from '../../urls.ts';
import type { AuthorAssociation } from '../issues/issues.model.ts';
import type { BodyFormat } from '../../http/media-type.ts';
import type { RenderedBody } from '../issues/issues.views.ts';
import { reactionRollup, type ReactionCounts } from '../reactions/reactions.rollup.ts';
import type { Account } from '../users/users.model.ts';
import { simpleUser } from '../users/users.views.ts';
import type { ReviewCommentRecord, ReviewRecord } from './pulls.model.ts';
import type { Review, ReviewComment } from './pulls.schemas.ts';
import type { PullUrls } from './pulls.views.ts';

export interface ReviewViewOptions {
  urls: Urls;
  bodyFormat: BodyFormat;
}

function bodyFields(body: string, rendered: RenderedBody | undefined, format: BodyFormat) {
  switch (format) {
    case 'raw': return { body };
    case 'text': return { body_text: rendered?.text ?? '' };
    case 'html': return { body_html: rendered?.html ?? '' };
    case 'full': return { body, body_text: rendered?.text ?? '', body_html: rendered?.html ?? '' };
  }
}

export interface ReviewDetail {
  review: ReviewRecord;
  pull: PullUrls;
  user: Account;
  authorAssociation: AuthorAssociation;
  rendered?: RenderedBody;
}

export function reviewView(d: ReviewDetail, o: ReviewViewOptions): ReviewView {
  const r = d.review;
  const html = `${d.pull.html}#pullrequestreview-${r.id}`;
  return {
    id: r.id,
    node_id: encodeNodeId('PullRequestReview', r.id),
    user: simpleUser(d.user, o.urls),
    ...bodyFields(r.body, d.rendered, o.bodyFormat),
    state: r.state,
    html_url: html,
    pull_request_url: d.pull.api,
    author_association: d.authorAssociation,
    _links: { html: { href: html }, pull_request: { href: d.pull.api } },
    // A pending review has not been submitted: upstream leaves the key out.
    ...(r.submittedAt ? { submitted_at: r.submittedAt } : {}),
    commit_id: r.commitId,
  };
}

export type ReviewView = Static<typeof Review>;

export interface ReviewCommentDetail {
  comment: ReviewCommentRecord;
  /** The API address of the repository. */
  repoApi: string;
  pull: PullUrls;
  user: Account;
  authorAssociation: AuthorAssociation;
  reactions: ReactionCounts | undefined;
  rendered?: RenderedBody;
}

export function reviewCommentView(d: ReviewCommentDetail, o: ReviewViewOptions): ReviewCommentView {
  const c = d.comment;
  const url = `${d.repoApi}/pulls/comments/${c.id}`;
  const html = `${d.pull.html}#discussion_r${c.id}`;
  return {
    url,
    pull_request_review_id: c.reviewId,
    id: c.id,
    node_id: encodeNodeId('PullRequestReviewComment', c.id),
    diff_hunk: c.diffHunk,
    path: c.path,
    position: c.position,
    original_position: c.originalPosition,
    commit_id: c.commitId,
    original_commit_id: c.originalCommitId,
    ...(c.inReplyToId !== null ? { in_reply_to_id: c.inReplyToId } : {}),
    user: simpleUser(d.user, o.urls),
    ...bodyFields(c.body, d.rendered, o.bodyFormat),
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    html_url: html,
    pull_request_url: d.pull.api,
    author_association: d.authorAssociation,
    _links: { self: { href: url }, html: { href: html }, pull_request: { href: d.pull.api } },
    reactions: reactionRollup(d.reactions, `${url}/reactions`),
    start_line: c.startLine,
    original_start_line: c.originalStartLine,
    start_side: c.startSide,
    line: c.line,
    original_line: c.originalLine,
    side: c.side,
    subject_type: c.subjectType,
  };
}

export type ReviewCommentView = Static<typeof ReviewComment>;
