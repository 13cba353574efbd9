// The release and tag forms: draft a new release, edit and delete one, upload an asset
// (a multipart form, in a scope of its own) and delete one, and delete a tag from the
// tags page; each post one call of the releases, assets or git refs service, a refusal
// shown inline with nothing changed.
import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { MAX_BODY_BYTES } from '../../http/body.ts';
import type { Router } from '../../http/router.ts';
import { redirectToLogin, sendPage } from '../web-session/web-request.ts';
import { isFilePart, registerMultipartBody } from './multipart-form.ts';
import { editReleasePage, newReleasePage, releaseFormOf, type ReleaseFormState, type ReleaseInline } from './release-forms.pages.ts';
import { AssetForm, AssetIdParams, ReleaseForm, ReleaseIdParams, TagForm, TokenForm } from './release-forms.schemas.ts';
import * as forms from './release-forms.service.ts';
import * as refs from './refs.service.ts';
import { tagsPage } from './refs.pages.ts';
import type { Repo } from '../repos/repos.model.ts';
import { encPath, repoPath } from './repo.layout.ts';
import { formErrors, issueNumber, PAGE, signedInPost } from './web.forms.ts';
import { viewerOf, type Viewer } from './web.request.ts';
import { RepoParams, RepoRestParams } from './web.schemas.ts';

function fieldsOf(b: Static<typeof ReleaseForm>): forms.ReleaseFields {
  return {
    tag: b.tag_name ?? '', target: b.target_commitish ?? '', name: b.name ?? '', body: b.body ?? '',
    draft: b.draft !== undefined && b.draft !== '', prerelease: b.prerelease !== undefined && b.prerelease !== '',
    makeLatest: b.make_latest ?? '',
  };
}

/** The Generate release notes button rather than Save. */
const generating = (b: Static<typeof ReleaseForm>) => b.generate_notes !== undefined && b.generate_notes !== '';

const releasePath = (repo: Repo, tag: string) => repoPath(repo, 'releases', 'tag', encPath(tag));

/** Registered inside the pages' scope, beside the refs pages (refs.routes.ts). */
export function releaseFormPages(r: Router): void {
  const ctx = r.ctx;

  /** The edit page again, with a refusal beside the form it refused. */
  async function editAgain(viewer: Viewer, owner: string, name: string, id: number, inline: ReleaseInline, form?: ReleaseFormState): Promise<string> {
    const d = await forms.releaseById(ctx, viewer.actor, owner, name, id);
    const branches = await forms.branchNames(ctx, viewer.actor, owner, name, d.repo);
    return editReleasePage(viewer.frame(`Edit ${d.release.name || d.release.tagName}`), d, ctx.urls, form ?? releaseFormOf(d.repo, d), branches, inline);
  }

  r.get('/:owner/:repo/releases/new', { schema: { params: RepoParams }, config: { ...PAGE, operationId: 'wharf/web-new-release' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const viewer = await viewerOf(request);
    if (!viewer.session) return redirectToLogin(request, reply);
    const at = await forms.writerRepo(ctx, viewer.actor, owner, repo);
    const branches = await forms.branchNames(ctx, viewer.actor, owner, repo, at);
    return sendPage(reply, newReleasePage(viewer.frame('New release'), at, releaseFormOf(at, null), branches));
  });

  r.post('/:owner/:repo/releases', { schema: { params: RepoParams, body: ReleaseForm }, config: { ...PAGE, operationId: 'wharf/web-create-release' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const f = fieldsOf(request.body);
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      try {
        if (generating(request.body)) {
          const filled = await forms.withGeneratedNotes(ctx, viewer.actor, owner, repo, f);
          const at = await forms.writerRepo(ctx, viewer.actor, owner, repo);
          const branches = await forms.branchNames(ctx, viewer.actor, owner, repo, at);
          return sendPage(reply, newReleasePage(viewer.frame('New release'), at, { ...filled, errors: [] }, branches));
        }
        const made = await forms.createRelease(ctx, viewer.actor, owner, repo, f);
        return reply.redirect(releasePath(made.repo, made.release.tagName), 303);
      } catch (err) {
        const { status, messages } = formErrors(err);
        const { repo: at } = await forms.repoOf(ctx, viewer.actor, owner, repo);
        const branches = await forms.branchNames(ctx, viewer.actor, owner, repo, at);
        return sendPage(reply.code(status), newReleasePage(viewer.frame('New release'), at, { ...f, errors: messages }, branches));
      }
    });
  });

  r.get('/:owner/:repo/releases/edit/*', { schema: { params: RepoRestParams }, config: { ...PAGE, operationId: 'wharf/web-edit-release' } }, async (request, reply) => {
    const { owner, repo, '*': tag } = request.params;
    const viewer = await viewerOf(request);
    if (!viewer.session) return redirectToLogin(request, reply);
    const at = await forms.writerRepo(ctx, viewer.actor, owner, repo);
    const d = await forms.releaseByTag(ctx, viewer.actor, owner, repo, tag);
    const branches = await forms.branchNames(ctx, viewer.actor, owner, repo, at);
    return sendPage(reply, editReleasePage(viewer.frame(`Edit ${d.release.name || d.release.tagName}`), d, ctx.urls, releaseFormOf(at, d), branches));
  });

  r.post('/:owner/:repo/releases/:release_id', { schema: { params: ReleaseIdParams, body: ReleaseForm }, config: { ...PAGE, operationId: 'wharf/web-update-release' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const id = issueNumber(request.params.release_id);
    const f = fieldsOf(request.body);
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      try {
        if (generating(request.body)) {
          const filled = await forms.withGeneratedNotes(ctx, viewer.actor, owner, repo, f);
          return sendPage(reply, await editAgain(viewer, owner, repo, id, {}, { ...filled, errors: [] }));
        }
        const made = await forms.updateRelease(ctx, viewer.actor, owner, repo, id, f);
        return reply.redirect(releasePath(made.repo, made.release.tagName), 303);
      } catch (err) {
        const { status, messages } = formErrors(err);
        return sendPage(reply.code(status), await editAgain(viewer, owner, repo, id, {}, { ...f, errors: messages }));
      }
    });
  });

  r.post('/:owner/:repo/releases/:release_id/delete', { schema: { params: ReleaseIdParams, body: TokenForm }, config: { ...PAGE, operationId: 'wharf/web-delete-release' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const id = issueNumber(request.params.release_id);
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      try {
        await forms.deleteRelease(ctx, viewer.actor, owner, repo, id);
        const { repo: at } = await forms.repoOf(ctx, viewer.actor, owner, repo);
        return reply.redirect(repoPath(at, 'releases'), 303);
      } catch (err) {
        const { status, messages } = formErrors(err);
        return sendPage(reply.code(status), await editAgain(viewer, owner, repo, id, { release: messages }));
      }
    });
  });

  // The upload is a multipart form (the file beside its name and label), read in this scope alone.
  r.register(async (raw: FastifyInstance) => {
    registerMultipartBody(raw, MAX_BODY_BYTES);
    const scope = raw as unknown as Router;
    scope.post('/:owner/:repo/releases/:release_id/assets', {
      schema: { params: ReleaseIdParams, body: AssetForm }, bodyLimit: MAX_BODY_BYTES,
      config: { ...PAGE, operationId: 'wharf/web-upload-release-asset' },
    }, async (request, reply) => {
      const { owner, repo } = request.params;
      const id = issueNumber(request.params.release_id);
      const b = request.body;
      const file = isFilePart(b.file) ? b.file : null;
      const upload = { name: b.name ?? '', label: b.label ?? '' };
      return signedInPost(request, reply, b.authenticity_token, async (viewer) => {
        try {
          const made = await forms.uploadAsset(ctx, viewer.actor, owner, repo, id, { ...upload, file });
          return reply.redirect(`${repoPath(made.repo, 'releases', 'edit', encPath(made.release.tagName))}#release-assets`, 303);
        } catch (err) {
          const { status, messages } = formErrors(err);
          return sendPage(reply.code(status), await editAgain(viewer, owner, repo, id, { assets: messages, upload }));
        }
      });
    });
  });

  r.post('/:owner/:repo/releases/assets/:asset_id/delete', { schema: { params: AssetIdParams, body: TokenForm }, config: { ...PAGE, operationId: 'wharf/web-delete-release-asset' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const assetId = issueNumber(request.params.asset_id);
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      // The asset's release, read first as the viewer may see it (a hidden one is a 404 page).
      const releaseId = await forms.assetRelease(ctx, viewer.actor, owner, repo, assetId);
      try {
        await forms.deleteAsset(ctx, viewer.actor, owner, repo, assetId);
        const d = await forms.releaseById(ctx, viewer.actor, owner, repo, releaseId);
        return reply.redirect(`${repoPath(d.repo, 'releases', 'edit', encPath(d.release.tagName))}#release-assets`, 303);
      } catch (err) {
        const { status, messages } = formErrors(err);
        return sendPage(reply.code(status), await editAgain(viewer, owner, repo, releaseId, { assets: messages }));
      }
    });
  });

  r.post('/:owner/:repo/tags/delete', { schema: { params: RepoParams, body: TagForm }, config: { ...PAGE, operationId: 'wharf/web-delete-tag' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const tag = request.body.tag ?? '';
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      try {
        await forms.deleteTag(ctx, viewer.actor, owner, repo, tag);
        const { repo: at } = await forms.repoOf(ctx, viewer.actor, owner, repo);
        return reply.redirect(repoPath(at, 'tags'), 303);
      } catch (err) {
        const { status, messages } = formErrors(err);
        const v = await refs.tagsOf(ctx, viewer.actor, owner, repo, 1);
        const writer = await forms.mayWriteReleases(ctx, viewer.actor, v.repo);
        return sendPage(reply.code(status), tagsPage(viewer.frame(`Tags · ${v.repo.owner.login}/${v.repo.name}`), v, ctx.urls, writer, messages));
      }
    });
  });
}
