// releases_*.json: a repository's releases as the REST API represents them, plus the
// fields of upstream's archive layout (type, repository, user, state, pending_tag,
// release_assets) so that tools written for upstream's archives find theirs. Asset
// files themselves are not copied: their records name them, as upstream's do.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import type { Slice } from '../../domain/page.ts';
import { presentReleases } from '../releases/releases.present.ts';
import type { ReleaseRecord } from '../releases/releases.model.ts';
import * as releases from '../releases/releases.service.ts';
import type { Repo } from '../repos/repos.model.ts';

type Json = Record<string, unknown>;
const BATCH = 100;

export async function releaseRecords(ctx: AppContext, actor: Actor, repo: Repo): Promise<Json[]> {
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
  return views.map((v, i) => ({
    ...v,
    type: 'release',
    repository,
    user: v.author ? ctx.urls.api('users', v.author.login) : null,
    state: found[i]!.release.draft ? 'draft' : 'published',
    pending_tag: v.tag_name,
    release_assets: v.assets,
  }));
}
