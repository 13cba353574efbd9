// Import-shaped entry point for migration archives (migration-import): a reaction put
// in with its author and time, on an issue, an issue comment or a review comment the
// import created. No actor and no events: nobody reacted here.
import type { AppContext } from '../../context.ts';
import { REACTION_CONTENTS, type ReactionContent } from './reactions.rollup.ts';
import * as store from './reactions.store.ts';

/** The subjects an archive's reactions may have. */
export type ImportedReactionSubject = 'issue' | 'issue_comment' | 'pull_request_review_comment';

export function isReactionContent(v: unknown): v is ReactionContent {
  return typeof v === 'string' && (REACTION_CONTENTS as readonly string[]).includes(v);
}

export async function importReaction(
  ctx: AppContext, subject: { type: ImportedReactionSubject; id: number }, repositoryId: number,
  r: { userId: number; content: ReactionContent; createdAt: string },
): Promise<void> {
  await store.insertUnlessExists(ctx.db, subject, repositoryId, r.userId, r.content, r.createdAt);
}
