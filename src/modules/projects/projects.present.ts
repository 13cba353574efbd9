// Projects and cards → API representations: loads creators, columns and the issues
// cards show (a fixed number of queries per list), then builds the views.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import * as issues from '../issues/issues.service.ts';
import * as repos from '../repos/repos.service.ts';
import * as users from '../users/users.service.ts';
import * as board from './board.store.ts';
import type { ProjectCard, ProjectPermission, ProjectRecord } from './projects.model.ts';
import { card, project, type CardDetail, type ProjectDetail } from './projects.views.ts';

function idsOf(ids: readonly (number | null)[]): number[] {
  return [...new Set(ids.filter((id): id is number => id !== null))];
}

export async function projectDetails(ctx: AppContext, records: readonly ProjectRecord[]): Promise<ProjectDetail[]> {
  const creators = await users.accountsByIds(ctx, idsOf(records.map((r) => r.project.creatorId)));
  return records.map((r) => ({ ...r, creator: creators.get(r.project.creatorId ?? -1) ?? null }));
}

export async function presentProjects(ctx: AppContext, records: readonly ProjectRecord[]) {
  return (await projectDetails(ctx, records)).map((d) => project(ctx.urls, d));
}

export async function presentProject(ctx: AppContext, record: ProjectRecord) {
  return (await presentProjects(ctx, [record]))[0]!;
}

/**
 * The cards with their columns, creators and content addresses. With `viewer`, a card
 * showing an issue of a repository the viewer may not read keeps its place but not its
 * content_url (the repository's name is not theirs to learn); webhook payloads go to the
 * owner's hooks and keep it.
 */
export async function cardDetails(ctx: AppContext, cards: readonly ProjectCard[], viewer?: Actor): Promise<CardDetail[]> {
  const [columns, creators, shown] = await Promise.all([
    board.columnsByIds(ctx.db, idsOf(cards.map((c) => c.columnId))),
    users.accountsByIds(ctx, idsOf(cards.map((c) => c.creatorId))),
    issues.findIssuesByIds(ctx, idsOf(cards.map((c) => c.issueId))),
  ]);
  let repositories = await repos.reposByIds(ctx, idsOf(shown.map((i) => i.repositoryId)));
  if (viewer) {
    const readable = await Promise.all(repositories.map(async (r) => (await repos.accessTo(ctx, viewer, r)).effective !== null));
    repositories = repositories.filter((_, i) => readable[i]);
  }
  const contentUrls = new Map(shown.flatMap((i) => {
    const repo = repositories.find((r) => r.id === i.repositoryId);
    return repo ? [[i.id, ctx.urls.api('repos', repo.owner.login, repo.name, 'issues', i.number)] as const] : [];
  }));
  return cards.flatMap((c) => {
    const column = columns.find((col) => col.id === c.columnId);
    return column ? [{ card: c, column, creator: creators.get(c.creatorId ?? -1) ?? null, contentUrl: contentUrls.get(c.issueId ?? -1) ?? null }] : [];
  });
}

export async function presentCards(ctx: AppContext, viewer: Actor, cards: readonly ProjectCard[]) {
  return (await cardDetails(ctx, cards, viewer)).map((d) => card(ctx.urls, d));
}

export async function presentCard(ctx: AppContext, viewer: Actor, c: ProjectCard) {
  return (await presentCards(ctx, viewer, [c]))[0]!;
}

/** A project as a team holds it: the project with the team's permissions. */
export async function presentTeamProjects(ctx: AppContext, records: readonly (ProjectRecord & { permission: ProjectPermission })[]) {
  const views = await presentProjects(ctx, records);
  return views.map((v, i) => {
    const held = records[i]!.permission;
    return { ...v, permissions: { read: true, write: held !== 'read', admin: held === 'admin' } };
  });
}
