// page/per_page parsing and the Link header (first, prev, next, last), built from the
// URL the client used so that /api/v3 clients page through /api/v3.
//
// A paged route returns paged(…), pagedBySince(…), pagedByCursor(…) or pagedRecord(…): the conventions
// (conventions.ts, preSerialization) write the Link header and send the items, so no
// handler writes Link itself.
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface PageRequest {
  page: number;
  perPage: number;
  offset: number;
}

function positiveInt(raw: unknown): number | null {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw !== '' ? Number(raw) : NaN;
  return Number.isInteger(n) && n > 0 ? n : null;
}

/** Pages past this one are all empty alike; the bound keeps offsets within SQL's integers. */
const MAX_PAGE = 2 ** 31 - 1;

/** Out-of-range values fall back to the defaults, as upstream does. */
export function pageOf(query: unknown, defaultPerPage = 30, maxPerPage = 100): PageRequest {
  const q = (query ?? {}) as Record<string, unknown>;
  const page = Math.min(positiveInt(q.page) ?? 1, MAX_PAGE);
  const perPage = Math.min(positiveInt(q.per_page) ?? defaultPerPage, maxPerPage);
  return { page, perPage, offset: (page - 1) * perPage };
}

function linkUrl(request: FastifyRequest, params: Record<string, string>): string {
  const url = new URL(request.originalUrl, 'http://x');
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return `${request.server.ctx.config.baseUrl}${url.pathname}${url.search}`;
}

function setLinks(reply: FastifyReply, links: [string, string][]): void {
  if (links.length) reply.header('link', links.map(([rel, url]) => `<${url}>; rel="${rel}"`).join(', '));
}

/** Link for a page of a list whose total size is known. */
function setPageLinks(request: FastifyRequest, reply: FastifyReply, p: PageRequest, total: number): void {
  const last = Math.max(1, Math.ceil(total / p.perPage));
  const at = (page: number) => linkUrl(request, { page: String(page), per_page: String(p.perPage) });
  const links: [string, string][] = [];
  if (p.page > 1) links.push(['prev', at(Math.min(p.page - 1, last))]);
  if (p.page < last) links.push(['next', at(p.page + 1)], ['last', at(last)]);
  if (p.page > 1) links.push(['first', at(1)]);
  setLinks(reply, links);
}

/** Link for lists paged by id (`since`), which have no last page. */
function setSinceLink(request: FastifyRequest, reply: FastifyReply, nextSince: number | null, perPage: number): void {
  const links: [string, string][] = [];
  if (nextSince !== null) links.push(['next', linkUrl(request, { since: String(nextSince), per_page: String(perPage) })]);
  const q = request.query as Record<string, unknown>;
  if (q.since !== undefined) links.push(['first', linkUrl(request, { since: '0', per_page: String(perPage) })]);
  setLinks(reply, links);
}

/** Link for lists paged by an opaque cursor (webhook deliveries): the next page, if any. */
function setCursorLink(request: FastifyRequest, reply: FastifyReply, next: string | null, perPage: number): void {
  setLinks(reply, next === null ? [] : [['next', linkUrl(request, { per_page: String(perPage), cursor: next })]]);
}

type LinkSpec =
  | { kind: 'page'; page: PageRequest; total: number }
  | { kind: 'since'; nextSince: number | null; perPage: number }
  | { kind: 'cursor'; next: string | null; perPage: number };

/** What a paged route returns: the items of one page and what its Link header needs. */
export class PagedList<T> {
  constructor(readonly items: readonly T[], readonly link: LinkSpec) {}
}

/** What a route returns when one record holds a paged list (a combined status's statuses, a commit's files). */
export class PagedRecord<R> {
  constructor(readonly record: R, readonly link: LinkSpec) {}
}

/** A record part of which is a page of a list whose total size is known. */
export function pagedRecord<R>(record: R, page: PageRequest, total: number): PagedRecord<R> {
  return new PagedRecord(record, { kind: 'page', page, total });
}

/** A page of a list whose total size is known (page/per_page). */
export function paged<T>(items: readonly T[], page: PageRequest, total: number): PagedList<T> {
  return new PagedList(items, { kind: 'page', page, total });
}

/** A page of a list paged by id (`since`), which has no last page. */
export function pagedBySince<T>(items: readonly T[], nextSince: number | null, perPage: number): PagedList<T> {
  return new PagedList(items, { kind: 'since', nextSince, perPage });
}

/** A page of a list paged by an opaque cursor. */
export function pagedByCursor<T>(items: readonly T[], next: string | null, perPage: number): PagedList<T> {
  return new PagedList(items, { kind: 'cursor', next, perPage });
}

/** Writes the Link header of a paged route's result and gives what to serialize. */
export function sendPage(request: FastifyRequest, reply: FastifyReply, paged: PagedList<unknown> | PagedRecord<unknown>): unknown {
  const l = paged.link;
  if (l.kind === 'page') setPageLinks(request, reply, l.page, l.total);
  else if (l.kind === 'since') setSinceLink(request, reply, l.nextSince, l.perPage);
  else setCursorLink(request, reply, l.next, l.perPage);
  return paged instanceof PagedList ? paged.items : paged.record;
}
