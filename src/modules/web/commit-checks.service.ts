// What a commit shows beside it: the combined status of its contexts and its check runs
// (the latest run of each name, as GET …/commits/{ref}/check-runs lists them by
// default), read through the statuses and checks services the API uses; and for a page
// of commits, one mark each (the rollup's state), read for the whole page at once.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { presentRuns } from '../checks/checks.present.ts';
import { runState } from '../checks/checks.model.ts';
import * as checks from '../checks/checks.service.ts';
import type { CheckRunView } from '../checks/checks.schemas.ts';
import type { Repo } from '../repos/repos.model.ts';
import { combinedState } from '../statuses/statuses.model.ts';
import * as statuses from '../statuses/statuses.service.ts';

/** Check runs shown on a commit page; the API pages the rest. */
const MAX_RUNS = 100;

/** The commit's check runs as the API presents them (name, status, conclusion, app, details_url). */
export async function commitRuns(ctx: AppContext, actor: Actor, owner: string, name: string, sha: string): Promise<{ runs: CheckRunView[]; total: number }> {
  const page = await checks.listRunsForRef(ctx, actor, owner, name, sha, { filter: 'latest' }, { perPage: MAX_RUNS, offset: 0 });
  // Oldest first, as upstream lists checks beside a commit.
  const runs = await presentRuns(ctx, page.repo, [...page.items].reverse());
  return { runs, total: page.total };
}

export type Mark = 'success' | 'failure' | 'pending';

/**
 * The rollup of each commit that anything reported on, by sha: any failure (or error)
 * fails it, then anything pending keeps it pending, else it succeeded. Two reads for the
 * page (statuses, check runs), whatever its length; the caller has read the commits
 * through the API's own service, which checked the viewer may read the repository.
 */
export async function commitMarks(ctx: AppContext, repo: Repo, shas: readonly string[]): Promise<Map<string, Mark>> {
  const unique = [...new Set(shas)];
  const [byStatus, byRuns] = await Promise.all([
    statuses.latestStatusesOfCommits(ctx, repo.id, unique),
    checks.latestRunsOfCommits(ctx, repo.id, unique),
  ]);
  const out = new Map<string, Mark>();
  for (const sha of unique) {
    const st = byStatus.get(sha) ?? [];
    const runs = byRuns.get(sha) ?? [];
    if (!st.length && !runs.length) continue;
    const states: Mark[] = [...(st.length ? [combinedState(st)] : []), ...runs.map(runState)];
    out.set(sha, states.includes('failure') ? 'failure' : states.includes('pending') ? 'pending' : 'success');
  }
  return out;
}
