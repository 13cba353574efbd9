// Issue lists: one repository's (GET /repos/{owner}/{repo}/issues), and across
// repositories for the authenticated user (GET /issues, /user/issues) or within an
// organization (GET /orgs/{org}/issues). Lists include pull requests, as upstream.
// Only repositories the caller may read contribute: the repos permission model decides.
import type { AppContext } from '../../context.ts';
import { requireUser, type Actor } from '../../domain/actor.ts';
import { ValidationError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import * as orgAccess from '../orgs/orgs.access.ts';
import * as orgs from '../orgs/orgs.service.ts';
import { accessToMany } from '../repos/repos.access.ts';
import * as repos from '../repos/repos.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as users from '../users/users.service.ts';
import { presentIssues, type PresentOptions } from './issues.present.ts';
import * as store from './issues.store.ts';
import * as milestoneStore from './milestones.store.ts';
import type { IssueView } from './issues.views.ts';

const RESOURCE = 'Issue';

export interface CommonListQuery {
  state?: 'open' | 'closed' | 'all';
  labels?: string;
  sort?: 'created' | 'updated' | 'comments';
  direction?: 'asc' | 'desc';
  since?: string;
}

export interface RepoListQuery extends CommonListQuery {
  milestone?: string;
  assignee?: string;
  creator?: string;
  mentioned?: string;
}

export type Filter = 'assigned' | 'created' | 'mentioned' | 'subscribed' | 'repos' | 'all';

export interface UserListQuery extends CommonListQuery {
  filter?: Filter;
  collab?: boolean;
  orgs?: boolean;
  owned?: boolean;
  pulls?: boolean;
}

const ISO = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** `since` as the stored timestamp form; a value that is not ISO 8601 is a 422. */
function sinceOf(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const t = ISO.test(raw) ? Date.parse(raw) : NaN;
  if (Number.isNaN(t)) {
    throw new ValidationError([{ resource: RESOURCE, field: 'since', code: 'invalid', value: raw, message: 'since must be an ISO 8601 timestamp' }]);
  }
  return new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function labelsOf(raw: string | undefined): string[] | undefined {
  if (!raw) return undefined;
  const names = raw.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  return names.length ? names : undefined;
}

function common(q: CommonListQuery) {
  return {
    state: q.state ?? 'open',
    labels: labelsOf(q.labels),
    sort: q.sort ?? 'created',
    direction: q.direction ?? 'desc',
    since: sinceOf(q.since),
  } as const;
}

const EMPTY: Page<IssueView> = { items: [], total: 0 };

// ---------------------------------------------------------------- one repository

export async function listForRepo(
  ctx: AppContext, actor: Actor, owner: string, name: string, q: RepoListQuery, slice: Slice, opts: PresentOptions = {},
): Promise<Page<IssueView>> {
  const { repo } = await repos.locate(ctx, actor, owner, name);
  const filter: store.ListFilter = {
    repositoryIds: [repo.id], ...common(q), limit: slice.perPage, offset: slice.offset,
    // With issues disabled, only the pull requests are left to list.
    ...(repo.hasIssues ? {} : { pullRequests: true }),
  };
  // A milestone, assignee, creator or mentioned user that does not exist matches nothing.
  if (q.milestone !== undefined && q.milestone !== '') {
    if (q.milestone === '*' || q.milestone === 'none') filter.milestone = q.milestone;
    else {
      const m = /^\d+$/.test(q.milestone) ? await milestoneStore.findByNumber(ctx.db, repo.id, Number(q.milestone)) : null;
      if (!m) return EMPTY;
      filter.milestone = m.id;
    }
  }
  if (q.assignee !== undefined && q.assignee !== '') {
    if (q.assignee === '*' || q.assignee === 'none') filter.assignee = q.assignee;
    else {
      const a = await users.findAccount(ctx, q.assignee);
      if (!a) return EMPTY;
      filter.assignee = a.id;
    }
  }
  for (const [key, login] of [['creatorId', q.creator], ['mentionedId', q.mentioned]] as const) {
    if (login === undefined || login === '') continue;
    const a = await users.findAccount(ctx, login);
    if (!a) return EMPTY;
    filter[key] = a.id;
  }
  const { rows, total } = await store.list(ctx.db, filter);
  return { items: await presentIssues(ctx, actor, rows, { ...opts, repos: [repo] }), total };
}

// ---------------------------------------------------------------- across repositories

/** The repositories among `ids` the caller may read. */
async function readable(ctx: AppContext, actor: Actor, ids: readonly number[]): Promise<Repo[]> {
  const list = await repos.reposByIds(ctx, [...new Set(ids)]);
  const access = await accessToMany(ctx, actor, list);
  return list.filter((r) => access.get(r.id)?.effective);
}

interface Affiliations {
  owned: boolean;
  collab: boolean;
  orgs: boolean;
}

/** Repositories the user owns, collaborates on, or reaches through organization membership. */
async function affiliatedIds(ctx: AppContext, userId: number, a: Affiliations): Promise<number[]> {
  const ids: number[] = [];
  if (a.owned) ids.push(...await repos.repositoryIdsOwnedBy(ctx, userId));
  if (a.collab) ids.push(...await repos.collaborationRepositoryIds(ctx, userId));
  if (a.orgs) {
    const memberships = await orgs.activeMembershipsOf(ctx, userId);
    for (const m of memberships) ids.push(...await repos.repositoryIdsOwnedBy(ctx, m.orgId));
    ids.push(...await orgAccess.teamRepositoryIds(ctx, userId));
  }
  return ids;
}

async function listAcross(
  ctx: AppContext, actor: Actor, candidates: Repo[], filter: Filter, userId: number, q: UserListQuery, slice: Slice,
  opts: PresentOptions,
): Promise<Page<IssueView>> {
  if (!candidates.length) return EMPTY;
  const f: store.ListFilter = {
    repositoryIds: candidates.map((r) => r.id), ...common(q), limit: slice.perPage, offset: slice.offset,
    ...(q.pulls === false ? { pullRequests: false } : {}),
  };
  if (filter === 'assigned') f.assignee = userId;
  else if (filter === 'created') f.creatorId = userId;
  else if (filter === 'mentioned') f.mentionedId = userId;
  // No thread subscriptions to read yet: subscribed means taking part (author,
  // assignee, mentioned or commenter), which is what subscribes a user upstream.
  else if (filter === 'subscribed') f.participantId = userId;
  // Issues of repositories with issues disabled are not listed; their pull requests are.
  const disabled = candidates.filter((r) => !r.hasIssues);
  if (disabled.length === candidates.length) f.pullRequests = true;
  else if (disabled.length && f.pullRequests !== false) {
    f.repositoryIds = candidates.filter((r) => r.hasIssues).map((r) => r.id);
  }
  const { rows, total } = await store.list(ctx.db, f);
  return { items: await presentIssues(ctx, actor, rows, { ...opts, repos: candidates, withRepository: true }), total };
}

function affiliationsOf(q: UserListQuery, defaults: Affiliations): Affiliations {
  if (q.owned === undefined && q.collab === undefined && q.orgs === undefined) return defaults;
  return { owned: q.owned === true, collab: q.collab === true, orgs: q.orgs === true };
}

/**
 * GET /issues (`everywhere`: every repository the user can see) and GET /user/issues
 * (owned and member repositories). filter=all/repos lists every issue of the
 * affiliated repositories; the others list the user's issues there.
 */
export async function listForAuthenticatedUser(
  ctx: AppContext, actor: Actor, q: UserListQuery, slice: Slice, everywhere: boolean, opts: PresentOptions = {},
): Promise<Page<IssueView>> {
  const user = requireUser(actor);
  const filter = q.filter ?? 'assigned';
  const affiliations = affiliationsOf(q, { owned: true, collab: true, orgs: true });
  const affiliated = new Set(await affiliatedIds(ctx, user.id, affiliations));
  let ids: number[];
  if (filter === 'all' || filter === 'repos') ids = [...affiliated];
  else {
    const withMine = await store.repositoriesWithIssuesFor(ctx.db, filter, user.id);
    const flagged = q.owned !== undefined || q.collab !== undefined || q.orgs !== undefined;
    ids = everywhere && !flagged ? withMine : withMine.filter((id) => affiliated.has(id));
  }
  return listAcross(ctx, actor, await readable(ctx, actor, ids), filter, user.id, q, slice, opts);
}

export async function listForOrg(
  ctx: AppContext, actor: Actor, login: string, q: UserListQuery, slice: Slice, opts: PresentOptions = {},
): Promise<Page<IssueView>> {
  const user = requireUser(actor);
  const org = await orgs.requireOrganization(ctx, login);
  const filter = q.filter ?? 'assigned';
  const ids = await repos.repositoryIdsOwnedBy(ctx, org.account.id);
  return listAcross(ctx, actor, await readable(ctx, actor, ids), filter, user.id, q, slice, opts);
}
