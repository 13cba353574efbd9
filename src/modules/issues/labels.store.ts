// SQL for repository labels and the labels on issues. Only the issues module calls this.
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { LabelsTable } from '../../db/schema.ts';
import type { Slice } from '../../domain/page.ts';
import type { LabelRecord } from './issues.model.ts';

type Row = Selectable<LabelsTable>;

function toRecord(r: Row): LabelRecord {
  return {
    id: r.id, repositoryId: r.repository_id, name: r.name, description: r.description, color: r.color,
    isDefault: Number(r.is_default) === 1, createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

export type NewLabel = Pick<LabelRecord, 'name' | 'color' | 'description' | 'isDefault'>;

export async function insert(db: Executor, repositoryId: number, v: NewLabel, now: string): Promise<LabelRecord> {
  const row = await db.insertInto('labels').values({
    repository_id: repositoryId, name: v.name, name_lower: v.name.toLowerCase(), color: v.color,
    description: v.description, is_default: v.isDefault ? 1 : 0, created_at: now, updated_at: now,
  }).returningAll().executeTakeFirstOrThrow();
  return toRecord(row);
}

/** Several labels at once, skipping names the repository already has (default labels). */
export async function insertMany(db: Executor, repositoryId: number, labels: readonly NewLabel[], now: string): Promise<void> {
  if (!labels.length) return;
  await db.insertInto('labels').values(labels.map((v) => ({
    repository_id: repositoryId, name: v.name, name_lower: v.name.toLowerCase(), color: v.color,
    description: v.description, is_default: v.isDefault ? 1 : 0, created_at: now, updated_at: now,
  }))).onConflict((oc) => oc.columns(['repository_id', 'name_lower']).doNothing()).execute();
}

export async function findByName(db: Executor, repositoryId: number, name: string): Promise<LabelRecord | null> {
  const row = await db.selectFrom('labels').selectAll()
    .where('repository_id', '=', repositoryId).where('name_lower', '=', name.toLowerCase()).executeTakeFirst();
  return row ? toRecord(row) : null;
}

export async function findByIds(db: Executor, ids: readonly number[]): Promise<LabelRecord[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('labels').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  return rows.map(toRecord);
}

export async function findByNames(db: Executor, repositoryId: number, names: readonly string[]): Promise<LabelRecord[]> {
  if (!names.length) return [];
  const rows = await db.selectFrom('labels').selectAll()
    .where('repository_id', '=', repositoryId).where('name_lower', 'in', [...new Set(names.map((n) => n.toLowerCase()))])
    .execute();
  return rows.map(toRecord);
}

export async function list(db: Executor, repositoryId: number, slice: Slice): Promise<{ rows: LabelRecord[]; total: number }> {
  const q = db.selectFrom('labels').where('repository_id', '=', repositoryId);
  const [rows, total] = await Promise.all([
    q.selectAll().orderBy('name_lower').orderBy('id').limit(slice.perPage).offset(slice.offset).execute(),
    q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toRecord), total: Number(total.n) };
}

export type LabelChanges = Partial<Pick<LabelRecord, 'name' | 'color' | 'description'>>;

export async function update(db: Executor, id: number, c: LabelChanges, now: string): Promise<LabelRecord> {
  const row = await db.updateTable('labels').set({
    ...(c.name !== undefined ? { name: c.name, name_lower: c.name.toLowerCase() } : {}),
    ...(c.color !== undefined ? { color: c.color } : {}),
    ...(c.description !== undefined ? { description: c.description } : {}),
    updated_at: now,
  }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  return toRecord(row);
}

export async function remove(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('issue_labels').where('label_id', '=', id).execute();
  await db.deleteFrom('labels').where('id', '=', id).execute();
}

// ---------------------------------------------------------------- labels on issues

/** The labels of each issue, by name. */
export async function labelsOf(db: Executor, issueIds: readonly number[]): Promise<Map<number, LabelRecord[]>> {
  const out = new Map<number, LabelRecord[]>();
  if (!issueIds.length) return out;
  const ids = [...new Set(issueIds)];
  const rows = await db.selectFrom('issue_labels')
    .innerJoin('labels', 'labels.id', 'issue_labels.label_id')
    .selectAll('labels').select('issue_labels.issue_id as issue_id')
    .where(ids.length === 1 ? (eb) => eb('issue_labels.issue_id', '=', ids[0]!) : (eb) => eb('issue_labels.issue_id', 'in', ids))
    .orderBy('labels.name_lower').execute();
  for (const r of rows) {
    const label = toRecord(r);
    const list = out.get(r.issue_id);
    if (list) list.push(label);
    else out.set(r.issue_id, [label]);
  }
  return out;
}

export async function attach(db: Executor, issueId: number, labelIds: readonly number[], now: string): Promise<void> {
  if (!labelIds.length) return;
  await db.insertInto('issue_labels')
    .values([...new Set(labelIds)].map((labelId) => ({ issue_id: issueId, label_id: labelId, created_at: now })))
    .onConflict((oc) => oc.columns(['issue_id', 'label_id']).doNothing())
    .execute();
}

export async function detach(db: Executor, issueId: number, labelIds: readonly number[]): Promise<void> {
  if (!labelIds.length) return;
  await db.deleteFrom('issue_labels').where('issue_id', '=', issueId).where('label_id', 'in', [...labelIds]).execute();
}

/** The labels carried by open or closed issues of a milestone. */
export async function labelsOfMilestone(db: Executor, milestoneId: number, slice: Slice): Promise<{ rows: LabelRecord[]; total: number }> {
  const q = db.selectFrom('labels').where('labels.id', 'in', (eb) => eb.selectFrom('issue_labels')
    .innerJoin('issues', 'issues.id', 'issue_labels.issue_id')
    .select('issue_labels.label_id').where('issues.milestone_id', '=', milestoneId));
  const [rows, total] = await Promise.all([
    q.selectAll('labels').orderBy('labels.name_lower').limit(slice.perPage).offset(slice.offset).execute(),
    q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toRecord), total: Number(total.n) };
}
