// Collaborators of a project: listed by affiliation, added with a permission, removed,
// and what any user may do on it. Project administrators only.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { Slice } from '../../domain/page.ts';
import * as orgs from '../orgs/orgs.service.ts';
import * as users from '../users/users.service.ts';
import { permissionOfAccount, requireProjectFor } from './projects.access.ts';
import type { ProjectPermission } from './projects.model.ts';
import { RESOURCE } from './projects.service.ts';
import * as store from './projects.store.ts';

async function requireCollaboratorCandidate(ctx: AppContext, username: string) {
  const account = await users.findAccount(ctx, username);
  if (!account || account.type !== 'User') throw new NotFoundError();
  return account;
}

export type Affiliation = 'outside' | 'direct' | 'all';

/**
 * Collaborators of the project: `direct` those added to it, `outside` those of them who
 * are not members of the owning organization, `all` (default) the direct ones and the
 * members of teams granted the project.
 */
export async function listCollaborators(ctx: AppContext, actor: Actor, id: number, affiliation: Affiliation = 'all', slice: Slice) {
  const a = await requireProjectFor(ctx, actor, id, 'admin');
  const direct = (await store.collaboratorsOf(ctx.db, id)).map((c) => c.userId);
  let ids = direct;
  if (affiliation === 'outside') {
    const orgId = a.owner.type === 'Organization' ? a.owner.org.account.id : null;
    ids = [];
    for (const userId of direct) {
      const m = orgId === null ? null : await orgs.membershipOf(ctx, orgId, userId);
      if (m?.state !== 'active') ids.push(userId);
    }
  } else if (affiliation === 'all' && a.owner.type === 'Organization') {
    const orgId = a.owner.org.account.id;
    for (const grant of await store.teamGrantsOf(ctx.db, id)) {
      for (const userId of await orgs.teamMemberIds(ctx, { orgId, teamId: grant.teamId })) if (!ids.includes(userId)) ids = [...ids, userId];
    }
  }
  const accounts = await users.accountsByIds(ctx, ids.slice(slice.offset, slice.offset + slice.perPage));
  return { items: ids.slice(slice.offset, slice.offset + slice.perPage).flatMap((u) => accounts.get(u) ?? []), total: ids.length };
}

export async function addCollaborator(ctx: AppContext, actor: Actor, id: number, username: string, permission: ProjectPermission = 'write'): Promise<void> {
  const a = await requireProjectFor(ctx, actor, id, 'admin');
  if (a.owner.type === 'Repository') {
    throw ValidationError.field(RESOURCE, 'collaborator', 'invalid', "A repository project's collaborators are its repository's.");
  }
  const account = await requireCollaboratorCandidate(ctx, username);
  await store.setCollaborator(ctx.db, id, account.id, permission, nowIso(ctx.clock));
}

export async function removeCollaborator(ctx: AppContext, actor: Actor, id: number, username: string): Promise<void> {
  await requireProjectFor(ctx, actor, id, 'admin');
  const account = await requireCollaboratorCandidate(ctx, username);
  await store.removeCollaborator(ctx.db, id, account.id);
}

/** What the user may do on the project: admin, write, read or none. */
export async function collaboratorPermission(ctx: AppContext, actor: Actor, id: number, username: string) {
  const a = await requireProjectFor(ctx, actor, id, 'admin');
  const account = await requireCollaboratorCandidate(ctx, username);
  const permission = await permissionOfAccount(ctx, account, a);
  return { permission: permission ?? 'none', user: account };
}
