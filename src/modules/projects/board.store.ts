// SQL for the columns and cards of projects. Only the projects module calls this.
import type { Executor } from '../../db/database.ts';
import type { ProjectCardsTable, ProjectColumnsTable } from '../../db/schema.ts';
import type { Slice } from '../../domain/page.ts';
import type { ProjectCard, ProjectColumn } from './projects.model.ts';

const COLUMN_COLUMNS = ['id', 'project_id', 'name', 'position', 'created_at', 'updated_at'] as const;
const CARD_COLUMNS = ['id', 'project_id', 'column_id', 'position', 'note', 'issue_id', 'archived', 'creator_id', 'created_at', 'updated_at'] as const;

type ColumnRow = Pick<ProjectColumnsTable, Exclude<(typeof COLUMN_COLUMNS)[number], 'id'>> & { id: number };
type CardRow = Pick<ProjectCardsTable, Exclude<(typeof CARD_COLUMNS)[number], 'id'>> & { id: number };

function toColumn(r: ColumnRow): ProjectColumn {
  return { id: r.id, projectId: r.project_id, name: r.name, position: Number(r.position), createdAt: r.created_at, updatedAt: r.updated_at };
}

function toCard(r: CardRow): ProjectCard {
  return {
    id: r.id, projectId: r.project_id, columnId: r.column_id, position: Number(r.position), note: r.note, issueId: r.issue_id,
    archived: Number(r.archived) === 1, creatorId: r.creator_id, createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

// ---------------------------------------------------------------- columns

export async function findColumn(db: Executor, id: number): Promise<ProjectColumn | null> {
  const row = await db.selectFrom('project_columns').select(COLUMN_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toColumn(row) : null;
}

export async function columnsByIds(db: Executor, ids: readonly number[]): Promise<ProjectColumn[]> {
  if (!ids.length) return [];
  return (await db.selectFrom('project_columns').select(COLUMN_COLUMNS).where('id', 'in', [...ids]).execute()).map(toColumn);
}

/** The project's columns, left to right. */
export async function columnsOf(db: Executor, projectId: number, slice?: Slice): Promise<ProjectColumn[]> {
  let q = db.selectFrom('project_columns').select(COLUMN_COLUMNS).where('project_id', '=', projectId).orderBy('position').orderBy('id');
  if (slice) q = q.limit(slice.perPage).offset(slice.offset);
  return (await q.execute()).map(toColumn);
}

export async function countColumns(db: Executor, projectId: number): Promise<number> {
  const { n } = await db.selectFrom('project_columns').select((eb) => eb.fn.countAll<number>().as('n')).where('project_id', '=', projectId).executeTakeFirstOrThrow();
  return Number(n);
}

export async function insertColumn(db: Executor, projectId: number, name: string, position: number, now: string): Promise<ProjectColumn> {
  const row = await db.insertInto('project_columns')
    .values({ project_id: projectId, name, position, created_at: now, updated_at: now })
    .returning(COLUMN_COLUMNS).executeTakeFirstOrThrow();
  return toColumn(row);
}

export async function renameColumn(db: Executor, id: number, name: string, now: string): Promise<ProjectColumn> {
  return toColumn(await db.updateTable('project_columns').set({ name, updated_at: now }).where('id', '=', id).returning(COLUMN_COLUMNS).executeTakeFirstOrThrow());
}

export async function deleteColumn(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('project_columns').where('id', '=', id).execute();
}

/** Writes positions 0…n-1 in the order of `ids`. */
export async function setColumnOrder(db: Executor, ids: readonly number[]): Promise<void> {
  for (const [position, id] of ids.entries()) {
    await db.updateTable('project_columns').set({ position }).where('id', '=', id).execute();
  }
}

// ---------------------------------------------------------------- cards

export async function findCard(db: Executor, id: number): Promise<ProjectCard | null> {
  const row = await db.selectFrom('project_cards').select(CARD_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toCard(row) : null;
}

export type ArchivedState = 'all' | 'archived' | 'not_archived';

/** The column's cards, top to bottom. */
export async function cardsOf(db: Executor, columnId: number, archived: ArchivedState, slice?: Slice): Promise<ProjectCard[]> {
  let q = db.selectFrom('project_cards').select(CARD_COLUMNS).where('column_id', '=', columnId);
  if (archived !== 'all') q = q.where('archived', '=', archived === 'archived' ? 1 : 0);
  q = q.orderBy('position').orderBy('id');
  if (slice) q = q.limit(slice.perPage).offset(slice.offset);
  return (await q.execute()).map(toCard);
}

export async function countCards(db: Executor, columnId: number, archived: ArchivedState): Promise<number> {
  let q = db.selectFrom('project_cards').select((eb) => eb.fn.countAll<number>().as('n')).where('column_id', '=', columnId);
  if (archived !== 'all') q = q.where('archived', '=', archived === 'archived' ? 1 : 0);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** The project's cards that show an issue or pull request (whose timelines hear of their removal). */
export async function issueCardsOfProject(db: Executor, projectId: number): Promise<ProjectCard[]> {
  return (await db.selectFrom('project_cards').select(CARD_COLUMNS).where('project_id', '=', projectId).where('issue_id', 'is not', null).orderBy('id').execute()).map(toCard);
}

/** Every card showing one of the issues, oldest first. */
export async function cardsOfIssues(db: Executor, issueIds: readonly number[]): Promise<ProjectCard[]> {
  if (!issueIds.length) return [];
  return (await db.selectFrom('project_cards').select(CARD_COLUMNS).where('issue_id', 'in', [...issueIds]).orderBy('id').execute()).map(toCard);
}

export interface NewCard {
  projectId: number;
  columnId: number;
  position: number;
  note: string | null;
  issueId: number | null;
  creatorId: number;
  now: string;
}

export async function insertCard(db: Executor, c: NewCard): Promise<ProjectCard> {
  const row = await db.insertInto('project_cards').values({
    project_id: c.projectId, column_id: c.columnId, position: c.position, note: c.note, issue_id: c.issueId, archived: 0,
    creator_id: c.creatorId, created_at: c.now, updated_at: c.now,
  }).returning(CARD_COLUMNS).executeTakeFirstOrThrow();
  return toCard(row);
}

export async function updateCard(db: Executor, id: number, c: { note?: string | null; archived?: boolean }, now: string): Promise<ProjectCard> {
  const row = await db.updateTable('project_cards').set({
    ...(c.note !== undefined ? { note: c.note } : {}),
    ...(c.archived !== undefined ? { archived: c.archived ? 1 : 0 } : {}),
    updated_at: now,
  }).where('id', '=', id).returning(CARD_COLUMNS).executeTakeFirstOrThrow();
  return toCard(row);
}

export async function deleteCard(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('project_cards').where('id', '=', id).execute();
}

/** Puts the cards of `ids` into the column at positions 0…n-1, in that order. */
export async function setCardOrder(db: Executor, columnId: number, ids: readonly number[], moved: { id: number; now: string } | null): Promise<void> {
  for (const [position, id] of ids.entries()) {
    const touched = moved && moved.id === id ? { updated_at: moved.now } : {};
    await db.updateTable('project_cards').set({ column_id: columnId, position, ...touched }).where('id', '=', id).execute();
  }
}
