// Release assets: upload at the release's upload_url (raw bytes, not JSON), list, read
// (JSON, or the bytes with Accept: application/octet-stream), rename, delete, and the
// browser_download_url.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MAX_BODY_BYTES } from '../../http/body.ts';
import { pageOf, paged } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { AssetParams, DownloadParams, PageQuery, ReleaseAsset, ReleaseAssetList, ReleaseParams, UpdateAssetBody, UploadQuery } from './releases.schemas.ts';
import { presentAsset, presentAssets } from './releases.present.ts';
import * as assets from './release-assets.service.ts';
import type { Download } from './release-assets.service.ts';

/** Writes to a repository: X-Accepted-OAuth-Scopes names them (repo alone for a private one). */
const WRITE = ['public_repo', 'repo'];
const RESOURCE = 'ReleaseAsset';

function wantsBytes(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').toLowerCase().includes('application/octet-stream');
}

function sendBytes(reply: FastifyReply, d: Download): FastifyReply {
  return reply.type(d.record.asset.contentType).header('x-content-type-options', 'nosniff')
    .header('content-disposition', `attachment; filename=${JSON.stringify(d.record.asset.name)}`).send(d.bytes);
}

export function releaseAssetsRoutes(app: Router): void {
  // The body is the file itself, whatever its Content-Type: a parser of its own, in a scope of its own.
  app.register(async (raw) => {
    const scope = raw.withTypeProvider<TypeBoxTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES }, (_request, body, done) => done(null, body));

    scope.post('/repos/:owner/:repo/releases/:release_id/assets', {
      schema: { params: ReleaseParams, querystring: UploadQuery, response: { 201: ReleaseAsset } },
      bodyLimit: MAX_BODY_BYTES,
      config: { operationId: 'repos/upload-release-asset', resource: RESOURCE, acceptedScopes: WRITE, allowNul: true },
    }, async (request, reply) => {
      const { owner, repo, release_id: id } = request.params;
      // No body at all arrives as {} (the conventions' empty object): an empty file.
      const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const record = await assets.uploadAsset(request.server.ctx, request.actor, owner, repo, id, {
        ...request.query, contentType: request.headers['content-type'], bytes,
      });
      const view = await presentAsset(request.server.ctx, record);
      return reply.code(201).header('location', view.url).send(view);
    });
  });

  app.get('/repos/:owner/:repo/releases/:release_id/assets', {
    schema: { params: ReleaseParams, querystring: PageQuery, response: { 200: ReleaseAssetList } },
    config: { operationId: 'repos/list-release-assets' },
  }, async (request) => {
    const { owner, repo, release_id: id } = request.params;
    const p = pageOf(request.query);
    const page = await assets.listAssets(request.server.ctx, request.actor, owner, repo, id, p);
    return paged(await presentAssets(request.server.ctx, page.items), p, page.total);
  });

  app.get('/repos/:owner/:repo/releases/assets/:asset_id', {
    schema: { params: AssetParams, response: { 200: ReleaseAsset } },
    config: { operationId: 'repos/get-release-asset' },
  }, async (request, reply) => {
    const { owner, repo, asset_id: id } = request.params;
    const { ctx } = request.server;
    if (wantsBytes(request)) return sendBytes(reply, await assets.downloadAsset(ctx, request.actor, owner, repo, id, request.method === 'GET'));
    return presentAsset(ctx, await assets.getAsset(ctx, request.actor, owner, repo, id));
  });

  app.patch('/repos/:owner/:repo/releases/assets/:asset_id', {
    schema: { params: AssetParams, body: UpdateAssetBody, response: { 200: ReleaseAsset } },
    config: { operationId: 'repos/update-release-asset', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, asset_id: id } = request.params;
    return presentAsset(request.server.ctx, await assets.updateAsset(request.server.ctx, request.actor, owner, repo, id, request.body));
  });

  app.delete('/repos/:owner/:repo/releases/assets/:asset_id', {
    schema: { params: AssetParams, response: { 204: Type.Null() } },
    config: { operationId: 'repos/delete-release-asset', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, asset_id: id } = request.params;
    await assets.deleteAsset(request.server.ctx, request.actor, owner, repo, id);
    return reply.code(204).send(null);
  });

  // browser_download_url: the bytes, as upstream's download host serves them.
  app.get('/:owner/:repo/releases/download/*', {
    schema: { params: DownloadParams },
    config: { operationId: 'wharf/download-release-asset', rawResponse: true },
  }, async (request, reply) => {
    const { owner, repo, '*': rest } = request.params;
    const cut = rest.lastIndexOf('/');
    const d = await assets.downloadByName(request.server.ctx, request.actor, owner, repo, rest.slice(0, Math.max(cut, 0)), rest.slice(cut + 1), request.method === 'GET');
    return sendBytes(reply, d);
  });
}
