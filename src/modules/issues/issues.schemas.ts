// Request schemas of the issue, comment, label, milestone, assignee and issue-event
// routes. Types are checked here; rules on values (known labels, assignable users,
// milestones, colors) are the services'.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../http/schema-types.ts';

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
  since: Type.Optional(Type.String()),
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

export const ListCommentsQuery = Type.Object({ since: Type.Optional(Type.String()), ...Paging });

export const ListRepoCommentsQuery = Type.Object({
  sort: Type.Optional(StringEnum(['created', 'updated'] as const)),
  direction: Type.Optional(StringEnum(['asc', 'desc'] as const)),
  since: Type.Optional(Type.String()),
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
