// SQL for milestones. Only the issues module calls this.
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { MilestonesTable } from '../../db/schema.ts';
import type { Slice } from '../../domain/page.ts';
import type { MilestoneCounts, MilestoneRecord, MilestoneState } from './issues.model.ts';

type Row = Selectable<MilestonesTable>;

function toRecord(r: Row): MilestoneRecord {
  return {
    id: r.id, repositoryId: r.repository_id, number: r.number, title: r.title, description: r.description,
    state: r.state, creatorId: r.creator_id, dueOn: r.due_on, closedAt: r.closed_at, createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** A new milestone: the record's fields a creator chooses; a milestone always has its creator when made. */
export type NewMilestone = Pick<MilestoneRecord, 'number' | 'title' | 'description' | 'state' | 'dueOn'> & { creatorId: number };

export async function insert(db: Executor, repositoryId: number, v: NewMilestone, now: string): Promise<MilestoneRecord> {
  const row = await db.insertInto('milestones').values({
    repository_id: repositoryId, number: v.number, title: v.title, description: v.description, state: v.state,
    creator_id: v.creatorId, due_on: v.dueOn, closed_at: v.state === 'closed' ? now : null, created_at: now, updated_at: now,
  }).returningAll().executeTakeFirstOrThrow();
  return toRecord(row);
}

export async function findByNumber(db: Executor, repositoryId: number, number: number): Promise<MilestoneRecord | null> {
  const row = await db.selectFrom('milestones').selectAll()
    .where('repository_id', '=', repositoryId).where('number', '=', number).executeTakeFirst();
  return row ? toRecord(row) : null;
}

export async function findByIds(db: Executor, ids: readonly number[]): Promise<MilestoneRecord[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('milestones').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  return rows.map(toRecord);
}

/** A milestone of the repository with this title, compared case-insensitively. */
export async function findByTitle(db: Executor, repositoryId: number, title: string): Promise<MilestoneRecord | null> {
  const rows = await db.selectFrom('milestones').selectAll().where('repository_id', '=', repositoryId).execute();
  const found = rows.find((r) => r.title.toLowerCase() === title.toLowerCase());
  return found ? toRecord(found) : null;
}

export interface ListFilter {
  state: MilestoneState | 'all';
  sort: 'due_on' | 'completeness';
  direction: 'asc' | 'desc';
}

/** All milestones of the repository in the order asked (completeness needs the counts, so it sorts in memory). */
export async function list(db: Executor, repositoryId: number, f: ListFilter, slice: Slice): Promise<{ rows: MilestoneRecord[]; total: number }> {
  let q = db.selectFrom('milestones').where('repository_id', '=', repositoryId);
  if (f.state !== 'all') q = q.where('state', '=', f.state);
  const total = await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  if (f.sort === 'completeness') {
    const all = (await q.selectAll().orderBy('number').execute()).map(toRecord);
    const counts = await countsOf(db, all.map((m) => m.id));
    const ratio = (m: MilestoneRecord) => {
      const c = counts.get(m.id) ?? { open: 0, closed: 0 };
      return c.open + c.closed === 0 ? 0 : c.closed / (c.open + c.closed);
    };
    all.sort((a, b) => (ratio(a) - ratio(b)) * (f.direction === 'asc' ? 1 : -1) || a.number - b.number);
    return { rows: all.slice(slice.offset, slice.offset + slice.perPage), total: Number(total.n) };
  }
  // Upstream puts milestones without a due date last when ascending.
  const rows = await q.selectAll()
    .orderBy((eb) => eb.case().when('due_on', 'is', null).then(1).else(0).end(), f.direction === 'asc' ? 'asc' : 'desc')
    .orderBy('due_on', f.direction).orderBy('number', f.direction)
    .limit(slice.perPage).offset(slice.offset).execute();
  return { rows: rows.map(toRecord), total: Number(total.n) };
}

export type MilestoneChanges = Partial<Pick<MilestoneRecord, 'title' | 'description' | 'state' | 'dueOn' | 'closedAt'>>;

export async function update(db: Executor, id: number, c: MilestoneChanges, now: string): Promise<MilestoneRecord> {
  const row = await db.updateTable('milestones').set({
    ...(c.title !== undefined ? { title: c.title } : {}),
    ...(c.description !== undefined ? { description: c.description } : {}),
    ...(c.state !== undefined ? { state: c.state } : {}),
    ...(c.dueOn !== undefined ? { due_on: c.dueOn } : {}),
    ...(c.closedAt !== undefined ? { closed_at: c.closedAt } : {}),
    updated_at: now,
  }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  return toRecord(row);
}

export async function remove(db: Executor, id: number): Promise<void> {
  await db.updateTable('issues').set({ milestone_id: null }).where('milestone_id', '=', id).execute();
  await db.deleteFrom('milestones').where('id', '=', id).execute();
}

/** Open and closed issues (pull requests included, as upstream) per milestone, in one query. */
export async function countsOf(db: Executor, milestoneIds: readonly number[]): Promise<Map<number, MilestoneCounts>> {
  const out = new Map<number, MilestoneCounts>();
  if (!milestoneIds.length) return out;
  const ids = [...new Set(milestoneIds)];
  for (const id of ids) out.set(id, { open: 0, closed: 0 });
  const rows = await db.selectFrom('issues')
    .select(['milestone_id', 'state', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('milestone_id', 'in', ids)
    .groupBy(['milestone_id', 'state']).execute();
  for (const r of rows) {
    const c = out.get(r.milestone_id!);
    if (!c) continue;
    if (r.state === 'open') c.open = Number(r.n);
    else c.closed = Number(r.n);
  }
  return out;
}
