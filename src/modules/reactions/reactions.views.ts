// Reaction → API representation. Pure.
import type { Static } from '@sinclair/typebox';
import { encodeNodeId } from '../../domain/node-id.ts';
import type { Urls } from '../../urls.ts';
import type { Account } from '../users/users.model.ts';
import { simpleUser } from '../users/users.views.ts';
import type { Reaction } from './reactions.model.ts';
import type { Reaction as ReactionSchema } from './reactions.schemas.ts';

/** The response schema's type: the serializer and the view agree field by field. */
export type ReactionView = Static<typeof ReactionSchema>;

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
