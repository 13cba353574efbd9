// The `reactions` summary object every reactable record carries. Loaded in bulk for
// a page of subjects: one query, whatever the page size.
import type { AppContext } from '../../context.ts';
import * as store from './reactions.store.ts';

export const REACTION_CONTENTS = ['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes'] as const;
export type ReactionContent = (typeof REACTION_CONTENTS)[number];

export type ReactionSubjectType =
  | 'issue' | 'issue_comment' | 'pull_request_review' | 'pull_request_review_comment' | 'team_discussion' | 'team_discussion_comment' | 'release';

/** The reactions a release takes: upstream's create-for-release has no -1 or confused. */
export const RELEASE_REACTION_CONTENTS = ['+1', 'laugh', 'heart', 'hooray', 'rocket', 'eyes'] as const satisfies readonly ReactionContent[];

export type ReactionCounts = Record<ReactionContent, number>;

export interface ReactionRollup extends ReactionCounts {
  url: string;
  total_count: number;
}

function emptyCounts(): ReactionCounts {
  return { '+1': 0, '-1': 0, laugh: 0, confused: 0, heart: 0, hooray: 0, rocket: 0, eyes: 0 };
}

/** Counts per content for each subject id; subjects without reactions get zeros. */
export async function loadReactionCounts(ctx: AppContext, subjectType: ReactionSubjectType, subjectIds: readonly number[]): Promise<Map<number, ReactionCounts>> {
  const out = new Map<number, ReactionCounts>();
  for (const id of subjectIds) out.set(id, emptyCounts());
  for (const r of await store.countsOf(ctx.db, subjectType, subjectIds)) {
    const counts = out.get(r.subjectId);
    if (counts && r.content in counts) counts[r.content as ReactionContent] = r.count;
  }
  return out;
}

/** The summary object; `url` is the subject's reactions URL. */
export function reactionRollup(counts: ReactionCounts | undefined, url: string): ReactionRollup {
  const c = counts ?? emptyCounts();
  let total = 0;
  for (const k of REACTION_CONTENTS) total += c[k];
  return { url, total_count: total, ...c };
}
