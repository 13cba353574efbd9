// Assembles the views of repositories from what the service loaded, for REST.
import type { FastifyRequest } from 'fastify';
import type { Repo } from './repos.model.ts';
import { licenseSimple } from '../templates/templates.views.ts';
import { simpleUser } from '../users/users.views.ts';
import { presentable, type Presentable, type RepoDetail } from './repos.service.ts';
import { fullRepository, repository, type RepositoryView, type RepoViewContext } from './repos.views.ts';

function viewContext(request: FastifyRequest, p: Presentable): RepoViewContext {
  const { urls } = request.server.ctx;
  return {
    urls, counts: p.counts, role: p.role, previews: request.media.previews,
    license: p.repo.licenseKey ? licenseSimple(p.repo.licenseKey, urls) : null,
  };
}

export function presentRepo(request: FastifyRequest, p: Presentable) {
  return repository(p.repo, viewContext(request, p));
}

export function presentRepos(request: FastifyRequest, items: Presentable[]) {
  return items.map((p) => presentRepo(request, p));
}

/**
 * The repository records of the repositories a page of other records names (notification
 * threads, code and commit search hits), by id: each repository once, all loaded in one go
 * (counts, the caller's roles, open issues), whatever the page's size.
 */
export async function presentReposById(request: FastifyRequest, list: readonly Repo[]): Promise<Map<number, RepositoryView>> {
  const unique = [...new Map(list.map((r) => [r.id, r])).values()];
  const loaded = unique.length ? await presentable(request.server.ctx, request.actor, unique) : [];
  return new Map(loaded.map((p) => [p.repo.id, presentRepo(request, p)]));
}

export function presentDetail(request: FastifyRequest, d: RepoDetail) {
  const { urls } = request.server.ctx;
  const related = (p: Presentable | null) => (p ? presentRepo(request, p) : null);
  return fullRepository(d.repo, {
    ...viewContext(request, d),
    organization: d.repo.owner.type === 'Organization' ? simpleUser(d.repo.owner, urls) : null,
    parent: related(d.parent),
    source: related(d.source),
    template: related(d.template),
    networkCount: d.networkCount,
    advancedSecurity: d.advancedSecurity,
  });
}

/** The detailed record right after a create or update (no forks or templates to show yet). */
export function presentFull(request: FastifyRequest, p: Presentable) {
  return presentDetail(request, { ...p, parent: null, source: null, template: null, networkCount: p.counts.forks });
}
