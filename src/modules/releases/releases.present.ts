// Releases and assets → API representations: loads the authors, assets and uploaders
// the views show (a fixed number of queries per list), then builds the views.
import type { AppContext } from '../../context.ts';
import type { BodyFormat } from '../../http/media-type.ts';
import { mentionedLogins, parseMarkdown } from '../markdown/markdown.render.ts';
import { renderHtml, renderText } from '../markdown/markdown.service.ts';
import { loadReactionCounts } from '../reactions/reactions.rollup.ts';
import * as users from '../users/users.service.ts';
import type { AssetRecord, ReleaseRecord } from './releases.model.ts';
import * as store from './releases.store.ts';
import { release, releaseAsset, type AssetDetail, type ReleaseDetail } from './releases.views.ts';

function accountsOf(ctx: AppContext, ids: readonly (number | null)[]) {
  return users.accountsByIds(ctx, [...new Set(ids.filter((id): id is number => id !== null))]);
}

export async function assetDetails(ctx: AppContext, records: readonly AssetRecord[]): Promise<AssetDetail[]> {
  const uploaders = await accountsOf(ctx, records.map((r) => r.asset.uploaderId));
  return records.map((r) => ({ ...r, uploader: uploaders.get(r.asset.uploaderId ?? -1) ?? null }));
}

/** The records with their authors and assets, as the views (and event payloads) take them. */
export async function releaseDetails(ctx: AppContext, records: readonly ReleaseRecord[]): Promise<ReleaseDetail[]> {
  const ids = records.map((r) => r.release.id);
  const mentioned = records.map((r) => (r.release.body?.includes('@') ? mentionedLogins(parseMarkdown(r.release.body, 'gfm')) : []));
  const allMentioned = [...new Set(mentioned.flat().map((l) => l.toLowerCase()))];
  const [assets, reactions, existing] = await Promise.all([
    store.assetsOfReleases(ctx.db, ids),
    loadReactionCounts(ctx, 'release', ids),
    allMentioned.length ? users.existingLogins(ctx, allMentioned) : Promise.resolve(new Map<string, string>()),
  ]);
  const accounts = await accountsOf(ctx, [...records.map((r) => r.release.authorId), ...assets.map((a) => a.uploaderId)]);
  const of = (id: number | null) => accounts.get(id ?? -1) ?? null;
  return records.map((r, i) => ({
    ...r,
    author: of(r.release.authorId),
    assets: assets.filter((a) => a.releaseId === r.release.id).map((asset) => ({ ...r, asset, uploader: of(asset.uploaderId) })),
    reactions: reactions.get(r.release.id)!,
    // As upstream's: mentions of users that exist, each once (mentionedLogins gives each login once).
    mentionsCount: mentioned[i]!.filter((l) => existing.has(l.toLowerCase())).length,
  }));
}

/** The body as HTML (GitHub-flavoured, references linked in the repository) and as text. */
async function rendered(ctx: AppContext, d: ReleaseDetail): Promise<ReleaseDetail> {
  const body = d.release.body ?? '';
  const html = body ? await renderHtml(ctx, body, { mode: 'gfm', context: `${d.repo.owner.login}/${d.repo.name}` }) : '';
  return { ...d, rendered: { html, text: body ? renderText(body) : '' } };
}

export async function presentReleases(ctx: AppContext, records: readonly ReleaseRecord[], format: BodyFormat = 'raw') {
  let details = await releaseDetails(ctx, records);
  if (format !== 'raw') details = await Promise.all(details.map((d) => rendered(ctx, d)));
  return details.map((d) => release(ctx.urls, d, format));
}

export async function presentRelease(ctx: AppContext, record: ReleaseRecord, format: BodyFormat = 'raw') {
  return (await presentReleases(ctx, [record], format))[0]!;
}

export async function presentAssets(ctx: AppContext, records: readonly AssetRecord[]) {
  return (await assetDetails(ctx, records)).map((d) => releaseAsset(ctx.urls, d));
}

export async function presentAsset(ctx: AppContext, record: AssetRecord) {
  return (await presentAssets(ctx, [record]))[0]!;
}
