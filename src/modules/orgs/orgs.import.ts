// Import-shaped entry points for migration archives (migration-import): an
// organization's members and teams put in as the archive has them, with no actor (the
// site admin or the operator running the import decided that already) and without the
// events a person's change would send. Each has its way back out, for a failed import.
import { inTransaction, type AppContext } from '../../context.ts';
import { nowIso } from '../../domain/clock.ts';
import type { Role } from '../repos/repos.model.ts';
import * as accessStore from './orgs.access.store.ts';
import type { OrgRole, Team, TeamPermission, TeamPrivacy, TeamRole } from './orgs.model.ts';
import * as store from './orgs.store.ts';
import { slugify } from './teams.service.ts';

/** Makes the user a member with `role`; false when they already were one (their role is kept). */
export async function importMember(ctx: AppContext, orgId: number, userId: number, role: OrgRole): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const existing = await store.findMembership(tx.db, orgId, userId);
    if (existing?.state === 'active') return false;
    const now = nowIso(tx.clock);
    if (existing) await store.updateMembership(tx.db, orgId, userId, { state: 'active', role }, now);
    else await store.insertMembership(tx.db, orgId, userId, role, 'active', now);
    return true;
  });
}

export async function removeImportedMember(ctx: AppContext, orgId: number, userId: number): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    await store.deleteUserFromOrgTeams(tx.db, orgId, userId);
    await store.deleteMembership(tx.db, orgId, userId);
  });
}

export interface ImportedTeam {
  name: string;
  description: string | null;
  privacy: TeamPrivacy;
  permission: TeamPermission;
  parentId: number | null;
  members: { userId: number; role: TeamRole }[];
}

/**
 * The team of that name (its slug), created when the organization has none; its
 * members are added either way. `created` says which: a team that was there already is
 * not the import's to remove.
 */
export async function importTeam(ctx: AppContext, orgId: number, t: ImportedTeam): Promise<{ team: Team; created: boolean }> {
  return inTransaction(ctx, async (tx) => {
    const now = nowIso(tx.clock);
    const slug = slugify(t.name);
    const existing = await store.findTeamBySlug(tx.db, orgId, slug);
    const team = existing ?? await store.insertTeam(tx.db, {
      orgId, name: t.name.trim(), slug, description: t.description, privacy: t.privacy, permission: t.permission,
      notificationSetting: 'notifications_enabled', parentId: t.parentId, now,
    });
    for (const m of t.members) await store.upsertTeamMember(tx.db, team.id, m.userId, m.role, now);
    return { team, created: existing === null };
  });
}

/**
 * The team's access to a repository the import created (its permission replaced when
 * it had one); removing the repository or the team removes it.
 */
export async function importTeamGrant(ctx: AppContext, teamId: number, repositoryId: number, permission: Role): Promise<void> {
  await accessStore.grantTeam(ctx.db, teamId, repositoryId, permission);
}

export async function removeImportedTeams(ctx: AppContext, teamIds: readonly number[]): Promise<void> {
  await store.deleteTeams(ctx.db, teamIds);
}
