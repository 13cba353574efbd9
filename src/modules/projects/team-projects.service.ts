// Teams' access to an organization's projects: the grants that projects.access.ts counts
// for the team's members, listed per team, set and removed by project administrators.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { ForbiddenError, NotFoundError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import * as orgs from '../orgs/orgs.service.ts';
import type { Team } from '../orgs/orgs.model.ts';
import { ownerOf, permissionOn, requireProjectFor } from './projects.access.ts';
import type { ProjectPermission, ProjectRecord } from './projects.model.ts';
import * as store from './projects.store.ts';

export interface TeamProject extends ProjectRecord {
  /** The team's permission on the project. */
  permission: ProjectPermission;
}

/** The team's own default: its repository permission as a project permission. */
function teamDefault(team: Team): ProjectPermission {
  return team.permission === 'admin' ? 'admin' : team.permission === 'push' ? 'write' : 'read';
}

async function granted(ctx: AppContext, actor: Actor, teamId: number, only?: number): Promise<TeamProject[]> {
  const grants = (await store.grantsOfTeam(ctx.db, teamId)).filter((g) => only === undefined || g.projectId === only);
  const projects = await store.projectsByIds(ctx.db, grants.map((g) => g.projectId));
  const out: TeamProject[] = [];
  for (const g of grants) {
    const project = projects.find((p) => p.id === g.projectId);
    if (!project) continue;
    const record = { project, owner: await ownerOf(ctx, project) };
    if ((await permissionOn(ctx, actor, record)) !== null) out.push({ ...record, permission: g.permission });
  }
  return out;
}

export async function listTeamProjects(ctx: AppContext, actor: Actor, org: string, teamSlug: string, slice: Slice): Promise<Page<TeamProject>> {
  const { team } = await orgs.getTeam(ctx, actor, { org, teamSlug });
  const all = await granted(ctx, actor, team.id);
  return { items: all.slice(slice.offset, slice.offset + slice.perPage), total: all.length };
}

export async function getTeamProject(ctx: AppContext, actor: Actor, org: string, teamSlug: string, projectId: number): Promise<TeamProject> {
  const { team } = await orgs.getTeam(ctx, actor, { org, teamSlug });
  const [found] = await granted(ctx, actor, team.id, projectId);
  if (!found) throw new NotFoundError();
  return found;
}

async function teamAndProject(ctx: AppContext, actor: Actor, org: string, teamSlug: string, projectId: number) {
  const { team, org: organization } = await orgs.getTeam(ctx, actor, { org, teamSlug });
  const a = await requireProjectFor(ctx, actor, projectId, 'admin');
  if (a.owner.type !== 'Organization' || a.owner.org.account.id !== organization.account.id) {
    throw new ForbiddenError('Must have admin rights to Repository.');
  }
  return { team, projectId };
}

export async function addTeamProject(
  ctx: AppContext, actor: Actor, org: string, teamSlug: string, projectId: number, permission?: ProjectPermission,
): Promise<void> {
  const { team } = await teamAndProject(ctx, actor, org, teamSlug, projectId);
  await store.setTeamGrant(ctx.db, projectId, team.id, permission ?? teamDefault(team), nowIso(ctx.clock));
}

export async function removeTeamProject(ctx: AppContext, actor: Actor, org: string, teamSlug: string, projectId: number): Promise<void> {
  const { team } = await teamAndProject(ctx, actor, org, teamSlug, projectId);
  await store.removeTeamGrant(ctx.db, projectId, team.id);
}
