// projects_*.json: classic projects (a repository's, and the owner's own, an
// organization's or a user's, unless exclude_owner_projects) as the REST API
// represents them, each with its `columns` in board order and each column with its
// `cards` (archived ones too) in order, plus upstream's archive fields `type` and
// `repository` (the owning repository's API address, null for an organization's or a
// user's project). A card showing an issue names it by content_url.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { everyPage } from '../../domain/page.ts';
import * as board from '../projects/board.service.ts';
import type { ProjectRecord } from '../projects/projects.model.ts';
import { presentCards, presentProjects } from '../projects/projects.present.ts';
import * as projects from '../projects/projects.service.ts';
import { column } from '../projects/projects.views.ts';
import type { Repo } from '../repos/repos.model.ts';

type Json = Record<string, unknown>;

/** A listing that answers 404 when the owner has projects switched off: none to export. */
async function orNone(read: () => Promise<ProjectRecord[]>): Promise<ProjectRecord[]> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof NotFoundError) return [];
    throw err;
  }
}

export async function repositoryProjectRecords(ctx: AppContext, actor: Actor, repo: Repo): Promise<Json[]> {
  const found = await orNone(() => everyPage((s) => projects.listForRepo(ctx, actor, repo.owner.login, repo.name, 'all', s)));
  return withBoards(ctx, actor, found, ctx.urls.api('repos', repo.owner.login, repo.name));
}

export async function organizationProjectRecords(ctx: AppContext, actor: Actor, login: string): Promise<Json[]> {
  const found = await orNone(() => everyPage((s) => projects.listForOrg(ctx, actor, login, 'all', s)));
  return withBoards(ctx, actor, found, null);
}

/** A user's own projects, private ones too: a user migration is made by that user. */
export async function userProjectRecords(ctx: AppContext, actor: Actor, login: string): Promise<Json[]> {
  const found = await everyPage((s) => projects.listForUser(ctx, actor, login, 'all', s));
  return withBoards(ctx, actor, found, null);
}

async function withBoards(ctx: AppContext, actor: Actor, found: ProjectRecord[], repository: string | null): Promise<Json[]> {
  const views = await presentProjects(ctx, found);
  const out: Json[] = [];
  for (const [i, r] of found.entries()) {
    const columns: Json[] = [];
    for (const c of await everyPage((s) => board.listColumns(ctx, actor, r.project.id, s))) {
      const cards = await everyPage((s) => board.listCards(ctx, actor, c.id, 'all', s));
      columns.push({ ...column(ctx.urls, c), cards: await presentCards(ctx, actor, cards) });
    }
    out.push({ ...views[i], type: 'project', repository, columns });
  }
  return out;
}
