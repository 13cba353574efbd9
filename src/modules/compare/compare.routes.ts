// /repos/{owner}/{repo}/compare/{basehead} and /contributors.
import type { FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';
import { PagedObject } from '../../http/schema-types.ts';
import { pageOf, paged, pagedRecord } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { RepoParams, RepoRestParams } from '../git-data/git-data.schemas.ts';
import { ComparePageQuery, Comparison, ContributorList, ListContributorsQuery } from './compare.schemas.ts';
import * as compare from './compare.service.ts';
import { comparisonView } from './compare.views.ts';
import { listContributors } from './contributors.service.ts';
import { contributorView } from './contributors.views.ts';

const TEXT_MEDIA = { diff: 'application/vnd.service.diff; charset=utf-8', patch: 'application/vnd.service.patch; charset=utf-8' } as const;

export function compareRoutes(app: Router): void {
  const { urls } = app.ctx;

  // The wildcard: branch names on either side may hold slashes.
  app.get('/repos/:owner/:repo/compare/*', {
    schema: { params: RepoRestParams, querystring: ComparePageQuery, response: { 200: PagedObject(Comparison) } },
    config: { operationId: 'repos/compare-commits-with-basehead' },
  }, async (request, reply) => {
    const { owner, repo, '*': basehead } = request.params;
    const { ctx } = request.server;
    const media = request.media.param;
    if (media === 'diff' || media === 'patch') {
      const text = await compare.comparisonText(ctx, request.actor, owner, repo, basehead, media);
      // Text media types answer outside the JSON schema.
      return (reply as FastifyReply).type(TEXT_MEDIA[media]).send(text);
    }
    // Upstream pages the commits only when asked to; otherwise it lists up to 250.
    const asked = request.query.page !== undefined || request.query.per_page !== undefined;
    const p = asked ? pageOf(request.query) : pageOf({}, compare.MAX_UNPAGED_COMMITS, compare.MAX_UNPAGED_COMMITS);
    const c = await compare.compareCommits(ctx, request.actor, owner, repo, basehead, { offset: p.offset, limit: p.perPage });
    const record = comparisonView(urls, c);
    return asked ? pagedRecord(record, p, c.aheadBy) : record;
  });

  app.get('/repos/:owner/:repo/contributors', {
    schema: { params: RepoParams, querystring: ListContributorsQuery, response: { 200: ContributorList, 204: Type.Null() } },
    config: { operationId: 'repos/list-contributors' },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const anon = request.query.anon === '1' || request.query.anon === 'true';
    const page = await listContributors(request.server.ctx, request.actor, owner, repo, { anon, offset: p.offset, limit: p.perPage });
    // An empty repository has no contributors to list: upstream answers 204.
    if (page.items === null) return (reply as FastifyReply).code(204).send(null);
    return paged(page.items.map((c) => contributorView(urls, c)), p, page.total);
  });
}
