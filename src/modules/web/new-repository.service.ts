// The new repository page's data and write: the owners the viewer may create under
// (themselves, and each organization of theirs whose settings let them: the rule
// POST /orgs/{org}/repos applies, orgs.canCreateRepositories), and the creation itself
// through repos.createRepo, the service POST /user/repos and POST /orgs/{org}/repos use.
// An owner the viewer may not create under is a field error of the form, not a 404 or 403
// page: the form named it, and shows the refusal beside what was typed.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { organizationsByIds } from '../orgs/organizations.service.ts';
import { canCreateRepositories, isOwnerMembership } from '../orgs/orgs.permissions.ts';
import { activeMembershipsOf } from '../orgs/teams.service.ts';
import * as repos from '../repos/repos.service.ts';
import type { Presentable } from '../repos/repos.service.ts';

/** The form as typed. */
export interface NewRepoFields {
  owner: string;
  name: string;
  description: string;
  visibility: 'public' | 'private';
  autoInit: boolean;
}

/** The logins the viewer may create under: their own first, then their organizations by login. */
export async function ownersFor(ctx: AppContext, actor: Actor): Promise<string[]> {
  if (!actor.user) throw new NotFoundError();
  const memberships = await activeMembershipsOf(ctx, actor.user.id);
  const orgs = await organizationsByIds(ctx, memberships.map((m) => m.orgId));
  const allowed = memberships.flatMap((m) => {
    const org = orgs.get(m.orgId);
    // Of some visibility: which one is the form's choice, checked again on creation.
    return org && (actor.user!.siteAdmin || canCreateRepositories(org.settings, isOwnerMembership(m))) ? [org.account.login] : [];
  });
  return [actor.user.login, ...allowed.sort((a, b) => a.localeCompare(b))];
}

function ownerRefused(owner: string, message: string): ValidationError {
  return new ValidationError([{ resource: 'Repository', field: 'owner', code: 'invalid', value: owner, message }], message);
}

/** POST /user/repos for the viewer's own account, POST /orgs/{org}/repos for one of their organizations. */
export async function createRepository(ctx: AppContext, actor: Actor, f: NewRepoFields): Promise<Presentable> {
  const owners = await ownersFor(ctx, actor);
  const owner = owners.find((o) => o.toLowerCase() === f.owner.toLowerCase());
  if (!owner) throw ownerRefused(f.owner, f.owner ? `You may not create repositories in ${f.owner}.` : 'Choose an owner.');
  const input: repos.CreateRepoInput = {
    name: f.name, private: f.visibility === 'private', autoInit: f.autoInit,
    ...(f.description.trim() ? { description: f.description } : {}),
  };
  try {
    return await repos.createRepo(ctx, actor, owner === actor.user!.login ? null : owner, input);
  } catch (err) {
    // The organization's settings refusing this visibility: the owner field's error.
    if (err instanceof ForbiddenError) throw ownerRefused(owner, err.message);
    throw err;
  }
}
