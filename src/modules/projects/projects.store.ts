// SQL for projects, their collaborators and team grants. Only the projects module calls this.
import type { Executor } from '../../db/database.ts';
import type { ProjectsTable } from '../../db/schema.ts';
import type { Slice } from '../../domain/page.ts';
import type { OrganizationPermission, Project, ProjectCollaborator, ProjectOwnerType, ProjectPermission, ProjectState } from './projects.model.ts';

const COLUMNS = [
  'id', 'owner_type', 'account_id', 'repository_id', 'number', 'name', 'body', 'state', 'organization_permission',
  'private', 'creator_id', 'created_at', 'updated_at',
] as const;

type Row = Pick<ProjectsTable, Exclude<(typeof COLUMNS)[number], 'id'>> & { id: number };

function toProject(r: Row): Project {
  return {
    id: r.id,
    ownerType: r.owner_type,
    accountId: r.account_id,
    repositoryId: r.repository_id,
    number: Number(r.number),
    name: r.name,
    body: r.body,
    state: r.state,
    organizationPermission: r.organization_permission as OrganizationPermission | null,
    private: Number(r.private) === 1,
    creatorId: r.creator_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Where a project hangs: an account (organization or user) or a repository. */
export interface OwnerRef {
  type: ProjectOwnerType;
  id: number;
}

function ownerKey(o: OwnerRef): string {
  return `${o.type}:${o.id}`;
}

export async function findProject(db: Executor, id: number): Promise<Project | null> {
  const row = await db.selectFrom('projects').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toProject(row) : null;
}

export async function projectsByIds(db: Executor, ids: readonly number[]): Promise<Project[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('projects').select(COLUMNS).where('id', 'in', [...ids]).execute();
  return rows.map(toProject);
}

export async function findProjectByNumber(db: Executor, owner: OwnerRef, number: number): Promise<Project | null> {
  const row = await db.selectFrom('projects').select(COLUMNS)
    .where('owner_key', '=', ownerKey(owner)).where('number', '=', number).executeTakeFirst();
  return row ? toProject(row) : null;
}

/** The owner's projects in `state` (or all), oldest number first. */
export async function listProjects(db: Executor, owner: OwnerRef, state: ProjectState | 'all', slice?: Slice): Promise<Project[]> {
  let q = db.selectFrom('projects').select(COLUMNS).where('owner_key', '=', ownerKey(owner));
  if (state !== 'all') q = q.where('state', '=', state);
  q = q.orderBy('number');
  if (slice) q = q.limit(slice.perPage).offset(slice.offset);
  return (await q.execute()).map(toProject);
}

export interface NewProject {
  owner: OwnerRef;
  name: string;
  body: string | null;
  organizationPermission: OrganizationPermission | null;
  private: boolean;
  creatorId: number;
  now: string;
}

/** The owner's next project number (the counter row serializes concurrent creations). */
async function nextNumber(db: Executor, key: string): Promise<number> {
  const row = await db.insertInto('project_counters')
    .values({ owner_key: key, last_number: 1 })
    .onConflict((oc) => oc.column('owner_key').doUpdateSet((eb) => ({ last_number: eb('project_counters.last_number', '+', 1) })))
    .returning('last_number')
    .executeTakeFirstOrThrow();
  return Number(row.last_number);
}

/** Inserts with the owner's next number; run it in a transaction so that a failed insert gives its number back. */
export async function insertProject(db: Executor, p: NewProject): Promise<Project> {
  const key = ownerKey(p.owner);
  const number = await nextNumber(db, key);
  const row = await db.insertInto('projects').values({
    owner_type: p.owner.type,
    account_id: p.owner.type === 'Repository' ? null : p.owner.id,
    repository_id: p.owner.type === 'Repository' ? p.owner.id : null,
    owner_key: key,
    number,
    name: p.name,
    body: p.body,
    state: 'open',
    organization_permission: p.organizationPermission,
    private: p.private ? 1 : 0,
    creator_id: p.creatorId,
    created_at: p.now,
    updated_at: p.now,
  }).returning(COLUMNS).executeTakeFirstOrThrow();
  return toProject(row);
}

export interface ProjectChanges {
  name?: string;
  body?: string | null;
  state?: ProjectState;
  organizationPermission?: OrganizationPermission;
  private?: boolean;
}

export async function updateProject(db: Executor, id: number, c: ProjectChanges, now: string): Promise<Project> {
  const row = await db.updateTable('projects').set({
    ...(c.name !== undefined ? { name: c.name } : {}),
    ...(c.body !== undefined ? { body: c.body } : {}),
    ...(c.state !== undefined ? { state: c.state } : {}),
    ...(c.organizationPermission !== undefined ? { organization_permission: c.organizationPermission } : {}),
    ...(c.private !== undefined ? { private: c.private ? 1 : 0 } : {}),
    updated_at: now,
  }).where('id', '=', id).returning(COLUMNS).executeTakeFirstOrThrow();
  return toProject(row);
}

/** Marks the project changed (a column or card of it changed): conditional reads see it. */
export async function touchProject(db: Executor, id: number, now: string): Promise<void> {
  await db.updateTable('projects').set({ updated_at: now }).where('id', '=', id).execute();
}

/**
 * Locks the project row until the transaction ends (PostgreSQL; SQLite writers are
 * serialized already), so that moves renumbering its columns or cards run one at a time.
 */
export async function lockProject(db: Executor, dialect: 'sqlite' | 'postgres', id: number): Promise<void> {
  const q = db.selectFrom('projects').select('id').where('id', '=', id);
  await (dialect === 'postgres' ? q.forUpdate() : q).execute();
}

export async function deleteProject(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('projects').where('id', '=', id).execute();
}

export function isDuplicate(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

// ---------------------------------------------------------------- collaborators and team grants

export async function collaboratorsOf(db: Executor, projectId: number): Promise<ProjectCollaborator[]> {
  const rows = await db.selectFrom('project_collaborators').select(['project_id', 'user_id', 'permission'])
    .where('project_id', '=', projectId).orderBy('created_at').orderBy('user_id').execute();
  return rows.map((r) => ({ projectId: r.project_id, userId: r.user_id, permission: r.permission as ProjectPermission }));
}

export async function findCollaborator(db: Executor, projectId: number, userId: number): Promise<ProjectPermission | null> {
  const row = await db.selectFrom('project_collaborators').select('permission')
    .where('project_id', '=', projectId).where('user_id', '=', userId).executeTakeFirst();
  return (row?.permission as ProjectPermission | undefined) ?? null;
}

export async function setCollaborator(db: Executor, projectId: number, userId: number, permission: ProjectPermission, now: string): Promise<void> {
  await db.insertInto('project_collaborators')
    .values({ project_id: projectId, user_id: userId, permission, created_at: now })
    .onConflict((oc) => oc.columns(['project_id', 'user_id']).doUpdateSet({ permission }))
    .execute();
}

export async function removeCollaborator(db: Executor, projectId: number, userId: number): Promise<void> {
  await db.deleteFrom('project_collaborators').where('project_id', '=', projectId).where('user_id', '=', userId).execute();
}

/** One user's direct permission on each of `projectIds` (absent: not a collaborator). */
export async function collaboratorPermissions(db: Executor, projectIds: readonly number[], userId: number): Promise<Map<number, ProjectPermission>> {
  if (projectIds.length === 0) return new Map();
  const rows = await db.selectFrom('project_collaborators').select(['project_id', 'permission'])
    .where('project_id', 'in', projectIds).where('user_id', '=', userId).execute();
  return new Map(rows.map((r) => [r.project_id, r.permission as ProjectPermission]));
}

/** The team grants of each of `projectIds`. */
export async function teamGrantsOfProjects(db: Executor, projectIds: readonly number[]): Promise<Map<number, { teamId: number; permission: ProjectPermission }[]>> {
  const out = new Map<number, { teamId: number; permission: ProjectPermission }[]>();
  if (projectIds.length === 0) return out;
  const rows = await db.selectFrom('project_team_grants').select(['project_id', 'team_id', 'permission']).where('project_id', 'in', projectIds).execute();
  for (const r of rows) {
    const list = out.get(r.project_id) ?? [];
    list.push({ teamId: r.team_id, permission: r.permission as ProjectPermission });
    out.set(r.project_id, list);
  }
  return out;
}

export async function teamGrantsOf(db: Executor, projectId: number): Promise<{ teamId: number; permission: ProjectPermission }[]> {
  const rows = await db.selectFrom('project_team_grants').select(['team_id', 'permission']).where('project_id', '=', projectId).execute();
  return rows.map((r) => ({ teamId: r.team_id, permission: r.permission as ProjectPermission }));
}

export async function setTeamGrant(db: Executor, projectId: number, teamId: number, permission: ProjectPermission, now: string): Promise<void> {
  await db.insertInto('project_team_grants')
    .values({ project_id: projectId, team_id: teamId, permission, created_at: now })
    .onConflict((oc) => oc.columns(['project_id', 'team_id']).doUpdateSet({ permission }))
    .execute();
}

export async function removeTeamGrant(db: Executor, projectId: number, teamId: number): Promise<void> {
  await db.deleteFrom('project_team_grants').where('project_id', '=', projectId).where('team_id', '=', teamId).execute();
}

export async function grantsOfTeam(db: Executor, teamId: number): Promise<{ projectId: number; permission: ProjectPermission }[]> {
  const rows = await db.selectFrom('project_team_grants').select(['project_id', 'permission']).where('team_id', '=', teamId).orderBy('project_id').execute();
  return rows.map((r) => ({ projectId: r.project_id, permission: r.permission as ProjectPermission }));
}
