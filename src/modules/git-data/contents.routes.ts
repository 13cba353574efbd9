// /repos/{owner}/{repo}/contents/{path}, /readme, and {base}/{owner}/{repo}/raw/{ref}/{path}.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Router } from '../../http/router.ts';
import { Content, DeleteFileBody, FileCommit, FileContent, LicenseContent, PutFileBody, RefQuery } from './contents.schemas.ts';
import * as contents from './contents.service.ts';
import { contentRecord, fileCommit, fileRecord } from './contents.views.ts';
import { RepoOptionalRestParams, RepoParams, RepoRestParams } from './git-data.schemas.ts';
import { BLOB_BODY_LIMIT, MAX_BLOB_BYTES } from './git-data.limits.ts';
import { repoUrls } from './git-data.views.ts';
import { licenseSimple } from '../templates/templates.views.ts';

const WRITE_SCOPES = ['public_repo', 'repo'];
/** Octokit reads a body with this type as text, as it does upstream's raw contents. */
const RAW_TYPE = 'application/vnd.service.raw; charset=utf-8';

/** How much of a file to read: all of it raw, up to 1 MB as JSON. */
function maxBytes(request: FastifyRequest): number {
  return request.media.param === 'raw' ? MAX_BLOB_BYTES : contents.MAX_JSON_FILE_BYTES;
}

/** The raw media type: the file's bytes, which the JSON schema does not serialize. */
function sendRaw(reply: FastifyReply, bytes: Buffer | null) {
  return reply.type(RAW_TYPE).send(bytes ?? Buffer.alloc(0));
}

function sendContent(request: FastifyRequest, reply: FastifyReply, c: contents.ContentResult) {
  const u = repoUrls(request.server.ctx.urls, c.repo);
  const media = request.media.param;
  if (c.content.kind === 'file') {
    if (media === 'raw') return sendRaw(reply, c.content.content);
    if (c.content.content === null && media !== 'object') throw contents.tooLargeError();
  }
  return contentRecord(u, c.ref, c.content, media === 'object');
}

export function contentsRoutes(app: Router): void {
  const { urls } = app.ctx;

  for (const path of ['/repos/:owner/:repo/contents/*', '/repos/:owner/:repo/contents']) {
    app.get(path, {
      // The raw media type answers the file's bytes, outside the JSON schema.
      schema: { params: RepoOptionalRestParams, querystring: RefQuery, response: { 200: Content } },
      config: { operationId: 'repos/get-content', answerCache: true },
    }, async (request, reply) => {
      const { owner, repo, '*': p } = request.params;
      const c = await contents.getContent(request.server.ctx, request.actor, owner, repo, p ?? '', request.query.ref, maxBytes(request));
      return sendContent(request, reply, c);
    });
  }

  app.put('/repos/:owner/:repo/contents/*', {
    schema: { params: RepoRestParams, body: PutFileBody, response: { 200: FileCommit, 201: FileCommit } },
    bodyLimit: BLOB_BODY_LIMIT,
    config: { operationId: 'repos/create-or-update-file-contents', resource: 'Content', acceptedScopes: WRITE_SCOPES },
  }, async (request, reply) => {
    const { owner, repo, '*': path } = request.params;
    const r = await contents.putFile(request.server.ctx, request.actor, owner, repo, path, request.body);
    return reply.code(r.created ? 201 : 200).send(fileCommit(repoUrls(urls, r.repo), r.repo, r.branch, r.file, r.commit));
  });

  app.delete('/repos/:owner/:repo/contents/*', {
    schema: { params: RepoRestParams, body: DeleteFileBody, response: { 200: FileCommit } },
    config: { operationId: 'repos/delete-file', resource: 'Content', acceptedScopes: WRITE_SCOPES },
  }, async (request) => {
    const { owner, repo, '*': path } = request.params;
    const r = await contents.deleteFile(request.server.ctx, request.actor, owner, repo, path, request.body);
    return fileCommit(repoUrls(urls, r.repo), r.repo, r.branch, r.file, r.commit);
  });

  app.get('/repos/:owner/:repo/readme', {
    schema: { params: RepoParams, querystring: RefQuery, response: { 200: FileContent } },
    config: { operationId: 'repos/get-readme' },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const c = await contents.getReadme(request.server.ctx, request.actor, owner, repo, request.query.ref, maxBytes(request));
    if (request.media.param === 'raw') return sendRaw(reply, c.content.content);
    if (c.content.content === null && request.media.param !== 'object') throw contents.tooLargeError();
    return fileRecord(repoUrls(urls, c.repo), c.ref, c.content);
  });

  app.get('/repos/:owner/:repo/license', {
    schema: { params: RepoParams, response: { 200: LicenseContent } },
    config: { operationId: 'licenses/get-for-repo' },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const c = await contents.getLicenseFile(request.server.ctx, request.actor, owner, repo, maxBytes(request));
    if (request.media.param === 'raw') return sendRaw(reply, c.content.content);
    return { ...fileRecord(repoUrls(urls, c.repo), c.ref, c.content), license: licenseSimple(c.licenseKey, urls) };
  });

  // download_url of a file: the bytes, as upstream's raw host serves them.
  app.get('/:owner/:repo/raw/*', {
    schema: { params: RepoRestParams },
    config: { operationId: 'repos/download-raw', rawResponse: true },
  }, async (request, reply) => {
    const { owner, repo, '*': rest } = request.params;
    const bytes = await contents.getRaw(request.server.ctx, request.actor, owner, repo, rest);
    return reply.type('application/octet-stream').header('x-content-type-options', 'nosniff').send(bytes);
  });
}
