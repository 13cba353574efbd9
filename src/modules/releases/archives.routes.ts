// GET /repos/{owner}/{repo}/zipball/{ref} and …/tarball/{ref}: the bytes at once
// (upstream redirects to its download host; Wharf is its own).
import { Type } from '@sinclair/typebox';
import type { Router } from '../../http/router.ts';
import { archiveOf } from './archives.service.ts';

// The ref may hold slashes (refs/tags/v1, release/1.0): the rest of the path.
const ArchiveParams = Type.Object({ owner: Type.String(), repo: Type.String(), '*': Type.String() });

export function archivesRoutes(app: Router): void {
  for (const [kind, format, type] of [['zipball', 'zip', 'application/zip'], ['tarball', 'tar.gz', 'application/x-gzip']] as const) {
    app.get(`/repos/:owner/:repo/${kind}/*`, {
      schema: { params: ArchiveParams },
      config: { operationId: `repos/download-${kind}-archive`, rawResponse: true },
    }, async (request, reply) => {
      const { owner, repo, '*': ref } = request.params;
      const archive = await archiveOf(request.server.ctx, request.actor, owner, repo, ref, format);
      return reply.type(type).header('content-disposition', `attachment; filename=${archive.fileName}`).send(archive.bytes);
    });
  }
}
