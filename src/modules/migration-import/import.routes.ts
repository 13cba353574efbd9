// POST /admin/migrations/imports (the archive as the body, or archive_path naming one on
// the server) and GET /admin/migrations/imports/{id}: site administrators only.
import { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Router } from '../../http/router.ts';
import { ImportParams, MigrationImport, StartQuery } from './import.schemas.ts';
import * as imports from './import.service.ts';
import { importView } from './import.views.ts';

const SCOPES = ['site_admin'];

export function migrationImportRoutes(app: Router): void {
  const { urls } = app.ctx;

  app.register(async (raw) => {
    const scope = raw.withTypeProvider<TypeBoxTypeProvider>();
    // The archive streams to the data dir as it arrives, whatever the Content-Type
    // (application/gzip, octet-stream …): no parser reads it, so no body limit cuts it.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.post('/admin/migrations/imports', {
      schema: { querystring: StartQuery, response: { 202: MigrationImport } },
      config: { operationId: 'wharf/start-migration-import', resource: 'MigrationImport', acceptedScopes: SCOPES },
    }, async (request, reply) => {
      const q = request.query;
      // Without a body the conventions leave {}: then archive_path names the archive.
      const body = request.body instanceof Readable ? request.body : null;
      const archive = q.archive_path !== undefined ? { path: q.archive_path } : { stream: body ?? Readable.from([]) };
      const job = await imports.startImport(request.server.ctx, request.actor, { archive, org: q.org ?? null, onConflict: q.on_conflict });
      return reply.code(202).header('location', importView(job, urls).url).send(importView(job, urls));
    });
  });

  app.get('/admin/migrations/imports/:import_id', {
    schema: { params: ImportParams, response: { 200: MigrationImport } },
    config: { operationId: 'wharf/get-migration-import', acceptedScopes: SCOPES },
  }, async (request) => importView(await imports.getImport(request.server.ctx, request.actor, request.params.import_id), urls));
}
