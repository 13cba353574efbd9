// SQL for an organization's runner groups and the repositories they name. Only the
// runners module calls this.
import type { Executor } from '../../db/database.ts';
import './runners.tables.ts';
import type { GroupVisibility, RunnerGroup } from './runners.model.ts';

const GROUP_COLUMNS = [
  'id', 'organization_id', 'name', 'visibility', 'is_default', 'allows_public_repositories', 'restricted_to_workflows',
  'selected_workflows', 'network_configuration_id', 'created_at', 'updated_at',
] as const;

interface GroupRow {
  id: number; organization_id: number; name: string; visibility: string; is_default: number; allows_public_repositories: number;
  restricted_to_workflows: number; selected_workflows: string; network_configuration_id: string | null; created_at: string; updated_at: string;
}

function toGroup(r: GroupRow): RunnerGroup {
  return {
    id: r.id,
    organizationId: r.organization_id,
    name: r.name,
    visibility: r.visibility as GroupVisibility,
    isDefault: Number(r.is_default) === 1,
    allowsPublicRepositories: Number(r.allows_public_repositories) === 1,
    restrictedToWorkflows: Number(r.restricted_to_workflows) === 1,
    selectedWorkflows: JSON.parse(r.selected_workflows) as string[],
    networkConfigurationId: r.network_configuration_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** A unique index refused the row: a concurrent request took the name first. */
export function isDuplicate(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

export interface GroupFields {
  name: string;
  visibility: GroupVisibility;
  allowsPublicRepositories: boolean;
  restrictedToWorkflows: boolean;
  selectedWorkflows: string[];
  networkConfigurationId: string | null;
}

function groupValues(f: GroupFields) {
  return {
    name: f.name,
    name_key: f.name.toLowerCase(),
    visibility: f.visibility,
    allows_public_repositories: f.allowsPublicRepositories ? 1 : 0,
    restricted_to_workflows: f.restrictedToWorkflows ? 1 : 0,
    selected_workflows: JSON.stringify(f.selectedWorkflows),
    network_configuration_id: f.networkConfigurationId,
  };
}

export async function insertGroup(db: Executor, organizationId: number, f: GroupFields, isDefault: boolean, now: string): Promise<RunnerGroup> {
  const row = await db.insertInto('runner_groups').values({
    organization_id: organizationId, ...groupValues(f), is_default: isDefault ? 1 : 0, created_at: now, updated_at: now,
  }).returning(GROUP_COLUMNS).executeTakeFirstOrThrow();
  return toGroup(row);
}

/** Inserts the organization's Default group unless a group of that name exists. */
export async function insertDefaultGroupOnce(db: Executor, organizationId: number, f: GroupFields, now: string): Promise<void> {
  await db.insertInto('runner_groups').values({
    organization_id: organizationId, ...groupValues(f), is_default: 1, created_at: now, updated_at: now,
  }).onConflict((oc) => oc.columns(['organization_id', 'name_key']).doNothing()).execute();
}

export async function updateGroup(db: Executor, id: number, f: GroupFields, now: string): Promise<RunnerGroup> {
  const row = await db.updateTable('runner_groups').set({ ...groupValues(f), updated_at: now })
    .where('id', '=', id).returning(GROUP_COLUMNS).executeTakeFirstOrThrow();
  return toGroup(row);
}

export async function deleteGroup(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('runner_groups').where('id', '=', id).execute();
}

export async function findGroup(db: Executor, organizationId: number, id: number): Promise<RunnerGroup | null> {
  const row = await db.selectFrom('runner_groups').select(GROUP_COLUMNS)
    .where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return row ? toGroup(row) : null;
}

export async function findGroupById(db: Executor, id: number): Promise<RunnerGroup | null> {
  const row = await db.selectFrom('runner_groups').select(GROUP_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toGroup(row) : null;
}

export async function findGroupByName(db: Executor, organizationId: number, name: string): Promise<RunnerGroup | null> {
  const row = await db.selectFrom('runner_groups').select(GROUP_COLUMNS)
    .where('organization_id', '=', organizationId).where('name_key', '=', name.toLowerCase()).executeTakeFirst();
  return row ? toGroup(row) : null;
}

export async function findDefaultGroup(db: Executor, organizationId: number): Promise<RunnerGroup | null> {
  const row = await db.selectFrom('runner_groups').select(GROUP_COLUMNS)
    .where('organization_id', '=', organizationId).where('is_default', '=', 1).executeTakeFirst();
  return row ? toGroup(row) : null;
}

/** Every group of the organization, the default first, then by id. */
export async function listGroups(db: Executor, organizationId: number): Promise<RunnerGroup[]> {
  const rows = await db.selectFrom('runner_groups').select(GROUP_COLUMNS)
    .where('organization_id', '=', organizationId).orderBy('is_default', 'desc').orderBy('id').execute();
  return rows.map(toGroup);
}

export async function groupRepositoryIds(db: Executor, groupIds: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(groupIds.map((id) => [id, []]));
  if (!groupIds.length) return out;
  const rows = await db.selectFrom('runner_group_repositories').select(['group_id', 'repository_id'])
    .where('group_id', 'in', [...groupIds]).orderBy('repository_id').execute();
  for (const r of rows) out.get(r.group_id)?.push(r.repository_id);
  return out;
}

export async function setGroupRepositories(db: Executor, groupId: number, repositoryIds: readonly number[]): Promise<void> {
  await db.deleteFrom('runner_group_repositories').where('group_id', '=', groupId).execute();
  if (repositoryIds.length) {
    await db.insertInto('runner_group_repositories').values([...new Set(repositoryIds)].map((repository_id) => ({ group_id: groupId, repository_id }))).execute();
  }
}

export async function addGroupRepository(db: Executor, groupId: number, repositoryId: number): Promise<void> {
  await db.insertInto('runner_group_repositories').values({ group_id: groupId, repository_id: repositoryId })
    .onConflict((oc) => oc.doNothing()).execute();
}

export async function removeGroupRepository(db: Executor, groupId: number, repositoryId: number): Promise<void> {
  await db.deleteFrom('runner_group_repositories').where('group_id', '=', groupId).where('repository_id', '=', repositoryId).execute();
}

