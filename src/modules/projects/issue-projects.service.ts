// projectIds of GraphQL's createIssue, updateIssue and updatePullRequest: each id must
// name a board the caller may write to, with a column, that may hold the repository's
// issues (checked before anything changes); the issue then gets a card on top of the
// board's first column (Wharf has no pending cards), and on update loses its cards on
// the boards no longer listed.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { decodeNodeId } from '../../domain/node-id.ts';
import type { IssueRecord } from '../issues/issues.model.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as board from './board.service.ts';
import * as boardStore from './board.store.ts';
import { requireProject } from './projects.access.ts';
import { permissionAtLeast } from './projects.model.ts';

function unresolvable(globalId: string): NotFoundError {
  return new NotFoundError(`Could not resolve to a node with the global id of '${globalId}'.`);
}

/** The boards the ids name, as board ids; NOT_FOUND for an id naming no board the caller may write to. */
export async function resolveProjectIds(ctx: AppContext, actor: Actor, globalIds: readonly string[] | null | undefined, repo: Repo): Promise<number[]> {
  const out: number[] = [];
  for (const globalId of globalIds ?? []) {
    const decoded = decodeNodeId(globalId);
    const id = decoded?.type === 'Project' && /^\d+$/.test(decoded.id) ? Number(decoded.id) : null;
    if (id === null || !Number.isSafeInteger(id)) throw unresolvable(globalId);
    let access;
    try {
      access = await requireProject(ctx, actor, id);
    } catch (err) {
      if (err instanceof NotFoundError) throw unresolvable(globalId);
      throw err;
    }
    if (!permissionAtLeast(access.permission, 'write')) throw unresolvable(globalId);
    if (!board.mayHold(access.owner, repo)) {
      throw ValidationError.field('Project', 'projectIds', 'invalid', `${access.project.name} may not hold issues of ${repo.owner.login}/${repo.name}.`);
    }
    if (!(await boardStore.columnsOf(ctx.db, id)).length) {
      throw ValidationError.field('Project', 'projectIds', 'invalid', `${access.project.name} has no column to put the card in.`);
    }
    if (!out.includes(id)) out.push(id);
  }
  return out;
}

/**
 * Gives the issue a card on each board of `projectIds` it is not on yet (top of the first
 * column); with `replace`, removes its cards from the boards not listed that the caller may write to.
 */
export async function setIssueProjects(ctx: AppContext, actor: Actor, issue: IssueRecord, projectIds: readonly number[], replace: boolean): Promise<void> {
  const cards = await boardStore.cardsOfIssues(ctx.db, [issue.id]);
  for (const projectId of projectIds) {
    if (cards.some((c) => c.projectId === projectId)) continue;
    const [first] = await boardStore.columnsOf(ctx.db, projectId);
    if (first) await board.createCard(ctx, actor, first.id, { content_id: issue.id, content_type: issue.isPullRequest ? 'PullRequest' : 'Issue' });
  }
  if (!replace) return;
  for (const card of cards.filter((c) => !projectIds.includes(c.projectId))) {
    // A board the caller cannot see or write to keeps its card: the list names only what they may change.
    const access = await requireProject(ctx, actor, card.projectId).catch((err: unknown) => {
      if (err instanceof NotFoundError) return null;
      throw err;
    });
    if (access && permissionAtLeast(access.permission, 'write')) await board.deleteCard(ctx, actor, card.id);
  }
}
