// SQL for collaborators, repository invitations, the invitation quota and custom
// repository roles. Only the collaborators module calls this.
import type { Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { CustomRepositoryRolesTable, RepositoryInvitationsTable } from '../../db/schema.ts';
import type { Role } from '../repos/repos.model.ts';
import type { Collaboration, CustomBaseRole, CustomRole, InvitationRecord } from './collaborators.model.ts';

// ---------------------------------------------------------------- collaborators

export async function listCollaborations(db: Executor, repoId: number, userIds?: readonly number[]): Promise<Collaboration[]> {
  if (userIds && !userIds.length) return [];
  let q = db.selectFrom('collaborators as c')
    .leftJoin('custom_repository_roles as r', 'r.id', 'c.custom_role_id')
    .select(['c.repository_id', 'c.user_id', 'c.permission', 'c.custom_role_id', 'c.created_at', 'r.name as custom_role_name'])
    .where('c.repository_id', '=', repoId);
  if (userIds) q = q.where('c.user_id', 'in', [...new Set(userIds)]);
  const rows = await q.execute();
  return rows.map((r) => ({
    repositoryId: r.repository_id, userId: r.user_id, role: r.permission as Role, customRoleId: r.custom_role_id,
    customRoleName: r.custom_role_name ?? null, createdAt: r.created_at,
  }));
}

export async function findCollaboration(db: Executor, repoId: number, userId: number): Promise<Collaboration | null> {
  return (await listCollaborations(db, repoId, [userId]))[0] ?? null;
}

/** Adds the collaborator (a concurrent add of the same user just sets the role). */
export async function insertCollaboration(db: Executor, repoId: number, userId: number, role: Role, customRoleId: number | null, now: string): Promise<void> {
  await db.insertInto('collaborators')
    .values({ repository_id: repoId, user_id: userId, permission: role, custom_role_id: customRoleId, created_at: now })
    .onConflict((oc) => oc.columns(['repository_id', 'user_id']).doUpdateSet({ permission: role, custom_role_id: customRoleId }))
    .execute();
}

export async function updateCollaboration(db: Executor, repoId: number, userId: number, role: Role, customRoleId: number | null): Promise<void> {
  await db.updateTable('collaborators').set({ permission: role, custom_role_id: customRoleId })
    .where('repository_id', '=', repoId).where('user_id', '=', userId).execute();
}

/** Removes the collaborator; true when there was one. */
export async function deleteCollaboration(db: Executor, repoId: number, userId: number): Promise<boolean> {
  const r = await db.deleteFrom('collaborators').where('repository_id', '=', repoId).where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

// ---------------------------------------------------------------- organization grants

// ---------------------------------------------------------------- invitations

const INVITATION_COLUMNS = [
  'i.id', 'i.repository_id', 'i.invitee_id', 'i.inviter_id', 'i.permission', 'i.custom_role_id', 'i.created_at', 'r.name as custom_role_name',
] as const;

function invitations(db: Executor) {
  return db.selectFrom('repository_invitations as i')
    .leftJoin('custom_repository_roles as r', 'r.id', 'i.custom_role_id')
    .select(INVITATION_COLUMNS);
}

type InvitationRow = Awaited<ReturnType<ReturnType<typeof invitations>['executeTakeFirstOrThrow']>>;

function toInvitation(r: InvitationRow): InvitationRecord {
  return {
    id: r.id, repositoryId: r.repository_id, inviteeId: r.invitee_id, inviterId: r.inviter_id, role: r.permission as Role,
    customRoleId: r.custom_role_id, customRoleName: r.custom_role_name ?? null, createdAt: r.created_at,
  };
}

export interface NewInvitation {
  repositoryId: number;
  inviteeId: number;
  inviterId: number;
  role: Role;
  customRoleId: number | null;
  now: string;
}

export async function insertInvitation(db: Executor, i: NewInvitation): Promise<InvitationRecord> {
  const { id } = await db.insertInto('repository_invitations').values({
    repository_id: i.repositoryId, invitee_id: i.inviteeId, inviter_id: i.inviterId, permission: i.role,
    custom_role_id: i.customRoleId, created_at: i.now,
  }).returning('id').executeTakeFirstOrThrow();
  return (await findInvitation(db, id))!;
}

export async function findInvitation(db: Executor, id: number): Promise<InvitationRecord | null> {
  const row = await invitations(db).where('i.id', '=', id).executeTakeFirst();
  return row ? toInvitation(row) : null;
}

/** The newest invitation of the user to the repository, if any. */
export async function findInvitationFor(db: Executor, repoId: number, inviteeId: number): Promise<InvitationRecord | null> {
  const row = await invitations(db).where('i.repository_id', '=', repoId).where('i.invitee_id', '=', inviteeId)
    .orderBy('i.id', 'desc').executeTakeFirst();
  return row ? toInvitation(row) : null;
}

export async function listInvitationsOfRepo(db: Executor, repoId: number, limit: number, offset: number): Promise<{ rows: InvitationRecord[]; total: number }> {
  const [rows, total] = await Promise.all([
    invitations(db).where('i.repository_id', '=', repoId).orderBy('i.id').limit(limit).offset(offset).execute(),
    db.selectFrom('repository_invitations').select((eb) => eb.fn.countAll<number>().as('n')).where('repository_id', '=', repoId).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toInvitation), total: Number(total.n) };
}

/** The user's invitations created at or after `since` (older ones have expired). */
export async function listInvitationsOfInvitee(
  db: Executor, inviteeId: number, since: string, limit: number, offset: number,
): Promise<{ rows: InvitationRecord[]; total: number }> {
  const [rows, total] = await Promise.all([
    invitations(db).where('i.invitee_id', '=', inviteeId).where('i.created_at', '>=', since)
      .orderBy('i.id').limit(limit).offset(offset).execute(),
    db.selectFrom('repository_invitations').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('invitee_id', '=', inviteeId).where('created_at', '>=', since).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toInvitation), total: Number(total.n) };
}

export async function updateInvitation(db: Executor, id: number, role: Role, customRoleId: number | null, createdAt?: string): Promise<InvitationRecord> {
  const set: Updateable<RepositoryInvitationsTable> = { permission: role, custom_role_id: customRoleId };
  if (createdAt !== undefined) set.created_at = createdAt;
  await db.updateTable('repository_invitations').set(set).where('id', '=', id).execute();
  return (await findInvitation(db, id))!;
}

export async function deleteInvitation(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('repository_invitations').where('id', '=', id).execute();
}

/** Invitations to the repository sent to or by the user. */
export async function deleteInvitationsInvolving(db: Executor, repoId: number, userId: number): Promise<void> {
  await db.deleteFrom('repository_invitations').where('repository_id', '=', repoId)
    .where((eb) => eb.or([eb('invitee_id', '=', userId), eb('inviter_id', '=', userId)])).execute();
}

/**
 * Takes one invitation slot of the repository's window: false (and nothing written)
 * when `limit` invitations were already sent since `windowStart`. The quota row is
 * locked for the rest of the transaction (a no-op update locks in both dialects), so
 * concurrent invitations cannot overshoot the limit.
 */
export async function claimInvitationSlot(db: Executor, repoId: number, now: string, windowStart: string, limit: number): Promise<boolean> {
  await db.insertInto('repository_invitation_quotas').values({ repository_id: repoId, sent_at: '[]' })
    .onConflict((oc) => oc.column('repository_id').doNothing()).execute();
  await db.updateTable('repository_invitation_quotas').set((eb) => ({ repository_id: eb.ref('repository_id') }))
    .where('repository_id', '=', repoId).execute();
  const row = await db.selectFrom('repository_invitation_quotas').select('sent_at').where('repository_id', '=', repoId).executeTakeFirstOrThrow();
  const recent = (JSON.parse(row.sent_at) as string[]).filter((t) => t > windowStart);
  if (recent.length >= limit) return false;
  await db.updateTable('repository_invitation_quotas').set({ sent_at: JSON.stringify([...recent, now]) })
    .where('repository_id', '=', repoId).execute();
  return true;
}

// ---------------------------------------------------------------- custom repository roles

function toRole(r: Selectable<CustomRepositoryRolesTable>): CustomRole {
  return {
    id: r.id, orgId: r.org_id, name: r.name, description: r.description, baseRole: r.base_role,
    permissions: JSON.parse(r.permissions) as string[], createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

export async function listRoles(db: Executor, orgId: number): Promise<CustomRole[]> {
  const rows = await db.selectFrom('custom_repository_roles').selectAll().where('org_id', '=', orgId).orderBy('id').execute();
  return rows.map(toRole);
}

export async function findRole(db: Executor, orgId: number, id: number): Promise<CustomRole | null> {
  const row = await db.selectFrom('custom_repository_roles').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
  return row ? toRole(row) : null;
}

export async function findRoleByName(db: Executor, orgId: number, name: string): Promise<CustomRole | null> {
  const row = await db.selectFrom('custom_repository_roles').selectAll()
    .where('org_id', '=', orgId).where('name_lower', '=', name.toLowerCase()).executeTakeFirst();
  return row ? toRole(row) : null;
}

export interface NewRole {
  orgId: number;
  name: string;
  description: string | null;
  baseRole: CustomBaseRole;
  permissions: string[];
  now: string;
}

export async function insertRole(db: Executor, r: NewRole): Promise<CustomRole> {
  const row = await db.insertInto('custom_repository_roles').values({
    org_id: r.orgId, name: r.name, name_lower: r.name.toLowerCase(), description: r.description, base_role: r.baseRole,
    permissions: JSON.stringify(r.permissions), created_at: r.now, updated_at: r.now,
  }).returningAll().executeTakeFirstOrThrow();
  return toRole(row);
}

export interface RoleChanges {
  name?: string;
  description?: string | null;
  baseRole?: CustomBaseRole;
  permissions?: string[];
}

export async function updateRole(db: Executor, id: number, c: RoleChanges, now: string): Promise<CustomRole> {
  const set: Updateable<CustomRepositoryRolesTable> = { updated_at: now };
  if (c.name !== undefined) { set.name = c.name; set.name_lower = c.name.toLowerCase(); }
  if (c.description !== undefined) set.description = c.description;
  if (c.baseRole !== undefined) set.base_role = c.baseRole;
  if (c.permissions !== undefined) set.permissions = JSON.stringify(c.permissions);
  const row = await db.updateTable('custom_repository_roles').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  return toRole(row);
}

/** Deletes the role; its holders keep the base role it inherited (custom_role_id is set null). */
export async function deleteRole(db: Executor, orgId: number, id: number): Promise<void> {
  await db.deleteFrom('custom_repository_roles').where('org_id', '=', orgId).where('id', '=', id).execute();
}

/** After a role's base role changed: its collaborators and invitations get the new one. */
export async function rebaseHolders(db: Executor, roleId: number, role: Role): Promise<void> {
  await db.updateTable('collaborators').set({ permission: role }).where('custom_role_id', '=', roleId).execute();
  await db.updateTable('repository_invitations').set({ permission: role }).where('custom_role_id', '=', roleId).execute();
}
