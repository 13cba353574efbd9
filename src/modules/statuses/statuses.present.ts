// Commit statuses → API representations: loads the creators (and, for the combined
// status, the repository's counts and the caller's access) the views show, then builds them.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { presentRepo } from '../repos/repos.present.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import * as users from '../users/users.service.ts';
import type { CommitStatus } from './statuses.model.ts';
import type { CombinedStatus } from './statuses.service.ts';
import { combinedStatus, commitStatus, type StatusDetail } from './statuses.views.ts';

async function withCreators(ctx: AppContext, statuses: readonly CommitStatus[]): Promise<StatusDetail[]> {
  const ids = [...new Set(statuses.map((s) => s.creatorId).filter((id): id is number => id !== null))];
  const accounts = await users.accountsByIds(ctx, ids);
  return statuses.map((status) => ({ status, creator: status.creatorId === null ? null : accounts.get(status.creatorId) ?? null }));
}

export async function presentStatuses(ctx: AppContext, repo: Repo, statuses: readonly CommitStatus[]) {
  return (await withCreators(ctx, statuses)).map((d) => commitStatus(ctx.urls, repo, d));
}

export async function presentStatus(ctx: AppContext, repo: Repo, status: CommitStatus) {
  return (await presentStatuses(ctx, repo, [status]))[0]!;
}

/** The combined status, its repository shown as the caller sees it. */
export async function presentCombinedStatus(request: FastifyRequest, c: CombinedStatus) {
  const { ctx } = request.server;
  const [[presentable], statuses] = await Promise.all([repos.presentable(ctx, request.actor, [c.repo]), withCreators(ctx, c.statuses)]);
  return combinedStatus(ctx.urls, c.repo, presentRepo(request, presentable!), { ...c, statuses });
}
