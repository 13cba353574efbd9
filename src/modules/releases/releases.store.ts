// SQL for releases and release assets. Only the releases module calls this.
import type { Executor } from '../../db/database.ts';
import type { ReleaseAssetsTable, ReleasesTable } from '../../db/schema.ts';
import type { Slice } from '../../domain/page.ts';
import type { AssetState, MakeLatest, Release, ReleaseAsset } from './releases.model.ts';

const RELEASE_COLUMNS = [
  'id', 'repository_id', 'tag_name', 'target_commitish', 'name', 'body', 'draft', 'prerelease', 'make_latest',
  'latest_order', 'author_id', 'created_at', 'published_at', 'updated_at',
] as const;

const ASSET_COLUMNS = [
  'id', 'release_id', 'repository_id', 'name', 'label', 'content_type', 'size', 'digest', 'state', 'download_count',
  'uploader_id', 'created_at', 'updated_at',
] as const;

type ReleaseRow = Pick<ReleasesTable, Exclude<(typeof RELEASE_COLUMNS)[number], 'id'>> & { id: number };
type AssetRow = Pick<ReleaseAssetsTable, Exclude<(typeof ASSET_COLUMNS)[number], 'id'>> & { id: number };

function toRelease(r: ReleaseRow): Release {
  return {
    id: r.id,
    repositoryId: r.repository_id,
    tagName: r.tag_name,
    targetCommitish: r.target_commitish,
    name: r.name,
    body: r.body,
    draft: Number(r.draft) === 1,
    prerelease: Number(r.prerelease) === 1,
    makeLatest: r.make_latest as MakeLatest,
    latestOrder: Number(r.latest_order),
    authorId: r.author_id,
    createdAt: r.created_at,
    publishedAt: r.published_at,
    updatedAt: r.updated_at,
  };
}

function toAsset(r: AssetRow): ReleaseAsset {
  return {
    id: r.id,
    releaseId: r.release_id,
    repositoryId: r.repository_id,
    name: r.name,
    label: r.label,
    contentType: r.content_type,
    size: Number(r.size),
    digest: r.digest,
    state: r.state as AssetState,
    downloadCount: Number(r.download_count),
    uploaderId: r.uploader_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

// ---------------------------------------------------------------- releases

export type NewRelease = Pick<Release,
  'repositoryId' | 'tagName' | 'targetCommitish' | 'name' | 'body' | 'draft' | 'prerelease' | 'makeLatest' | 'latestOrder' | 'authorId' | 'publishedAt'>;

export async function insertRelease(db: Executor, v: NewRelease, now: string): Promise<Release> {
  const row = await db.insertInto('releases').values({
    repository_id: v.repositoryId,
    tag_name: v.tagName,
    target_commitish: v.targetCommitish,
    name: v.name,
    body: v.body,
    draft: v.draft ? 1 : 0,
    prerelease: v.prerelease ? 1 : 0,
    make_latest: v.makeLatest,
    latest_order: v.latestOrder,
    author_id: v.authorId,
    created_at: now,
    published_at: v.publishedAt,
    updated_at: now,
  }).returning(RELEASE_COLUMNS).executeTakeFirstOrThrow();
  return toRelease(row);
}

export type ReleaseChanges = Partial<Pick<Release,
  'tagName' | 'targetCommitish' | 'name' | 'body' | 'draft' | 'prerelease' | 'makeLatest' | 'latestOrder' | 'publishedAt'>>;

export async function updateRelease(db: Executor, id: number, c: ReleaseChanges, now: string): Promise<Release> {
  const row = await db.updateTable('releases').set({
    ...(c.tagName !== undefined ? { tag_name: c.tagName } : {}),
    ...(c.targetCommitish !== undefined ? { target_commitish: c.targetCommitish } : {}),
    ...(c.name !== undefined ? { name: c.name } : {}),
    ...(c.body !== undefined ? { body: c.body } : {}),
    ...(c.draft !== undefined ? { draft: c.draft ? 1 : 0 } : {}),
    ...(c.prerelease !== undefined ? { prerelease: c.prerelease ? 1 : 0 } : {}),
    ...(c.makeLatest !== undefined ? { make_latest: c.makeLatest } : {}),
    ...(c.latestOrder !== undefined ? { latest_order: c.latestOrder } : {}),
    ...(c.publishedAt !== undefined ? { published_at: c.publishedAt } : {}),
    updated_at: now,
  }).where('id', '=', id).returning(RELEASE_COLUMNS).executeTakeFirstOrThrow();
  return toRelease(row);
}

export async function removeRelease(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('releases').where('id', '=', id).execute();
}

export async function findRelease(db: Executor, repositoryId: number, id: number): Promise<Release | null> {
  const row = await db.selectFrom('releases').select(RELEASE_COLUMNS)
    .where('repository_id', '=', repositoryId).where('id', '=', id).executeTakeFirst();
  return row ? toRelease(row) : null;
}

export async function findReleaseByTag(db: Executor, repositoryId: number, tagName: string): Promise<Release | null> {
  const row = await db.selectFrom('releases').select(RELEASE_COLUMNS)
    .where('repository_id', '=', repositoryId).where('tag_name', '=', tagName).executeTakeFirst();
  return row ? toRelease(row) : null;
}

export async function findReleasesByIds(db: Executor, ids: readonly number[]): Promise<Release[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('releases').select(RELEASE_COLUMNS).where('id', 'in', [...new Set(ids)]).execute();
  return rows.map(toRelease);
}

export interface ReleaseFilter {
  /** Drafts too (callers with push access). */
  withDrafts: boolean;
}

export type ReleaseOrder = { field: 'created' | 'name'; direction: 'asc' | 'desc' };

function listed(db: Executor, repositoryId: number, f: ReleaseFilter) {
  let q = db.selectFrom('releases').where('repository_id', '=', repositoryId);
  if (!f.withDrafts) q = q.where('draft', '=', 0);
  return q;
}

/** Newest first unless ordered otherwise (upstream lists by creation, drafts included for writers). */
export async function listReleases(db: Executor, repositoryId: number, f: ReleaseFilter, slice: Slice,
  order: ReleaseOrder = { field: 'created', direction: 'desc' }): Promise<Release[]> {
  let q = listed(db, repositoryId, f).select(RELEASE_COLUMNS);
  q = order.field === 'name'
    // A release without a name sorts as an empty one in both dialects (they place NULL apart).
    ? q.orderBy((eb) => eb.fn.coalesce('name', eb.val('')), order.direction).orderBy('tag_name', order.direction)
    : q.orderBy('created_at', order.direction);
  const rows = await q.orderBy('id', order.direction).limit(slice.perPage).offset(slice.offset).execute();
  return rows.map(toRelease);
}

export async function countReleases(db: Executor, repositoryId: number, f: ReleaseFilter): Promise<number> {
  const row = await listed(db, repositoryId, f).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The latest release: published, not a prerelease, not marked make_latest=false; the
 * one made latest most recently, else (legacy) the newest.
 */
export async function findLatest(db: Executor, repositoryId: number): Promise<Release | null> {
  const row = await db.selectFrom('releases').select(RELEASE_COLUMNS)
    .where('repository_id', '=', repositoryId).where('draft', '=', 0).where('prerelease', '=', 0)
    .where('make_latest', '!=', 'false')
    .orderBy('latest_order', 'desc').orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row ? toRelease(row) : null;
}

export async function maxLatestOrder(db: Executor, repositoryId: number): Promise<number> {
  const row = await db.selectFrom('releases').select((eb) => eb.fn.max('latest_order').as('m'))
    .where('repository_id', '=', repositoryId).executeTakeFirst();
  return Number(row?.m ?? 0);
}

/** The latest release id of each repository (GraphQL's isLatest). */
export async function latestIdsOf(db: Executor, repositoryIds: readonly number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const id of new Set(repositoryIds)) {
    const latest = await findLatest(db, id);
    if (latest) out.set(id, latest.id);
  }
  return out;
}

// ---------------------------------------------------------------- assets

export type NewAsset = Pick<ReleaseAsset,
  'releaseId' | 'repositoryId' | 'name' | 'label' | 'contentType' | 'size' | 'digest' | 'uploaderId'>;

export async function insertAsset(db: Executor, v: NewAsset, now: string): Promise<ReleaseAsset> {
  const row = await db.insertInto('release_assets').values({
    release_id: v.releaseId,
    repository_id: v.repositoryId,
    name: v.name,
    label: v.label,
    content_type: v.contentType,
    size: v.size,
    digest: v.digest,
    state: 'uploaded',
    download_count: 0,
    uploader_id: v.uploaderId,
    created_at: now,
    updated_at: now,
  }).returning(ASSET_COLUMNS).executeTakeFirstOrThrow();
  return toAsset(row);
}

export async function findAsset(db: Executor, repositoryId: number, id: number): Promise<ReleaseAsset | null> {
  const row = await db.selectFrom('release_assets').select(ASSET_COLUMNS)
    .where('repository_id', '=', repositoryId).where('id', '=', id).executeTakeFirst();
  return row ? toAsset(row) : null;
}

export async function findAssetByName(db: Executor, releaseId: number, name: string): Promise<ReleaseAsset | null> {
  const row = await db.selectFrom('release_assets').select(ASSET_COLUMNS)
    .where('release_id', '=', releaseId).where('name', '=', name).executeTakeFirst();
  return row ? toAsset(row) : null;
}

/** Oldest first, as upstream lists a release's assets. */
export async function listAssets(db: Executor, releaseId: number, slice: Slice, name?: string): Promise<ReleaseAsset[]> {
  let q = db.selectFrom('release_assets').select(ASSET_COLUMNS).where('release_id', '=', releaseId);
  if (name !== undefined) q = q.where('name', '=', name);
  const rows = await q.orderBy('id').limit(slice.perPage).offset(slice.offset).execute();
  return rows.map(toAsset);
}

export async function countAssets(db: Executor, releaseId: number, name?: string): Promise<number> {
  let q = db.selectFrom('release_assets').where('release_id', '=', releaseId);
  if (name !== undefined) q = q.where('name', '=', name);
  const row = await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Every asset of these releases, oldest first (the release record embeds them). */
export async function assetsOfReleases(db: Executor, releaseIds: readonly number[]): Promise<ReleaseAsset[]> {
  if (!releaseIds.length) return [];
  const rows = await db.selectFrom('release_assets').select(ASSET_COLUMNS)
    .where('release_id', 'in', [...new Set(releaseIds)]).orderBy('id').execute();
  return rows.map(toAsset);
}

export async function findAssetsByIds(db: Executor, ids: readonly number[]): Promise<ReleaseAsset[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('release_assets').select(ASSET_COLUMNS).where('id', 'in', [...new Set(ids)]).execute();
  return rows.map(toAsset);
}

export async function updateAsset(db: Executor, id: number, c: { name?: string; label?: string | null; state?: AssetState }, now: string): Promise<ReleaseAsset> {
  const row = await db.updateTable('release_assets').set({
    ...(c.name !== undefined ? { name: c.name } : {}),
    ...(c.label !== undefined ? { label: c.label } : {}),
    ...(c.state !== undefined ? { state: c.state } : {}),
    updated_at: now,
  }).where('id', '=', id).returning(ASSET_COLUMNS).executeTakeFirstOrThrow();
  return toAsset(row);
}

/** An imported asset's own facts (migration-import): its download count and last change, as the source had them. */
export async function setImportedAssetFacts(db: Executor, id: number, f: { downloadCount: number; updatedAt: string }): Promise<void> {
  await db.updateTable('release_assets').set({ download_count: f.downloadCount, updated_at: f.updatedAt }).where('id', '=', id).execute();
}

/** Counts a download; updated_at stays (a download changes nothing a client edits). */
export async function countDownload(db: Executor, id: number): Promise<void> {
  await db.updateTable('release_assets').set((eb) => ({ download_count: eb('download_count', '+', 1) })).where('id', '=', id).execute();
}

export async function removeAsset(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('release_assets').where('id', '=', id).execute();
}

/** Ids of a release's assets (their files go when the release does). */
export async function assetIdsOf(db: Executor, releaseId: number): Promise<number[]> {
  const rows = await db.selectFrom('release_assets').select('id').where('release_id', '=', releaseId).execute();
  return rows.map((r) => r.id);
}

/** A unique index refused the row: a concurrent request took the tag or asset name first. */
export function isDuplicate(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
