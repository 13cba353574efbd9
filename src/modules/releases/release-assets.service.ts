// Release assets: upload (raw bytes at the release's upload_url), list, read, rename,
// delete, and download (the bytes, counted). Asset names are unique in a release and
// sanitised as upstream sanitises them.
import { inTransaction, type AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import { requireMaxLength, TEXT_LIMITS } from '../../domain/text-limits.ts';
import * as users from '../users/users.service.ts';
import { forReading, forWriting, requireRelease, type ReadableRepo } from './releases.access.ts';
import { sanitizeAssetName, type AssetRecord, type AssetState, type ReleaseAsset } from './releases.model.ts';
import * as files from './release-asset-files.ts';
import * as store from './releases.store.ts';

const RESOURCE = 'ReleaseAsset';
const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

function nameOf(raw: string | undefined): string {
  if (raw === undefined || raw.trim() === '') {
    throw new ValidationError([{ resource: RESOURCE, field: 'name', code: 'missing_field', message: 'name is missing' }]);
  }
  requireMaxLength(RESOURCE, 'name', raw, TEXT_LIMITS.title);
  const name = sanitizeAssetName(raw);
  if (name === '') throw new ValidationError([{ resource: RESOURCE, field: 'name', code: 'invalid', message: `name ${raw} has no usable character` }]);
  return name;
}

function nameTaken(): ValidationError {
  return new ValidationError([{ resource: RESOURCE, field: 'name', code: 'already_exists' }]);
}

/** An asset of the name written meanwhile (the unique index saw it): the same 422. */
function duplicateName(err: unknown): never {
  throw store.isDuplicate(err) ? nameTaken() : err;
}

async function requireAsset(ctx: AppContext, r: ReadableRepo, id: number): Promise<AssetRecord> {
  const asset = await store.findAsset(ctx.db, r.repo.id, id);
  const release = asset ? await store.findRelease(ctx.db, r.repo.id, asset.releaseId) : null;
  // An asset of a draft is as hidden as the draft.
  if (!asset || !release || (release.draft && !r.seesDrafts)) throw new NotFoundError();
  return { repo: r.repo, release, asset };
}

export interface UploadInput {
  name?: string;
  label?: string;
  contentType?: string;
  bytes: Buffer;
}

export async function uploadAsset(ctx: AppContext, actor: Actor, owner: string, repoName: string, releaseId: number, input: UploadInput): Promise<AssetRecord> {
  const r = await forWriting(ctx, actor, owner, repoName);
  const release = await requireRelease(ctx, { repo: r.repo, seesDrafts: true }, releaseId);
  const name = nameOf(input.name);
  requireMaxLength(RESOURCE, 'label', input.label, TEXT_LIMITS.title);
  const uploader = await users.getOwnAccount(ctx, actor);
  if (await store.findAssetByName(ctx.db, release.id, name)) throw nameTaken();
  const staged = await files.stage(ctx, r.repo.id, input.bytes);
  try {
    const asset = await inTransaction(ctx, async (tx) => {
      if (await store.findAssetByName(tx.db, release.id, name)) throw nameTaken();
      return store.insertAsset(tx.db, {
        releaseId: release.id, repositoryId: r.repo.id, name, label: input.label ?? null,
        contentType: input.contentType?.trim() || DEFAULT_CONTENT_TYPE, size: staged.size, digest: staged.digest, uploaderId: uploader.id,
      }, nowIso(tx.clock)).catch(duplicateName);
    });
    await files.keep(ctx, staged, r.repo.id, asset.id);
    return { repo: r.repo, release, asset };
  } catch (err) {
    await files.discard(staged);
    throw err;
  }
}

export async function listAssets(ctx: AppContext, actor: Actor, owner: string, name: string, releaseId: number, slice: Slice, filterName?: string): Promise<Page<AssetRecord>> {
  const r = await forReading(ctx, actor, owner, name);
  const release = await requireRelease(ctx, r, releaseId);
  const [rows, total] = await Promise.all([
    store.listAssets(ctx.db, release.id, slice, filterName), store.countAssets(ctx.db, release.id, filterName),
  ]);
  return { items: rows.map((asset) => ({ repo: r.repo, release, asset })), total };
}

export async function getAsset(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<AssetRecord> {
  return requireAsset(ctx, await forReading(ctx, actor, owner, name), id);
}

export interface Download {
  record: AssetRecord;
  bytes: Buffer;
}

/** `count`: false for a HEAD request, which looks at the file without downloading it. */
async function download(ctx: AppContext, record: AssetRecord, count: boolean): Promise<Download> {
  const bytes = await files.read(ctx, record.repo.id, record.asset.id).catch(() => null);
  if (!bytes) throw new NotFoundError();
  if (count) await store.countDownload(ctx.db, record.asset.id);
  return { record, bytes };
}

/** The bytes of an asset (Accept: application/octet-stream), counted as a download. */
export async function downloadAsset(ctx: AppContext, actor: Actor, owner: string, name: string, id: number, count = true): Promise<Download> {
  return download(ctx, await getAsset(ctx, actor, owner, name, id), count);
}

/** browser_download_url: {owner}/{repo}/releases/download/{tag}/{name}. */
export async function downloadByName(ctx: AppContext, actor: Actor, owner: string, name: string, tag: string, assetName: string, count = true): Promise<Download> {
  const r = await forReading(ctx, actor, owner, name);
  const release = await store.findReleaseByTag(ctx.db, r.repo.id, tag);
  if (!release || (release.draft && !r.seesDrafts)) throw new NotFoundError();
  const asset = await store.findAssetByName(ctx.db, release.id, assetName);
  if (!asset) throw new NotFoundError();
  return download(ctx, { repo: r.repo, release, asset }, count);
}

export interface UpdateAssetInput {
  name?: string;
  label?: string | null;
  state?: AssetState;
}

export async function updateAsset(ctx: AppContext, actor: Actor, owner: string, repoName: string, id: number, input: UpdateAssetInput): Promise<AssetRecord> {
  const r = await forWriting(ctx, actor, owner, repoName);
  const found = await requireAsset(ctx, { repo: r.repo, seesDrafts: true }, id);
  const name = input.name === undefined ? undefined : nameOf(input.name);
  requireMaxLength(RESOURCE, 'label', input.label, TEXT_LIMITS.title);
  return inTransaction(ctx, async (tx) => {
    if (name !== undefined && name !== found.asset.name && await store.findAssetByName(tx.db, found.release.id, name)) throw nameTaken();
    const asset: ReleaseAsset = await store.updateAsset(tx.db, id, {
      ...(name !== undefined ? { name } : {}), ...(input.label !== undefined ? { label: input.label } : {}), ...(input.state ? { state: input.state } : {}),
    }, nowIso(tx.clock)).catch(duplicateName);
    return { ...found, asset };
  });
}

export async function deleteAsset(ctx: AppContext, actor: Actor, owner: string, repoName: string, id: number): Promise<void> {
  const r = await forWriting(ctx, actor, owner, repoName);
  const found = await requireAsset(ctx, { repo: r.repo, seesDrafts: true }, id);
  await store.removeAsset(ctx.db, found.asset.id);
  await files.remove(ctx, r.repo.id, [found.asset.id]);
}

/** Assets by id; no caller check (GraphQL node ids: the caller checks the release). */
export function assetsByIds(ctx: AppContext, ids: readonly number[]): Promise<ReleaseAsset[]> {
  return store.findAssetsByIds(ctx.db, ids);
}
