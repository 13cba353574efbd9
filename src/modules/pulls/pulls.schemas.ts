// Request schemas of the pull request, review, review request and review comment
// routes. Types are checked here; rules on values (branches, reviewers, lines) are the
// services'.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../http/schema-types.ts';

export { RepoParams } from '../repos/repos.schemas.ts';

export const PullParams = Type.Object({ owner: Type.String(), repo: Type.String(), pull_number: Type.Integer() });
export const ReviewParams = Type.Object({ owner: Type.String(), repo: Type.String(), pull_number: Type.Integer(), review_id: Type.Integer() });
export const CommentParams = Type.Object({ owner: Type.String(), repo: Type.String(), comment_id: Type.Integer() });
export const PullCommentParams = Type.Object({ owner: Type.String(), repo: Type.String(), pull_number: Type.Integer(), comment_id: Type.Integer() });

const Paging = {
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
};

export const PageQuery = Type.Object(Paging);

export const ListPullsQuery = Type.Object({
  state: Type.Optional(StringEnum(['open', 'closed', 'all'] as const)),
  head: Type.Optional(Type.String()),
  base: Type.Optional(Type.String()),
  sort: Type.Optional(StringEnum(['created', 'updated', 'popularity', 'long-running'] as const)),
  direction: Type.Optional(StringEnum(['asc', 'desc'] as const)),
  ...Paging,
});
export type ListPullsQuery = Static<typeof ListPullsQuery>;

export const CreatePullBody = Type.Object({
  title: Type.Optional(Type.String()),
  head: Type.String(),
  head_repo: Type.Optional(Type.String()),
  base: Type.String(),
  body: Type.Optional(Nullable(Type.String())),
  maintainer_can_modify: Type.Optional(Type.Boolean()),
  draft: Type.Optional(Type.Boolean()),
  issue: Type.Optional(Type.Integer()),
});
export type CreatePullBody = Static<typeof CreatePullBody>;

export const UpdatePullBody = Type.Object({
  title: Type.Optional(Type.String()),
  body: Type.Optional(Nullable(Type.String())),
  state: Type.Optional(StringEnum(['open', 'closed'] as const)),
  base: Type.Optional(Type.String()),
  maintainer_can_modify: Type.Optional(Type.Boolean()),
});
export type UpdatePullBody = Static<typeof UpdatePullBody>;

export const MergeBody = Type.Object({
  commit_title: Type.Optional(Type.String()),
  commit_message: Type.Optional(Type.String()),
  sha: Type.Optional(Type.String()),
  merge_method: Type.Optional(StringEnum(['merge', 'squash', 'rebase'] as const)),
});
export type MergeBody = Static<typeof MergeBody>;

export const UpdateBranchBody = Type.Object({
  expected_head_sha: Type.Optional(Type.String()),
});

export const ReviewersBody = Type.Object({
  reviewers: Type.Optional(Type.Array(Type.String())),
  team_reviewers: Type.Optional(Type.Array(Type.String())),
});
export type ReviewersBody = Static<typeof ReviewersBody>;

const Side = StringEnum(['LEFT', 'RIGHT'] as const);
const Event = StringEnum(['APPROVE', 'REQUEST_CHANGES', 'COMMENT'] as const);

const DraftComment = Type.Object({
  path: Type.String(),
  position: Type.Optional(Type.Integer()),
  body: Type.String(),
  line: Type.Optional(Type.Integer()),
  side: Type.Optional(Side),
  start_line: Type.Optional(Type.Integer()),
  start_side: Type.Optional(Side),
});

export const CreateReviewBody = Type.Object({
  commit_id: Type.Optional(Type.String()),
  body: Type.Optional(Type.String()),
  event: Type.Optional(Event),
  comments: Type.Optional(Type.Array(DraftComment)),
});
export type CreateReviewBody = Static<typeof CreateReviewBody>;

export const SubmitReviewBody = Type.Object({
  body: Type.Optional(Type.String()),
  event: Event,
});

export const UpdateReviewBody = Type.Object({ body: Type.String() });

export const DismissReviewBody = Type.Object({
  message: Type.String(),
  event: Type.Optional(StringEnum(['DISMISS'] as const)),
});

export const CreateCommentBody = Type.Object({
  body: Type.String(),
  commit_id: Type.Optional(Type.String()),
  path: Type.Optional(Type.String()),
  position: Type.Optional(Type.Integer()),
  side: Type.Optional(Side),
  line: Type.Optional(Type.Integer()),
  start_line: Type.Optional(Type.Integer()),
  start_side: Type.Optional(Side),
  in_reply_to: Type.Optional(Type.Integer()),
  subject_type: Type.Optional(StringEnum(['line', 'file'] as const)),
});
export type CreateCommentBody = Static<typeof CreateCommentBody>;

export const ReplyBody = Type.Object({ body: Type.String() });

export const CommentBody = Type.Object({ body: Type.String() });

export const ListCommentsQuery = Type.Object({
  sort: Type.Optional(StringEnum(['created', 'updated'] as const)),
  direction: Type.Optional(StringEnum(['asc', 'desc'] as const)),
  since: Type.Optional(Type.String()),
  ...Paging,
});
export type ListCommentsQuery = Static<typeof ListCommentsQuery>;
