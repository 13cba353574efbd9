// Classic projects: listing and creating them on organizations, repositories and users,
// reading, changing (the open/closed transitions, base permission, visibility) and
// deleting them. Columns and cards are board.service.ts, collaborators collaborators.service.ts.
// Issues and pull requests ask here for the cards that show them.
import { inTransaction, type AppContext } from '../../context.ts';
import { requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { ForbiddenError, GoneError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import { requireMaxLength, TEXT_LIMITS } from '../../domain/text-limits.ts';
import type { IssueRecord } from '../issues/issues.model.ts';
import * as issues from '../issues/issues.service.ts';
import * as orgs from '../orgs/orgs.service.ts';
import * as repos from '../repos/repos.service.ts';
import { roleAtLeast, type Repo } from '../repos/repos.model.ts';
import * as users from '../users/users.service.ts';
import {
  organizationProjectsEnabled, ownerOf, permissionOn, permissionsOn, repositoryProjectsEnabled, requireProject, requireProjectFor, WRITE_SCOPES,
} from './projects.access.ts';
import * as board from './board.store.ts';
import type { OrganizationPermission, ProjectCard, ProjectOwner, ProjectPermission, ProjectRecord, ProjectState } from './projects.model.ts';
import { PROJECT_STATES } from './projects.model.ts';
import { projectEvent } from './projects.events.ts';
import { cardTimelineEvent } from './projects.timeline.ts';
import * as store from './projects.store.ts';

export const RESOURCE = 'Project';

export type StateFilter = ProjectState | 'all';

/** `state` of a list query: open by default; anything but open, closed or all is upstream's 422. */
export function stateFilter(raw: string | undefined): StateFilter {
  if (raw === undefined) return 'open';
  if (raw === 'all' || (PROJECT_STATES as readonly string[]).includes(raw)) return raw as StateFilter;
  throw new ValidationError([{ resource: RESOURCE, field: 'state', code: 'invalid', value: raw }]);
}

function validateText(input: { name?: string; body?: string | null }): void {
  if (input.name !== undefined && !input.name.trim()) throw ValidationError.field(RESOURCE, 'name', 'missing_field', "Name can't be blank");
  requireMaxLength(RESOURCE, 'name', input.name, TEXT_LIMITS.title);
  requireMaxLength(RESOURCE, 'body', input.body, TEXT_LIMITS.body);
}

// ---------------------------------------------------------------- owners

async function requireOrgOwner(ctx: AppContext, login: string): Promise<ProjectOwner & { type: 'Organization' }> {
  return { type: 'Organization', org: await orgs.requireOrganization(ctx, login) };
}

async function requireUserOwner(ctx: AppContext, login: string): Promise<ProjectOwner & { type: 'User' }> {
  const account = await users.findAccount(ctx, login);
  if (!account || account.type !== 'User') throw new NotFoundError();
  return { type: 'User', account };
}

function refOf(owner: ProjectOwner): store.OwnerRef {
  switch (owner.type) {
    case 'Repository': return { type: 'Repository', id: owner.repo.id };
    case 'Organization': return { type: 'Organization', id: owner.org.account.id };
    default: return { type: 'User', id: owner.account.id };
  }
}

/** The owner's projects the caller may see, in `state`. */
async function visibleProjects(ctx: AppContext, actor: Actor, owner: ProjectOwner, state: StateFilter, slice: Slice): Promise<Page<ProjectRecord>> {
  const all = await store.listProjects(ctx.db, refOf(owner), state);
  const permissions = await permissionsOn(ctx, actor, owner, all);
  const visible: ProjectRecord[] = all.filter((project) => permissions.get(project.id) != null).map((project) => ({ project, owner }));
  return { items: visible.slice(slice.offset, slice.offset + slice.perPage), total: visible.length };
}

export async function listForOrg(ctx: AppContext, actor: Actor, login: string, state: string | undefined, slice: Slice): Promise<Page<ProjectRecord>> {
  const filter = stateFilter(state);
  const owner = await requireOrgOwner(ctx, login);
  if (!organizationProjectsEnabled(owner.org)) throw new NotFoundError();
  return visibleProjects(ctx, actor, owner, filter, slice);
}

export async function listForRepo(
  ctx: AppContext, actor: Actor, ownerLogin: string, name: string, state: string | undefined, slice: Slice,
): Promise<Page<ProjectRecord>> {
  const filter = stateFilter(state);
  const { repo } = await repos.locate(ctx, actor, ownerLogin, name, 'pull');
  if (!(await repositoryProjectsEnabled(ctx, repo))) throw new NotFoundError();
  return visibleProjects(ctx, actor, { type: 'Repository', repo }, filter, slice);
}

export async function listForUser(ctx: AppContext, actor: Actor, login: string, state: string | undefined, slice: Slice): Promise<Page<ProjectRecord>> {
  const filter = stateFilter(state);
  return visibleProjects(ctx, actor, await requireUserOwner(ctx, login), filter, slice);
}

/** An owner as GraphQL reaches it (the caller already sees it): organizations by login, repositories and users as loaded. */
export type OwnerOf = { type: 'Organization'; login: string } | Exclude<ProjectOwner, { type: 'Organization' }>;

async function ownerFor(ctx: AppContext, o: OwnerOf): Promise<ProjectOwner | null> {
  if (o.type !== 'Organization') {
    return o.type === 'Repository' && !(await repositoryProjectsEnabled(ctx, o.repo)) ? null : o;
  }
  const owner = await requireOrgOwner(ctx, o.login);
  return organizationProjectsEnabled(owner.org) ? owner : null;
}

/** The owner's projects the caller may see, in `states` (all when empty), whose names contain `search`: none where projects are off. */
export async function projectsOfOwner(
  ctx: AppContext, actor: Actor, o: OwnerOf, states: readonly ProjectState[] | null | undefined, search?: string | null,
): Promise<ProjectRecord[]> {
  const owner = await ownerFor(ctx, o);
  if (!owner) return [];
  const filter: StateFilter = states?.length === 1 ? states[0]! : 'all';
  const { items } = await visibleProjects(ctx, actor, owner, filter, { offset: 0, perPage: Number.MAX_SAFE_INTEGER });
  const needle = search?.trim().toLowerCase();
  return needle ? items.filter((r) => r.project.name.toLowerCase().includes(needle)) : items;
}

/** The owner's project `number`, or null when absent, switched off or hidden from the caller. */
export async function projectByNumber(ctx: AppContext, actor: Actor, o: OwnerOf, number: number): Promise<ProjectRecord | null> {
  const owner = await ownerFor(ctx, o);
  const project = owner ? await store.findProjectByNumber(ctx.db, refOf(owner), number) : null;
  if (!owner || !project) return null;
  return (await permissionOn(ctx, actor, { project, owner })) === null ? null : { project, owner };
}

/** The caller's permission on a project they see (GraphQL viewerCanUpdate). */
export async function viewerPermission(ctx: AppContext, actor: Actor, r: ProjectRecord): Promise<ProjectPermission | null> {
  return permissionOn(ctx, actor, r);
}

// ---------------------------------------------------------------- create

export interface NewProjectInput {
  name: string;
  body?: string | null;
}

async function create(ctx: AppContext, actor: Actor, owner: ProjectOwner, input: NewProjectInput): Promise<ProjectRecord> {
  const user = requireUser(actor);
  validateText(input);
  const org = owner.type === 'Organization';
  const values: store.NewProject = {
    owner: refOf(owner), name: input.name, body: input.body ?? null,
    // New organization boards are private, members writing; a user's board is public.
    organizationPermission: org ? 'write' : null, private: org,
    creatorId: user.id, now: nowIso(ctx.clock),
  };
  return inTransaction(ctx, async (tx) => {
    const record = { project: await store.insertProject(tx.db, values), owner };
    await projectEvent(tx, user.id, record, 'created');
    return record;
  });
}

export async function createForOrg(ctx: AppContext, actor: Actor, login: string, input: NewProjectInput): Promise<ProjectRecord> {
  const user = requireUser(actor);
  const owner = await requireOrgOwner(ctx, login);
  if (!organizationProjectsEnabled(owner.org)) throw new GoneError('Projects are disabled for this organization');
  const m = await orgs.membershipOf(ctx, owner.org.account.id, user.id);
  if (!user.siteAdmin && m?.state !== 'active') throw new GoneError('You must be a member of the organization to create its projects.');
  requireScope(actor, ...WRITE_SCOPES);
  return create(ctx, actor, owner, input);
}

export async function createForRepo(ctx: AppContext, actor: Actor, ownerLogin: string, name: string, input: NewProjectInput): Promise<ProjectRecord> {
  requireUser(actor);
  const { repo } = await repos.locate(ctx, actor, ownerLogin, name, 'pull');
  if (!(await repositoryProjectsEnabled(ctx, repo))) throw new GoneError('Projects are disabled for this repository');
  const access = await repos.accessTo(ctx, actor, repo);
  if (!roleAtLeast(access.role, 'push')) throw new GoneError('Must have write access to this repository to create its projects.');
  if (repo.archived) throw new ForbiddenError('Repository was archived so is read-only.');
  requireScope(actor, ...WRITE_SCOPES);
  return create(ctx, actor, { type: 'Repository', repo }, input);
}

export async function createForAuthenticatedUser(ctx: AppContext, actor: Actor, input: NewProjectInput): Promise<ProjectRecord> {
  const user = requireUser(actor);
  requireScope(actor, ...WRITE_SCOPES);
  return create(ctx, actor, await requireUserOwner(ctx, user.login), input);
}

// ---------------------------------------------------------------- read, change, delete

export async function getProject(ctx: AppContext, actor: Actor, id: number): Promise<ProjectRecord> {
  const { project, owner } = await requireProject(ctx, actor, id);
  return { project, owner };
}

export interface ProjectChanges {
  name?: string;
  body?: string | null;
  state?: ProjectState;
  organization_permission?: OrganizationPermission;
  private?: boolean;
}

export async function updateProject(ctx: AppContext, actor: Actor, id: number, c: ProjectChanges): Promise<ProjectRecord> {
  const settings = c.organization_permission !== undefined || c.private !== undefined;
  const a = await requireProjectFor(ctx, actor, id, settings ? 'admin' : 'write');
  validateText(c);
  if (c.organization_permission !== undefined && a.owner.type !== 'Organization') {
    throw ValidationError.field(RESOURCE, 'organization_permission', 'invalid', 'Only organization projects have an organization permission.');
  }
  if (c.private !== undefined && a.owner.type === 'Repository') {
    throw ValidationError.field(RESOURCE, 'private', 'invalid', "A repository project's visibility is its repository's.");
  }
  const before = a.project;
  return inTransaction(ctx, async (tx) => {
    const project = await store.updateProject(tx.db, id, {
      name: c.name, body: c.body, state: c.state, organizationPermission: c.organization_permission, private: c.private,
    }, nowIso(tx.clock));
    const record = { project, owner: a.owner };
    const changes: Record<string, { from: unknown }> = {};
    if (project.name !== before.name) changes.name = { from: before.name };
    if (project.body !== before.body) changes.body = { from: before.body ?? '' };
    const stateChanged = project.state !== before.state;
    const settingsChanged = project.private !== before.private || project.organizationPermission !== before.organizationPermission;
    if (Object.keys(changes).length || settingsChanged) await projectEvent(tx, actor.user!.id, record, 'edited', changes);
    if (stateChanged) await projectEvent(tx, actor.user!.id, record, project.state === 'closed' ? 'closed' : 'reopened');
    return record;
  });
}

export async function deleteProject(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  const a = await requireProjectFor(ctx, actor, id, 'admin');
  await inTransaction(ctx, async (tx) => {
    await projectEvent(tx, actor.user!.id, a, 'deleted');
    const cards = await board.issueCardsOfProject(tx.db, id);
    const columns = await board.columnsByIds(tx.db, [...new Set(cards.map((c) => c.columnId))]);
    for (const card of cards) {
      await cardTimelineEvent(tx, actor.user!.id, card, columns.find((c) => c.id === card.columnId)?.name ?? '', 'removed_from_project');
    }
    await store.deleteProject(tx.db, id);
  });
}

// ---------------------------------------------------------------- issues and pull requests

/** The cards showing these issues or pull requests, on projects the caller may see. */
export async function cardsOfIssues(ctx: AppContext, actor: Actor, issueIds: readonly number[]): Promise<ProjectCard[]> {
  const cards = await board.cardsOfIssues(ctx.db, issueIds);
  const projects = await store.projectsByIds(ctx.db, [...new Set(cards.map((c) => c.projectId))]);
  const visible = new Set<number>();
  for (const project of projects) {
    if ((await permissionOn(ctx, actor, { project, owner: await ownerOf(ctx, project) })) !== null) visible.add(project.id);
  }
  return cards.filter((c) => visible.has(c.projectId));
}

/** The issue or pull request a card shows, with its repository, when the caller may read that repository. */
export async function contentOfCard(ctx: AppContext, actor: Actor, card: ProjectCard): Promise<{ issue: IssueRecord; repo: Repo } | null> {
  if (card.issueId === null) return null;
  const [issue] = await issues.findIssuesByIds(ctx, [card.issueId]);
  const [repo] = issue ? await repos.reposByIds(ctx, [issue.repositoryId]) : [];
  if (!issue || !repo || (await repos.accessTo(ctx, actor, repo)).effective === null) return null;
  return { issue, repo };
}

/** The projects (beta) items of an issue or pull request: Wharf has no such projects. */
export function projectItemsOfIssue(): readonly never[] {
  return [];
}
