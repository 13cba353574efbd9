// Resolvers of closing keywords, on the same service function the merge path's rule
// reads (closing.service).
import { arrayConnection, type ConnectionArgs } from '../../graphql/connection.ts';
import type { GraphQLContext } from '../../graphql/context.ts';
import type { GraphQLModule } from '../../graphql/module.ts';
import { issueNode } from '../issues/issues.graphql-helpers.ts';
import type { PullRequestNode } from '../pulls/pulls.graphql-nodes.ts';
import { closingTypeDefs } from './closing.graphql.ts';
import { closingIssuesOfPull } from './closing.service.ts';

export const closingGraphQL: GraphQLModule = {
  name: 'closing',
  typeDefs: closingTypeDefs,
  resolvers: {
    PullRequest: {
      closingIssuesReferences: async (p: PullRequestNode, args: ConnectionArgs, g: GraphQLContext) => {
        const found = await closingIssuesOfPull(g.ctx, g.actor, p.repo, p.pull, p.issue);
        return arrayConnection(found.map((f) => issueNode(f.issue, f.repo)), args);
      },
    },
  },
};
