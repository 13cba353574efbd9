// An organization's runner groups: create, read, update, delete (what each holds:
// runner-group-members.service.ts). The Default group always exists, keeps its name,
// cannot be deleted and takes the runners of deleted groups.
import { inTransaction, type AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { NotFoundError, ValidationError, type FieldError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import * as repos from '../repos/repos.service.ts';
import { administeredOrganization, defaultGroup } from './runners.access.ts';
import type { GroupVisibility, RunnerGroup } from './runners.model.ts';
import * as groupStore from './runner-groups.store.ts';
import * as store from './runners.store.ts';
import { groupVisibleTo } from './runners.visibility.ts';

const RESOURCE = 'RunnerGroup';
const MAX_NAME = 100;
const MAX_WORKFLOWS = 100;

/** A group with the login of its organization, which its URLs name. */
export interface GroupRecord {
  organizationLogin: string;
  group: RunnerGroup;
}

/** The organization's group `id` (the Default group made first if need be). */
export async function requireGroup(ctx: AppContext, organizationId: number, id: number): Promise<RunnerGroup> {
  await defaultGroup(ctx, organizationId);
  const g = await groupStore.findGroup(ctx.db, organizationId, id);
  if (!g) throw new NotFoundError();
  return g;
}

function checkName(name: string, errors: FieldError[]): string {
  const trimmed = name.trim();
  if (trimmed === '') errors.push({ resource: RESOURCE, field: 'name', code: 'missing_field', message: "name can't be blank" });
  else if (trimmed.length > MAX_NAME) errors.push({ resource: RESOURCE, field: 'name', code: 'invalid', message: `name is too long (maximum is ${MAX_NAME} characters)` });
  return trimmed;
}

function checkWorkflows(workflows: string[] | undefined, errors: FieldError[]): void {
  if (!workflows) return;
  if (workflows.length > MAX_WORKFLOWS) errors.push({ resource: RESOURCE, field: 'selected_workflows', code: 'invalid', message: `at most ${MAX_WORKFLOWS} workflows` });
  if (workflows.some((w) => w.trim() === '' || w.length > 1024)) errors.push({ resource: RESOURCE, field: 'selected_workflows', code: 'invalid', message: 'workflows must be non-blank references' });
}

function nameTaken(): ValidationError {
  return new ValidationError([{ resource: RESOURCE, field: 'name', code: 'already_exists', message: 'A runner group with this name already exists.' }]);
}

async function requireUniqueName(ctx: AppContext, organizationId: number, name: string, self: number | null): Promise<void> {
  const other = await groupStore.findGroupByName(ctx.db, organizationId, name);
  if (other && other.id !== self) throw nameTaken();
}

/** Runs a write that a concurrent one may beat to the name: its loss is the same 422. */
async function claimingName<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (store.isDuplicate(err)) throw nameTaken();
    throw err;
  }
}

/** The repository ids, when every one is the organization's; otherwise upstream's 422. */
export async function organizationRepositories(ctx: AppContext, organizationId: number, ids: readonly number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  const found = await repos.reposByIds(ctx, unique);
  const ours = new Set(found.filter((r) => r.ownerId === organizationId).map((r) => r.id));
  const bad = unique.filter((id) => !ours.has(id));
  if (bad.length) throw new ValidationError([{ resource: RESOURCE, field: 'selected_repository_ids', code: 'invalid', message: `Repositories not in the organization: ${bad.join(', ')}` }]);
  return unique;
}

/** The runner ids, when every one is the organization's; otherwise a 422. */
export async function organizationRunners(ctx: AppContext, organizationId: number, ids: readonly number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  const found = new Set(await store.runnerIdsOf(ctx.db, organizationId, unique));
  const bad = unique.filter((id) => !found.has(id));
  if (bad.length) throw new ValidationError([{ resource: RESOURCE, field: 'runners', code: 'invalid', message: `Runners not in the organization: ${bad.join(', ')}` }]);
  return unique;
}

// ---------------------------------------------------------------- list, get

export async function listGroups(
  ctx: AppContext, actor: Actor, login: string, visibleToRepository: string | undefined, slice: Slice,
): Promise<Page<GroupRecord>> {
  const org = await administeredOrganization(ctx, actor, login);
  await defaultGroup(ctx, org.account.id);
  let groups = await groupStore.listGroups(ctx.db, org.account.id);
  if (visibleToRepository !== undefined) {
    const repo = (await repos.findForGit(ctx, org.account.login, visibleToRepository));
    const selected = await groupStore.groupRepositoryIds(ctx.db, groups.map((g) => g.id));
    groups = repo && repo.ownerId === org.account.id ? groups.filter((g) => groupVisibleTo(g, selected.get(g.id) ?? [], repo)) : [];
  }
  const items = groups.slice(slice.offset, slice.offset + slice.perPage).map((group) => ({ organizationLogin: org.account.login, group }));
  return { items, total: groups.length };
}

export async function getGroup(ctx: AppContext, actor: Actor, login: string, id: number): Promise<GroupRecord> {
  const org = await administeredOrganization(ctx, actor, login);
  return { organizationLogin: org.account.login, group: await requireGroup(ctx, org.account.id, id) };
}

// ---------------------------------------------------------------- create, update, delete

export interface CreateGroupInput {
  name: string;
  visibility?: GroupVisibility;
  selected_repository_ids?: number[];
  runners?: number[];
  allows_public_repositories?: boolean;
  restricted_to_workflows?: boolean;
  selected_workflows?: string[];
  network_configuration_id?: string;
}

export async function createGroup(ctx: AppContext, actor: Actor, login: string, input: CreateGroupInput): Promise<GroupRecord> {
  const org = await administeredOrganization(ctx, actor, login);
  const orgId = org.account.id;
  await defaultGroup(ctx, orgId);
  const errors: FieldError[] = [];
  const name = checkName(input.name, errors);
  checkWorkflows(input.selected_workflows, errors);
  if (errors.length) throw new ValidationError(errors);
  await requireUniqueName(ctx, orgId, name, null);
  const repositoryIds = await organizationRepositories(ctx, orgId, input.selected_repository_ids ?? []);
  const runnerIds = await organizationRunners(ctx, orgId, input.runners ?? []);
  const restricted = input.restricted_to_workflows ?? false;
  const group = await claimingName(() => inTransaction(ctx, async (tx) => {
    const g = await groupStore.insertGroup(tx.db, orgId, {
      name,
      visibility: input.visibility ?? 'all',
      allowsPublicRepositories: input.allows_public_repositories ?? false,
      restrictedToWorkflows: restricted,
      // Upstream ignores the list unless the group is restricted.
      selectedWorkflows: restricted ? input.selected_workflows ?? [] : [],
      networkConfigurationId: input.network_configuration_id ?? null,
    }, false, nowIso(tx.clock));
    await groupStore.setGroupRepositories(tx.db, g.id, repositoryIds);
    await store.moveRunners(tx.db, runnerIds, g.id);
    return g;
  }));
  return { organizationLogin: org.account.login, group };
}

export interface UpdateGroupInput {
  name: string;
  visibility?: GroupVisibility;
  allows_public_repositories?: boolean;
  restricted_to_workflows?: boolean;
  selected_workflows?: string[];
  network_configuration_id?: string | null;
}

export async function updateGroup(ctx: AppContext, actor: Actor, login: string, id: number, input: UpdateGroupInput): Promise<GroupRecord> {
  const org = await administeredOrganization(ctx, actor, login);
  const current = await requireGroup(ctx, org.account.id, id);
  const errors: FieldError[] = [];
  const name = checkName(input.name, errors);
  checkWorkflows(input.selected_workflows, errors);
  if (current.isDefault && name !== current.name) {
    errors.push({ resource: RESOURCE, field: 'name', code: 'invalid', message: 'The Default runner group cannot be renamed.' });
  }
  if (errors.length) throw new ValidationError(errors);
  await requireUniqueName(ctx, org.account.id, name, current.id);
  const restricted = input.restricted_to_workflows ?? current.restrictedToWorkflows;
  const workflows = input.selected_workflows ?? current.selectedWorkflows;
  const group = await claimingName(() => groupStore.updateGroup(ctx.db, current.id, {
    name,
    visibility: input.visibility ?? current.visibility,
    allowsPublicRepositories: input.allows_public_repositories ?? current.allowsPublicRepositories,
    restrictedToWorkflows: restricted,
    selectedWorkflows: restricted ? workflows : [],
    networkConfigurationId: input.network_configuration_id === undefined ? current.networkConfigurationId : input.network_configuration_id,
  }, nowIso(ctx.clock)));
  return { organizationLogin: org.account.login, group };
}

export async function deleteGroup(ctx: AppContext, actor: Actor, login: string, id: number): Promise<void> {
  const org = await administeredOrganization(ctx, actor, login);
  const group = await requireGroup(ctx, org.account.id, id);
  if (group.isDefault) {
    throw new ValidationError([{ resource: RESOURCE, field: 'id', code: 'custom', message: 'The Default runner group cannot be deleted.' }]);
  }
  const fallback = await defaultGroup(ctx, org.account.id);
  await inTransaction(ctx, async (tx) => {
    await store.moveGroupRunners(tx.db, group.id, fallback.id);
    await groupStore.deleteGroup(tx.db, group.id);
  });
}
