// /repos/{owner}/{repo}/branches/{branch}/protection: classic branch protection.
import { Type } from '@sinclair/typebox';
import type { Router } from '../../http/router.ts';
import { BranchParams, ProtectedBranch, PutProtectionBody } from './protection.schemas.ts';
import * as protection from './protection.service.ts';
import { protectionView } from './protection.views.ts';

/** Managing protection is administration of the repository: repo scope (public_repo for a public one). */
const ADMIN = ['public_repo', 'repo'];
const RESOURCE = 'Branch';
const PATH = '/repos/:owner/:repo/branches/:branch/protection';

export function protectionRoutes(app: Router): void {
  const { urls } = app.ctx;

  app.get(PATH, {
    schema: { params: BranchParams, response: { 200: ProtectedBranch } },
    config: { operationId: 'repos/get-branch-protection', acceptedScopes: ADMIN },
  }, async (request) => {
    const { owner, repo, branch } = request.params;
    return protectionView(urls, await protection.getProtection(request.server.ctx, request.actor, owner, repo, branch));
  });

  app.put(PATH, {
    schema: { params: BranchParams, body: PutProtectionBody, response: { 200: ProtectedBranch } },
    config: { operationId: 'repos/update-branch-protection', resource: RESOURCE, acceptedScopes: ADMIN },
  }, async (request) => {
    const { owner, repo, branch } = request.params;
    return protectionView(urls, await protection.putProtection(request.server.ctx, request.actor, owner, repo, branch, request.body));
  });

  app.delete(PATH, {
    schema: { params: BranchParams, response: { 204: Type.Null() } },
    config: { operationId: 'repos/delete-branch-protection', resource: RESOURCE, acceptedScopes: ADMIN },
  }, async (request, reply) => {
    const { owner, repo, branch } = request.params;
    await protection.deleteProtection(request.server.ctx, request.actor, owner, repo, branch);
    return reply.code(204).send(null);
  });
}
