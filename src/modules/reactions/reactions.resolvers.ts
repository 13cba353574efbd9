// GraphQL resolvers of reactions: Reaction and ReactionGroup, global ids of reactions,
// and addReaction / removeReaction on the reactions service (the one REST calls). The
// subjects come from the areas that own them, through the registry of
// reactions.graphql-helpers.ts.
import type { GraphQLContext } from '../../graphql/context.ts';
import { notFound } from '../../graphql/errors.ts';
import type { GraphQLModule } from '../../graphql/module.ts';
import { decodeNodeId, numericId } from '../../graphql/node-id.ts';
import {
  reactableByNode, reactionContentOf, reactionFields, reactionGroupFields, reactionGroupsFor, reactionNode, reactionSubjectNode,
} from './reactions.graphql-helpers.ts';
import { reactionsTypeDefs } from './reactions.graphql.ts';
import * as reactions from './reactions.service.ts';

interface ReactionInput {
  clientMutationId?: string | null;
  subjectId: string;
  content: string;
}

async function subjectOf(g: GraphQLContext, subjectId: string) {
  const decoded = decodeNodeId(subjectId);
  const subject = decoded ? await reactableByNode(g, decoded.type, decoded.id) : null;
  if (!subject) throw notFound(`Could not resolve to a node with the global id of '${subjectId}'.`);
  return subject;
}

export const reactionsGraphQL: GraphQLModule = {
  name: 'reactions',
  typeDefs: reactionsTypeDefs,
  resolvers: {
    Reaction: reactionFields,
    ReactionGroup: reactionGroupFields,
    Mutation: {
      addReaction: async (_: unknown, { input }: { input: ReactionInput }, g: GraphQLContext) => {
        const subject = await subjectOf(g, input.subjectId);
        const made = await reactions.createReaction(g.ctx, g.actor, subject.ref, reactionContentOf(input.content));
        g.loaders.clear();
        return {
          clientMutationId: input.clientMutationId ?? null,
          reaction: reactionNode(made.reaction),
          subject: subject.node,
          reactionGroups: await reactionGroupsFor(g, subject.node, subject.type, subject.id),
        };
      },
      removeReaction: async (_: unknown, { input }: { input: ReactionInput }, g: GraphQLContext) => {
        const subject = await subjectOf(g, input.subjectId);
        const removed = await reactions.removeOwnReaction(g.ctx, g.actor, subject.ref, reactionContentOf(input.content));
        g.loaders.clear();
        return {
          clientMutationId: input.clientMutationId ?? null,
          reaction: removed ? reactionNode(removed) : null,
          subject: subject.node,
          reactionGroups: await reactionGroupsFor(g, subject.node, subject.type, subject.id),
        };
      },
    },
  },
  nodes: {
    // A reaction is visible where its subject is.
    Reaction: async (g, id) => {
      const n = numericId(id);
      const [reaction] = n === null ? [] : await reactions.reactionsByIds(g.ctx, [n]);
      if (!reaction || !(await reactionSubjectNode(g, reaction.subjectType, reaction.subjectId))) return null;
      return reactionNode(reaction);
    },
  },
  scopes: {
    // Repository subjects take public_repo or repo (the service checks which), team discussions write:discussion.
    'Mutation.addReaction': ['public_repo', 'repo', 'write:discussion'],
    'Mutation.removeReaction': ['public_repo', 'repo', 'write:discussion'],
  },
};
