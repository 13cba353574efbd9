// Commit statuses: create on a sha, list for a ref, the combined status of a ref.
import { pageOf, setPageLinks } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { CombinedStatus, CreateStatusBody, PageQuery, RefParams, Status, StatusList, StatusShaParams } from './statuses.schemas.ts';
import { presentRepo } from '../repos/repos.presenter.ts';
import * as statuses from './statuses.service.ts';
import { combinedStatus, commitStatus } from './statuses.views.ts';

const SCOPES = ['repo:status', 'repo'];

export function statusesRoutes(app: Router): void {
  const { urls } = app.ctx;

  app.post('/repos/:owner/:repo/statuses/:sha', {
    schema: { params: StatusShaParams, body: CreateStatusBody, response: { 201: Status } },
    config: { operationId: 'repos/create-commit-status', resource: 'Status', acceptedScopes: SCOPES },
  }, async (request, reply) => {
    const { owner, repo, sha } = request.params;
    const s = await statuses.createStatus(request.server.ctx, request.actor, owner, repo, sha, request.body);
    return reply.code(201).send(commitStatus(urls, s.repo, s));
  });

  const list = {
    schema: { params: RefParams, querystring: PageQuery, response: { 200: StatusList } },
    config: { operationId: 'repos/list-commit-statuses-for-ref', acceptedScopes: SCOPES },
  };
  // The second path is upstream's legacy route for the same list.
  for (const path of ['/repos/:owner/:repo/commits/:ref/statuses', '/repos/:owner/:repo/statuses/:ref']) {
    app.get(path, { ...list }, async (request, reply) => {
      const { owner, repo, ref } = request.params;
      const p = pageOf(request.query);
      const page = await statuses.listStatuses(request.server.ctx, request.actor, owner, repo, ref, p);
      setPageLinks(request, reply, p, page.total);
      return page.items.map((d) => commitStatus(urls, page.repo, d));
    });
  }

  app.get('/repos/:owner/:repo/commits/:ref/status', {
    schema: { params: RefParams, querystring: PageQuery, response: { 200: CombinedStatus } },
    config: { operationId: 'repos/get-combined-status-for-ref', acceptedScopes: SCOPES },
  }, async (request, reply) => {
    const { owner, repo, ref } = request.params;
    const p = pageOf(request.query);
    const c = await statuses.getCombinedStatus(request.server.ctx, request.actor, owner, repo, ref, p);
    setPageLinks(request, reply, p, c.total);
    return combinedStatus(urls, c.repo.repo, presentRepo(request, c.repo), c);
  });
}
