// Releases, release assets and tags → API representation, and the event-specific keys
// of release webhook payloads. Pure.
import { encodeNodeId } from '../../domain/node-id.ts';
import type { BodyFormat } from '../../http/media-type.ts';
import type { Urls } from '../../urls.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { Account } from '../users/users.model.ts';
import { reactionRollup, type ReactionCounts } from '../reactions/reactions.rollup.ts';
import { simpleUser } from '../users/users.views.ts';
import type { AssetRecord, ReleaseAsset, ReleaseRecord, TagRecord } from './releases.model.ts';
import type { ReleaseAssetView, ReleaseView, TagView } from './releases.schemas.ts';

/** An asset with the uploader its view shows. */
export interface AssetDetail extends AssetRecord {
  uploader: Account | null;
}

/** A release with its author and its assets (oldest first), as releases.present.ts loads them. */
export interface ReleaseDetail extends ReleaseRecord {
  author: Account | null;
  assets: AssetDetail[];
  /** The body rendered, when the body format asks for it. */
  rendered?: { html: string; text: string };
  reactions: ReactionCounts;
  /** How many users with an account the body @mentions. */
  mentionsCount: number;
}

function bodyFields(d: ReleaseDetail, format: BodyFormat) {
  const { body } = d.release;
  const html = d.rendered?.html ?? '';
  const text = d.rendered?.text ?? '';
  switch (format) {
    case 'html': return { body_html: html };
    case 'text': return { body_text: text };
    case 'full': return { body, body_html: html, body_text: text };
    default: return { body };
  }
}

function repositoryUrl(urls: Urls, repo: Repo): string {
  return urls.api('repos', repo.owner.login, repo.name);
}

/** A tag or file name inside a path: each segment encoded, slashes kept. */
function pathOf(name: string): string {
  return name.split('/').map(encodeURIComponent).join('/');
}

export function releaseUrl(urls: Urls, r: ReleaseRecord): string {
  return `${repositoryUrl(urls, r.repo)}/releases/${r.release.id}`;
}

export function releaseHtmlUrl(urls: Urls, r: ReleaseRecord): string {
  return urls.raw(`/${encodeURIComponent(r.repo.owner.login)}/${encodeURIComponent(r.repo.name)}/releases/tag/${pathOf(r.release.tagName)}`);
}

export function assetApiUrl(urls: Urls, repo: Repo, asset: ReleaseAsset): string {
  return `${repositoryUrl(urls, repo)}/releases/assets/${asset.id}`;
}

/** Where a browser downloads the file: {base}/{owner}/{repo}/releases/download/{tag}/{name}. */
export function assetDownloadUrl(urls: Urls, r: AssetRecord): string {
  return urls.raw(`/${encodeURIComponent(r.repo.owner.login)}/${encodeURIComponent(r.repo.name)}/releases/download/${pathOf(r.release.tagName)}/${encodeURIComponent(r.asset.name)}`);
}

export function releaseAsset(urls: Urls, d: AssetDetail): ReleaseAssetView {
  const a = d.asset;
  return {
    url: assetApiUrl(urls, d.repo, a),
    browser_download_url: assetDownloadUrl(urls, d),
    id: a.id,
    node_id: encodeNodeId('ReleaseAsset', a.id),
    name: a.name,
    label: a.label,
    state: a.state,
    content_type: a.contentType,
    size: a.size,
    digest: a.digest,
    download_count: a.downloadCount,
    created_at: a.createdAt,
    updated_at: a.updatedAt,
    uploader: d.uploader ? simpleUser(d.uploader, urls) : null,
  };
}

export function release(urls: Urls, d: ReleaseDetail, format: BodyFormat = 'raw'): ReleaseView {
  const r = d.release;
  const url = releaseUrl(urls, d);
  const archive = (kind: string) => (r.draft ? null : `${repositoryUrl(urls, d.repo)}/${kind}/${pathOf(r.tagName)}`);
  return {
    url,
    assets_url: `${url}/assets`,
    // A URI template, as upstream's (Wharf takes uploads at the API address itself).
    upload_url: `${url}/assets{?name,label}`,
    html_url: releaseHtmlUrl(urls, d),
    id: r.id,
    author: d.author ? simpleUser(d.author, urls) : null,
    node_id: encodeNodeId('Release', r.id),
    tag_name: r.tagName,
    target_commitish: r.targetCommitish,
    name: r.name,
    draft: r.draft,
    immutable: false,
    prerelease: r.prerelease,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    published_at: r.publishedAt,
    assets: d.assets.map((a) => releaseAsset(urls, a)),
    tarball_url: archive('tarball'),
    zipball_url: archive('zipball'),
    ...bodyFields(d, format),
    mentions_count: d.mentionsCount,
    reactions: reactionRollup(d.reactions, `${url}/reactions`),
  };
}

export function tag(urls: Urls, t: TagRecord): TagView {
  const base = repositoryUrl(urls, t.repo);
  return {
    name: t.name,
    zipball_url: `${base}/zipball/refs/tags/${pathOf(t.name)}`,
    tarball_url: `${base}/tarball/refs/tags/${pathOf(t.name)}`,
    commit: { sha: t.commit, url: `${base}/commits/${t.commit}` },
    // Upstream's tag node is the Ref: named by repository and ref, stable while the tag is.
    node_id: encodeNodeId('Ref', `${t.repo.id}:refs/tags/${t.name}`),
  };
}

/** The payload keys of a release event: the release, and for `edited` what changed (always present there, maybe empty). */
export function releaseEventPayload(urls: Urls, d: ReleaseDetail, changes?: Record<string, { from: unknown } | { to: unknown }>): Record<string, unknown> {
  return { release: release(urls, d), ...(changes ? { changes } : {}) };
}
