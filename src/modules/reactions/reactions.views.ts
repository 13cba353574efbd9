// Reaction → API representation. Pure.
import { encodeNodeId } from '../../domain/node-id.ts';
import type { Urls } from '../../urls.ts';
import type { Account } from '../users/users.model.ts';
import { simpleUser, type SimpleUser } from '../users/users.views.ts';
import type { Reaction } from './reactions.model.ts';

export interface ReactionView {
  id: number;
  node_id: string;
  user: SimpleUser | null;
  content: string;
  created_at: string;
}

export interface ReactionDetail {
  reaction: Reaction;
  user: Account | null;
}

export function reaction(x: ReactionDetail, urls: Urls): ReactionView {
  return {
    id: x.reaction.id,
    node_id: encodeNodeId('Reaction', x.reaction.id),
    user: x.user ? simpleUser(x.user, urls) : null,
    content: x.reaction.content,
    created_at: x.reaction.createdAt,
  };
}
