// SQL for repositories, redirects, stars, subscriptions and collaborators.
import { type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Executor } from '../../db/database.ts';
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

export async function findByOwnerAndName(db: Executor, ownerId: number, name: string): Promise<RepoRecord | null> {
  const row = await db.selectFrom('repositories').selectAll()
    .where('owner_id', '=', ownerId).where('name_lower', '=', name.toLowerCase()).executeTakeFirst();
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

/** Stars, forks, watchers and open issues of several repositories in one query. */
export async function countsFor(db: Executor, ids: readonly number[]): Promise<Map<number, RepoCounts>> {
  const out = new Map<number, RepoCounts>();
  if (!ids.length) return out;
  const rows = await db.selectFrom('repositories as r')
    .select((eb) => [
      'r.id',
      eb.selectFrom('stars').select(eb.fn.countAll<number>().as('n')).whereRef('stars.repository_id', '=', 'r.id').as('stargazers'),
      eb.selectFrom('repositories as f').select(eb.fn.countAll<number>().as('n')).whereRef('f.parent_id', '=', 'r.id').as('forks'),
      eb.selectFrom('subscriptions').select(eb.fn.countAll<number>().as('n'))
        .whereRef('subscriptions.repository_id', '=', 'r.id').where('subscriptions.subscribed', '=', 1).as('subscribers'),
    ])
    .where('r.id', 'in', [...new Set(ids)])
    .execute();
  for (const r of rows) {
    out.set(r.id, { stargazers: Number(r.stargazers ?? 0), forks: Number(r.forks ?? 0), subscribers: Number(r.subscribers ?? 0), openIssues: 0 });
  }
  return out;
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
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const order = f.sort === 'full_name' ? 'name_lower' : f.sort === 'pushed' ? 'pushed_at' : f.sort === 'created' ? 'created_at' : 'updated_at';
  const rows = await q.selectAll().orderBy(order, f.direction).orderBy('id', f.direction)
    .limit(f.limit).offset(f.offset).execute();
  return { rows: rows.map(toRecord), total: Number(total.n) };
}

export async function collaboratorPermission(db: Executor, repoId: number, userId: number): Promise<string | null> {
  const row = await db.selectFrom('collaborators').select('permission')
    .where('repository_id', '=', repoId).where('user_id', '=', userId).executeTakeFirst();
  return row?.permission ?? null;
}

export async function collaboratorPermissions(db: Executor, userId: number, repoIds: readonly number[]): Promise<Map<number, string>> {
  if (!repoIds.length) return new Map();
  const rows = await db.selectFrom('collaborators').select(['repository_id', 'permission'])
    .where('user_id', '=', userId).where('repository_id', 'in', [...new Set(repoIds)]).execute();
  return new Map(rows.map((r) => [r.repository_id, r.permission]));
}

/** Ids of repositories the user collaborates on. */
export async function collaborationIds(db: Executor, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('collaborators').select('repository_id').where('user_id', '=', userId).execute();
  return rows.map((r) => r.repository_id);
}

