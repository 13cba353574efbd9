// GET /repos/{owner}/{repo}/zipball/{ref} and …/tarball/{ref}: 302 to the download
// address, as upstream redirects to its codeload host; Wharf serves that address too
// (GET /codeload/{owner}/{repo}/legacy.{zip,tar.gz}/{sha}), streaming git archive.
import { Type } from '@sinclair/typebox';
import type { Router } from '../../http/router.ts';
import { ARCHIVE_KINDS, archiveLink, openArchive } from './archives.service.ts';

// The ref may hold slashes (refs/tags/v1, release/1.0): the rest of the path.
const ArchiveParams = Type.Object({ owner: Type.String(), repo: Type.String(), '*': Type.String() });
const DownloadParams = Type.Object({ owner: Type.String(), repo: Type.String(), sha: Type.String() });
const DownloadQuery = Type.Object({ token: Type.Optional(Type.String()) });

export function archivesRoutes(app: Router): void {
  for (const [kind, format, type] of [['zipball', 'zip', 'application/zip'], ['tarball', 'tar.gz', 'application/x-gzip']] as const) {
    app.get(`/repos/:owner/:repo/${kind}/*`, {
      schema: { params: ArchiveParams },
      config: { operationId: `repos/download-${kind}-archive`, rawResponse: true },
    }, async (request, reply) => {
      const { owner, repo, '*': ref } = request.params;
      const url = await archiveLink(request.server.ctx, request.actor, owner, repo, ref, format);
      return reply.code(302).header('location', url).send();
    });

    // The download address: its token (private repositories) is the credential.
    app.get(`/codeload/:owner/:repo/${ARCHIVE_KINDS[format]}/:sha`, {
      schema: { params: DownloadParams, querystring: DownloadQuery },
      config: { operationId: `wharf/download-${kind}`, rawResponse: true },
    }, async (request, reply) => {
      const { owner, repo, sha } = request.params;
      const archive = await openArchive(request.server.ctx, request.actor, owner, repo, format, sha, request.query.token);
      return reply.type(type).header('content-disposition', `attachment; filename=${archive.fileName}`).send(archive.stream);
    });
  }
}
