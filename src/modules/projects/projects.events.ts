// The project, project_column and project_card webhook events, recorded in the
// transaction of the change: to the repository's hooks for a repository project, to the
// organization's for an organization project (a user's board has no hooks to reach).
// Payloads in the published shape: the REST views, plus column_id and after_id (the
// item before it in its column or board, null when first) on cards and columns.
import type { AppContext } from '../../context.ts';
import { recordEvent } from '../../events/outbox.ts';
import * as board from './board.store.ts';
import type { ProjectCard, ProjectColumn, ProjectOwner, ProjectRecord } from './projects.model.ts';
import { cardDetails, projectDetails } from './projects.present.ts';
import { card, column, project } from './projects.views.ts';

type Changes = Record<string, { from: unknown }>;

function target(owner: ProjectOwner): { repositoryId: number | null; organizationId: number | null } | null {
  if (owner.type === 'Repository') {
    const repo = owner.repo;
    return { repositoryId: repo.id, organizationId: repo.owner.type === 'Organization' ? repo.ownerId : null };
  }
  if (owner.type === 'Organization') return { repositoryId: null, organizationId: owner.org.account.id };
  return null;
}

function withChanges(changes: Changes | undefined): { changes?: Changes } {
  return changes && Object.keys(changes).length ? { changes } : {};
}

export async function projectEvent(tx: AppContext, actorId: number, r: ProjectRecord, action: string, changes?: Changes): Promise<void> {
  const to = target(r.owner);
  if (!to) return;
  const [detail] = await projectDetails(tx, [r]);
  await recordEvent(tx, { event: 'project', action, ...to, actorId, payload: { project: project(tx.urls, detail!), ...withChanges(changes) } });
}

/** The id of the item just before `id` in `ordered`, or null. */
function afterId(ordered: readonly { id: number }[], id: number): number | null {
  const at = ordered.findIndex((x) => x.id === id);
  return at > 0 ? ordered[at - 1]!.id : null;
}

export async function columnEvent(
  tx: AppContext, actorId: number, owner: ProjectOwner, c: ProjectColumn, action: string, changes?: Changes,
): Promise<void> {
  const to = target(owner);
  if (!to) return;
  const after = action === 'deleted' ? null : afterId(await board.columnsOf(tx.db, c.projectId), c.id);
  await recordEvent(tx, {
    event: 'project_column', action, ...to, actorId,
    payload: { project_column: { ...column(tx.urls, c), after_id: after }, ...withChanges(changes) },
  });
}

export async function cardEvent(
  tx: AppContext, actorId: number, owner: ProjectOwner, c: ProjectCard, action: string, changes?: Changes,
): Promise<void> {
  const to = target(owner);
  if (!to) return;
  const [detail] = await cardDetails(tx, [c]);
  if (!detail) return;
  const after = action === 'deleted' ? null : afterId(await board.cardsOf(tx.db, c.columnId, 'all'), c.id);
  const view = card(tx.urls, detail);
  await recordEvent(tx, {
    event: 'project_card', action, ...to, actorId,
    payload: { project_card: { ...view, column_id: c.columnId, after_id: after }, ...withChanges(changes) },
  });
}
