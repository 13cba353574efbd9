// The code pages: a repository's home, directories and files at any ref, the history
// of a ref and one commit.
import type { Router } from '../../http/router.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { sendPage } from '../web-session/web-request.ts';
import { blobPage, treePage } from './code.pages.ts';
import { isAdmin } from './repo-settings.service.ts';
import * as code from './code.service.ts';
import { commitPage, commitsPage } from './commits.pages.ts';
import { PAGE, pageNumber } from './web.forms.ts';
import { viewerOf } from './web.request.ts';
import { CommitsQuery, RepoParams, RepoRestParams, ShaParams } from './web.schemas.ts';

/** Registered inside the pages' scope (web.routes.ts). */
export function codePages(r: Router): void {
  const ctx = r.ctx;

  r.get('/:owner/:repo', { schema: { params: RepoParams }, config: { ...PAGE, operationId: 'wharf/web-repository' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const viewer = await viewerOf(request);
    const v = await code.treeAt(ctx, viewer.actor, owner, repo, null);
    const admin = await isAdmin(ctx, viewer.actor, v.repo);
    return sendPage(reply, treePage(viewer.frame(`${v.repo.owner.login}/${v.repo.name}`), v, ctx.urls, admin));
  });

  r.get('/:owner/:repo/tree/*', { schema: { params: RepoRestParams }, config: { ...PAGE, operationId: 'wharf/web-tree' } }, async (request, reply) => {
    const { owner, repo, '*': rest } = request.params;
    const viewer = await viewerOf(request);
    const v = await code.treeAt(ctx, viewer.actor, owner, repo, rest);
    return sendPage(reply, treePage(viewer.frame(`${v.path || v.repo.name} at ${v.ref} · ${v.repo.owner.login}/${v.repo.name}`), v, ctx.urls));
  });

  r.get('/:owner/:repo/blob/*', { schema: { params: RepoRestParams }, config: { ...PAGE, operationId: 'wharf/web-blob' } }, async (request, reply) => {
    const { owner, repo, '*': rest } = request.params;
    const viewer = await viewerOf(request);
    const v = await code.blobAt(ctx, viewer.actor, owner, repo, rest);
    return sendPage(reply, blobPage(viewer.frame(`${v.path} at ${v.ref} · ${v.repo.owner.login}/${v.repo.name}`), v));
  });

  for (const path of ['/:owner/:repo/commits', '/:owner/:repo/commits/*']) {
    r.get(path, { schema: { params: RepoParams, querystring: CommitsQuery }, config: { ...PAGE, operationId: 'wharf/web-commits' } }, async (request, reply) => {
      const { owner, repo } = request.params;
      const ref = (request.params as { '*'?: string })['*']?.replace(/^\/+|\/+$/g, '') || null;
      const viewer = await viewerOf(request);
      const v = await code.commitsAt(ctx, viewer.actor, owner, repo, ref, request.query.path ?? '', pageNumber(request.query.page));
      return sendPage(reply, commitsPage(viewer.frame(`Commits · ${v.repo.owner.login}/${v.repo.name}`), v));
    });
  }

  r.get('/:owner/:repo/commit/:sha', { schema: { params: ShaParams }, config: { ...PAGE, operationId: 'wharf/web-commit' } }, async (request, reply) => {
    const { owner, repo, sha } = request.params;
    const viewer = await viewerOf(request);
    const v = await code.commitAt(ctx, viewer.actor, owner, repo, sha).catch((err: unknown) => {
      // An unknown commit is a page that is not there (the API answers it as a 422).
      throw err instanceof ValidationError ? new NotFoundError() : err;
    });
    const d = v.detail;
    return sendPage(reply, commitPage(viewer.frame(`${d.commit.parsed.message.split('\n')[0]} · ${d.repo.owner.login}/${d.repo.name}`), v));
  });
}
