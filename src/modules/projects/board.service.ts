// Columns and cards of a project: their order (dense positions, renumbered under a lock
// on the project so that concurrent moves keep an exact order), notes and issue or
// pull request cards, archiving, and moves between columns of one project.
import { inTransaction, type AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import { requireMaxLength, TEXT_LIMITS } from '../../domain/text-limits.ts';
import * as issues from '../issues/issues.service.ts';
import * as repos from '../repos/repos.service.ts';
import { requireProject, requireProjectFor, type ProjectAccess } from './projects.access.ts';
import * as store from './board.store.ts';
import type { ProjectCard, ProjectColumn, ProjectOwner, ProjectPermission } from './projects.model.ts';
import type { Repo } from '../repos/repos.model.ts';
import { cardEvent, columnEvent } from './projects.events.ts';
import { cardTimelineEvent } from './projects.timeline.ts';
import * as projects from './projects.store.ts';

const COLUMN = 'ProjectColumn';
const CARD = 'ProjectCard';

export type ArchivedState = store.ArchivedState;

function requireName(name: string): void {
  if (!name.trim()) throw ValidationError.field(COLUMN, 'name', 'missing_field', "Name can't be blank");
  requireMaxLength(COLUMN, 'name', name, 140);
}

/** Runs fn in a transaction holding the project's lock: moves and inserts renumber one at a time. */
function underLock<T>(ctx: AppContext, projectId: number, fn: (tx: AppContext, now: string) => Promise<T>): Promise<T> {
  return inTransaction(ctx, async (tx) => {
    await projects.lockProject(tx.db, tx.dialect, projectId);
    const now = nowIso(tx.clock);
    const result = await fn(tx, now);
    await projects.touchProject(tx.db, projectId, now);
    return result;
  });
}

// ---------------------------------------------------------------- columns

async function columnWithAccess(ctx: AppContext, actor: Actor, id: number, needed: ProjectPermission | null) {
  const column = await store.findColumn(ctx.db, id);
  if (!column) throw new NotFoundError();
  const access = needed === null ? await requireProject(ctx, actor, column.projectId) : await requireProjectFor(ctx, actor, column.projectId, needed);
  return { column, access };
}

export async function listColumns(ctx: AppContext, actor: Actor, projectId: number, slice: Slice): Promise<Page<ProjectColumn>> {
  await requireProject(ctx, actor, projectId);
  const [items, total] = await Promise.all([store.columnsOf(ctx.db, projectId, slice), store.countColumns(ctx.db, projectId)]);
  return { items, total };
}

export async function createColumn(ctx: AppContext, actor: Actor, projectId: number, name: string): Promise<ProjectColumn> {
  const { owner } = await requireProjectFor(ctx, actor, projectId, 'write');
  requireName(name);
  return underLock(ctx, projectId, async (tx, now) => {
    const created = await store.insertColumn(tx.db, projectId, name, await store.countColumns(tx.db, projectId), now);
    await columnEvent(tx, actor.user!.id, owner, created, 'created');
    return created;
  });
}

export async function getColumn(ctx: AppContext, actor: Actor, id: number): Promise<ProjectColumn> {
  return (await columnWithAccess(ctx, actor, id, null)).column;
}

export async function renameColumn(ctx: AppContext, actor: Actor, id: number, name: string): Promise<ProjectColumn> {
  const { column, access } = await columnWithAccess(ctx, actor, id, 'write');
  requireName(name);
  return underLock(ctx, column.projectId, async (tx, now) => {
    const renamed = await store.renameColumn(tx.db, id, name, now);
    await columnEvent(tx, actor.user!.id, access.owner, renamed, 'edited', name === column.name ? undefined : { name: { from: column.name } });
    return renamed;
  });
}

export async function deleteColumn(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  const { column, access } = await columnWithAccess(ctx, actor, id, 'write');
  await underLock(ctx, column.projectId, async (tx) => {
    await columnEvent(tx, actor.user!.id, access.owner, column, 'deleted');
    for (const card of await store.cardsOf(tx.db, id, 'all')) await cardTimelineEvent(tx, actor.user!.id, card, column.name, 'removed_from_project');
    await store.deleteColumn(tx.db, id);
    await store.setColumnOrder(tx.db, (await store.columnsOf(tx.db, column.projectId)).map((c) => c.id));
  });
}

/** Where `after:<id>` points: the index just after that item, or a 422 when it is not among `ids`. */
function afterIndex(resource: string, ids: readonly number[], position: string): number {
  const target = Number(position.slice('after:'.length));
  const at = ids.indexOf(target);
  if (at < 0) throw ValidationError.field(resource, 'position', 'invalid', `${position} does not name a ${resource === COLUMN ? 'column of this project' : 'card of this column'}.`);
  return at + 1;
}

/** position: first, last or after:<column_id> of the same project. */
export async function moveColumn(ctx: AppContext, actor: Actor, id: number, position: string): Promise<void> {
  const { column, access } = await columnWithAccess(ctx, actor, id, 'write');
  await underLock(ctx, column.projectId, async (tx) => {
    const others = (await store.columnsOf(tx.db, column.projectId)).map((c) => c.id).filter((c) => c !== id);
    const at = position === 'first' ? 0 : position === 'last' ? others.length : afterIndex(COLUMN, others, position);
    await store.setColumnOrder(tx.db, [...others.slice(0, at), id, ...others.slice(at)]);
    await columnEvent(tx, actor.user!.id, access.owner, column, 'moved');
  });
}

// ---------------------------------------------------------------- cards

async function cardWithAccess(ctx: AppContext, actor: Actor, id: number, needed: ProjectPermission | null) {
  const card = await store.findCard(ctx.db, id);
  if (!card) throw new NotFoundError();
  const access = needed === null ? await requireProject(ctx, actor, card.projectId) : await requireProjectFor(ctx, actor, card.projectId, needed);
  return { card, access };
}

export async function listCards(ctx: AppContext, actor: Actor, columnId: number, archived: ArchivedState, slice: Slice): Promise<Page<ProjectCard>> {
  await columnWithAccess(ctx, actor, columnId, null);
  const [items, total] = await Promise.all([store.cardsOf(ctx.db, columnId, archived, slice), store.countCards(ctx.db, columnId, archived)]);
  return { items, total };
}

export interface NewCardInput {
  note?: string | null;
  content_id?: number;
  content_type?: string;
}

/** Whether a board may show the issues of `repo`: a repository board its own, an organization's or user's board those of their repositories. */
export function mayHold(owner: ProjectOwner, repo: Repo): boolean {
  if (owner.type === 'Repository') return owner.repo.id === repo.id;
  return repo.ownerId === (owner.type === 'Organization' ? owner.org.account.id : owner.account.id);
}

/** The issue or pull request a card may show: of the project's repository, or of a repository of its owner. */
async function requireContent(ctx: AppContext, actor: Actor, a: ProjectAccess, input: NewCardInput): Promise<number> {
  const type = input.content_type;
  if (input.content_id === undefined) throw ValidationError.field(CARD, 'content_id', 'missing_field');
  if (type !== 'Issue' && type !== 'PullRequest') throw ValidationError.field(CARD, 'content_type', 'invalid', 'content_type must be Issue or PullRequest.');
  const [issue] = await issues.findIssuesByIds(ctx, [input.content_id]);
  if (!issue || issue.isPullRequest !== (type === 'PullRequest')) throw ValidationError.field(CARD, 'content_id', 'invalid', `No ${type} with id ${input.content_id}.`);
  const [repo] = await repos.reposByIds(ctx, [issue.repositoryId]);
  const seen = repo ? (await repos.accessTo(ctx, actor, repo)).effective : null;
  if (!repo || seen === null) throw ValidationError.field(CARD, 'content_id', 'invalid', `No ${type} with id ${input.content_id}.`);
  if (!mayHold(a.owner, repo)) {
    throw ValidationError.field(CARD, 'content_id', 'invalid', a.owner.type === 'Repository'
      ? "A repository project holds only its own repository's issues and pull requests."
      : "A project holds only the issues and pull requests of its owner's repositories.");
  }
  return issue.id;
}

function alreadyOnProject(): ValidationError {
  return new ValidationError([{ resource: CARD, field: 'content_id', code: 'unprocessable', message: 'Project already has the associated issue' }]);
}

/** A new card goes on top of the column, as upstream's. */
export async function createCard(ctx: AppContext, actor: Actor, columnId: number, input: NewCardInput): Promise<ProjectCard> {
  const { column, access } = await columnWithAccess(ctx, actor, columnId, 'write');
  const isNote = input.note !== undefined;
  if (isNote && (input.content_id !== undefined || input.content_type !== undefined)) {
    throw ValidationError.field(CARD, 'note', 'invalid', 'A card holds a note or an issue, not both.');
  }
  if (isNote) requireMaxLength(CARD, 'note', input.note, TEXT_LIMITS.body);
  const issueId = isNote ? null : await requireContent(ctx, actor, access, input);
  const user = actor.user!;
  try {
    return await underLock(ctx, column.projectId, async (tx, now) => {
      const cards = (await store.cardsOf(tx.db, columnId, 'all')).map((c) => c.id);
      const card = await store.insertCard(tx.db, { projectId: column.projectId, columnId, position: 0, note: isNote ? input.note ?? null : null, issueId, creatorId: user.id, now });
      await store.setCardOrder(tx.db, columnId, [card.id, ...cards], null);
      const placed = { ...card, position: 0 };
      await cardEvent(tx, user.id, access.owner, placed, 'created');
      await cardTimelineEvent(tx, user.id, placed, column.name, 'added_to_project');
      return placed;
    });
  } catch (err) {
    throw projects.isDuplicate(err) ? alreadyOnProject() : err;
  }
}

export async function getCard(ctx: AppContext, actor: Actor, id: number): Promise<ProjectCard> {
  return (await cardWithAccess(ctx, actor, id, null)).card;
}

export async function updateCard(ctx: AppContext, actor: Actor, id: number, c: { note?: string | null; archived?: boolean }): Promise<ProjectCard> {
  const { card, access } = await cardWithAccess(ctx, actor, id, 'write');
  if (c.note !== undefined && card.issueId !== null) throw ValidationError.field(CARD, 'note', 'invalid', 'A card showing an issue has no note.');
  requireMaxLength(CARD, 'note', c.note, TEXT_LIMITS.body);
  return underLock(ctx, card.projectId, async (tx, now) => {
    const updated = await store.updateCard(tx.db, id, c, now);
    const noteChanged = c.note !== undefined && c.note !== card.note;
    await cardEvent(tx, actor.user!.id, access.owner, updated, 'edited', noteChanged ? { note: { from: card.note ?? '' } } : undefined);
    return updated;
  });
}

export async function deleteCard(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  const { card, access } = await cardWithAccess(ctx, actor, id, 'write');
  await underLock(ctx, card.projectId, async (tx) => {
    await cardEvent(tx, actor.user!.id, access.owner, card, 'deleted');
    const column = await store.findColumn(tx.db, card.columnId);
    await cardTimelineEvent(tx, actor.user!.id, card, column?.name ?? '', 'removed_from_project');
    await store.deleteCard(tx.db, id);
    await store.setCardOrder(tx.db, card.columnId, (await store.cardsOf(tx.db, card.columnId, 'all')).map((c) => c.id), null);
  });
}

/** position: top, bottom or after:<card_id> in the target column (column_id, of the same project; default the card's own). */
export async function moveCard(ctx: AppContext, actor: Actor, id: number, position: string, columnId?: number): Promise<void> {
  const { card, access } = await cardWithAccess(ctx, actor, id, 'write');
  const target = columnId ?? card.columnId;
  if (target !== card.columnId) {
    const column = await store.findColumn(ctx.db, target);
    if (!column || column.projectId !== card.projectId) throw ValidationError.field(CARD, 'column_id', 'invalid', 'column_id must name a column of the same project.');
  }
  await underLock(ctx, card.projectId, async (tx, now) => {
    // Read again under the lock: a concurrent move may have taken the card elsewhere meanwhile.
    const from = (await store.findCard(tx.db, id))?.columnId ?? card.columnId;
    const others = (await store.cardsOf(tx.db, target, 'all')).map((c) => c.id).filter((c) => c !== id);
    const at = position === 'top' ? 0 : position === 'bottom' ? others.length : afterIndex(CARD, others, position);
    await store.setCardOrder(tx.db, target, [...others.slice(0, at), id, ...others.slice(at)], { id, now });
    // The column it left closes the gap, so positions stay dense in every column.
    if (from !== target) await store.setCardOrder(tx.db, from, (await store.cardsOf(tx.db, from, 'all')).map((c) => c.id), null);
    const moved = await store.findCard(tx.db, id);
    await cardEvent(tx, actor.user!.id, access.owner, moved!, 'moved', from === target ? undefined : { column_id: { from } });
    if (from !== target) {
      const [was, is] = await store.columnsByIds(tx.db, [from, target]).then((cols) => [from, target].map((c) => cols.find((x) => x.id === c)?.name ?? ''));
      await cardTimelineEvent(tx, actor.user!.id, moved!, is!, 'moved_columns_in_project', was);
    }
  });
}
