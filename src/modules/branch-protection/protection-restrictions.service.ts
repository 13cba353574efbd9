// …/protection/restrictions/{users,teams,apps}: who may push to a branch whose rule
// restricts pushes, one list at a time. Reading a list of a rule without restrictions
// is 404, changing it 422, as upstream; restrictions belong to organization
// repositories only.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { ValidationError } from '../../domain/errors.ts';
import { idsOf, requireOrganizationRepo, type Kind } from './protection-actors.service.ts';
import { getPart, MAX_LIST, type ListChange, type Where } from './protection-parts.service.ts';
import type { BranchRules, Restrictions } from './protection.model.ts';
import { changeProtection, type Protection } from './protection.service.ts';

const FIELD: Record<Kind, keyof Restrictions> = { users: 'userIds', teams: 'teamIds', apps: 'appIds' };

export function getRestricted(ctx: AppContext, actor: Actor, w: Where): Promise<Protection> {
  return getPart(ctx, actor, w, 'restrictions');
}

function changedIds(current: readonly number[], change: ListChange, ids: readonly number[]): number[] {
  if (change === 'set') return [...ids];
  if (change === 'remove') return current.filter((id) => !ids.includes(id));
  return [...current, ...ids.filter((id) => !current.includes(id))];
}

/** POST adds, PUT replaces, DELETE removes the named users, teams or apps; 422 for a name that resolves to nothing. */
export function changeRestricted(ctx: AppContext, actor: Actor, w: Where, kind: Kind, change: ListChange, names: readonly string[]): Promise<Protection> {
  return changeProtection(ctx, actor, w.owner, w.repo, w.branch, async (r, repo, tx): Promise<BranchRules> => {
    requireOrganizationRepo(repo);
    if (!r.restrictions) throw ValidationError.field('Branch', 'restrictions', 'invalid', 'Push restrictions not enabled');
    const current = r.restrictions;
    const next: Restrictions = { ...current, [FIELD[kind]]: changedIds(current[FIELD[kind]], change, await idsOf(tx, repo, kind, names)) };
    if (next.userIds.length + next.teamIds.length + next.appIds.length > MAX_LIST) {
      throw ValidationError.field('Branch', `restrictions.${kind}`, 'invalid', `The list of users, apps, and teams in total is limited to ${MAX_LIST} items`);
    }
    return { ...r, restrictions: next };
  });
}
