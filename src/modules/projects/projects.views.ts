// Projects, columns and cards → API representation. Pure; every URL from ctx.urls.
import { encodeNodeId } from '../../domain/node-id.ts';
import type { Urls } from '../../urls.ts';
import type { Account } from '../users/users.model.ts';
import { simpleUser } from '../users/users.views.ts';
import type { ProjectCard, ProjectColumn, ProjectOwner, ProjectRecord } from './projects.model.ts';
import type { ProjectCardView, ProjectColumnView, ProjectView } from './projects.schemas.ts';

export interface ProjectDetail extends ProjectRecord {
  creator: Account | null;
}

export interface CardDetail {
  card: ProjectCard;
  column: ProjectColumn;
  creator: Account | null;
  /** API address of the issue or pull request shown (issues/{n} for both, as upstream). */
  contentUrl: string | null;
}

export function projectUrl(urls: Urls, id: number): string {
  return urls.api('projects', id);
}

export function columnUrl(urls: Urls, id: number): string {
  return urls.api('projects', 'columns', id);
}

export function cardUrl(urls: Urls, id: number): string {
  return urls.api('projects', 'columns', 'cards', id);
}

export function ownerUrl(urls: Urls, owner: ProjectOwner): string {
  switch (owner.type) {
    case 'Repository': return urls.api('repos', owner.repo.owner.login, owner.repo.name);
    case 'Organization': return urls.api('orgs', owner.org.account.login);
    default: return urls.api('users', owner.account.login);
  }
}

export function projectHtmlUrl(urls: Urls, r: ProjectRecord): string {
  const n = r.project.number;
  switch (r.owner.type) {
    case 'Repository': return urls.html(r.owner.repo.owner.login, r.owner.repo.name, 'projects', n);
    case 'Organization': return urls.html('orgs', r.owner.org.account.login, 'projects', n);
    default: return urls.html('users', r.owner.account.login, 'projects', n);
  }
}

export function project(urls: Urls, d: ProjectDetail): ProjectView {
  const p = d.project;
  const url = projectUrl(urls, p.id);
  return {
    owner_url: ownerUrl(urls, d.owner),
    url,
    html_url: projectHtmlUrl(urls, d),
    columns_url: `${url}/columns`,
    id: p.id,
    node_id: encodeNodeId('Project', p.id),
    name: p.name,
    body: p.body,
    number: p.number,
    state: p.state,
    creator: d.creator ? simpleUser(d.creator, urls) : null,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
    // organization_permission exists on organization projects only; repository projects follow their repository's visibility.
    ...(d.owner.type === 'Organization' ? { organization_permission: p.organizationPermission ?? 'none' } : {}),
    ...(d.owner.type === 'Repository' ? {} : { private: p.private }),
  };
}

export function column(urls: Urls, c: ProjectColumn): ProjectColumnView {
  const url = columnUrl(urls, c.id);
  return {
    url,
    project_url: projectUrl(urls, c.projectId),
    cards_url: `${url}/cards`,
    id: c.id,
    node_id: encodeNodeId('ProjectColumn', c.id),
    name: c.name,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
  };
}

export function card(urls: Urls, d: CardDetail): ProjectCardView {
  const c = d.card;
  return {
    url: cardUrl(urls, c.id),
    id: c.id,
    node_id: encodeNodeId('ProjectCard', c.id),
    note: c.note,
    creator: d.creator ? simpleUser(d.creator, urls) : null,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    archived: c.archived,
    column_name: d.column.name,
    project_id: String(c.projectId),
    column_url: columnUrl(urls, c.columnId),
    ...(d.contentUrl ? { content_url: d.contentUrl } : {}),
    project_url: projectUrl(urls, c.projectId),
  };
}
