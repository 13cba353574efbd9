// Request schemas of the pull request, review, review request and review comment
// routes. Types are checked here; rules on values (branches, reviewers, lines) are the
// services'.
import { Type, type Static } from '@sinclair/typebox';
import { IsoTimestamp, Nullable, StringEnum } from '../../http/schema-types.ts';
import { Team } from '../orgs/orgs.schemas.ts';
import { ReactionRollup } from '../reactions/reactions.schemas.ts';
import { SimpleUser } from '../users/users.schemas.ts';

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
  since: Type.Optional(IsoTimestamp),
  ...Paging,
});
export type ListCommentsQuery = Static<typeof ListCommentsQuery>;

// ---------------------------------------------------------------- responses
//
// Every field the views return is listed (the serializer drops unlisted ones); the
// views' return types are these schemas' Static types, so TypeScript keeps them in step.
// Labels, milestones and repositories are other modules' records without a published
// schema yet: open objects, serialized whole.

/** A record another module presents, serialized as it is. */
const Presented = Type.Object({}, { additionalProperties: true });

const Link = Type.Object({ href: Type.String() });

const PullSide = Type.Object({
  label: Type.String(),
  ref: Type.String(),
  sha: Type.String(),
  user: Nullable(SimpleUser),
  repo: Nullable(Presented),
});

const PullRequestSimpleProps = {
  url: Type.String(),
  id: Type.Integer(),
  node_id: Type.String(),
  html_url: Type.String(),
  diff_url: Type.String(),
  patch_url: Type.String(),
  issue_url: Type.String(),
  commits_url: Type.String(),
  review_comments_url: Type.String(),
  review_comment_url: Type.String(),
  comments_url: Type.String(),
  statuses_url: Type.String(),
  number: Type.Integer(),
  state: Type.String(),
  locked: Type.Boolean(),
  title: Type.String(),
  user: SimpleUser,
  body: Type.Optional(Nullable(Type.String())),
  body_text: Type.Optional(Nullable(Type.String())),
  body_html: Type.Optional(Nullable(Type.String())),
  labels: Type.Array(Presented),
  milestone: Nullable(Presented),
  active_lock_reason: Type.Optional(Nullable(Type.String())),
  created_at: Type.String(),
  updated_at: Type.String(),
  closed_at: Nullable(Type.String()),
  merged_at: Nullable(Type.String()),
  merge_commit_sha: Nullable(Type.String()),
  assignee: Nullable(SimpleUser),
  assignees: Type.Array(SimpleUser),
  requested_reviewers: Type.Array(SimpleUser),
  requested_teams: Type.Array(Team),
  head: PullSide,
  base: PullSide,
  _links: Type.Object({
    self: Link, html: Link, issue: Link, comments: Link, review_comments: Link, review_comment: Link, commits: Link, statuses: Link,
  }),
  author_association: Type.String(),
  auto_merge: Nullable(Type.Object({
    enabled_by: SimpleUser,
    merge_method: Type.Union([Type.Literal('merge'), Type.Literal('squash'), Type.Literal('rebase')]),
    commit_title: Type.String(),
    commit_message: Type.String(),
  })),
  draft: Type.Boolean(),
};

/** The list record (upstream's pull-request-simple). */
export const PullRequestSimple = Type.Object(PullRequestSimpleProps);

/** The full record. */
export const PullRequest = Type.Object({
  ...PullRequestSimpleProps,
  merged: Type.Boolean(),
  mergeable: Nullable(Type.Boolean()),
  rebaseable: Nullable(Type.Boolean()),
  mergeable_state: Type.String(),
  merged_by: Nullable(SimpleUser),
  comments: Type.Integer(),
  review_comments: Type.Integer(),
  maintainer_can_modify: Type.Boolean(),
  commits: Type.Integer(),
  additions: Type.Integer(),
  deletions: Type.Integer(),
  changed_files: Type.Integer(),
});

/**
 * GET one pull request: the full record, or the diff or patch as text when the Accept
 * header asks for them. Text goes out under its own media type, which the JSON
 * serializer leaves alone; the schema describes the JSON answer.
 */
export const PullRequestOrText = Type.Unsafe<Static<typeof PullRequest> | string>(PullRequest);

export const RequestedReviewers = Type.Object({ users: Type.Array(SimpleUser), teams: Type.Array(Team) });

export const MergeResult = Type.Object({ sha: Type.String(), merged: Type.Boolean(), message: Type.String() });

export const UpdateBranchAccepted = Type.Object({ message: Type.String(), url: Type.String() });

const BodyFields = {
  body: Type.Optional(Type.String()),
  body_text: Type.Optional(Type.String()),
  body_html: Type.Optional(Type.String()),
};

export const Review = Type.Object({
  id: Type.Integer(),
  node_id: Type.String(),
  user: SimpleUser,
  ...BodyFields,
  state: Type.String(),
  html_url: Type.String(),
  pull_request_url: Type.String(),
  author_association: Type.String(),
  _links: Type.Object({ html: Link, pull_request: Link }),
  submitted_at: Type.Optional(Type.String()),
  commit_id: Type.String(),
});

export const ReviewComment = Type.Object({
  url: Type.String(),
  pull_request_review_id: Type.Integer(),
  id: Type.Integer(),
  node_id: Type.String(),
  diff_hunk: Type.String(),
  path: Type.String(),
  position: Nullable(Type.Integer()),
  original_position: Nullable(Type.Integer()),
  commit_id: Type.String(),
  original_commit_id: Type.String(),
  in_reply_to_id: Type.Optional(Type.Integer()),
  user: SimpleUser,
  ...BodyFields,
  created_at: Type.String(),
  updated_at: Type.String(),
  html_url: Type.String(),
  pull_request_url: Type.String(),
  author_association: Type.String(),
  _links: Type.Object({ self: Link, html: Link, pull_request: Link }),
  reactions: ReactionRollup,
  start_line: Nullable(Type.Integer()),
  original_start_line: Nullable(Type.Integer()),
  start_side: Nullable(Type.String()),
  line: Nullable(Type.Integer()),
  original_line: Nullable(Type.Integer()),
  side: Nullable(Type.String()),
  subject_type: Type.String(),
});

export { Commit, DiffEntry } from '../git-data/commits.schemas.ts';
