// Request and response schemas of the reaction routes, and the `reactions` summary
// object every reactable record's schema embeds.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, PagedArray } from '../../http/schema-types.ts';
import { SimpleUser } from '../users/users.schemas.ts';
import { REACTION_CONTENTS, RELEASE_REACTION_CONTENTS } from './reactions.rollup.ts';

export { RepoParams } from '../repos/repos.schemas.ts';

const Content = StringEnum(REACTION_CONTENTS);

export const IssueParams = Type.Object({ owner: Type.String(), repo: Type.String(), issue_number: Type.Integer() });
export const IssueReactionParams = Type.Object({ ...IssueParams.properties, reaction_id: Type.Integer() });
export const CommentParams = Type.Object({ owner: Type.String(), repo: Type.String(), comment_id: Type.Integer() });
export const CommentReactionParams = Type.Object({ ...CommentParams.properties, reaction_id: Type.Integer() });

export const ListReactionsQuery = Type.Object({
  content: Type.Optional(Content),
  per_page: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
});
export type ListReactionsQuery = Static<typeof ListReactionsQuery>;

export const CreateReactionBody = Type.Object({ content: Content });
export type CreateReactionBody = Static<typeof CreateReactionBody>;
/** Releases take fewer reactions (no -1, no confused): any other content is a 422. */
export const CreateReleaseReactionBody = Type.Object({ content: StringEnum(RELEASE_REACTION_CONTENTS) });

export const ReleaseParams = Type.Object({ owner: Type.String(), repo: Type.String(), release_id: Type.Integer() });
export const ReleaseReactionParams = Type.Object({ ...ReleaseParams.properties, reaction_id: Type.Integer() });

export const Reaction = Type.Object({
  id: Type.Integer(),
  node_id: Type.String(),
  user: Nullable(SimpleUser),
  content: Type.String(),
  created_at: Type.String(),
});

export const ReactionList = PagedArray(Reaction);

export const ReactionRollup = Type.Object({
  url: Type.String(),
  total_count: Type.Integer(),
  '+1': Type.Integer(),
  '-1': Type.Integer(),
  laugh: Type.Integer(),
  confused: Type.Integer(),
  heart: Type.Integer(),
  hooray: Type.Integer(),
  eyes: Type.Integer(),
  rocket: Type.Integer(),
});
