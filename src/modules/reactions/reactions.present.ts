// Loads what reaction views need (the users who reacted), in bulk for a page, then
// builds the views.
import type { AppContext } from '../../context.ts';
import * as users from '../users/users.service.ts';
import type { Reaction } from './reactions.model.ts';
import { reaction, type ReactionView } from './reactions.views.ts';

export async function presentReactions(ctx: AppContext, list: readonly Reaction[]): Promise<ReactionView[]> {
  const accounts = await users.accountsByIds(ctx, list.map((r) => r.userId));
  return list.map((r) => reaction({ reaction: r, user: accounts.get(r.userId) ?? null }, ctx.urls));
}
