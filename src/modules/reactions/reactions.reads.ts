// Bulk reads of reactions for GraphQL (reaction groups of a page of subjects, reactions
// by id, the reactions of one subject), answered in one query per call whatever the
// number of subjects. The callers have already checked that the subjects are visible.
import type { AppContext } from '../../context.ts';
import type { Page, Slice } from '../../domain/page.ts';
import type { Reaction } from './reactions.model.ts';
import type { ReactionContent, ReactionSubjectType } from './reactions.rollup.ts';
import * as store from './reactions.store.ts';

export type { GroupRow } from './reactions.store.ts';

/** Groups (content, count, first reaction, the viewer's) of each subject, by subject id. */
export async function reactionGroupsOf(
  ctx: AppContext, type: ReactionSubjectType, subjectIds: readonly number[], viewerId: number,
): Promise<Map<number, store.GroupRow[]>> {
  const out = new Map<number, store.GroupRow[]>(subjectIds.map((id) => [id, []]));
  for (const row of await store.groupsOf(ctx.db, type, subjectIds, viewerId)) out.get(row.subjectId)?.push(row);
  return out;
}

export function reactionsByIds(ctx: AppContext, ids: readonly number[]): Promise<Reaction[]> {
  return store.findByIds(ctx.db, ids);
}

/** One subject's reactions (of one content, when given), oldest first. */
export async function reactionsOfSubject(
  ctx: AppContext, type: ReactionSubjectType, subjectId: number, content: ReactionContent | undefined, slice: Slice,
): Promise<Page<Reaction>> {
  const key = { type, id: subjectId };
  const [items, total] = await Promise.all([
    slice.perPage > 0 ? store.list(ctx.db, key, content, slice) : Promise.resolve([]),
    store.count(ctx.db, key, content),
  ]);
  return { items, total };
}
