// releases_*.json: a repository's releases as the REST API represents them, plus the
// fields of upstream's archive layout (type, repository, user, state, pending_tag,
// release_assets) so that tools written for upstream's archives find theirs. Each
// uploaded asset's bytes go into the archive as upstream's exporter puts them,
// releases/<guid>/<name>, named by the asset's `asset_url` (tarball://root/releases/
// <guid>/<name>); with exclude_attachments the records stay and the bytes do not
// (asset_url null).
import { createHash } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import type { Slice } from '../../domain/page.ts';
import { assetFilePath } from '../releases/releases.import.ts';
import { presentReleases } from '../releases/releases.present.ts';
import type { ReleaseRecord } from '../releases/releases.model.ts';
import * as releases from '../releases/releases.service.ts';
import type { Repo } from '../repos/repos.model.ts';

type Json = Record<string, unknown>;
const BATCH = 100;

/** A file the archive holds besides records and git data: its name in the archive and where its bytes are now. */
export interface ArchiveFile {
  name: string;
  source: string;
}

/**
 * Upstream names each asset's folder by a GUID. Wharf's is derived from the asset's
 * repository and id, so archives of the same data stay alike.
 */
function guidOf(repositoryId: number, assetId: number): string {
  const h = createHash('sha256').update(`release-asset:${repositoryId}:${assetId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export async function releaseRecords(ctx: AppContext, actor: Actor, repo: Repo, withFiles: boolean): Promise<{ records: Json[]; files: ArchiveFile[] }> {
  const found: ReleaseRecord[] = [];
  for (let offset = 0; ; offset += BATCH) {
    const slice: Slice = { perPage: BATCH, offset };
    const page = await releases.listReleases(ctx, actor, repo.owner.login, repo.name, slice);
    found.push(...page.items);
    if (page.items.length < BATCH || found.length >= page.total) break;
  }
  // Oldest first, as every other record kind of the archive.
  found.sort((a, b) => a.release.id - b.release.id);
  const views = await presentReleases(ctx, found);
  const repository = ctx.urls.api('repos', repo.owner.login, repo.name);
  const files: ArchiveFile[] = [];
  const records = views.map((v, i) => ({
    ...v,
    type: 'release',
    repository,
    user: v.author ? ctx.urls.api('users', v.author.login) : null,
    state: found[i]!.release.draft ? 'draft' : 'published',
    pending_tag: v.tag_name,
    release_assets: v.assets.map((a) => {
      const guid = guidOf(repo.id, a.id);
      // Only an uploaded asset has all its bytes (upstream's exporter takes those alone too).
      const kept = withFiles && a.state === 'uploaded';
      if (kept) files.push({ name: `releases/${guid}/${a.name}`, source: assetFilePath(ctx, repo.id, a.id) });
      return {
        ...a, type: 'release_asset', user: a.uploader ? ctx.urls.api('users', a.uploader.login) : null, guid,
        asset_url: kept ? `tarball://root/releases/${guid}/${a.name}` : null,
      };
    }),
  }));
  return { records, files };
}
