// Who may administer runners: organization owners through a token with admin:org (the
// spec's Authentication 11, 16), or repository administrators (whose token's repo or
// public_repo scope repos.locate checks). Apps' permissions come with the apps module.
import type { AppContext } from '../../context.ts';
import { requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import type { Organization } from '../orgs/orgs.model.ts';
import * as orgs from '../orgs/orgs.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { DEFAULT_GROUP_NAME, type RunnerGroup, type RunnerScope } from './runners.model.ts';
import * as groupStore from './runner-groups.store.ts';

export const ORG_SCOPES = ['admin:org'];

/** The organization (its login in any case), when the caller owns it through an admin:org token. */
export async function administeredOrganization(ctx: AppContext, actor: Actor, login: string): Promise<Organization> {
  requireUser(actor);
  const org = await orgs.requireOrganization(ctx, login);
  requireScope(actor, ...ORG_SCOPES);
  await orgs.requireOrgOwner(ctx, actor, org);
  return org;
}

/** The repository, when the caller administers it. */
export async function administeredRepository(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<Repo> {
  requireUser(actor);
  return (await repos.locate(ctx, actor, owner, name, 'admin')).repo;
}

export type Administered = { scope: RunnerScope; org: Organization | null; repo: Repo | null };

export async function administeredScope(ctx: AppContext, actor: Actor, at: RunnersAt): Promise<Administered> {
  if (at.kind === 'org') {
    const org = await administeredOrganization(ctx, actor, at.org);
    return { scope: { kind: 'org', organizationId: org.account.id }, org, repo: null };
  }
  const repo = await administeredRepository(ctx, actor, at.owner, at.repo);
  return { scope: { kind: 'repo', repositoryId: repo.id }, org: null, repo };
}

/** Where a runners route points: an organization's runners or a repository's. */
export type RunnersAt = { kind: 'org'; org: string } | { kind: 'repo'; owner: string; repo: string };

/**
 * The organization's Default group, made on first need: every organization has one, and
 * it takes the runners of groups that are deleted.
 */
export async function defaultGroup(ctx: AppContext, organizationId: number): Promise<RunnerGroup> {
  const found = await groupStore.findDefaultGroup(ctx.db, organizationId);
  if (found) return found;
  // Two first requests may race to make it: the unique name lets one insert and the other read it.
  await groupStore.insertDefaultGroupOnce(ctx.db, organizationId, {
    name: DEFAULT_GROUP_NAME, visibility: 'all', allowsPublicRepositories: false,
    restrictedToWorkflows: false, selectedWorkflows: [], networkConfigurationId: null,
  }, nowIso(ctx.clock));
  const made = await groupStore.findDefaultGroup(ctx.db, organizationId);
  if (!made) throw new Error(`the Default runner group of organization ${organizationId} could not be made`);
  return made;
}
