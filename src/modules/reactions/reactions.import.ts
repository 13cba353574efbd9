// Import-shaped entry point for migration archives (migration-import): a reaction put
// in with its author and time, on an issue or an issue comment the import created.
// No actor and no events: nobody reacted here.
import type { AppContext } from '../../context.ts';
import { REACTION_CONTENTS, type ReactionContent } from './reactions.rollup.ts';
import * as store from './reactions.store.ts';

export function isReactionContent(v: unknown): v is ReactionContent {
  return typeof v === 'string' && (REACTION_CONTENTS as readonly string[]).includes(v);
}

export async function importReaction(
  ctx: AppContext, subject: { type: 'issue' | 'issue_comment'; id: number }, repositoryId: number,
  r: { userId: number; content: ReactionContent; createdAt: string },
): Promise<void> {
  await store.insertUnlessExists(ctx.db, subject, repositoryId, r.userId, r.content, r.createdAt);
}
