// The blame page at /{o}/{r}/blame/{ref}/{path}: the file view's blame link.
import type { Router } from '../../http/router.ts';
import { sendPage } from '../web-session/web-request.ts';
import { blamePage } from './blame.pages.ts';
import { blameAt } from './blame.service.ts';
import { PAGE } from './web.forms.ts';
import { viewerOf } from './web.request.ts';
import { RepoRestParams } from './web.schemas.ts';

/** Registered inside the pages' scope (web.routes.ts). */
export function blamePages(r: Router): void {
  const ctx = r.ctx;
  r.get('/:owner/:repo/blame/*', { schema: { params: RepoRestParams }, config: { ...PAGE, operationId: 'wharf/web-blame' } }, async (request, reply) => {
    const { owner, repo, '*': rest } = request.params;
    const viewer = await viewerOf(request);
    const v = await blameAt(ctx, viewer.actor, owner, repo, rest);
    return sendPage(reply, blamePage(viewer.frame(`Blame of ${v.path} at ${v.ref} · ${v.repo.owner.login}/${v.repo.name}`), v));
  });
}
