// Releases, generated release notes and the tag list of a repository.
import { Type } from '@sinclair/typebox';
import { pageOf, paged } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import {
  CreateReleaseBody, GenerateNotesBody, PageQuery, Release, ReleaseList, ReleaseNotes, ReleaseParams, RepoParams, TagList,
  TagParams, UpdateReleaseBody,
} from './releases.schemas.ts';
import { presentRelease, presentReleases } from './releases.present.ts';
import { generateNotes } from './release-notes.service.ts';
import { listTags } from './release-tags.ts';
import * as releases from './releases.service.ts';
import { tag } from './releases.views.ts';

/** Writes to a repository: X-Accepted-OAuth-Scopes names them (repo alone for a private one). */
const WRITE = ['public_repo', 'repo'];
const RESOURCE = 'Release';

export function releasesRoutes(app: Router): void {
  app.get('/repos/:owner/:repo/releases', {
    schema: { params: RepoParams, querystring: PageQuery, response: { 200: ReleaseList } },
    config: { operationId: 'repos/list-releases' },
  }, async (request) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const page = await releases.listReleases(request.server.ctx, request.actor, owner, repo, p);
    return paged(await presentReleases(request.server.ctx, page.items, request.media.bodyFormat), p, page.total);
  });

  app.post('/repos/:owner/:repo/releases', {
    schema: { params: RepoParams, body: CreateReleaseBody, response: { 201: Release } },
    config: { operationId: 'repos/create-release', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const view = await presentRelease(request.server.ctx, await releases.createRelease(request.server.ctx, request.actor, owner, repo, request.body), request.media.bodyFormat);
    return reply.code(201).header('location', view.url).send(view);
  });

  app.post('/repos/:owner/:repo/releases/generate-notes', {
    schema: { params: RepoParams, body: GenerateNotesBody, response: { 200: ReleaseNotes } },
    config: { operationId: 'repos/generate-release-notes', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo } = request.params;
    return generateNotes(request.server.ctx, request.actor, owner, repo, request.body);
  });

  app.get('/repos/:owner/:repo/releases/latest', {
    schema: { params: RepoParams, response: { 200: Release } },
    config: { operationId: 'repos/get-latest-release' },
  }, async (request) => {
    const { owner, repo } = request.params;
    return presentRelease(request.server.ctx, await releases.getLatestRelease(request.server.ctx, request.actor, owner, repo), request.media.bodyFormat);
  });

  app.get('/repos/:owner/:repo/releases/tags/*', {
    schema: { params: TagParams, response: { 200: Release } },
    config: { operationId: 'repos/get-release-by-tag' },
  }, async (request) => {
    const { owner, repo, '*': tagName } = request.params;
    return presentRelease(request.server.ctx, await releases.getReleaseByTag(request.server.ctx, request.actor, owner, repo, tagName), request.media.bodyFormat);
  });

  app.get('/repos/:owner/:repo/releases/:release_id', {
    schema: { params: ReleaseParams, response: { 200: Release } },
    config: { operationId: 'repos/get-release' },
  }, async (request) => {
    const { owner, repo, release_id: id } = request.params;
    return presentRelease(request.server.ctx, await releases.getRelease(request.server.ctx, request.actor, owner, repo, id), request.media.bodyFormat);
  });

  app.patch('/repos/:owner/:repo/releases/:release_id', {
    schema: { params: ReleaseParams, body: UpdateReleaseBody, response: { 200: Release } },
    config: { operationId: 'repos/update-release', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, release_id: id } = request.params;
    return presentRelease(request.server.ctx, await releases.updateRelease(request.server.ctx, request.actor, owner, repo, id, request.body), request.media.bodyFormat);
  });

  app.delete('/repos/:owner/:repo/releases/:release_id', {
    schema: { params: ReleaseParams, response: { 204: Type.Null() } },
    config: { operationId: 'repos/delete-release', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, release_id: id } = request.params;
    await releases.deleteRelease(request.server.ctx, request.actor, owner, repo, id);
    return reply.code(204).send(null);
  });

  app.get('/repos/:owner/:repo/tags', {
    schema: { params: RepoParams, querystring: PageQuery, response: { 200: TagList } },
    config: { operationId: 'repos/list-tags' },
  }, async (request) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const page = await listTags(request.server.ctx, request.actor, owner, repo, p);
    return paged(page.items.map((t) => tag(request.server.ctx.urls, t)), p, page.total);
  });
}
