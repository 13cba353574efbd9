// Pull requests as the domain sees them. A pull request is an issue (title, body,
// state, labels … live there) plus this record: which branch of which repository is
// proposed for which branch, and what became of it.

export const MERGE_METHODS = ['merge', 'squash', 'rebase'] as const;
export type MergeMethod = (typeof MERGE_METHODS)[number];

export interface PullRequestRecord {
  id: number;
  issueId: number;
  repositoryId: number;
  number: number;
  /** Null once the head repository (a fork) is deleted. */
  headRepositoryId: number | null;
  /** Branch name, without refs/heads/. */
  headRef: string;
  headSha: string;
  baseRef: string;
  /** The base branch's commit when the pull request was last compared or closed. */
  baseSha: string;
  mergeBaseSha: string | null;
  draft: boolean;
  maintainerCanModify: boolean;
  mergedAt: string | null;
  mergedById: number | null;
  mergeCommitSha: string | null;
  mergeable: boolean | null;
  rebaseable: boolean | null;
  checkedHeadSha: string | null;
  checkedBaseSha: string | null;
  /** Who pushed the head last; null until a push moved it after the pull request was opened. */
  lastPusherId: number | null;
  createdAt: string;
  updatedAt: string;
}

export const REVIEW_STATES = ['PENDING', 'APPROVED', 'CHANGES_REQUESTED', 'COMMENTED', 'DISMISSED'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

/** What a client asks a review to be: the `event` of create and submit. */
export const REVIEW_EVENTS = ['APPROVE', 'REQUEST_CHANGES', 'COMMENT'] as const;
export type ReviewEvent = (typeof REVIEW_EVENTS)[number];

export const STATE_OF_EVENT: Record<ReviewEvent, ReviewState> = {
  APPROVE: 'APPROVED', REQUEST_CHANGES: 'CHANGES_REQUESTED', COMMENT: 'COMMENTED',
};

export interface ReviewRecord {
  id: number;
  pullRequestId: number;
  repositoryId: number;
  userId: number;
  state: ReviewState;
  body: string;
  commitId: string;
  submittedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ReviewRequestRecord {
  id: number;
  pullRequestId: number;
  userId: number | null;
  teamId: number | null;
  requestedById: number | null;
  createdAt: string;
}

export type Side = 'LEFT' | 'RIGHT';

export interface ReviewCommentRecord {
  id: number;
  pullRequestId: number;
  repositoryId: number;
  reviewId: number;
  userId: number;
  inReplyToId: number | null;
  body: string;
  path: string;
  commitId: string;
  originalCommitId: string;
  diffHunk: string;
  position: number | null;
  originalPosition: number | null;
  line: number | null;
  originalLine: number | null;
  side: Side | null;
  startLine: number | null;
  originalStartLine: number | null;
  startSide: Side | null;
  subjectType: 'line' | 'file';
  createdAt: string;
  updatedAt: string;
}
