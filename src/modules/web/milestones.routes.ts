// The milestones pages: the list at /{o}/{r}/milestones and one milestone at the
// html_url the milestones API hands out, /{o}/{r}/milestone/{number}.
import type { Router } from '../../http/router.ts';
import { sendPage } from '../web-session/web-request.ts';
import { milestonePage, milestonesPage } from './milestones.pages.ts';
import * as milestones from './milestones.service.ts';
import { issueNumber, PAGE, pageNumber } from './web.forms.ts';
import { viewerOf } from './web.request.ts';
import { MilestoneQuery, MilestonesQuery, NumberParams, RepoParams } from './web.schemas.ts';

/** Registered inside the pages' scope (web.routes.ts). */
export function milestonePages(r: Router): void {
  const ctx = r.ctx;

  r.get('/:owner/:repo/milestones', { schema: { params: RepoParams, querystring: MilestonesQuery }, config: { ...PAGE, operationId: 'wharf/web-milestones' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const q = request.query;
    const viewer = await viewerOf(request);
    const v = await milestones.milestonesOf(ctx, viewer.actor, owner, repo, q.state === 'closed' ? 'closed' : 'open',
      milestones.milestoneSort(q.sort, q.direction), pageNumber(q.page));
    return sendPage(reply, milestonesPage(viewer.frame(`Milestones · ${v.repo.owner.login}/${v.repo.name}`), v));
  });

  r.get('/:owner/:repo/milestone/:number', { schema: { params: NumberParams, querystring: MilestoneQuery }, config: { ...PAGE, operationId: 'wharf/web-milestone' } }, async (request, reply) => {
    const { owner, repo, number } = request.params;
    const q = request.query;
    const viewer = await viewerOf(request);
    const v = await milestones.milestoneAt(ctx, viewer.actor, owner, repo, issueNumber(number), q.closed === '1' ? 'closed' : 'open', pageNumber(q.page));
    return sendPage(reply, milestonePage(viewer.frame(`${v.entry.milestone.title} · Milestones · ${v.repo.owner.login}/${v.repo.name}`), v));
  });
}
