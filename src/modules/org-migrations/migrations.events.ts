// issue_events_*.json: the timeline events of a repository's issues and pull requests
// (labeled, assigned, milestoned, renamed, closed, referenced …) as the REST API
// represents them, oldest first, plus upstream's archive fields: `type` and `issue`
// (the issue's API address, whose number the import reads).
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { everyPage } from '../../domain/page.ts';
import * as events from '../issues/issue-events.service.ts';
import type { IssueRecord } from '../issues/issues.model.ts';
import { presentEvents } from '../issues/issues.present.ts';
import type { Repo } from '../repos/repos.model.ts';

type Json = Record<string, unknown>;

export async function issueEventRecords(ctx: AppContext, actor: Actor, repo: Repo, issues: readonly IssueRecord[]): Promise<Json[]> {
  const found = await everyPage((s) => events.listForRepo(ctx, actor, repo.owner.login, repo.name, s).then((r) => r.page));
  // The repository-wide list is newest first; the archive is oldest first, as every other record kind.
  found.sort((a, b) => a.id - b.id);
  const numbers = new Map(issues.map((i) => [i.id, i.number]));
  const views = await presentEvents(ctx, actor, repo, found, false);
  return views.flatMap((v, i) => {
    const number = numbers.get(found[i]!.issueId);
    return number === undefined ? [] : [{ ...v, type: 'issue_event', issue: ctx.urls.api('repos', repo.owner.login, repo.name, 'issues', String(number)) }];
  });
}
