// SQL for reactions. Only the reactions module calls this (the rollup counts included).
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { ReactionsTable } from '../../db/schema.ts';
import type { Slice } from '../../domain/page.ts';
import type { Reaction } from './reactions.model.ts';
import type { ReactionContent, ReactionSubjectType } from './reactions.rollup.ts';

export interface SubjectKey {
  type: ReactionSubjectType;
  id: number;
}

const COLUMNS = ['id', 'subject_type', 'subject_id', 'user_id', 'content', 'created_at'] as const;

function toReaction(r: Pick<Selectable<ReactionsTable>, (typeof COLUMNS)[number]>): Reaction {
  return {
    id: r.id,
    subjectType: r.subject_type as ReactionSubjectType,
    subjectId: r.subject_id,
    userId: r.user_id,
    content: r.content as ReactionContent,
    createdAt: r.created_at,
  };
}

function ofSubject(db: Executor, s: SubjectKey, content?: ReactionContent) {
  let q = db.selectFrom('reactions').where('subject_type', '=', s.type).where('subject_id', '=', s.id);
  if (content !== undefined) q = q.where('content', '=', content);
  return q;
}

export async function list(db: Executor, s: SubjectKey, content: ReactionContent | undefined, slice: Slice): Promise<Reaction[]> {
  const rows = await ofSubject(db, s, content).select(COLUMNS).orderBy('id').limit(slice.perPage).offset(slice.offset).execute();
  return rows.map(toReaction);
}

export async function count(db: Executor, s: SubjectKey, content: ReactionContent | undefined): Promise<number> {
  const row = await ofSubject(db, s, content).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findById(db: Executor, s: SubjectKey, id: number): Promise<Reaction | null> {
  const row = await ofSubject(db, s).select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toReaction(row) : null;
}

export async function findByUser(db: Executor, s: SubjectKey, userId: number, content: ReactionContent): Promise<Reaction | null> {
  const row = await ofSubject(db, s, content).select(COLUMNS).where('user_id', '=', userId).executeTakeFirst();
  return row ? toReaction(row) : null;
}

/**
 * Inserts the reaction unless the user already left it: null then. The unique
 * constraint decides, so two identical concurrent requests make one row.
 */
export async function insertUnlessExists(
  db: Executor, s: SubjectKey, repositoryId: number | null, userId: number, content: ReactionContent, now: string,
): Promise<Reaction | null> {
  const row = await db.insertInto('reactions').values({
    subject_type: s.type, subject_id: s.id, repository_id: repositoryId, user_id: userId, content, created_at: now,
  }).onConflict((oc) => oc.columns(['subject_type', 'subject_id', 'user_id', 'content']).doNothing())
    .returning(COLUMNS).executeTakeFirst();
  return row ? toReaction(row) : null;
}

export async function remove(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('reactions').where('id', '=', id).execute();
}

export async function removeForSubjects(db: Executor, type: ReactionSubjectType, ids: readonly number[]): Promise<void> {
  const unique = [...new Set(ids)];
  // In slices: an IN list stays well inside every dialect's bind-parameter limit.
  for (let i = 0; i < unique.length; i += 500) {
    await db.deleteFrom('reactions').where('subject_type', '=', type).where('subject_id', 'in', unique.slice(i, i + 500)).execute();
  }
}

/** Reactions by id, whatever their subject (GraphQL node ids). */
export async function findByIds(db: Executor, ids: readonly number[]): Promise<Reaction[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('reactions').select(COLUMNS).where('id', 'in', [...new Set(ids)]).execute();
  return rows.map(toReaction);
}

export interface GroupRow {
  subjectId: number;
  content: ReactionContent;
  count: number;
  /** When the first reaction of this content was left. */
  firstAt: string;
  viewerHasReacted: boolean;
}

/** Per subject and content: how many, since when, and whether `viewerId` is among them; one query for all subjects. */
export async function groupsOf(db: Executor, type: ReactionSubjectType, subjectIds: readonly number[], viewerId: number): Promise<GroupRow[]> {
  if (!subjectIds.length) return [];
  const rows = await db.selectFrom('reactions')
    .select((eb) => [
      'subject_id', 'content',
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.min('created_at').as('first_at'),
      eb.fn.max(eb.case().when('user_id', '=', viewerId).then(1).else(0).end()).as('mine'),
    ])
    .where('subject_type', '=', type)
    .where('subject_id', 'in', [...new Set(subjectIds)])
    .groupBy(['subject_id', 'content'])
    .execute();
  return rows.map((r) => ({
    subjectId: r.subject_id, content: r.content as ReactionContent, count: Number(r.n),
    firstAt: String(r.first_at), viewerHasReacted: Number(r.mine) === 1,
  }));
}

/** How many reactions of each content each subject has (subjects without any are absent); one query for all subjects. */
export async function countsOf(
  db: Executor, type: ReactionSubjectType, subjectIds: readonly number[],
): Promise<{ subjectId: number; content: string; count: number }[]> {
  if (!subjectIds.length) return [];
  const rows = await db.selectFrom('reactions')
    .select(['subject_id', 'content', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('subject_type', '=', type)
    .where('subject_id', 'in', [...new Set(subjectIds)])
    .groupBy(['subject_id', 'content'])
    .execute();
  return rows.map((r) => ({ subjectId: r.subject_id, content: r.content, count: Number(r.n) }));
}
