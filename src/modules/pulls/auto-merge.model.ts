// A pull request's auto-merge request: who asked, how to merge, and the commit's words.
import type { MergeMethod } from './pulls.model.ts';

export interface AutoMergeRecord {
  pullRequestId: number;
  repositoryId: number;
  /** The user the merge is made as, once the base branch's protection lets it. */
  enabledById: number;
  mergeMethod: MergeMethod;
  commitTitle: string | null;
  commitMessage: string | null;
  authorEmail: string | null;
  enabledAt: string;
}

/** Why auto-merge was turned off, as the `auto_merge_disabled` webhook's `reason` says it. */
export const DISABLED_REASONS = {
  byUser: (login: string) => `Auto-merge was disabled by ${login}.`,
  pushed: 'New commits were pushed to the head branch.',
} as const;
