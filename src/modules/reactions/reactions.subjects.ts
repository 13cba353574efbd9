// For the modules that own reactable subjects (issues, comments, review comments, team
// discussions): a deleted subject takes its reactions with it, in the same transaction.
import type { AppContext } from '../../context.ts';
import type { ReactionSubjectType } from './reactions.rollup.ts';
import * as store from './reactions.store.ts';

export async function deleteReactionsOf(ctx: AppContext, subjectType: ReactionSubjectType, subjectIds: readonly number[]): Promise<void> {
  await store.removeForSubjects(ctx.db, subjectType, subjectIds);
}
