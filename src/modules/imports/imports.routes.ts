// /repos/{owner}/{repo}/import and its authors, large_files and lfs (upstream's source imports).
import { Type } from '@sinclair/typebox';
import type { Router } from '../../http/router.ts';
import {
  AuthorList, AuthorParams, AuthorsQuery, Author, ImportRecord, LargeFileList, LfsBody, MapAuthorBody, RepoParams,
  StartImportBody, UpdateImportBody,
} from './imports.schemas.ts';
import * as imports from './imports.service.ts';
import { importAuthor, importRecord, largeFile } from './imports.views.ts';

const SCOPES = ['repo'];

export function importsRoutes(app: Router): void {
  const { urls } = app.ctx;

  app.put('/repos/:owner/:repo/import', {
    schema: { params: RepoParams, body: StartImportBody, response: { 201: ImportRecord } },
    config: { operationId: 'migrations/start-import', resource: 'Import', acceptedScopes: SCOPES },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const l = await imports.startImport(request.server.ctx, request.actor, owner, repo, request.body);
    const view = importRecord(urls, l.repo, l.imp);
    return reply.code(201).header('location', view.url).send(view);
  });

  app.get('/repos/:owner/:repo/import', {
    schema: { params: RepoParams, response: { 200: ImportRecord } },
    config: { operationId: 'migrations/get-import-status', acceptedScopes: SCOPES },
  }, async (request) => {
    const l = await imports.getImport(request.server.ctx, request.actor, request.params.owner, request.params.repo);
    return importRecord(urls, l.repo, l.imp);
  });

  app.patch('/repos/:owner/:repo/import', {
    schema: { params: RepoParams, body: UpdateImportBody, response: { 200: ImportRecord } },
    config: { operationId: 'migrations/update-import', resource: 'Import', acceptedScopes: SCOPES },
  }, async (request) => {
    const l = await imports.updateImport(request.server.ctx, request.actor, request.params.owner, request.params.repo, request.body);
    return importRecord(urls, l.repo, l.imp);
  });

  app.delete('/repos/:owner/:repo/import', {
    schema: { params: RepoParams, response: { 204: Type.Null() } },
    config: { operationId: 'migrations/cancel-import', acceptedScopes: SCOPES },
  }, async (request, reply) => {
    await imports.cancelImport(request.server.ctx, request.actor, request.params.owner, request.params.repo);
    return reply.code(204).send(null);
  });

  app.get('/repos/:owner/:repo/import/authors', {
    schema: { params: RepoParams, querystring: AuthorsQuery, response: { 200: AuthorList } },
    config: { operationId: 'migrations/get-commit-authors', acceptedScopes: SCOPES },
  }, async (request) => {
    const l = await imports.listAuthors(request.server.ctx, request.actor, request.params.owner, request.params.repo, request.query.since ?? 0);
    return l.authors.map((a) => importAuthor(urls, l.repo, a));
  });

  app.patch('/repos/:owner/:repo/import/authors/:author_id', {
    schema: { params: AuthorParams, body: MapAuthorBody, response: { 200: Author } },
    config: { operationId: 'migrations/map-commit-author', resource: 'Import', acceptedScopes: SCOPES },
  }, async (request) => {
    const { owner, repo, author_id } = request.params;
    const l = await imports.mapAuthor(request.server.ctx, request.actor, owner, repo, author_id, request.body);
    return importAuthor(urls, l.repo, l.author);
  });

  app.get('/repos/:owner/:repo/import/large_files', {
    schema: { params: RepoParams, response: { 200: LargeFileList } },
    config: { operationId: 'migrations/get-large-files', acceptedScopes: SCOPES },
  }, async (request) => (await imports.listLargeFiles(request.server.ctx, request.actor, request.params.owner, request.params.repo)).map(largeFile));

  app.patch('/repos/:owner/:repo/import/lfs', {
    schema: { params: RepoParams, body: LfsBody, response: { 200: ImportRecord } },
    config: { operationId: 'migrations/set-lfs-preference', resource: 'Import', acceptedScopes: SCOPES },
  }, async (request) => {
    const l = await imports.setLfsPreference(request.server.ctx, request.actor, request.params.owner, request.params.repo, request.body.use_lfs);
    return importRecord(urls, l.repo, l.imp);
  });
}
