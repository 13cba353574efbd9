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
import { encPath, repoPath } from './repo.layout.ts';
import { comparePickerPage } from './compare-form.pages.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { Type } from '@sinclair/typebox';

const CompareQuery = Type.Object({ base: Type.Optional(Type.String({ maxLength: 1024 })), head: Type.Optional(Type.String({ maxLength: 1024 })) });
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
    const [c, choices] = await Promise.all([
      refs.comparisonOf(ctx, viewer.actor, owner, repo, basehead),
      refs.compareChoicesOf(ctx, viewer.actor, owner, repo),
    ]);
    return sendPage(reply, comparePage(viewer.frame(title(`Comparing ${c.basehead}`, c.repo)), c, undefined, choices));
  });

  // The compare form's GET: both sides go on to the comparison's address (head alone
  // compares with the default branch, as that address does); a pair that names nothing
  // comes back in the form, and no refs at all shows the form.
  r.get('/:owner/:repo/compare', { schema: { params: RepoParams, querystring: CompareQuery }, config: { ...PAGE, operationId: 'wharf/web-compare-form' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const base = (request.query.base ?? '').trim();
    const head = (request.query.head ?? '').trim();
    const viewer = await viewerOf(request);
    const choices = await refs.compareChoicesOf(ctx, viewer.actor, owner, repo);
    const again = (status: number, errors: string[]) =>
      sendPage(reply.code(status), comparePickerPage(viewer.frame(title('Compare', choices.repo)), choices, { base, head, errors }));
    if (!head) return again(base ? 422 : 200, base ? ['Choose a ref to compare with the base.'] : []);
    const basehead = base ? `${base}...${head}` : head;
    const found = await refs.comparisonOf(ctx, viewer.actor, owner, repo, basehead).then(() => true, (err: unknown) => {
      if (err instanceof NotFoundError) return false;
      throw err;
    });
    if (!found) return again(404, [`Nothing to compare: ${base || choices.repo.defaultBranch} and ${head} are not both branches, tags or commits of this repository or its forks.`]);
    return reply.redirect(repoPath(choices.repo, 'compare', base ? `${encPath(base)}...${encPath(head)}` : encPath(head)), 303);
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
        const choices = await refs.compareChoicesOf(ctx, viewer.actor, owner, repo);
        return sendPage(reply.code(status), comparePage(viewer.frame(title(`Comparing ${c.basehead}`, c.repo)), c, { ...form, errors: messages }, choices));
      }
    });
  });

  releaseFormPages(r);
}
