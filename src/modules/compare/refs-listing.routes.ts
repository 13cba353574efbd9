// The legacy reference listing GET /repos/{o}/{r}/git/refs[/{namespace}], which older
// clients (Octokit's git.listRefs, many scripts) still call: all refs, or those under a
// prefix; a prefix naming one ref exactly answers that ref alone, as upstream did.
import { Type } from '@sinclair/typebox';
import { NotFoundError } from '../../domain/errors.ts';
import type { Router } from '../../http/router.ts';
import { GitRef, RepoOptionalRestParams } from '../git-data/git-data.schemas.ts';
import * as gitData from '../git-data/git-data.service.ts';
import { gitRef, repoUrls } from '../git-data/git-data.views.ts';

export function refsListingRoutes(app: Router): void {
  const { urls } = app.ctx;
  for (const path of ['/repos/:owner/:repo/git/refs', '/repos/:owner/:repo/git/refs/*']) {
    app.get(path, {
      schema: { params: RepoOptionalRestParams, response: { 200: Type.Union([GitRef, Type.Array(GitRef)]) } },
      config: { operationId: 'git/list-refs' },
    }, async (request) => {
      const { owner, repo, '*': prefix = '' } = request.params;
      const r = await gitData.listMatchingRefs(request.server.ctx, request.actor, owner, repo, prefix.replace(/\/+$/, ''));
      const u = repoUrls(urls, r.repo);
      const exact = prefix === '' ? undefined : r.refs.find((e) => e.ref === (prefix.startsWith('refs/') ? prefix : `refs/${prefix}`));
      if (exact) return gitRef(u, r.repo, exact);
      if (r.refs.length === 0) throw new NotFoundError();
      return r.refs.map((ref) => gitRef(u, r.repo, ref));
    });
  }
}
