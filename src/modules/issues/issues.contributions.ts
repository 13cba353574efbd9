// What other areas ask of issues without depending on issues.service: whether a user
// has contributed issues or pull requests to a repository, and open issue counts; a small
// entry point of its own, so that the interaction limits (which issues consult
// before every write) can ask without an import cycle through issues.service.
import type { AppContext } from '../../context.ts';
import * as store from './issues.store.ts';

export function hasAuthoredIssueOrPullRequest(ctx: AppContext, repositoryId: number, userId: number): Promise<boolean> {
  return store.hasAuthored(ctx.db, repositoryId, userId);
}

/** Open issues plus open pull requests per repository (a repository's open_issues_count), one query. */
export function openIssueCounts(ctx: AppContext, repositoryIds: readonly number[]): Promise<Map<number, number>> {
  return store.openCounts(ctx.db, repositoryIds);
}
