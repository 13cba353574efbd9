// Milestones of a repository.
import { pageOf, paged } from '../../http/pagination.ts';
import type { AppContext } from '../../context.ts';
import type { Router } from '../../http/router.ts';
import { ListMilestonesQuery, Milestone, MilestoneBody, MilestoneParams, MilestonePage, RepoParams } from './issues.schemas.ts';
import { presentMilestones } from './issues.present.ts';
import type { MilestoneView } from './issues.views.ts';
import * as milestones from './milestones.service.ts';
import type { MilestoneAt } from './milestones.service.ts';
import { NoContent } from '../../http/schema-types.ts';

const WRITE = ['public_repo', 'repo'];

async function presentMilestone(ctx: AppContext, at: MilestoneAt): Promise<MilestoneView> {
  return (await presentMilestones(ctx, at.repo, [at.milestone]))[0]!;
}

export function milestonesRoutes(app: Router): void {
  // ---------------------------------------------------------------- milestones

  app.get('/repos/:owner/:repo/milestones', {
    schema: { params: RepoParams, querystring: ListMilestonesQuery, response: { 200: MilestonePage } },
    config: { operationId: 'issues/list-milestones', resource: 'Milestone' },
  }, async (request) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const { ctx } = request.server;
    const { repo: at, page } = await milestones.listMilestones(ctx, request.actor, owner, repo, request.query, p);
    return paged(await presentMilestones(ctx, at, page.items), p, page.total);
  });

  app.post('/repos/:owner/:repo/milestones', {
    schema: { params: RepoParams, body: MilestoneBody, response: { 201: Milestone } },
    config: { operationId: 'issues/create-milestone', resource: 'Milestone', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const { ctx } = request.server;
    const view = await presentMilestone(ctx, await milestones.createMilestone(ctx, request.actor, owner, repo, request.body ?? {}));
    return reply.code(201).header('location', view.url).send(view);
  });

  app.get('/repos/:owner/:repo/milestones/:milestone_number', {
    schema: { params: MilestoneParams, response: { 200: Milestone } },
    config: { operationId: 'issues/get-milestone', resource: 'Milestone' },
  }, async (request) => {
    const { owner, repo, milestone_number: number } = request.params;
    const { ctx } = request.server;
    return presentMilestone(ctx, await milestones.getMilestone(ctx, request.actor, owner, repo, number));
  });

  app.patch('/repos/:owner/:repo/milestones/:milestone_number', {
    schema: { params: MilestoneParams, body: MilestoneBody, response: { 200: Milestone } },
    config: { operationId: 'issues/update-milestone', resource: 'Milestone', acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, milestone_number: number } = request.params;
    const { ctx } = request.server;
    return presentMilestone(ctx, await milestones.updateMilestone(ctx, request.actor, owner, repo, number, request.body ?? {}));
  });

  app.delete('/repos/:owner/:repo/milestones/:milestone_number', {
    schema: { params: MilestoneParams, response: { 204: NoContent } },
    config: { operationId: 'issues/delete-milestone', resource: 'Milestone', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, milestone_number: number } = request.params;
    await milestones.deleteMilestone(request.server.ctx, request.actor, owner, repo, number);
    return reply.code(204).send(null);
  });
}
