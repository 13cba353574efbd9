// The refs pages: branches, tags, releases (the list and one release at the html_url the
// releases API hands out) and the compare view at the compare API's html_url, with its
// diff_url and patch_url (`{basehead}.diff`, `.patch`) as plain text, and the post of its
// "Create pull request" form. The release and tag forms register beside them (release-forms.routes.ts).
import type { Router } from '../../http/router.ts';
import { comparisonText } from '../compare/compare.service.ts';
import { sendPage } from '../web-session/web-request.ts';
import { branchesPage, comparePage, tagsPage } from './refs.pages.ts';
import * as refs from './refs.service.ts';
import { releasePage, releasesPage } from './releases.pages.ts';
import { formErrors, PAGE, pageNumber, signedInPost } from './web.forms.ts';
import { viewerOf } from './web.request.ts';
import { PageQuery, PullForm, RepoParams, RepoRestParams } from './web.schemas.ts';
import { repoPath } from './repo.layout.ts';
import { releaseFormPages } from './release-forms.routes.ts';
import { mayWriteReleases } from './release-forms.service.ts';

/** Registered inside the pages' scope (web.routes.ts). */
export function refsPages(r: Router): void {
  const ctx = r.ctx;
  const title = (what: string, repo: { owner: { login: string }; name: string }) => `${what} · ${repo.owner.login}/${repo.name}`;

  r.get('/:owner/:repo/branches', { schema: { params: RepoParams, querystring: PageQuery }, config: { ...PAGE, operationId: 'wharf/web-branches' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const viewer = await viewerOf(request);
    const v = await refs.branchesOf(ctx, viewer.actor, owner, repo, pageNumber(request.query.page));
    return sendPage(reply, branchesPage(viewer.frame(title('Branches', v.repo)), v));
  });

  r.get('/:owner/:repo/tags', { schema: { params: RepoParams, querystring: PageQuery }, config: { ...PAGE, operationId: 'wharf/web-tags' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const viewer = await viewerOf(request);
    const v = await refs.tagsOf(ctx, viewer.actor, owner, repo, pageNumber(request.query.page));
    return sendPage(reply, tagsPage(viewer.frame(title('Tags', v.repo)), v, ctx.urls, await mayWriteReleases(ctx, viewer.actor, v.repo)));
  });

  r.get('/:owner/:repo/releases', { schema: { params: RepoParams, querystring: PageQuery }, config: { ...PAGE, operationId: 'wharf/web-releases' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const viewer = await viewerOf(request);
    const v = await refs.releasesOf(ctx, viewer.actor, owner, repo, pageNumber(request.query.page));
    return sendPage(reply, releasesPage(viewer.frame(title('Releases', v.repo)), v, ctx.urls, await mayWriteReleases(ctx, viewer.actor, v.repo)));
  });

  r.get('/:owner/:repo/releases/tag/*', { schema: { params: RepoRestParams }, config: { ...PAGE, operationId: 'wharf/web-release' } }, async (request, reply) => {
    const { owner, repo, '*': tag } = request.params;
    const viewer = await viewerOf(request);
    const e = await refs.releaseAt(ctx, viewer.actor, owner, repo, tag);
    const writer = await mayWriteReleases(ctx, viewer.actor, e.detail.repo);
    return sendPage(reply, releasePage(viewer.frame(title(`Release ${e.detail.release.name || e.detail.release.tagName}`, e.detail.repo)), e, ctx.urls, writer));
  });

  r.get('/:owner/:repo/compare/*', { schema: { params: RepoRestParams }, config: { ...PAGE, operationId: 'wharf/web-compare' } }, async (request, reply) => {
    const { owner, repo, '*': basehead } = request.params;
    const viewer = await viewerOf(request);
    const text = /\.(diff|patch)$/.exec(basehead);
    if (text && basehead.includes('...')) {
      const body = await comparisonText(ctx, viewer.actor, owner, repo, basehead.slice(0, -text[0].length), text[1] as 'diff' | 'patch');
      return reply.type('text/plain; charset=utf-8').header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox").send(body);
    }
    const c = await refs.comparisonOf(ctx, viewer.actor, owner, repo, basehead);
    return sendPage(reply, comparePage(viewer.frame(title(`Comparing ${c.basehead}`, c.repo)), c));
  });

  r.post('/:owner/:repo/compare/*', { schema: { params: RepoRestParams, body: PullForm }, config: { ...PAGE, operationId: 'wharf/web-create-pull' } }, async (request, reply) => {
    const { owner, repo, '*': basehead } = request.params;
    const b = request.body;
    const form = { title: b.title ?? '', body: b.body ?? '', draft: b.draft !== undefined && b.draft !== '' };
    return signedInPost(request, reply, b.authenticity_token, async (viewer) => {
      const c = await refs.comparisonOf(ctx, viewer.actor, owner, repo, basehead);
      try {
        const made = await refs.openPull(ctx, viewer.actor, c, form);
        return reply.redirect(repoPath(made.repo, 'pull', made.pull.number), 303);
      } catch (err) {
        const { status, messages } = formErrors(err);
        return sendPage(reply.code(status), comparePage(viewer.frame(title(`Comparing ${c.basehead}`, c.repo)), c, { ...form, errors: messages }));
      }
    });
  });

  releaseFormPages(r);
}
