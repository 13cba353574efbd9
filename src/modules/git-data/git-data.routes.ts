// The Git database API (blobs, trees, commits, refs, tags), and with it the other
// routes over repository contents: commits and branches, contents and raw files.
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { Router } from '../../http/router.ts';
import { commitsRoutes } from './commits.routes.ts';
import { contentsRoutes } from './contents.routes.ts';
import {
  Blob, BlobParams, CommitParams, CreateBlobBody, CreateCommitBody, CreateRefBody, CreateTagBody, CreateTreeBody,
  GetTreeQuery, GitCommit, GitRef, GitTag, GitTree, RepoOptionalRestParams, RepoParams, RepoRestParams, ShortBlob,
  TagParams, UpdateRefBody,
} from './git-data.schemas.ts';
import { BLOB_BODY_LIMIT } from './git-data.limits.ts';
import * as gitData from './git-data.service.ts';
import { blob, gitCommit, gitRef, gitTag, gitTree, repoUrls, shortBlob } from './git-data.views.ts';

const WRITE_SCOPES = ['public_repo', 'repo'];

/** 201 with Location: the new object's address, as upstream answers a create. */
function created<T extends { url: string }>(reply: FastifyReply, body: T) {
  return reply.code(201).header('location', body.url).send(body);
}

export function gitDataRoutes(app: Router): void {
  const { urls } = app.ctx;

  app.post('/repos/:owner/:repo/git/blobs', {
    schema: { params: RepoParams, body: CreateBlobBody, response: { 201: ShortBlob } },
    bodyLimit: BLOB_BODY_LIMIT,
    // utf-8 content is the blob's bytes, NUL included.
    config: { operationId: 'git/create-blob', resource: 'Blob', acceptedScopes: WRITE_SCOPES, allowNul: true },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const b = await gitData.createBlob(request.server.ctx, request.actor, owner, repo, request.body);
    return created(reply, shortBlob(repoUrls(urls, b.repo), b.sha));
  });

  app.get('/repos/:owner/:repo/git/blobs/:file_sha', {
    schema: { params: BlobParams, response: { 200: Blob } },
    config: { operationId: 'git/get-blob', resource: 'Blob' },
  }, async (request, reply) => {
    const { owner, repo, file_sha } = request.params;
    const b = await gitData.getBlob(request.server.ctx, request.actor, owner, repo, file_sha);
    // The raw media type answers the bytes themselves, outside the JSON schema.
    if (request.media.param === 'raw') return (reply as FastifyReply).type('application/octet-stream').send(b.content);
    return blob(repoUrls(urls, b.repo), b.repo, b);
  });

  app.post('/repos/:owner/:repo/git/trees', {
    schema: { params: RepoParams, body: CreateTreeBody, response: { 201: GitTree } },
    bodyLimit: BLOB_BODY_LIMIT,
    config: { operationId: 'git/create-tree', resource: 'Tree', acceptedScopes: WRITE_SCOPES },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const t = await gitData.createTree(request.server.ctx, request.actor, owner, repo, request.body);
    return created(reply, gitTree(repoUrls(urls, t.repo), t));
  });

  app.get('/repos/:owner/:repo/git/trees/*', {
    schema: { params: RepoRestParams, querystring: GetTreeQuery, response: { 200: GitTree } },
    config: { operationId: 'git/get-tree' },
  }, async (request) => {
    const { owner, repo, '*': treeSha } = request.params;
    // Any value of `recursive` asks for the whole tree, as upstream reads it.
    const t = await gitData.getTree(request.server.ctx, request.actor, owner, repo, treeSha, request.query.recursive !== undefined);
    return gitTree(repoUrls(urls, t.repo), t);
  });

  app.post('/repos/:owner/:repo/git/commits', {
    schema: { params: RepoParams, body: CreateCommitBody, response: { 201: GitCommit } },
    config: { operationId: 'git/create-commit', resource: 'Commit', acceptedScopes: WRITE_SCOPES },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const c = await gitData.createCommit(request.server.ctx, request.actor, owner, repo, request.body);
    return created(reply, gitCommit(repoUrls(urls, c.repo), c.repo, c.commit));
  });

  app.get('/repos/:owner/:repo/git/commits/:commit_sha', {
    schema: { params: CommitParams, response: { 200: GitCommit } },
    config: { operationId: 'git/get-commit' },
  }, async (request) => {
    const { owner, repo, commit_sha } = request.params;
    const c = await gitData.getGitCommit(request.server.ctx, request.actor, owner, repo, commit_sha);
    return gitCommit(repoUrls(urls, c.repo), c.repo, c.commit);
  });

  app.get('/repos/:owner/:repo/git/ref/*', {
    schema: { params: RepoRestParams, response: { 200: GitRef } },
    config: { operationId: 'git/get-ref' },
  }, async (request) => {
    const { owner, repo, '*': ref } = request.params;
    const r = await gitData.getRef(request.server.ctx, request.actor, owner, repo, ref);
    return gitRef(repoUrls(urls, r.repo), r.repo, r.ref);
  });

  // Octokit drops the trailing slash when the prefix is empty.
  for (const path of ['/repos/:owner/:repo/git/matching-refs/*', '/repos/:owner/:repo/git/matching-refs']) {
    app.get(path, {
      schema: { params: RepoOptionalRestParams, response: { 200: Type.Array(GitRef) } },
      config: { operationId: 'git/list-matching-refs' },
    }, async (request) => {
      const { owner, repo, '*': prefix } = request.params;
      const r = await gitData.listMatchingRefs(request.server.ctx, request.actor, owner, repo, prefix ?? '');
      const u = repoUrls(urls, r.repo);
      return r.refs.map((ref) => gitRef(u, r.repo, ref));
    });
  }

  app.post('/repos/:owner/:repo/git/refs', {
    schema: { params: RepoParams, body: CreateRefBody, response: { 201: GitRef } },
    config: { operationId: 'git/create-ref', resource: 'Reference', acceptedScopes: WRITE_SCOPES },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const r = await gitData.createRef(request.server.ctx, request.actor, owner, repo, request.body);
    return created(reply, gitRef(repoUrls(urls, r.repo), r.repo, r.ref));
  });

  app.patch('/repos/:owner/:repo/git/refs/*', {
    schema: { params: RepoRestParams, body: UpdateRefBody, response: { 200: GitRef } },
    config: { operationId: 'git/update-ref', resource: 'Reference', acceptedScopes: WRITE_SCOPES },
  }, async (request) => {
    const { owner, repo, '*': ref } = request.params;
    const r = await gitData.updateRef(request.server.ctx, request.actor, owner, repo, ref, request.body);
    return gitRef(repoUrls(urls, r.repo), r.repo, r.ref);
  });

  app.delete('/repos/:owner/:repo/git/refs/*', {
    schema: { params: RepoRestParams, response: { 204: Type.Null() } },
    config: { operationId: 'git/delete-ref', resource: 'Reference', acceptedScopes: WRITE_SCOPES },
  }, async (request, reply) => {
    const { owner, repo, '*': ref } = request.params;
    await gitData.deleteRef(request.server.ctx, request.actor, owner, repo, ref);
    return reply.code(204).send(null);
  });

  app.post('/repos/:owner/:repo/git/tags', {
    schema: { params: RepoParams, body: CreateTagBody, response: { 201: GitTag } },
    config: { operationId: 'git/create-tag', resource: 'Tag', acceptedScopes: WRITE_SCOPES },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const t = await gitData.createTag(request.server.ctx, request.actor, owner, repo, request.body);
    return created(reply, gitTag(repoUrls(urls, t.repo), t.repo, t.sha, t.tag, t.verification));
  });

  app.get('/repos/:owner/:repo/git/tags/:tag_sha', {
    schema: { params: TagParams, response: { 200: GitTag } },
    config: { operationId: 'git/get-tag' },
  }, async (request) => {
    const { owner, repo, tag_sha } = request.params;
    const t = await gitData.getTag(request.server.ctx, request.actor, owner, repo, tag_sha);
    return gitTag(repoUrls(urls, t.repo), t.repo, t.sha, t.tag, t.verification);
  });

  commitsRoutes(app);
  contentsRoutes(app);
}
