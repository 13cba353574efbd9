// Commit statuses as the domain sees them: what a CI system reported on a commit.

export const COMMIT_STATES = ['error', 'failure', 'pending', 'success'] as const;
export type CommitState = (typeof COMMIT_STATES)[number];

/** Upstream's limits: descriptions of 140 characters, 1000 statuses per sha and context. */
export const MAX_DESCRIPTION = 140;
export const MAX_PER_CONTEXT = 1000;
export const DEFAULT_CONTEXT = 'default';

export interface CommitStatus {
  id: number;
  repositoryId: number;
  sha: string;
  state: CommitState;
  targetUrl: string | null;
  description: string | null;
  context: string;
  creatorId: number | null;
  createdAt: string;
  updatedAt: string;
}

/** Contexts compare case-insensitively upstream. */
export function contextKey(context: string): string {
  return context.toLowerCase();
}

/**
 * The combined state of the latest status of each context, as upstream: failure when
 * any is error or failure, pending when there is none or any is pending, else success.
 */
export function combinedState(latest: readonly { state: CommitState }[]): 'failure' | 'pending' | 'success' {
  if (latest.some((s) => s.state === 'error' || s.state === 'failure')) return 'failure';
  if (latest.length === 0 || latest.some((s) => s.state === 'pending')) return 'pending';
  return 'success';
}
