// What an organization's runner group holds: the repositories its `selected`
// visibility names, and its runners (which return to the Default group when removed).
import { inTransaction, type AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { organizationRepositories, organizationRunners, requireGroup } from './runner-groups.service.ts';
import * as groupStore from './runner-groups.store.ts';
import { administeredOrganization, defaultGroup } from './runners.access.ts';
import type { Runner } from './runners.model.ts';
import { withLabels, type RunnerRecord } from './runners.service.ts';
import * as store from './runners.store.ts';

const RESOURCE = 'RunnerGroup';

// ---------------------------------------------------------------- repositories of a group

export async function listGroupRepositories(ctx: AppContext, actor: Actor, login: string, id: number, slice: Slice): Promise<Page<Repo>> {
  const org = await administeredOrganization(ctx, actor, login);
  const group = await requireGroup(ctx, org.account.id, id);
  const ids = (await groupStore.groupRepositoryIds(ctx.db, [group.id])).get(group.id) ?? [];
  const items = await repos.reposByIds(ctx, ids.slice(slice.offset, slice.offset + slice.perPage));
  return { items: items.sort((a, b) => a.id - b.id), total: ids.length };
}

export async function setGroupRepositories(ctx: AppContext, actor: Actor, login: string, id: number, repositoryIds: number[]): Promise<void> {
  const org = await administeredOrganization(ctx, actor, login);
  const group = await requireGroup(ctx, org.account.id, id);
  const ids = await organizationRepositories(ctx, org.account.id, repositoryIds);
  await inTransaction(ctx, (tx) => groupStore.setGroupRepositories(tx.db, group.id, ids));
}

async function organizationRepository(ctx: AppContext, organizationId: number, repositoryId: number): Promise<Repo> {
  const [repo] = await repos.reposByIds(ctx, [repositoryId]);
  if (!repo || repo.ownerId !== organizationId) throw new NotFoundError();
  return repo;
}

export async function addGroupRepository(ctx: AppContext, actor: Actor, login: string, id: number, repositoryId: number): Promise<void> {
  const org = await administeredOrganization(ctx, actor, login);
  const group = await requireGroup(ctx, org.account.id, id);
  await organizationRepository(ctx, org.account.id, repositoryId);
  await groupStore.addGroupRepository(ctx.db, group.id, repositoryId);
}

export async function removeGroupRepository(ctx: AppContext, actor: Actor, login: string, id: number, repositoryId: number): Promise<void> {
  const org = await administeredOrganization(ctx, actor, login);
  const group = await requireGroup(ctx, org.account.id, id);
  await organizationRepository(ctx, org.account.id, repositoryId);
  await groupStore.removeGroupRepository(ctx.db, group.id, repositoryId);
}

// ---------------------------------------------------------------- runners of a group

export async function listGroupRunners(ctx: AppContext, actor: Actor, login: string, id: number, slice: Slice): Promise<Page<RunnerRecord>> {
  const org = await administeredOrganization(ctx, actor, login);
  const group = await requireGroup(ctx, org.account.id, id);
  const scope = { kind: 'org', organizationId: org.account.id } as const;
  const [items, total] = await Promise.all([
    store.listRunners(ctx.db, scope, { groupId: group.id }, slice),
    store.countRunners(ctx.db, scope, { groupId: group.id }),
  ]);
  return { items: await withLabels(ctx, items), total };
}

/** The group holds exactly these runners; the ones it loses go to the Default group. */
export async function setGroupRunners(ctx: AppContext, actor: Actor, login: string, id: number, runnerIds: number[]): Promise<void> {
  const org = await administeredOrganization(ctx, actor, login);
  const group = await requireGroup(ctx, org.account.id, id);
  const ids = await organizationRunners(ctx, org.account.id, runnerIds);
  const fallback = await defaultGroup(ctx, org.account.id);
  await inTransaction(ctx, async (tx) => {
    if (!group.isDefault) await store.moveGroupRunners(tx.db, group.id, fallback.id);
    await store.moveRunners(tx.db, ids, group.id);
  });
}

async function organizationRunner(ctx: AppContext, organizationId: number, runnerId: number): Promise<Runner> {
  const runner = await store.findRunner(ctx.db, { kind: 'org', organizationId }, runnerId);
  if (!runner) throw new NotFoundError();
  return runner;
}

export async function addGroupRunner(ctx: AppContext, actor: Actor, login: string, id: number, runnerId: number): Promise<void> {
  const org = await administeredOrganization(ctx, actor, login);
  const group = await requireGroup(ctx, org.account.id, id);
  await organizationRunner(ctx, org.account.id, runnerId);
  await store.moveRunners(ctx.db, [runnerId], group.id);
}

/** The runner returns to the Default group (a runner is always in some group). */
export async function removeGroupRunner(ctx: AppContext, actor: Actor, login: string, id: number, runnerId: number): Promise<void> {
  const org = await administeredOrganization(ctx, actor, login);
  const group = await requireGroup(ctx, org.account.id, id);
  const runner = await organizationRunner(ctx, org.account.id, runnerId);
  if (runner.groupId !== group.id) throw new NotFoundError();
  if (group.isDefault) {
    throw new ValidationError([{ resource: RESOURCE, field: 'runner_id', code: 'custom', message: 'A runner cannot leave the Default group except for another group.' }]);
  }
  const fallback = await defaultGroup(ctx, org.account.id);
  await store.moveRunners(ctx.db, [runnerId], fallback.id);
}

