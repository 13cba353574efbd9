// Commit statuses: create on a sha, list for a ref, the combined status of a ref.
import { PagedObject } from '../../http/schema-types.ts';
import { pageOf, paged, pagedRecord } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { CombinedStatus, CreateStatusBody, PageQuery, RefParams, Status, StatusList, StatusShaParams } from './statuses.schemas.ts';
import { presentCombinedStatus, presentStatus, presentStatuses } from './statuses.present.ts';
import * as statuses from './statuses.service.ts';

const SCOPES = ['repo:status', 'repo'];

export function statusesRoutes(app: Router): void {
  app.post('/repos/:owner/:repo/statuses/:sha', {
    schema: { params: StatusShaParams, body: CreateStatusBody, response: { 201: Status } },
    config: { operationId: 'repos/create-commit-status', resource: 'Status', acceptedScopes: SCOPES },
  }, async (request, reply) => {
    const { owner, repo, sha } = request.params;
    const s = await statuses.createStatus(request.server.ctx, request.actor, owner, repo, sha, request.body);
    return reply.code(201).send(await presentStatus(request.server.ctx, s.repo, s.status));
  });

  const list = {
    schema: { params: RefParams, querystring: PageQuery, response: { 200: StatusList } },
    config: { operationId: 'repos/list-commit-statuses-for-ref', acceptedScopes: SCOPES },
  };
  // The second path is upstream's legacy route for the same list.
  for (const path of ['/repos/:owner/:repo/commits/:ref/statuses', '/repos/:owner/:repo/statuses/:ref']) {
    app.get(path, { ...list }, async (request) => {
      const { owner, repo, ref } = request.params;
      const p = pageOf(request.query);
      const page = await statuses.listStatuses(request.server.ctx, request.actor, owner, repo, ref, p);
      return paged(await presentStatuses(request.server.ctx, page.repo, page.items), p, page.total);
    });
  }

  app.get('/repos/:owner/:repo/commits/:ref/status', {
    schema: { params: RefParams, querystring: PageQuery, response: { 200: PagedObject(CombinedStatus) } },
    config: { operationId: 'repos/get-combined-status-for-ref', acceptedScopes: SCOPES },
  }, async (request) => {
    const { owner, repo, ref } = request.params;
    const p = pageOf(request.query);
    const c = await statuses.getCombinedStatus(request.server.ctx, request.actor, owner, repo, ref, p);
    return pagedRecord(await presentCombinedStatus(request, c), p, c.total);
  });
}
