// GET /search/commits and /search/code: searches over the search index (commits of
// each default branch, and its text files). Commit search spends the `search` budget,
// code search its own `code_search` one, as upstream.
import type { Router } from '../../http/router.ts';
import { pageOf, pagedRecord } from '../../http/pagination.ts';
import { presentReposById } from '../repos/repos.present.ts';
import { accountsOfAddresses } from '../git-data/commits.service.ts';
import * as indexSearch from './index-search.service.ts';
import { searchesText } from './index-search.lines.ts';
import { commitKey, verificationsOf } from './index-search.verification.ts';
import { codeItem, commitItem } from './index-search.views.ts';
import { parseQuery } from './search-query.ts';
import { CodeResults, CodeSearchQuery, CommitResults, CommitSearchQuery } from './search.schemas.ts';
import * as search from './search.service.ts';
import { available } from './search.routes.ts';
import { wantsTextMatches } from './search.views.ts';

export function indexSearchRoutes(app: Router): void {
  app.get('/search/commits', {
    schema: { querystring: CommitSearchQuery, response: { 200: CommitResults } },
    config: { operationId: 'search/commits', resource: 'Search', rateLimit: 'search' },
  }, async (request) => {
    const { ctx } = request.server;
    const q = parseQuery(request.query.q);
    const page = pageOf(request.query);
    const hits = await available(indexSearch.searchCommits(ctx, request.actor, q, request.query.sort, request.query.order, search.cappedSlice(page)));
    const [find, records, verifications] = await Promise.all([
      accountsOfAddresses(ctx, hits.items.flatMap((c) => [c.authorEmail, c.committerEmail])),
      presentReposById(request, [...hits.repos.values()]),
      verificationsOf(ctx, hits.items, hits.repos),
    ]);
    const keywords = wantsTextMatches(request.media) ? q.keywords : null;
    const items = hits.items.map((c) => commitItem(
      ctx.urls, hits.repos.get(c.repositoryId)!, records.get(c.repositoryId)!, c, { author: find(c.authorEmail), committer: find(c.committerEmail) }, keywords,
      verifications.get(commitKey(c.repositoryId, c.sha)) ?? null,
    ));
    return pagedRecord({ total_count: hits.total, incomplete_results: false, items }, page, Math.min(hits.total, search.MAX_RESULTS));
  });

  app.get('/search/code', {
    schema: { querystring: CodeSearchQuery, response: { 200: CodeResults } },
    config: { operationId: 'search/code', resource: 'Search', rateLimit: 'code_search' },
  }, async (request) => {
    const { ctx } = request.server;
    const q = parseQuery(request.query.q);
    const page = pageOf(request.query);
    const hits = await available(indexSearch.searchCode(ctx, request.actor, q, request.query.sort, request.query.order, search.cappedSlice(page)));
    const keywords = wantsTextMatches(request.media) ? q.keywords : null;
    // line_numbers name the lines holding the keywords where file text was searched; the
    // page's texts are read in one query for them (and the text matches).
    const lineWords = searchesText(q) ? q.keywords : [];
    const [texts, records] = await Promise.all([
      keywords || lineWords.length ? indexSearch.textsOf(ctx, hits.items.map((f) => f.id)) : new Map<number, string>(),
      presentReposById(request, [...hits.repos.values()]),
    ]);
    const items = hits.items.map((f) => codeItem(
      ctx.urls, hits.repos.get(f.repositoryId)!, records.get(f.repositoryId)!, hits.indexedCommits.get(f.repositoryId) ?? '', f, texts.get(f.id) ?? null, keywords,
      lineWords,
    ));
    return pagedRecord({ total_count: hits.total, incomplete_results: hits.incomplete, items }, page, Math.min(hits.total, search.MAX_RESULTS));
  });
}
