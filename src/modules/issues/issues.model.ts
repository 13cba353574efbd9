// Issues as the domain sees them. A pull request is an issue too (isPullRequest): the
// two share one number sequence per repository and everything that hangs off an issue
// (labels, assignees, milestone, comments, timeline).

export const ISSUE_STATES = ['open', 'closed'] as const;
export type IssueState = (typeof ISSUE_STATES)[number];

export const STATE_REASONS = ['completed', 'not_planned', 'reopened', 'duplicate'] as const;
export type StateReason = (typeof STATE_REASONS)[number];

/** Upstream's lock reasons (the sailor-v preview shows them). */
export const LOCK_REASONS = ['off-topic', 'too heated', 'resolved', 'spam'] as const;
export type LockReason = (typeof LOCK_REASONS)[number];

export const AUTHOR_ASSOCIATIONS = [
  'OWNER', 'MEMBER', 'COLLABORATOR', 'CONTRIBUTOR', 'FIRST_TIME_CONTRIBUTOR', 'FIRST_TIMER', 'NONE',
] as const;
export type AuthorAssociation = (typeof AUTHOR_ASSOCIATIONS)[number];

export interface IssueRecord {
  id: number;
  repositoryId: number;
  number: number;
  isPullRequest: boolean;
  title: string;
  body: string | null;
  userId: number;
  state: IssueState;
  stateReason: string | null;
  locked: boolean;
  activeLockReason: string | null;
  milestoneId: number | null;
  /** Number of issue comments, kept exact in the transaction that adds or removes one. */
  comments: number;
  closedAt: string | null;
  closedById: number | null;
  createdAt: string;
  updatedAt: string;
  /** The app whose token created it (performed_via_github_app); null for everyone else. */
  performedViaAppId: number | null;
}

export interface LabelRecord {
  id: number;
  repositoryId: number;
  name: string;
  description: string | null;
  /** Six hex digits, without '#'. */
  color: string;
  isDefault: boolean;
  createdAt: string;
  updatedAt: string;
}

export type MilestoneState = 'open' | 'closed';

export interface MilestoneRecord {
  id: number;
  repositoryId: number;
  number: number;
  title: string;
  description: string | null;
  state: MilestoneState;
  creatorId: number | null;
  dueOn: string | null;
  closedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface MilestoneCounts {
  open: number;
  closed: number;
}

export interface CommentRecord {
  id: number;
  repositoryId: number;
  issueId: number;
  userId: number;
  body: string;
  createdAt: string;
  updatedAt: string;
  /** Why a maintainer hid it (minimizeComment), null while shown. */
  minimizedReason: string | null;
  /** The app whose token wrote it (performed_via_github_app); null for everyone else. */
  performedViaAppId: number | null;
}

/** Timeline event names Wharf records. */
export type IssueEventName =
  | 'closed' | 'reopened' | 'labeled' | 'unlabeled' | 'assigned' | 'unassigned' | 'milestoned' | 'demilestoned'
  | 'locked' | 'unlocked' | 'renamed' | 'referenced'
  | 'added_to_project' | 'moved_columns_in_project' | 'removed_from_project'
  | 'auto_merge_enabled' | 'auto_squash_enabled' | 'auto_rebase_enabled' | 'auto_merge_disabled'
  | 'review_requested' | 'review_request_removed' | 'review_dismissed';

/** What an event row's `detail` JSON holds, by event. */
export interface IssueEventDetail {
  label?: { name: string; color: string };
  assigneeId?: number;
  assignerId?: number;
  milestone?: { title: string };
  rename?: { from: string; to: string };
  lockReason?: string | null;
  stateReason?: string | null;
  /** The classic project card the event is about (projects module), as upstream's project_card. */
  projectCard?: { id: number; url: string; project_id: number; project_url: string; column_name: string; previous_column_name?: string };
  /** review_requested, review_request_removed: who asked (the actor when the event was made), and the user or team asked. */
  reviewRequesterId?: number;
  requestedReviewerId?: number;
  requestedTeamId?: number;
  /** review_dismissed: the review as it was dismissed (upstream's dismissed_review). */
  dismissedReview?: DismissedReview;
}

/** Upstream's issue-event-dismissed-review: the review's state before, the message, and the commit a push dismissed it with (null when dismissed by hand). */
export interface DismissedReview {
  state: string;
  review_id: number;
  dismissal_message: string | null;
  dismissal_commit_id: string | null;
}

export interface IssueEventRecord {
  id: number;
  repositoryId: number;
  issueId: number;
  actorId: number | null;
  event: IssueEventName;
  detail: IssueEventDetail;
  commitId: string | null;
  createdAt: string;
  /** The app whose token did it (performed_via_github_app); null for everyone else. */
  performedViaAppId: number | null;
}

/** Upstream's default labels for a new repository (name, color, description). */
export const DEFAULT_LABELS: readonly { name: string; color: string; description: string }[] = [
  { name: 'bug', color: 'd73a4a', description: 'Something isn\'t working' },
  { name: 'documentation', color: '0075ca', description: 'Improvements or additions to documentation' },
  { name: 'duplicate', color: 'cfd3d7', description: 'This issue or pull request already exists' },
  { name: 'enhancement', color: 'a2eeef', description: 'New feature or request' },
  { name: 'good first issue', color: '7057ff', description: 'Good for newcomers' },
  { name: 'help wanted', color: '008672', description: 'Extra attention is needed' },
  { name: 'invalid', color: 'e4e669', description: 'This doesn\'t seem right' },
  { name: 'question', color: 'd876e3', description: 'Further information is requested' },
  { name: 'wontfix', color: 'ffffff', description: 'This will not be worked on' },
];
