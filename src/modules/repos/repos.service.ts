// Repositories: creation (with a real initial commit), lookup with redirects after
// renames, settings, deletion, lists. Git work goes through src/git.
import { inTransaction, type AppContext } from '../../context.ts';
import { hasScope, requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { ForbiddenError, MovedPermanentlyError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { requireMaxLength, TEXT_LIMITS } from '../../domain/text-limits.ts';
import { recordEvent } from '../../events/outbox.ts';
import { lfsDir, removeLfsDir } from '../../git/lfs-store.ts';
import { isValidBranchName } from '../../git/ref-format.ts';
import * as git from '../../git/repository.ts';
import { openIssueCounts } from '../issues/issues.contributions.ts';
import * as orgAccess from '../orgs/orgs.access.ts';
import * as orgs from '../orgs/orgs.service.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import { accessTo, accessToMany, requireRole, type Access } from './repos.access.ts';
import { initialCommit } from './repos.init.ts';
import { licenseAt } from './repos.license-detect.ts';
import { languagesAt, languagesOfTip, primaryLanguage, type LanguageBytes } from './repos.languages.ts';
import { NEW_REPOSITORY_BRANCH, roleAtLeast, type Repo, type RepoCounts, type RepoRecord, type RepoSettings, type Role, type Visibility } from './repos.model.ts';
import * as store from './repos.store.ts';
import { validateRepoName } from './repos.names.ts';

export function gitDir(ctx: AppContext, repo: { id: number }): string {
  return git.repoDir(ctx.config.dataDir, repo.id);
}

async function withOwner(ctx: AppContext, record: RepoRecord, owner?: Account): Promise<Repo> {
  const account = owner ?? (await users.accountsByIds(ctx, [record.ownerId])).get(record.ownerId);
  if (!account) throw new NotFoundError();
  return { ...record, owner: account };
}

export async function withOwners(ctx: AppContext, records: readonly RepoRecord[]): Promise<Repo[]> {
  const owners = await users.accountsByIds(ctx, records.map((r) => r.ownerId));
  return records.flatMap((r) => {
    const owner = owners.get(r.ownerId);
    return owner ? [{ ...r, owner }] : [];
  });
}

// ---------------------------------------------------------------- lookup

export interface Located {
  repo: Repo;
  access: Access;
}

/**
 * The repository at owner/name as the caller may see it. A renamed repository
 * answers MovedPermanentlyError pointing at its new name; one the caller may not
 * see is NotFoundError, like one that does not exist.
 */
export async function locate(ctx: AppContext, actor: Actor, ownerLogin: string, name: string, needed: Role = 'pull'): Promise<Located> {
  const owner = await users.findAccount(ctx, ownerLogin);
  const record = owner ? await store.findByOwnerAndName(ctx.db, owner.id, name) : null;
  if (!record) {
    const movedId = await store.findRedirect(ctx.db, `${ownerLogin}/${name}`.toLowerCase());
    const moved = movedId === null ? null : await store.findById(ctx.db, movedId);
    if (moved) {
      const repo = await withOwner(ctx, moved);
      await requireRole(ctx, actor, repo, 'pull');
      throw new MovedPermanentlyError(ctx.urls.api('repos', repo.owner.login, repo.name), {
        from: `/repos/${ownerLogin}/${name}`, to: `/repos/${repo.owner.login}/${repo.name}`,
      });
    }
    throw new NotFoundError();
  }
  const repo = await withOwner(ctx, record, owner!);
  const access = await requireRole(ctx, actor, repo, needed);
  return { repo, access };
}

/** For git over HTTP: the repository at owner/name, following renames silently. */
export async function findForGit(ctx: AppContext, ownerLogin: string, name: string): Promise<Repo | null> {
  const owner = await users.findAccount(ctx, ownerLogin);
  let record = owner ? await store.findByOwnerAndName(ctx.db, owner.id, name) : null;
  if (!record) {
    const movedId = await store.findRedirect(ctx.db, `${ownerLogin}/${name}`.toLowerCase());
    record = movedId === null ? null : await store.findById(ctx.db, movedId);
  }
  return record ? withOwner(ctx, record) : null;
}

export { accessTo, requireRole };
export type { Access };
export { MIGRATION_LOCK_MESSAGE, requireWriteScope } from './repos.access.ts';

/** Locks repositories for a migration, or unlocks them (org-migrations decides who may). */
export async function setMigrationLock(ctx: AppContext, ids: readonly number[], locked: boolean): Promise<void> {
  await store.setMigrationLock(ctx.db, ids, locked);
}

// ---------------------------------------------------------------- presentation data

export interface Presentable {
  repo: Repo;
  counts: RepoCounts;
  role: Role | null;
  /** security_and_analysis.advanced_security: shown to administrators of the detailed record only. */
  advancedSecurity?: boolean;
}

/** The advanced security switch of the repository, when the caller administers it. */
async function securityShown(ctx: AppContext, p: Presentable): Promise<Presentable> {
  const provider = ctx.bus.provider('repositoryAdvancedSecurity');
  if (!provider || !roleAtLeast(p.role, 'admin')) return p;
  return { ...p, advancedSecurity: (await provider.enabled(ctx, [p.repo.id])).has(p.repo.id) };
}

/** Counts and roles for a page of repositories, in a fixed number of queries. */
export async function presentable(ctx: AppContext, actor: Actor, repos: readonly Repo[], known?: Map<number, Access>): Promise<Presentable[]> {
  const [counts, access, openIssues] = await Promise.all([
    store.countsFor(ctx.db, repos.map((r) => r.id)),
    known ? Promise.resolve(known) : accessToMany(ctx, actor, repos),
    openIssueCounts(ctx, repos.map((r) => r.id)),
  ]);
  const zero: RepoCounts = { stargazers: 0, forks: 0, subscribers: 0, openIssues: 0 };
  return repos.map((repo) => ({
    repo,
    counts: { ...(counts.get(repo.id) ?? zero), openIssues: openIssues.get(repo.id) ?? 0 },
    // Anonymous callers see no permissions object, as upstream.
    role: actor.user ? access.get(repo.id)?.role ?? null : null,
  }));
}

export interface RepoDetail extends Presentable {
  parent: Presentable | null;
  source: Presentable | null;
  template: Presentable | null;
  networkCount: number;
}

export async function getRepo(ctx: AppContext, actor: Actor, ownerLogin: string, name: string): Promise<RepoDetail> {
  const { repo, access } = await locate(ctx, actor, ownerLogin, name);
  const relatedIds = [repo.parentId, repo.sourceId, repo.templateId].filter((id): id is number => id !== null);
  const related = await withOwners(ctx, await store.findByIds(ctx.db, relatedIds));
  const visible = related.length ? await accessToMany(ctx, actor, related) : new Map<number, Access>();
  const shown = related.filter((r) => visible.get(r.id)?.effective);
  const all = await presentable(ctx, actor, [repo, ...shown], new Map([[repo.id, access], ...visible]));
  const find = (id: number | null) => (id === null ? null : all.find((p) => p.repo.id === id) ?? null);
  const root = repo.sourceId ?? repo.id;
  const networkCount = (all.find((p) => p.repo.id === root) ?? all[0]!).counts.forks;
  return { ...(await securityShown(ctx, all[0]!)), parent: find(repo.parentId), source: find(repo.sourceId), template: find(repo.templateId), networkCount };
}

// ---------------------------------------------------------------- creation

export interface CreateRepoInput extends Partial<RepoSettings> {
  name: string;
  private?: boolean;
  autoInit?: boolean;
  gitignoreTemplate?: string;
  licenseTemplate?: string;
  teamId?: number;
}

/** Description and homepage within the REST schema's bounds, for GraphQL's createRepository too. */
function validateRepoTexts(input: Partial<Pick<RepoSettings, 'description' | 'homepage'>>): void {
  requireMaxLength('Repository', 'description', input.description, TEXT_LIMITS.repositoryDescription);
  requireMaxLength('Repository', 'homepage', input.homepage, TEXT_LIMITS.url);
}

function visibilityOf(input: { private?: boolean; visibility?: Visibility }, ownerType: Account['type']): Visibility {
  const v = input.visibility ?? (input.private ? 'private' : 'public');
  if (v === 'internal' && ownerType !== 'Organization') {
    throw new ValidationError([{ resource: 'Repository', field: 'visibility', code: 'invalid', value: v, message: 'internal repositories belong to organizations' }]);
  }
  return v;
}

/**
 * Whether a role administers the repository (settings, renames, deletion, collaborators):
 * the rule the service's 'admin' checks apply and GraphQL's viewerCanAdminister shows.
 */
export function canAdminister(role: Role | null): boolean {
  return roleAtLeast(role, 'admin');
}

/** Who may create a repository under `owner`, with which scopes. */
export async function checkCreateRights(ctx: AppContext, actor: Actor, owner: Account, visibility: Visibility): Promise<void> {
  const user = requireUser(actor);
  if (visibility === 'public') requireScope(actor, 'public_repo', 'repo');
  else requireScope(actor, 'repo');
  if (owner.type === 'User') {
    if (owner.id !== user.id) throw new ForbiddenError('You may only create repositories for yourself or your organizations.');
    return;
  }
  if (user.siteAdmin) return;
  const org = await orgs.requireOrganization(ctx, owner.login);
  const membership = await orgs.membershipOf(ctx, owner.id, user.id);
  if (!membership || membership.state !== 'active') throw new NotFoundError();
  const allowed = orgs.canCreateRepositories(org.settings, orgs.isOwnerMembership(membership), visibility);
  if (!allowed) throw new ForbiddenError(`Members of ${owner.login} may not create ${visibility} repositories.`);
}

export async function createRepo(ctx: AppContext, actor: Actor, ownerLogin: string | null, input: CreateRepoInput): Promise<Presentable> {
  const user = requireUser(actor);
  const owner = ownerLogin === null ? await users.getOwnAccount(ctx, actor) : await users.findAccount(ctx, ownerLogin);
  if (!owner || (ownerLogin !== null && owner.type !== 'Organization')) throw new NotFoundError();
  validateRepoName(input.name);
  validateRepoTexts(input);
  const visibility = visibilityOf(input, owner.type);
  await checkCreateRights(ctx, actor, owner, visibility);
  const creator = await users.getOwnAccount(ctx, actor);
  const dir = (id: number) => git.repoDir(ctx.config.dataDir, id);
  let createdId: number | null = null;
  try {
    const repo = await inTransaction(ctx, async (tx) => {
      if (await store.findByOwnerAndName(tx.db, owner.id, input.name)) {
        throw new ValidationError([{ resource: 'Repository', field: 'name', code: 'custom', message: 'name already exists on this account' }]);
      }
      if (input.teamId !== undefined && owner.type === 'Organization') await orgs.requireTeamInOrg(tx, owner.id, input.teamId);
      const record = await store.insert(tx.db, {
        ...input, ownerId: owner.id, name: input.name, visibility, defaultBranch: NEW_REPOSITORY_BRANCH, now: nowIso(tx.clock),
      });
      createdId = record.id;
      await git.initBare(dir(record.id), record.defaultBranch);
      let result = record;
      if (input.autoInit || input.gitignoreTemplate || input.licenseTemplate) {
        const init = await initialCommit(tx, dir(record.id), record.defaultBranch, creator, owner, input);
        result = await store.update(tx.db, record.id, { licenseKey: init.licenseKey, sizeKb: await git.sizeKb(dir(record.id)), pushedAt: nowIso(tx.clock) }, nowIso(tx.clock));
      }
      if (input.teamId !== undefined) await orgAccess.grantTeamAccess(tx, input.teamId, record.id, 'pull');
      // The creator watches what they create, as upstream.
      await store.upsertSubscription(tx.db, { userId: user.id, repositoryId: record.id, subscribed: true, ignored: false, now: nowIso(tx.clock) });
      await store.removeRedirect(tx.db, `${owner.login}/${input.name}`.toLowerCase());
      await recordEvent(tx, {
        event: 'repository', action: 'created', repositoryId: record.id, actorId: user.id,
        organizationId: owner.type === 'Organization' ? owner.id : null, payload: {},
      });
      return result;
    });
    const [p] = await presentable(ctx, actor, [{ ...repo, owner }]);
    return p!;
  } catch (err) {
    if (createdId !== null) await git.removeRepo(dir(createdId));
    throw err;
  }
}

// ---------------------------------------------------------------- changes

export interface UpdateRepoInput extends Partial<RepoSettings> {
  name?: string;
  private?: boolean;
  /** security_and_analysis.advanced_security.status, kept by the billing module. */
  advancedSecurity?: boolean;
}

declare module '../../events/bus.ts' {
  interface Providers {
    /** The billing module's advanced security switch of repositories. */
    repositoryAdvancedSecurity: {
      enabled(ctx: AppContext, repositoryIds: readonly number[]): Promise<Set<number>>;
      set(ctx: AppContext, repositoryId: number, enabled: boolean): Promise<void>;
    };
    /** The branch-protection module's word on renaming a repository (an organization ruleset may protect its name): why not, or null. */
    repositoryRenameRefusal: {
      refusal(ctx: AppContext, actor: Actor, repo: Repo): Promise<string | null>;
    };
  }
}

export async function updateRepo(ctx: AppContext, actor: Actor, ownerLogin: string, name: string, input: UpdateRepoInput): Promise<Presentable> {
  const { repo, access } = await locate(ctx, actor, ownerLogin, name, 'admin');
  const changes: store.RepoChanges = { ...input };
  delete (changes as { private?: boolean }).private;
  delete (changes as { advancedSecurity?: boolean }).advancedSecurity;
  if (input.visibility !== undefined || input.private !== undefined) {
    changes.visibility = visibilityOf({ visibility: input.visibility, private: input.private ?? false }, repo.owner.type);
    if (changes.visibility !== 'public') requireScope(actor, 'repo');
  }
  if (input.name !== undefined && input.name !== repo.name) {
    validateRepoName(input.name);
    const refusal = await ctx.bus.provider('repositoryRenameRefusal')?.refusal(ctx, actor, repo);
    if (refusal) throw new ValidationError([{ resource: 'Repository', field: 'name', code: 'custom', message: refusal }], refusal);
  }
  validateRepoTexts(input);
  if (input.defaultBranch !== undefined && input.defaultBranch !== repo.defaultBranch) {
    const dir = gitDir(ctx, repo);
    const hasBranches = (await git.listRefs(dir, ['refs/heads/'])).length > 0;
    // A name git would refuse is checked here, before git sees it (and before HEAD is set to it).
    if (!isValidBranchName(input.defaultBranch)) {
      throw new ValidationError([{ resource: 'Repository', field: 'default_branch', code: 'invalid', message: 'default_branch is not a valid branch name' }]);
    }
    if (hasBranches && !(await git.resolve(dir, `refs/heads/${input.defaultBranch}`))) {
      throw new ValidationError([{ resource: 'Repository', field: 'default_branch', code: 'invalid', value: input.defaultBranch, message: `The branch ${input.defaultBranch} was not found. Please push that ref first or create it via the Git Data API.` }]);
    }
  }
  if (input.topics !== undefined) changes.topics = normalizeTopics(input.topics);
  const updated = await inTransaction(ctx, async (tx) => {
    if (input.name !== undefined && input.name.toLowerCase() !== repo.name.toLowerCase()) {
      if (await store.findByOwnerAndName(tx.db, repo.ownerId, input.name)) {
        throw new ValidationError([{ resource: 'Repository', field: 'name', code: 'custom', message: 'name already exists on this account' }]);
      }
    }
    const record = await store.update(tx.db, repo.id, changes, nowIso(tx.clock));
    if (input.advancedSecurity !== undefined) await tx.bus.provider('repositoryAdvancedSecurity')?.set(tx, repo.id, input.advancedSecurity);
    if (input.name !== undefined && input.name !== repo.name) {
      await store.addRedirect(tx.db, `${repo.owner.login}/${repo.name}`.toLowerCase(), repo.id);
      await store.removeRedirect(tx.db, `${repo.owner.login}/${input.name}`.toLowerCase());
      await recordEvent(tx, { event: 'repository', action: 'renamed', repositoryId: repo.id, actorId: actor.user!.id, payload: { changes: { repository: { name: { from: repo.name } } } } });
    } else {
      await recordEvent(tx, { event: 'repository', action: 'edited', repositoryId: repo.id, actorId: actor.user!.id, payload: { changes: editedFrom(repo, changes) } });
    }
    return record;
  });
  if (input.defaultBranch !== undefined) await git.setHead(gitDir(ctx, repo), input.defaultBranch);
  const [p] = await presentable(ctx, actor, [{ ...updated, owner: repo.owner }], new Map([[repo.id, access]]));
  return securityShown(ctx, p!);
}

/** The `changes` of a repository edited webhook: the previous values of the fields upstream reports. */
function editedFrom(repo: Repo, changes: store.RepoChanges): Record<string, { from: unknown }> {
  const out: Record<string, { from: unknown }> = {};
  if (changes.description !== undefined && changes.description !== repo.description) out.description = { from: repo.description };
  if (changes.homepage !== undefined && changes.homepage !== repo.homepage) out.homepage = { from: repo.homepage };
  if (changes.defaultBranch !== undefined && changes.defaultBranch !== repo.defaultBranch) out.default_branch = { from: repo.defaultBranch };
  if (changes.topics !== undefined) out.topics = { from: repo.topics };
  return out;
}

const TOPIC = /^[a-z0-9][a-z0-9-]{0,49}$/;

export function normalizeTopics(topics: string[]): string[] {
  const out = [...new Set(topics.map((t) => t.trim().toLowerCase()))];
  const bad = out.filter((t) => !TOPIC.test(t));
  if (bad.length) {
    throw new ValidationError(bad.map((t) => ({ resource: 'Repository', field: 'topics', code: 'invalid' as const, value: t, message: `${t} is not a valid topic: lowercase letters, digits and hyphens, at most 50 characters` })));
  }
  if (out.length > 20) throw ValidationError.field('Repository', 'topics', 'invalid', 'A repository may have at most 20 topics.');
  return out;
}

export async function replaceTopics(ctx: AppContext, actor: Actor, ownerLogin: string, name: string, names: string[]): Promise<string[]> {
  const { repo } = await locate(ctx, actor, ownerLogin, name, 'admin');
  const topics = normalizeTopics(names);
  await store.update(ctx.db, repo.id, { topics }, nowIso(ctx.clock));
  return topics;
}

export async function getTopics(ctx: AppContext, actor: Actor, ownerLogin: string, name: string): Promise<string[]> {
  return (await locate(ctx, actor, ownerLogin, name)).repo.topics;
}

export async function deleteRepo(ctx: AppContext, actor: Actor, ownerLogin: string, name: string): Promise<void> {
  const { repo } = await locate(ctx, actor, ownerLogin, name, 'admin');
  requireScope(actor, 'delete_repo');
  await inTransaction(ctx, async (tx) => {
    await recordEvent(tx, {
      event: 'repository', action: 'deleted', repositoryId: repo.id, actorId: actor.user!.id,
      organizationId: repo.owner.type === 'Organization' ? repo.ownerId : null,
      payload: { full_name: `${repo.owner.login}/${repo.name}`, visibility: repo.visibility },
    });
    await store.remove(tx.db, repo.id);
  });
  await git.removeRepo(gitDir(ctx, repo));
  await removeLfsDir(lfsDir(ctx.config.dataDir, repo.id));
}

/** The languages of a repository the caller may see, from its default branch. */
export async function listLanguages(ctx: AppContext, actor: Actor, ownerLogin: string, name: string): Promise<LanguageBytes> {
  const { repo } = await locate(ctx, actor, ownerLogin, name);
  return languagesAt(gitDir(ctx, repo), repo.defaultBranch);
}

/** After a push: size, pushed_at, the license and main language of the default branch, and the default branch of a repository that was empty. */
/** What a push changes in the repository record besides pushed_at, read from git. */
export interface PushFacts {
  sizeKb: number;
  licenseKey: string | null;
  language: string | null;
}

/**
 * Read before the push's transaction (git runs no longer than it must while SQLite's
 * one connection is held) and at once: `tip` is the default branch's commit after the
 * push, which the caller already listed.
 */
export async function pushFacts(ctx: AppContext, repo: Repo, tip: string | null): Promise<PushFacts> {
  const dir = gitDir(ctx, repo);
  const [sizeKb, licenseKey, languages] = await Promise.all([git.sizeKb(dir), licenseAt(dir, tip), languagesOfTip(dir, tip)]);
  return { sizeKb, licenseKey, language: primaryLanguage(languages) };
}

export async function recordPush(ctx: AppContext, repo: Repo, facts: PushFacts, defaultBranch: string | null): Promise<void> {
  await store.update(ctx.db, repo.id, {
    ...facts,
    pushedAt: nowIso(ctx.clock),
    ...(defaultBranch ? { defaultBranch } : {}),
  }, nowIso(ctx.clock));
}

// ---------------------------------------------------------------- lists

export interface ListQuery {
  type?: string;
  visibility?: 'all' | 'public' | 'private';
  affiliation?: string;
  sort?: 'created' | 'updated' | 'pushed' | 'full_name';
  direction?: 'asc' | 'desc';
  /** Only repositories with these traits (GraphQL's isFork, isArchived, hasIssuesEnabled). */
  traits?: store.RepoTraits;
  limit: number;
  offset: number;
}

export interface RepoPage {
  items: Presentable[];
  total: number;
}

function order(q: ListQuery, defaultSort: ListQuery['sort'] & string) {
  const sort = q.sort ?? defaultSort;
  return { sort, direction: q.direction ?? (sort === 'full_name' ? 'asc' : 'desc') } as const;
}

async function page(ctx: AppContext, actor: Actor, filter: store.ListFilter): Promise<RepoPage> {
  const { rows, total } = await store.list(ctx.db, filter);
  return { items: await presentable(ctx, actor, await withOwners(ctx, rows)), total };
}

/** Private repositories among `ids` that the caller may read. */
async function readablePrivate(ctx: AppContext, actor: Actor, ownerIds: number[], extraIds: number[] = []): Promise<number[]> {
  // Installation tokens hold no scopes: accessToMany keeps their installation's repositories.
  if (actor.method !== 'installation' && (!actor.user || !hasScope(actor, 'repo'))) return [];
  const { rows } = await store.list(ctx.db, { ownerIds, alsoIds: extraIds, visibility: 'private', sort: 'created', direction: 'asc', limit: 100000, offset: 0 });
  const access = await accessToMany(ctx, actor, await withOwners(ctx, rows));
  return rows.filter((r) => access.get(r.id)?.effective).map((r) => r.id);
}

const USER_TYPES = ['all', 'owner', 'public', 'private', 'member'];

export async function listForAuthenticatedUser(ctx: AppContext, actor: Actor, q: ListQuery): Promise<RepoPage> {
  const user = requireUser(actor);
  if (q.type !== undefined && (q.visibility !== undefined || q.affiliation !== undefined)) {
    throw new ValidationError([{ resource: 'Repository', field: 'type', code: 'invalid', message: 'If you specify visibility or affiliation, you cannot specify type.' }]);
  }
  if (q.type !== undefined && !USER_TYPES.includes(q.type)) throw ValidationError.field('Repository', 'type', 'invalid');
  const affiliations = new Set((q.affiliation ?? (q.type === 'owner' ? 'owner' : q.type === 'member' ? 'collaborator,organization_member' : 'owner,collaborator,organization_member')).split(',').map((s) => s.trim()));
  for (const a of affiliations) if (!['owner', 'collaborator', 'organization_member'].includes(a)) throw ValidationError.field('Repository', 'affiliation', 'invalid');
  const visibility = q.visibility ?? (q.type === 'public' || q.type === 'private' ? q.type : 'all');
  const ownerIds: number[] = [];
  const alsoIds: number[] = [];
  if (affiliations.has('owner')) ownerIds.push(user.id);
  if (affiliations.has('collaborator')) alsoIds.push(...await store.collaborationIds(ctx.db, user.id));
  if (affiliations.has('organization_member')) {
    const memberships = await orgs.activeMembershipsOf(ctx, user.id);
    ownerIds.push(...memberships.map((m) => m.orgId));
    alsoIds.push(...await orgAccess.teamRepositoryIds(ctx, user.id));
  }
  const visiblePrivateIds = await readablePrivate(ctx, actor, ownerIds, alsoIds);
  return page(ctx, actor, { ownerIds, alsoIds, visibility, visiblePrivateIds, traits: q.traits, ...order(q, 'full_name'), limit: q.limit, offset: q.offset });
}

export async function listForUser(ctx: AppContext, actor: Actor, login: string, q: ListQuery): Promise<RepoPage> {
  const owner = await users.requireAccount(ctx, login);
  const type = q.type ?? 'owner';
  if (!['all', 'owner', 'member'].includes(type)) throw ValidationError.field('Repository', 'type', 'invalid');
  const ownerIds = type === 'member' ? [] : [owner.id];
  const alsoIds = type === 'owner' ? [] : await store.collaborationIds(ctx.db, owner.id);
  const visiblePrivateIds = await readablePrivate(ctx, actor, ownerIds, alsoIds);
  return page(ctx, actor, { ownerIds, alsoIds, visibility: q.visibility, visiblePrivateIds, traits: q.traits, ...order(q, 'full_name'), limit: q.limit, offset: q.offset });
}

export async function listForOrg(ctx: AppContext, actor: Actor, login: string, q: ListQuery): Promise<RepoPage> {
  const org = await orgs.requireOrganization(ctx, login);
  const type = q.type ?? 'all';
  if (!['all', 'public', 'private', 'forks', 'sources', 'member'].includes(type)) throw ValidationError.field('Repository', 'type', 'invalid');
  const visiblePrivateIds = await readablePrivate(ctx, actor, [org.account.id]);
  return page(ctx, actor, {
    ownerIds: [org.account.id],
    visibility: type === 'public' ? 'public' : type === 'private' ? 'private' : 'all',
    visiblePrivateIds,
    forksOnly: type === 'forks',
    sourcesOnly: type === 'sources',
    traits: q.traits,
    ...order(q, 'created'),
    limit: q.limit, offset: q.offset,
  });
}
/** Repositories by id with their owners (no access check: callers check what they show). */
export async function reposByIds(ctx: AppContext, ids: readonly number[]): Promise<Repo[]> {
  return ids.length ? withOwners(ctx, await store.findByIds(ctx.db, ids)) : [];
}

/** The repository `ownerId` holds in the fork network rooted at `rootId`, with its owner, or null (pull request heads). */
export async function findRepoInNetwork(ctx: AppContext, ownerId: number, rootId: number): Promise<Repo | null> {
  const record = await store.findInNetwork(ctx.db, ownerId, rootId);
  return record ? (await withOwners(ctx, [record]))[0] ?? null : null;
}

/**
 * The other repositories of `repo`'s fork network (its root, parents, forks and their
 * forks) that the caller may read, oldest first: where a read of the network's shared
 * history may look (a commit pushed only to a fork). At most the 1000 oldest members.
 */
export async function readableNetworkRelatives(ctx: AppContext, actor: Actor, repo: Repo): Promise<Repo[]> {
  const others = (await store.listNetwork(ctx.db, repo.sourceId ?? repo.id, 1000)).filter((r) => r.id !== repo.id);
  if (others.length === 0) return [];
  const members = await withOwners(ctx, others);
  const access = await accessToMany(ctx, actor, members);
  return members.filter((r) => access.get(r.id)?.effective);
}

/** Ids of the repositories the user is an explicit collaborator on (issue lists across repositories). */
export function collaborationRepositoryIds(ctx: AppContext, userId: number): Promise<number[]> {
  return store.collaborationIds(ctx.db, userId);
}

/** Ids of every repository the account owns (interaction limits clear repository-level ones by owner). */
export async function repositoryIdsOwnedBy(ctx: AppContext, ownerId: number): Promise<number[]> {
  const { rows } = await store.list(ctx.db, { ownerIds: [ownerId], sort: 'created', direction: 'asc', limit: 1_000_000, offset: 0 });
  return rows.map((r) => r.id);
}

export type RepoSearchField = store.RepoSearchFilter['fields'][number];

export interface RepoSearchQuery {
  /** Words each repository must hold (case-insensitively) in one of `fields`. */
  words: readonly string[];
  fields: readonly RepoSearchField[];
  /** With the field `readme`: for each word, the repositories whose README holds it (the search index knows). */
  readmeHolders?: store.RepoSearchFilter['readmeHolders'];
  /** user:/org: qualifiers: only repositories of these accounts. */
  ownerLogins: readonly string[];
  visibility?: 'public' | 'private';
  /** Upstream leaves forks out unless fork:true (with them) or fork:only. */
  forks: 'exclude' | 'include' | 'only';
  language?: string;
  archived?: boolean;
  /** Search's further filters and sorts (keyword clauses, topics, counts, times), as the store reads them. */
  clauses?: store.RepoSearchFilter['clauses'];
  excluded?: store.RepoSearchFilter['excluded'];
  topics?: store.RepoSearchFilter['topics'];
  stars?: store.RepoSearchFilter['stars'];
  forksCount?: store.RepoSearchFilter['forksCount'];
  sizeKb?: store.RepoSearchFilter['sizeKb'];
  pushed?: store.RepoSearchFilter['pushed'];
  created?: store.RepoSearchFilter['created'];
  sort?: store.RepoSearchFilter['sort'];
  direction?: store.RepoSearchFilter['direction'];
  ids?: store.RepoSearchFilter['ids'];
  limit: number;
  offset: number;
}

/**
 * Repositories matching a search (GraphQL search(type: REPOSITORY)): public ones and
 * the private ones the caller may read (their own, their organizations', their
 * collaborations and teams'), most recently updated first.
 */
export async function searchRepositories(ctx: AppContext, actor: Actor, q: RepoSearchQuery): Promise<RepoPage> {
  const owners = await Promise.all(q.ownerLogins.map((login) => users.findAccount(ctx, login)));
  const missing = q.ownerLogins.filter((_, i) => !owners[i]);
  if (missing.length) {
    throw new ValidationError(missing.map((login) => ({ resource: 'Search', field: 'q', code: 'invalid' as const, value: login,
      message: `The listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them.` })));
  }
  const visiblePrivateIds = q.visibility === 'public' ? [] : await searchablePrivateIds(ctx, actor);
  const { rows, total } = await store.search(ctx.db, {
    ...q, ownerIds: owners.map((o) => o!.id), visiblePrivateIds,
  });
  return { items: await presentable(ctx, actor, await withOwners(ctx, rows)), total };
}

/** The private repositories the caller may read (their own, their organizations', collaborations and teams'). */
async function searchablePrivateIds(ctx: AppContext, actor: Actor): Promise<number[]> {
  if (!actor.user) return [];
  const memberships = await orgs.activeMembershipsOf(ctx, actor.user.id);
  const ownerIds = [actor.user.id, ...memberships.map((m) => m.orgId)];
  const alsoIds = [...await store.collaborationIds(ctx.db, actor.user.id), ...await orgAccess.teamRepositoryIds(ctx, actor.user.id)];
  return readablePrivate(ctx, actor, ownerIds, alsoIds);
}

/** Every topic on repositories the caller may read: how many carry it, and the first and latest times among them (topic search). */
export async function topicsInUse(ctx: AppContext, actor: Actor): Promise<{ name: string; repositoryCount: number; createdAt: string; updatedAt: string }[]> {
  const rows = await store.topicLists(ctx.db, await searchablePrivateIds(ctx, actor));
  const byName = new Map<string, { name: string; repositoryCount: number; createdAt: string; updatedAt: string }>();
  for (const row of rows) {
    for (const name of JSON.parse(row.topics) as string[]) {
      const t = byName.get(name);
      if (!t) byName.set(name, { name, repositoryCount: 1, createdAt: row.created_at, updatedAt: row.updated_at });
      else {
        t.repositoryCount++;
        if (row.created_at < t.createdAt) t.createdAt = row.created_at;
        if (row.updated_at > t.updatedAt) t.updatedAt = row.updated_at;
      }
    }
  }
  return [...byName.values()];
}
