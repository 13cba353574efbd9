// SQL for repositories, redirects, stars, subscriptions and collaborators.
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { comparisons, type Bounds } from '../../domain/bounds.ts';
import { precompile } from '../../db/precompiled.ts';
import type { RepositoriesTable } from '../../db/schema.ts';
import type { RepoCounts, RepoRecord, RepoSettings } from './repos.model.ts';

type Row = Selectable<RepositoriesTable>;

/** Boolean settings: domain name → column. */
const FLAGS = {
  isTemplate: 'is_template', hasIssues: 'has_issues', hasProjects: 'has_projects', hasWiki: 'has_wiki',
  hasDownloads: 'has_downloads', hasDiscussions: 'has_discussions', hasPages: 'has_pages', archived: 'archived',
  disabled: 'disabled', allowSquashMerge: 'allow_squash_merge', allowMergeCommit: 'allow_merge_commit',
  allowRebaseMerge: 'allow_rebase_merge', allowAutoMerge: 'allow_auto_merge', allowUpdateBranch: 'allow_update_branch',
  allowForking: 'allow_forking', deleteBranchOnMerge: 'delete_branch_on_merge',
  webCommitSignoffRequired: 'web_commit_signoff_required',
} as const satisfies Partial<Record<keyof RepoSettings, keyof RepositoriesTable>>;

type FlagName = keyof typeof FLAGS;

function toRecord(r: Row): RepoRecord {
  const flags = {} as Record<FlagName, boolean>;
  for (const [name, column] of Object.entries(FLAGS) as [FlagName, keyof Row][]) flags[name] = r[column] === 1;
  return {
    id: r.id,
    ownerId: r.owner_id,
    name: r.name,
    description: r.description,
    homepage: r.homepage,
    visibility: r.visibility,
    defaultBranch: r.default_branch,
    topics: JSON.parse(r.topics) as string[],
    isFork: r.is_fork === 1,
    parentId: r.parent_id,
    sourceId: r.source_id,
    templateId: r.template_id,
    licenseKey: r.license_key,
    language: r.language,
    sizeKb: r.size_kb,
    squashMergeCommitTitle: r.squash_merge_commit_title,
    squashMergeCommitMessage: r.squash_merge_commit_message,
    mergeCommitTitle: r.merge_commit_title,
    mergeCommitMessage: r.merge_commit_message,
    pushedAt: r.pushed_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    lockedForMigration: Number(r.migration_locked) === 1,
    ...flags,
  };
}

function settingsColumns(s: Partial<RepoSettings>): Updateable<RepositoriesTable> {
  const set: Updateable<RepositoriesTable> = {};
  for (const [name, column] of Object.entries(FLAGS) as [FlagName, keyof RepositoriesTable][]) {
    const v = s[name];
    if (v !== undefined) (set as Record<string, unknown>)[column] = v ? 1 : 0;
  }
  if (s.description !== undefined) set.description = s.description;
  if (s.homepage !== undefined) set.homepage = s.homepage;
  if (s.visibility !== undefined) set.visibility = s.visibility;
  if (s.defaultBranch !== undefined) set.default_branch = s.defaultBranch;
  if (s.topics !== undefined) set.topics = JSON.stringify(s.topics);
  if (s.squashMergeCommitTitle !== undefined) set.squash_merge_commit_title = s.squashMergeCommitTitle;
  if (s.squashMergeCommitMessage !== undefined) set.squash_merge_commit_message = s.squashMergeCommitMessage;
  if (s.mergeCommitTitle !== undefined) set.merge_commit_title = s.mergeCommitTitle;
  if (s.mergeCommitMessage !== undefined) set.merge_commit_message = s.mergeCommitMessage;
  return set;
}

export async function findById(db: Executor, id: number): Promise<RepoRecord | null> {
  const row = await db.selectFrom('repositories').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toRecord(row) : null;
}

export async function findByIds(db: Executor, ids: readonly number[]): Promise<RepoRecord[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('repositories').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  return rows.map(toRecord);
}

// Every repository request looks its repository up, and most count its stars and
// forks: these run as queries compiled once (src/db/precompiled.ts).
const byOwnerAndName = precompile(2, (db: Executor, ownerId: number, nameLower: string) =>
  db.selectFrom('repositories').selectAll().where('owner_id', '=', ownerId).where('name_lower', '=', nameLower));

export async function findByOwnerAndName(db: Executor, ownerId: number, name: string): Promise<RepoRecord | null> {
  const [row] = await byOwnerAndName(db, ownerId, name.toLowerCase());
  return row ? toRecord(row) : null;
}

export async function findRedirect(db: Executor, fullNameLower: string): Promise<number | null> {
  const row = await db.selectFrom('repository_redirects').select('repository_id')
    .where('full_name_lower', '=', fullNameLower).executeTakeFirst();
  return row?.repository_id ?? null;
}

export async function addRedirect(db: Executor, fullNameLower: string, repoId: number): Promise<void> {
  await db.insertInto('repository_redirects').values({ full_name_lower: fullNameLower, repository_id: repoId })
    .onConflict((oc) => oc.column('full_name_lower').doUpdateSet({ repository_id: repoId })).execute();
}

export async function removeRedirect(db: Executor, fullNameLower: string): Promise<void> {
  await db.deleteFrom('repository_redirects').where('full_name_lower', '=', fullNameLower).execute();
}

export interface NewRepo extends Partial<RepoSettings> {
  ownerId: number;
  name: string;
  visibility: RepoSettings['visibility'];
  defaultBranch: string;
  parentId?: number | null;
  sourceId?: number | null;
  templateId?: number | null;
  isFork?: boolean;
  now: string;
}

export async function insert(db: Executor, r: NewRepo): Promise<RepoRecord> {
  const values: Insertable<RepositoriesTable> = {
    ...(settingsColumns(r) as Insertable<RepositoriesTable>),
    owner_id: r.ownerId,
    name: r.name,
    name_lower: r.name.toLowerCase(),
    visibility: r.visibility,
    default_branch: r.defaultBranch,
    parent_id: r.parentId ?? null,
    source_id: r.sourceId ?? null,
    template_id: r.templateId ?? null,
    is_fork: r.isFork ? 1 : 0,
    // Upstream sets pushed_at at creation, before any push.
    pushed_at: r.now,
    created_at: r.now,
    updated_at: r.now,
  };
  const row = await db.insertInto('repositories').values(values).returningAll().executeTakeFirstOrThrow();
  return toRecord(row);
}

export interface RepoChanges extends Partial<RepoSettings> {
  name?: string;
  ownerId?: number;
  licenseKey?: string | null;
  language?: string | null;
  sizeKb?: number;
  pushedAt?: string | null;
}

export async function update(db: Executor, id: number, c: RepoChanges, now: string): Promise<RepoRecord> {
  const set = settingsColumns(c);
  set.updated_at = now;
  if (c.name !== undefined) { set.name = c.name; set.name_lower = c.name.toLowerCase(); }
  if (c.ownerId !== undefined) set.owner_id = c.ownerId;
  if (c.licenseKey !== undefined) set.license_key = c.licenseKey;
  if (c.language !== undefined) set.language = c.language;
  if (c.sizeKb !== undefined) set.size_kb = c.sizeKb;
  if (c.pushedAt !== undefined) set.pushed_at = c.pushedAt;
  const row = await db.updateTable('repositories').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  return toRecord(row);
}

export async function remove(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('repositories').where('id', '=', id).execute();
}

function countsQuery(db: Executor) {
  return db.selectFrom('repositories as r')
    .select((eb) => [
      'r.id',
      eb.selectFrom('stars').select(eb.fn.countAll<number>().as('n')).whereRef('stars.repository_id', '=', 'r.id').as('stargazers'),
      eb.selectFrom('repositories as f').select(eb.fn.countAll<number>().as('n')).whereRef('f.parent_id', '=', 'r.id').as('forks'),
      eb.selectFrom('subscriptions').select(eb.fn.countAll<number>().as('n'))
        .whereRef('subscriptions.repository_id', '=', 'r.id').where('subscriptions.subscribed', '=', 1).as('subscribers'),
    ]);
}

const countsOfOne = precompile(1, (db: Executor, id: number) => countsQuery(db).where('r.id', '=', id));

/** Stars, forks, watchers and open issues of several repositories in one query. */
export async function countsFor(db: Executor, ids: readonly number[]): Promise<Map<number, RepoCounts>> {
  const out = new Map<number, RepoCounts>();
  if (!ids.length) return out;
  const unique = [...new Set(ids)];
  const rows = unique.length === 1 ? await countsOfOne(db, unique[0]!) : await countsQuery(db).where('r.id', 'in', unique).execute();
  for (const r of rows) {
    out.set(r.id, { stargazers: Number(r.stargazers ?? 0), forks: Number(r.forks ?? 0), subscribers: Number(r.subscribers ?? 0), openIssues: 0 });
  }
  return out;
}

export interface RepoTraits {
  fork?: boolean;
  archived?: boolean;
  hasIssues?: boolean;
}

export interface ListFilter {
  ownerIds?: number[];
  /** Repositories of these ids regardless of owner (collaborations, team access). */
  alsoIds?: number[];
  visibility?: 'all' | 'public' | 'private';
  /** Only these ids may be private (what the caller may see); null = no restriction. */
  visiblePrivateIds?: number[] | null;
  forksOnly?: boolean;
  sourcesOnly?: boolean;
  /** GraphQL's isFork, isArchived, hasIssuesEnabled: each, when set, keeps only repositories with that value. */
  traits?: RepoTraits;
  sort: 'created' | 'updated' | 'pushed' | 'full_name';
  direction: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** Repositories matching a filter, a page of them and the total count. */
export async function list(db: Executor, f: ListFilter): Promise<{ rows: RepoRecord[]; total: number }> {
  let q = db.selectFrom('repositories');
  q = q.where((eb) => {
    const owned = f.ownerIds?.length ? eb('owner_id', 'in', f.ownerIds) : eb.val(false);
    return f.alsoIds?.length ? eb.or([owned, eb('id', 'in', f.alsoIds)]) : owned;
  });
  if (f.visibility === 'public') q = q.where('visibility', '=', 'public');
  if (f.visibility === 'private') q = q.where('visibility', '!=', 'public');
  if (f.visiblePrivateIds) {
    const ids = f.visiblePrivateIds;
    q = q.where((eb) => ids.length ? eb.or([eb('visibility', '=', 'public'), eb('id', 'in', ids)]) : eb('visibility', '=', 'public'));
  }
  if (f.forksOnly) q = q.where('is_fork', '=', 1);
  if (f.sourcesOnly) q = q.where('is_fork', '=', 0);
  const t = f.traits ?? {};
  if (t.fork !== undefined) q = q.where('is_fork', '=', t.fork ? 1 : 0);
  if (t.archived !== undefined) q = q.where('archived', '=', t.archived ? 1 : 0);
  if (t.hasIssues !== undefined) q = q.where('has_issues', '=', t.hasIssues ? 1 : 0);
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const order = f.sort === 'full_name' ? 'name_lower' : f.sort === 'pushed' ? 'pushed_at' : f.sort === 'created' ? 'created_at' : 'updated_at';
  const rows = await q.selectAll().orderBy(order, f.direction).orderBy('id', f.direction)
    .limit(f.limit).offset(f.offset).execute();
  return { rows: rows.map(toRecord), total: Number(total.n) };
}

/** The topics lists of public repositories and of `visiblePrivateIds`, with their times (topic search). */
export async function topicLists(db: Executor, visiblePrivateIds: readonly number[]): Promise<{ topics: string; created_at: string; updated_at: string }[]> {
  const privateIds = [...visiblePrivateIds];
  return db.selectFrom('repositories').select(['topics', 'created_at', 'updated_at'])
    .where('topics', '!=', '[]')
    .where((eb) => eb.or([eb('visibility', '=', 'public'), ...(privateIds.length ? [eb('id', 'in', privateIds)] : [])]))
    .execute();
}
const permissionOnOne = precompile(2, (db: Executor, userId: number, repoId: number) =>
  db.selectFrom('collaborators').select(['repository_id', 'permission']).where('user_id', '=', userId).where('repository_id', '=', repoId));

export async function collaboratorPermissions(db: Executor, userId: number, repoIds: readonly number[]): Promise<Map<number, string>> {
  if (!repoIds.length) return new Map();
  const unique = [...new Set(repoIds)];
  if (unique.length === 1) return new Map((await permissionOnOne(db, userId, unique[0]!)).map((r) => [r.repository_id, r.permission]));
  const rows = await db.selectFrom('collaborators').select(['repository_id', 'permission'])
    .where('user_id', '=', userId).where('repository_id', 'in', [...new Set(repoIds)]).execute();
  return new Map(rows.map((r) => [r.repository_id, r.permission]));
}

/** Ids of repositories the user collaborates on. */
export async function collaborationIds(db: Executor, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('collaborators').select('repository_id').where('user_id', '=', userId).execute();
  return rows.map((r) => r.repository_id);
}


// ---------------------------------------------------------------- forks, stars, watching

/**
 * The repository `ownerId` holds in the fork network rooted at `rootId` (the root
 * itself or any fork of it), oldest first, or null.
 */
export async function findInNetwork(db: Executor, ownerId: number, rootId: number): Promise<RepoRecord | null> {
  const row = await db.selectFrom('repositories').selectAll()
    .where('owner_id', '=', ownerId)
    .where((eb) => eb.or([eb('id', '=', rootId), eb('source_id', '=', rootId)]))
    .orderBy('id').executeTakeFirst();
  return row ? toRecord(row) : null;
}

/** The repositories of the fork network rooted at `rootId` (the root and every fork of it), oldest first, at most `limit`. */
export async function listNetwork(db: Executor, rootId: number, limit: number): Promise<RepoRecord[]> {
  const rows = await db.selectFrom('repositories').selectAll()
    .where((eb) => eb.or([eb('id', '=', rootId), eb('source_id', '=', rootId)]))
    .orderBy('id').limit(limit).execute();
  return rows.map(toRecord);
}

/** Which of `names` (compared case-insensitively) the owner already uses. */
export async function takenNames(db: Executor, ownerId: number, names: readonly string[]): Promise<Set<string>> {
  if (!names.length) return new Set();
  const rows = await db.selectFrom('repositories').select('name_lower')
    .where('owner_id', '=', ownerId).where('name_lower', 'in', names.map((n) => n.toLowerCase())).execute();
  return new Set(rows.map((r) => r.name_lower));
}

/** Ids of the direct forks of a repository that are not public (the caller's access decides which show). */
export async function nonPublicForkIds(db: Executor, parentId: number): Promise<number[]> {
  const rows = await db.selectFrom('repositories').select('id')
    .where('parent_id', '=', parentId).where('visibility', '!=', 'public').execute();
  return rows.map((r) => r.id);
}

export interface ForkListFilter {
  /** Non-public forks the caller may see; public ones always show. */
  visiblePrivateIds: readonly number[];
  sort: 'newest' | 'oldest' | 'stargazers' | 'watchers';
  limit: number;
  offset: number;
}

export async function listForks(db: Executor, parentId: number, f: ForkListFilter): Promise<{ rows: RepoRecord[]; total: number }> {
  const ids = [...f.visiblePrivateIds];
  const q = db.selectFrom('repositories').where('parent_id', '=', parentId)
    .where((eb) => eb.or([eb('visibility', '=', 'public'), ...(ids.length ? [eb('id', 'in', ids)] : [])]));
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  let rows = q.selectAll();
  // Upstream's watchers are its stargazers, so both sorts count stars.
  if (f.sort === 'stargazers' || f.sort === 'watchers') {
    rows = rows.orderBy((eb) => eb.selectFrom('stars').select(eb.fn.countAll<number>().as('n'))
      .whereRef('stars.repository_id', '=', 'repositories.id'), 'desc').orderBy('id', 'desc');
  } else {
    const direction = f.sort === 'oldest' ? 'asc' : 'desc';
    rows = rows.orderBy('created_at', direction).orderBy('id', direction);
  }
  const page = await rows.limit(f.limit).offset(f.offset).execute();
  return { rows: page.map(toRecord), total: Number(total.n) };
}

/** When the user starred the repository, or null. */
export async function findStar(db: Executor, userId: number, repoId: number): Promise<string | null> {
  const row = await db.selectFrom('stars').select('created_at')
    .where('user_id', '=', userId).where('repository_id', '=', repoId).executeTakeFirst();
  return row?.created_at ?? null;
}

/** Stars a repository; false when the user had already starred it. */
export async function insertStar(db: Executor, userId: number, repoId: number, now: string): Promise<boolean> {
  const row = await db.insertInto('stars').values({ user_id: userId, repository_id: repoId, created_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'repository_id']).doNothing())
    .returning('user_id').executeTakeFirst();
  return row !== undefined;
}

/** Unstars a repository; false when it was not starred. */
export async function deleteStar(db: Executor, userId: number, repoId: number): Promise<boolean> {
  const res = await db.deleteFrom('stars').where('user_id', '=', userId).where('repository_id', '=', repoId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** Ids of the non-public repositories a user has starred. */
export async function nonPublicStarredIds(db: Executor, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('stars').innerJoin('repositories as r', 'r.id', 'stars.repository_id')
    .select('r.id').where('stars.user_id', '=', userId).where('r.visibility', '!=', 'public').execute();
  return rows.map((r) => r.id);
}

export interface StarredFilter {
  visiblePrivateIds: readonly number[];
  /** created: when starred; updated: when the repository was last pushed to (as upstream). */
  sort: 'created' | 'updated';
  direction: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export async function listStarred(
  db: Executor, userId: number, f: StarredFilter,
): Promise<{ rows: { repo: RepoRecord; starredAt: string }[]; total: number }> {
  const ids = [...f.visiblePrivateIds];
  const q = db.selectFrom('stars').innerJoin('repositories as r', 'r.id', 'stars.repository_id')
    .where('stars.user_id', '=', userId)
    .where((eb) => eb.or([eb('r.visibility', '=', 'public'), ...(ids.length ? [eb('r.id', 'in', ids)] : [])]));
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await q.selectAll('r').select('stars.created_at as starred_at')
    .orderBy(f.sort === 'updated' ? 'r.pushed_at' : 'stars.created_at', f.direction)
    .orderBy('r.id', f.direction)
    .limit(f.limit).offset(f.offset).execute();
  return { rows: rows.map((r) => ({ repo: toRecord(r), starredAt: r.starred_at })), total: Number(total.n) };
}

/** Who starred a repository, earliest first. */
export async function listStargazers(
  db: Executor, repoId: number, limit: number, offset: number,
): Promise<{ rows: { userId: number; starredAt: string }[]; total: number }> {
  const q = db.selectFrom('stars').where('repository_id', '=', repoId);
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await q.select(['user_id', 'created_at']).orderBy('created_at').orderBy('user_id')
    .limit(limit).offset(offset).execute();
  return { rows: rows.map((r) => ({ userId: r.user_id, starredAt: r.created_at })), total: Number(total.n) };
}

export interface SubscriptionRecord {
  userId: number;
  repositoryId: number;
  subscribed: boolean;
  ignored: boolean;
  reason: string | null;
  createdAt: string;
}

type SubscriptionRow = Selectable<import('../../db/schema.ts').SubscriptionsTable>;

function toSubscription(r: SubscriptionRow): SubscriptionRecord {
  return {
    userId: r.user_id, repositoryId: r.repository_id, subscribed: r.subscribed === 1, ignored: r.ignored === 1,
    reason: r.reason, createdAt: r.created_at,
  };
}

export async function findSubscription(db: Executor, userId: number, repoId: number): Promise<SubscriptionRecord | null> {
  const row = await db.selectFrom('subscriptions').selectAll()
    .where('user_id', '=', userId).where('repository_id', '=', repoId).executeTakeFirst();
  return row ? toSubscription(row) : null;
}

/** Creates or changes a subscription; an existing one keeps its created_at. */
export async function upsertSubscription(
  db: Executor, s: { userId: number; repositoryId: number; subscribed: boolean; ignored: boolean; reason?: string | null; now: string },
): Promise<SubscriptionRecord> {
  const values = { subscribed: s.subscribed ? 1 : 0, ignored: s.ignored ? 1 : 0, reason: s.reason ?? null } as const;
  const row = await db.insertInto('subscriptions')
    .values({ user_id: s.userId, repository_id: s.repositoryId, ...values, created_at: s.now })
    .onConflict((oc) => oc.columns(['user_id', 'repository_id']).doUpdateSet(values))
    .returningAll().executeTakeFirstOrThrow();
  return toSubscription(row);
}

export async function deleteSubscription(db: Executor, userId: number, repoId: number): Promise<void> {
  await db.deleteFrom('subscriptions').where('user_id', '=', userId).where('repository_id', '=', repoId).execute();
}

/** Who watches a repository (subscribed, not ignoring), earliest first. */
export async function listSubscribers(
  db: Executor, repoId: number, limit: number, offset: number,
): Promise<{ userIds: number[]; total: number }> {
  const q = db.selectFrom('subscriptions').where('repository_id', '=', repoId).where('subscribed', '=', 1);
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await q.select('user_id').orderBy('created_at').orderBy('user_id').limit(limit).offset(offset).execute();
  return { userIds: rows.map((r) => r.user_id), total: Number(total.n) };
}

/** Every user's subscription to the repository, watching or ignoring (notification fan-out). */
export async function listSubscriptionsOfRepository(db: Executor, repoId: number): Promise<SubscriptionRecord[]> {
  const rows = await db.selectFrom('subscriptions').selectAll().where('repository_id', '=', repoId).execute();
  return rows.map(toSubscription);
}

/** Ids of the non-public repositories a user watches. */
export async function nonPublicWatchedIds(db: Executor, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('subscriptions').innerJoin('repositories as r', 'r.id', 'subscriptions.repository_id')
    .select('r.id').where('subscriptions.user_id', '=', userId).where('subscriptions.subscribed', '=', 1)
    .where('r.visibility', '!=', 'public').execute();
  return rows.map((r) => r.id);
}

/** Repositories a user watches, most recently watched first. */
export async function listWatched(
  db: Executor, userId: number, f: { visiblePrivateIds: readonly number[]; limit: number; offset: number },
): Promise<{ rows: RepoRecord[]; total: number }> {
  const ids = [...f.visiblePrivateIds];
  const q = db.selectFrom('subscriptions').innerJoin('repositories as r', 'r.id', 'subscriptions.repository_id')
    .where('subscriptions.user_id', '=', userId).where('subscriptions.subscribed', '=', 1)
    .where((eb) => eb.or([eb('r.visibility', '=', 'public'), ...(ids.length ? [eb('r.id', 'in', ids)] : [])]));
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await q.selectAll('r').orderBy('subscriptions.created_at', 'desc').orderBy('r.id', 'desc')
    .limit(f.limit).offset(f.offset).execute();
  return { rows: rows.map(toRecord), total: Number(total.n) };
}

/** Which of `repoIds` the user has starred. */
export async function starredAmong(db: Executor, userId: number, repoIds: readonly number[]): Promise<Set<number>> {
  if (!repoIds.length) return new Set();
  const rows = await db.selectFrom('stars').select('repository_id')
    .where('user_id', '=', userId).where('repository_id', 'in', [...new Set(repoIds)]).execute();
  return new Set(rows.map((r) => r.repository_id));
}

/** The user's subscriptions to any of `repoIds`, by repository id. */
export async function subscriptionsAmong(db: Executor, userId: number, repoIds: readonly number[]): Promise<Map<number, SubscriptionRecord>> {
  if (!repoIds.length) return new Map();
  const rows = await db.selectFrom('subscriptions').selectAll()
    .where('user_id', '=', userId).where('repository_id', 'in', [...new Set(repoIds)]).execute();
  return new Map(rows.map((r) => [r.repository_id, toSubscription(r)]));
}

export interface RepoSearchFilter {
  words: readonly string[];
  fields: readonly ('name' | 'description' | 'readme')[];
  /** For the field `readme`: by word, the repositories whose README holds it (a word missing here: none). */
  readmeHolders?: ReadonlyMap<string, readonly number[]>;
  ownerIds: readonly number[];
  visibility?: 'public' | 'private';
  /** Non-public repositories the caller may read; every other non-public one stays out. */
  visiblePrivateIds: readonly number[];
  forks: 'exclude' | 'include' | 'only';
  language?: string;
  archived?: boolean;
  /** Search: keyword clauses (any word of each) and words none of `fields` may hold. */
  clauses?: readonly (readonly string[])[];
  excluded?: readonly string[];
  /** Lower-cased topics each repository must carry. */
  topics?: readonly string[];
  /** Only these repositories (search's repo:). */
  ids?: readonly number[];
  stars?: Bounds<number>;
  forksCount?: Bounds<number>;
  sizeKb?: Bounds<number>;
  pushed?: Bounds<string>;
  created?: Bounds<string>;
  /** Default: most recently updated first. */
  sort?: 'stars' | 'forks' | 'updated';
  direction?: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** `%` and `_` in a word match themselves (LIKE … ESCAPE '\'). */
function likePattern(word: string): string {
  return `%${word.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Repositories matching a search, most recently updated first, and how many match. */
export async function search(db: Executor, f: RepoSearchFilter): Promise<{ rows: RepoRecord[]; total: number }> {
  let q = db.selectFrom('repositories');
  const privateIds = [...f.visiblePrivateIds];
  q = q.where((eb) => eb.or([eb('visibility', '=', 'public'), ...(privateIds.length ? [eb('id', 'in', privateIds)] : [])]));
  if (f.visibility === 'public') q = q.where('visibility', '=', 'public');
  if (f.visibility === 'private') q = q.where('visibility', '!=', 'public');
  if (f.ownerIds.length) q = q.where('owner_id', 'in', [...f.ownerIds]);
  if (f.forks === 'exclude') q = q.where('is_fork', '=', 0);
  if (f.forks === 'only') q = q.where('is_fork', '=', 1);
  if (f.language !== undefined) q = q.where(sql<string>`lower(coalesce(language, ''))`, '=', f.language.toLowerCase());
  if (f.archived !== undefined) q = q.where('archived', '=', f.archived ? 1 : 0);
  const holds = (word: string) => {
    const pattern = likePattern(word);
    return f.fields.map((field) => {
      if (field === 'name') return sql<boolean>`name_lower LIKE ${pattern} ESCAPE '\\'`;
      if (field === 'description') return sql<boolean>`lower(coalesce(description, '')) LIKE ${pattern} ESCAPE '\\'`;
      // Ids from the database, written out: there may be more than a statement takes parameters.
      const ids = f.readmeHolders?.get(word) ?? [];
      return ids.length ? sql<boolean>`id IN (${sql.raw(ids.map((id) => String(Math.trunc(id))).join(', '))})` : sql<boolean>`1 = 0`;
    });
  };
  for (const word of f.words) q = q.where((eb) => eb.or(holds(word)));
  for (const clause of f.clauses ?? []) q = q.where((eb) => eb.or(clause.flatMap(holds)));
  for (const word of f.excluded ?? []) q = q.where((eb) => eb.not(eb.or(holds(word))));
  // Topics are stored as a JSON array of lower-case names: a quoted name matches one whole.
  if (f.ids) q = f.ids.length ? q.where('id', 'in', [...f.ids]) : q.where(sql<boolean>`1 = 0`);
  // The service passes only names of [a-z0-9-], so the pattern holds no LIKE wildcard.
  for (const topic of f.topics ?? []) q = q.where('topics', 'like', `%${JSON.stringify(topic)}%`);
  const starCount = sql<number>`(select count(*) from stars where stars.repository_id = repositories.id)`;
  const forkCount = sql<number>`(select count(*) from repositories as f where f.parent_id = repositories.id)`;
  for (const [op, v] of f.stars ? comparisons(f.stars) : []) q = q.where(starCount, op, v);
  for (const [op, v] of f.forksCount ? comparisons(f.forksCount) : []) q = q.where(forkCount, op, v);
  for (const [op, v] of f.sizeKb ? comparisons(f.sizeKb) : []) q = q.where('size_kb', op, v);
  for (const [op, v] of f.pushed ? comparisons(f.pushed) : []) q = q.where('pushed_at', op, v);
  for (const [op, v] of f.created ? comparisons(f.created) : []) q = q.where('created_at', op, v);
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const direction = f.direction ?? 'desc';
  let ordered = q.selectAll();
  if (f.sort === 'stars') ordered = ordered.orderBy(starCount, direction);
  else if (f.sort === 'forks') ordered = ordered.orderBy(forkCount, direction);
  else ordered = ordered.orderBy('updated_at', direction);
  const rows = await ordered.orderBy('id', direction).limit(f.limit).offset(f.offset).execute();
  return { rows: rows.map(toRecord), total: Number(total.n) };
}

/** Sets or clears the migration lock of repositories (the org-migrations module decides when). */
export async function setMigrationLock(db: Executor, ids: readonly number[], locked: boolean): Promise<void> {
  if (!ids.length) return;
  await db.updateTable('repositories').set({ migration_locked: locked ? 1 : 0 }).where('id', 'in', [...ids]).execute();
}
