// Git LFS (basic transfer) at {base}/{owner}/{repo}(.git)/info/lfs: the batch API, object
// download and upload, verify (git-lfs's docs/api). Credentials are the API's own (a
// token as the Basic password, as git sends it); failures answer in LFS's error form.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import type { Router } from '../../http/router.ts';
import { sendLfsError } from './lfs.errors.ts';
import { BatchBody, BatchResponse, ObjectParams, RepoParams, VerifiedObject, VerifyBody } from './lfs.schemas.ts';
import * as lfs from './lfs.service.ts';
import { batchResponse, LFS_MEDIA_TYPE } from './lfs.views.ts';

function authorizationOf(request: FastifyRequest): string | undefined {
  return request.headers.authorization || undefined;
}

export function lfsRoutes(app: Router): void {
  app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
    scope.setErrorHandler((error, request, reply) => sendLfsError(request, reply, error));
    // As git's own transport: not counted against the API's rate limit; a 401 challenges
    // for credentials, which git-lfs then takes from git's credential helper.
    const config = { rateLimit: 'none' as const, authChallenge: true };

    // Batch and verify bodies arrive as application/vnd.git-lfs+json, which the API's JSON parser reads.
    scope.post('/:owner/:repo/info/lfs/objects/batch', {
      schema: { params: RepoParams, body: BatchBody, response: { 200: BatchResponse } },
      config: { ...config, operationId: 'lfs/batch', resource: 'LfsBatch' },
    }, async (request, reply) => {
      const { ctx } = request.server;
      const result = await lfs.batch(ctx, request.actor, request.params.owner, request.params.repo, request.body);
      // The answer carries the caller's credentials: no cache may keep it.
      return reply.type(LFS_MEDIA_TYPE).header('cache-control', 'no-store').send(batchResponse(ctx.urls, result, authorizationOf(request)));
    });

    scope.get('/:owner/:repo/info/lfs/objects/:oid', {
      schema: { params: ObjectParams },
      config: { ...config, operationId: 'lfs/download', rawResponse: true },
    }, async (request, reply) => {
      const { owner, repo, oid } = request.params;
      const object = await lfs.download(request.server.ctx, request.actor, owner, repo, oid);
      return reply.type('application/octet-stream').header('content-length', object.size).send(object.stream);
    });

    scope.post('/:owner/:repo/info/lfs/verify', {
      schema: { params: RepoParams, body: VerifyBody, response: { 200: VerifiedObject } },
      config: { ...config, operationId: 'lfs/verify', resource: 'LfsObject' },
    }, async (request, reply) => {
      const verified = await lfs.verify(request.server.ctx, request.actor, request.params.owner, request.params.repo, request.body);
      return reply.type(LFS_MEDIA_TYPE).send(verified);
    });

    scope.register(async (plainUploads) => {
      const uploads = plainUploads.withTypeProvider<TypeBoxTypeProvider>();
      // An object's bytes stream to disk as they arrive, whatever the Content-Type: no
      // parser reads them, and so no body limit cuts an object of any size.
      uploads.removeAllContentTypeParsers();
      uploads.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
      uploads.put('/:owner/:repo/info/lfs/objects/:oid', {
        schema: { params: ObjectParams },
        // Answers with an empty 200 (basic-transfers.md): no JSON to describe.
        config: { ...config, operationId: 'lfs/upload', rawResponse: true },
      }, async (request, reply) => {
        const { owner, repo, oid } = request.params;
        // Without a body (Content-Length: 0) the conventions leave {}: the object is empty.
        const body = request.body instanceof Readable ? request.body : Readable.from([]);
        await lfs.upload(request.server.ctx, request.actor, owner, repo, oid, body);
        return reply.code(200).send();
      });
    });
  });
}
