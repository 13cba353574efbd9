// Notification threads and thread subscriptions as the domain sees them.

export const SUBJECT_TYPES = ['Issue', 'PullRequest', 'RepositoryInvitation'] as const;
export type SubjectType = (typeof SUBJECT_TYPES)[number];

/** The reasons the spec lists (ci_activity and security_alert have no source in Wharf yet). */
export type Reason =
  | 'assign' | 'author' | 'comment' | 'ci_activity' | 'invitation' | 'manual' | 'mention'
  | 'review_requested' | 'security_alert' | 'state_change' | 'subscribed' | 'team_mention';

/**
 * Reasons of direct participation (the `participating` filter). Watching a repository
 * (subscribed) and a manual subscription are not participation.
 */
export const PARTICIPATING_REASONS: readonly Reason[] = [
  'assign', 'author', 'comment', 'invitation', 'mention', 'review_requested', 'state_change', 'team_mention',
];

/** What a thread is about: an issue or pull request by number, an invitation by id. */
export interface SubjectRef {
  repositoryId: number;
  type: SubjectType;
  key: number;
}

export type CommentKind = 'issue_comment' | 'review_comment' | 'review';

export interface LatestComment {
  kind: CommentKind;
  id: number;
}

export interface Thread {
  id: number;
  userId: number;
  subject: SubjectRef;
  title: string;
  reason: Reason;
  unread: boolean;
  done: boolean;
  latestComment: LatestComment | null;
  lastReadAt: string | null;
  updatedAt: string;
}

export interface ThreadSubscription {
  userId: number;
  subject: SubjectRef;
  subscribed: boolean;
  ignored: boolean;
  reason: Reason | null;
  createdAt: string;
}
