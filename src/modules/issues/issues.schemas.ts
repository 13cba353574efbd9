// Request and response schemas of the issue, comment, label, milestone, assignee and issue-event
// routes. Types are checked here; rules on values (known labels, assignable users,
// milestones, colors) are the services'.
import { Type, type Static } from '@sinclair/typebox';
import { IsoTimestamp, Nullable, StringEnum, PagedArray } from '../../http/schema-types.ts';
import { AppRecord } from '../apps/apps.schemas.ts';
import { Team } from '../orgs/orgs.schemas.ts';
import { ReactionRollup } from '../reactions/reactions.schemas.ts';
import { SimpleUser } from '../users/users.schemas.ts';
import { AUTHOR_ASSOCIATIONS } from './issues.model.ts';

export { RepoParams } from '../repos/repos.schemas.ts';
export const OrgParams = Type.Object({ org: Type.String() });

export const IssueParams = Type.Object({ owner: Type.String(), repo: Type.String(), issue_number: Type.Integer() });
export const IssueLabelParams = Type.Object({ owner: Type.String(), repo: Type.String(), issue_number: Type.Integer(), name: Type.String() });
export const IssueAssigneeParams = Type.Object({ owner: Type.String(), repo: Type.String(), issue_number: Type.Integer(), assignee: Type.String() });
export const CommentParams = Type.Object({ owner: Type.String(), repo: Type.String(), comment_id: Type.Integer() });
export const EventParams = Type.Object({ owner: Type.String(), repo: Type.String(), event_id: Type.Integer() });
export const LabelParams = Type.Object({ owner: Type.String(), repo: Type.String(), name: Type.String() });
export const MilestoneParams = Type.Object({ owner: Type.String(), repo: Type.String(), milestone_number: Type.Integer() });
export const AssigneeParams = Type.Object({ owner: Type.String(), repo: Type.String(), assignee: Type.String() });

const Paging = {
  page: Type.Optional(Type.Integer()),
  per_page: Type.Optional(Type.Integer()),
};

const ListCommon = {
  state: Type.Optional(StringEnum(['open', 'closed', 'all'] as const)),
  labels: Type.Optional(Type.String()),
  sort: Type.Optional(StringEnum(['created', 'updated', 'comments'] as const)),
  direction: Type.Optional(StringEnum(['asc', 'desc'] as const)),
  since: Type.Optional(IsoTimestamp),
  ...Paging,
};

export const ListIssuesQuery = Type.Object({
  filter: Type.Optional(StringEnum(['assigned', 'created', 'mentioned', 'subscribed', 'repos', 'all'] as const)),
  collab: Type.Optional(Type.Boolean()),
  orgs: Type.Optional(Type.Boolean()),
  owned: Type.Optional(Type.Boolean()),
  pulls: Type.Optional(Type.Boolean()),
  ...ListCommon,
});
export type ListIssuesQuery = Static<typeof ListIssuesQuery>;

export const ListRepoIssuesQuery = Type.Object({
  milestone: Type.Optional(Type.String()),
  assignee: Type.Optional(Type.String()),
  creator: Type.Optional(Type.String()),
  mentioned: Type.Optional(Type.String()),
  ...ListCommon,
});
export type ListRepoIssuesQuery = Static<typeof ListRepoIssuesQuery>;

const LabelItem = Type.Union([Type.String(), Type.Object({ name: Type.String() })]);

export const CreateIssueBody = Type.Object({
  // Upstream takes a number as the title too; missing is the service's 422.
  title: Type.Optional(Type.Union([Type.String(), Type.Number()])),
  body: Type.Optional(Nullable(Type.String())),
  labels: Type.Optional(Type.Array(LabelItem)),
  assignees: Type.Optional(Type.Array(Type.String())),
  assignee: Type.Optional(Nullable(Type.String())),
  milestone: Type.Optional(Type.Union([Type.Integer(), Type.String(), Type.Null()])),
});

export const UpdateIssueBody = Type.Object({
  title: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Null()])),
  body: Type.Optional(Nullable(Type.String())),
  state: Type.Optional(StringEnum(['open', 'closed'] as const)),
  state_reason: Type.Optional(Type.Union([StringEnum(['completed', 'not_planned', 'reopened', 'duplicate'] as const), Type.Null()])),
  labels: Type.Optional(Type.Array(LabelItem)),
  assignees: Type.Optional(Type.Array(Type.String())),
  assignee: Type.Optional(Nullable(Type.String())),
  milestone: Type.Optional(Type.Union([Type.Integer(), Type.String(), Type.Null()])),
});

export const LockBody = Type.Object({
  lock_reason: Type.Optional(Nullable(Type.String())),
});

export const ListCommentsQuery = Type.Object({ since: Type.Optional(IsoTimestamp), ...Paging });

export const ListRepoCommentsQuery = Type.Object({
  sort: Type.Optional(StringEnum(['created', 'updated'] as const)),
  direction: Type.Optional(StringEnum(['asc', 'desc'] as const)),
  since: Type.Optional(IsoTimestamp),
  ...Paging,
});

export const CommentBody = Type.Object({ body: Type.Optional(Type.String()) });

export const CreateLabelBody = Type.Object({
  name: Type.Optional(Type.String()),
  color: Type.Optional(Type.String()),
  description: Type.Optional(Nullable(Type.String())),
});

export const UpdateLabelBody = Type.Object({
  new_name: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  color: Type.Optional(Type.String()),
  description: Type.Optional(Nullable(Type.String())),
});

export const ListMilestonesQuery = Type.Object({
  state: Type.Optional(StringEnum(['open', 'closed', 'all'] as const)),
  sort: Type.Optional(StringEnum(['due_on', 'completeness'] as const)),
  direction: Type.Optional(StringEnum(['asc', 'desc'] as const)),
  ...Paging,
});

export const MilestoneBody = Type.Object({
  title: Type.Optional(Nullable(Type.String())),
  state: Type.Optional(StringEnum(['open', 'closed'] as const)),
  description: Type.Optional(Nullable(Type.String())),
  due_on: Type.Optional(Nullable(Type.String())),
});

export const AssigneesBody = Type.Object({
  assignees: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String()])),
});

// ---------------------------------------------------------------- responses
// fast-json-stringify drops what a response schema does not list: every field the
// views return is here, the optional ones (by media type, preview or kind) Optional.
// The views' return types are these schemas' Static types.

export const Label = Type.Object({
  id: Type.Integer(),
  node_id: Type.String(),
  url: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  color: Type.String(),
  default: Type.Boolean(),
});
export const LabelList = Type.Array(Label);
export const LabelPage = PagedArray(Label);

export const Milestone = Type.Object({
  url: Type.String(),
  html_url: Type.String(),
  labels_url: Type.String(),
  id: Type.Integer(),
  node_id: Type.String(),
  number: Type.Integer(),
  state: Type.String(),
  title: Type.String(),
  description: Nullable(Type.String()),
  creator: Nullable(SimpleUser),
  open_issues: Type.Integer(),
  closed_issues: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
  closed_at: Nullable(Type.String()),
  due_on: Nullable(Type.String()),
});
export const MilestoneList = Type.Array(Milestone);
export const MilestonePage = PagedArray(Milestone);

const AuthorAssociation = StringEnum(AUTHOR_ASSOCIATIONS);

/** body, body_text, body_html: which of them a representation has depends on the media type. */
const BodyFields = {
  body: Type.Optional(Nullable(Type.String())),
  body_text: Type.Optional(Nullable(Type.String())),
  body_html: Type.Optional(Nullable(Type.String())),
};

export const Issue = Type.Object({
  id: Type.Integer(),
  node_id: Type.String(),
  url: Type.String(),
  repository_url: Type.String(),
  labels_url: Type.String(),
  comments_url: Type.String(),
  events_url: Type.String(),
  html_url: Type.String(),
  number: Type.Integer(),
  state: Type.String(),
  title: Type.String(),
  ...BodyFields,
  user: SimpleUser,
  labels: LabelList,
  assignee: Nullable(SimpleUser),
  assignees: Type.Array(SimpleUser),
  milestone: Nullable(Milestone),
  locked: Type.Boolean(),
  /** With the sailor-v preview only. */
  active_lock_reason: Type.Optional(Nullable(Type.String())),
  comments: Type.Integer(),
  /** Pull requests only. */
  pull_request: Type.Optional(Type.Object({
    url: Type.String(),
    html_url: Type.String(),
    diff_url: Type.String(),
    patch_url: Type.String(),
    merged_at: Nullable(Type.String()),
  })),
  closed_at: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
  closed_by: Nullable(SimpleUser),
  author_association: AuthorAssociation,
  state_reason: Nullable(Type.String()),
  reactions: ReactionRollup,
  timeline_url: Type.String(),
  /** The repository's representation (the repos module's), on lists across repositories. */
  repository: Type.Optional(Type.Unknown()),
  performed_via_github_app: Nullable(AppRecord),
  /** Pull requests only. */
  draft: Type.Optional(Type.Boolean()),
});
export const IssueList = Type.Array(Issue);
export const IssuePage = PagedArray(Issue);

export const IssueComment = Type.Object({
  url: Type.String(),
  html_url: Type.String(),
  issue_url: Type.String(),
  id: Type.Integer(),
  node_id: Type.String(),
  user: SimpleUser,
  created_at: Type.String(),
  updated_at: Type.String(),
  author_association: AuthorAssociation,
  ...BodyFields,
  reactions: ReactionRollup,
  performed_via_github_app: Nullable(AppRecord),
});
export const IssueCommentList = Type.Array(IssueComment);
export const IssueCommentPage = PagedArray(IssueComment);

export const IssueEvent = Type.Object({
  id: Type.Integer(),
  node_id: Type.String(),
  url: Type.String(),
  actor: Nullable(SimpleUser),
  event: Type.String(),
  commit_id: Nullable(Type.String()),
  commit_url: Nullable(Type.String()),
  created_at: Type.String(),
  label: Type.Optional(Type.Object({ name: Type.String(), color: Type.String() })),
  assignee: Type.Optional(Nullable(SimpleUser)),
  assigner: Type.Optional(Nullable(SimpleUser)),
  milestone: Type.Optional(Type.Object({ title: Type.String() })),
  rename: Type.Optional(Type.Object({ from: Type.String(), to: Type.String() })),
  project_card: Type.Optional(Type.Object({
    id: Type.Integer(), url: Type.String(), project_id: Type.Integer(), project_url: Type.String(), column_name: Type.String(),
    previous_column_name: Type.Optional(Type.String()),
  })),
  lock_reason: Type.Optional(Nullable(Type.String())),
  state_reason: Type.Optional(Nullable(Type.String())),
  /** On the repository-wide list and the single event. */
  issue: Type.Optional(Issue),
  performed_via_github_app: Nullable(AppRecord),
  /** The actor's association with the repository now (NONE without an actor). */
  author_association: AuthorAssociation,
  // review_requested and review_request_removed: who asked, and the user asked (null when a
  // team was, and on other events: upstream's schema has both nullable).
  review_requester: Nullable(SimpleUser),
  requested_reviewer: Nullable(SimpleUser),
  /** The team asked, on those events when a team was: upstream's schema has no null here, so other events leave it out. */
  requested_team: Type.Optional(Team),
  /** review_dismissed: the review dismissed; left out of other events (no null in upstream's schema either). */
  dismissed_review: Type.Optional(Type.Object({
    state: Type.String(), review_id: Type.Integer(), dismissal_message: Nullable(Type.String()), dismissal_commit_id: Nullable(Type.String()),
  })),
});
export const IssueEventList = Type.Array(IssueEvent);
export const IssueEventPage = PagedArray(IssueEvent);

export const UserPage = PagedArray(SimpleUser);
