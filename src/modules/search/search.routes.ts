// GET /search/issues, /search/repositories, /search/users, /search/labels, /search/topics:
// one search service; the items are what the list endpoints present, plus score (and
// text_matches with the text-match media type). Each counts against the `search` budget.
import { isSiteAdmin } from '../../domain/actor.ts';
import { HttpError } from '../../http/errors.ts';
import type { Router } from '../../http/router.ts';
import { pageOf, pagedRecord, type PageRequest } from '../../http/pagination.ts';
import { presentIssues, presentLabel } from '../issues/issues.present.ts';
import { presentRepos } from '../repos/repos.present.ts';
import * as users from '../users/users.service.ts';
import { parseQuery } from './search-query.ts';
import {
  IssueResults, IssueSearchQuery, LabelResults, LabelSearchQuery, RepoResults, RepoSearchQuery, TopicResults, TopicSearchQuery,
  UserResults, UserSearchQuery,
} from './search.schemas.ts';
import { SearchTimedOut } from './search-budget.ts';
import * as search from './search.service.ts';
import { issueFields, labelFields, relevance, repoFields } from './search-score.ts';
import { resultItem, textMatch, userItem, wantsTextMatches } from './search.views.ts';

const CONFIG = { resource: 'Search', rateLimit: 'search' } as const;

/** The page asked for, within the first 1,000 results (past them: 422). */
function pageWithin(query: unknown): { page: PageRequest; slice: { offset: number; perPage: number } } {
  const page = pageOf(query);
  return { page, slice: search.cappedSlice(page) };
}

/** A search that found nothing within its time budget answers 503, as the spec's Errors. */
export function available<T>(searching: Promise<T>): Promise<T> {
  return searching.catch((err: unknown) => {
    throw err instanceof SearchTimedOut ? new HttpError(503, 'Service unavailable') : err;
  });
}

/** The body and Link of a search answer: Link pages only through the first 1,000 results. */
function answer<T>(page: PageRequest, total: number, items: T[]) {
  return pagedRecord({ total_count: total, incomplete_results: false, items }, page, Math.min(total, search.MAX_RESULTS));
}

export function searchRoutes(app: Router): void {
  app.get('/search/issues', {
    schema: { querystring: IssueSearchQuery, response: { 200: IssueResults } },
    config: { operationId: 'search/issues-and-pull-requests', ...CONFIG },
  }, async (request) => {
    const { ctx } = request.server;
    const q = parseQuery(request.query.q);
    const { page, slice } = pageWithin(request.query);
    const hits = await available(search.searchIssues(ctx, request.actor, q, request.query.sort, request.query.order, slice));
    const views = await presentIssues(ctx, request.actor, hits.items, { ...request.media, repos: [...hits.repos.values()] });
    const keywords = wantsTextMatches(request.media) ? q.keywords : null;
    const records = new Map(hits.items.map((i) => [i.id, i]));
    const items = views.map((v) => {
      const r = records.get(v.id);
      return resultItem(v, 'Issue', { title: r?.title, body: r?.body }, keywords, r ? relevance(issueFields(r), q.keywords) : 1);
    });
    return pagedRecord({ total_count: hits.total, incomplete_results: false, items, search_type: 'lexical' as const }, page, Math.min(hits.total, search.MAX_RESULTS));
  });

  app.get('/search/repositories', {
    schema: { querystring: RepoSearchQuery, response: { 200: RepoResults } },
    config: { operationId: 'search/repos', ...CONFIG },
  }, async (request) => {
    const q = parseQuery(request.query.q);
    const { page, slice } = pageWithin(request.query);
    const hits = await available(search.searchRepositories(request.server.ctx, request.actor, q, request.query.sort, request.query.order, slice));
    const keywords = wantsTextMatches(request.media) ? q.keywords : null;
    return answer(page, hits.total, presentRepos(request, hits.items).map((v) =>
      resultItem(v, 'Repository', { name: v.name, description: v.description }, keywords, relevance(repoFields(v), q.keywords))));
  });

  app.get('/search/users', {
    schema: { querystring: UserSearchQuery, response: { 200: UserResults } },
    config: { operationId: 'search/users', ...CONFIG },
  }, async (request) => {
    const { urls } = request.server.ctx;
    const q = parseQuery(request.query.q);
    const { page, slice } = pageWithin(request.query);
    const hits = await available(search.searchUsers(request.server.ctx, q, request.query.sort, request.query.order, slice));
    const keywords = wantsTextMatches(request.media) ? q.keywords : null;
    // The page's counts in one query, whatever its size.
    const counts = await users.accountCountsOf(request.server.ctx, hits.items);
    const admin = isSiteAdmin(request.actor);
    return answer(page, hits.total, hits.items.map((a) =>
      resultItem(userItem(a, counts.get(a.id)!, urls, admin), 'User', { login: a.login, name: a.name, ...(a.emailPrivate ? {} : { email: a.email }) }, keywords,
        relevance(search.publicUserFields(a), q.keywords))));
  });

  app.get('/search/labels', {
    schema: { querystring: LabelSearchQuery, response: { 200: LabelResults } },
    config: { operationId: 'search/labels', ...CONFIG },
  }, async (request) => {
    const { ctx } = request.server;
    const q = parseQuery(request.query.q);
    const { page, slice } = pageWithin(request.query);
    const hits = await available(search.searchLabels(ctx, request.actor, request.query.repository_id, q, request.query.sort, request.query.order, slice));
    const keywords = wantsTextMatches(request.media) ? q.keywords : null;
    return answer(page, hits.total, hits.items.map((label) =>
      resultItem(presentLabel(ctx, { repo: hits.repo, label }), 'Label', { name: label.name, description: label.description }, keywords,
        relevance(labelFields(label), q.keywords))));
  });

  app.get('/search/topics', {
    schema: { querystring: TopicSearchQuery, response: { 200: TopicResults } },
    config: { operationId: 'search/topics', ...CONFIG },
  }, async (request) => {
    const q = parseQuery(request.query.q);
    const { page, slice } = pageWithin(request.query);
    const hits = await available(search.searchTopics(request.server.ctx, request.actor, q, slice));
    const keywords = wantsTextMatches(request.media) ? q.keywords : null;
    return answer(page, hits.total, hits.items.map((t) => {
      // Wharf keeps no curated topic records: a topic is its name and the repositories carrying
      // it, with no logo, aliases or related topics of its own.
      const item = {
        name: t.name, display_name: null, short_description: null, description: null, created_by: null, released: null,
        created_at: t.createdAt, updated_at: t.updatedAt, featured: false, curated: false, repository_count: t.repositoryCount,
        logo_url: null, related: null, aliases: null, score: relevance([[t.name, 1]], q.keywords),
      };
      if (!keywords) return item;
      const m = textMatch(request.server.ctx.urls.api('search', 'topics') + `?q=${encodeURIComponent(t.name)}`, 'Topic', 'name', t.name, keywords);
      return { ...item, text_matches: m ? [m] : [] };
    }));
  });
}
