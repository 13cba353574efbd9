// Resolvers of closing keywords, on the same service function the merge path's rule
// reads (closing.service).
import { arrayConnection, type ConnectionArgs } from '../../graphql/connection.ts';
import type { GraphQLContext } from '../../graphql/context.ts';
import type { GraphQLModule } from '../../graphql/module.ts';
import { issueNode, type IssueNode } from '../issues/issues.graphql-helpers.ts';
import { pullRequestNode, type PullRequestNode } from '../pulls/pulls.graphql-nodes.ts';
import { closingTypeDefs } from './closing.graphql.ts';
import { closingIssuesOfPull, closingPullsOfIssue } from './closing.service.ts';

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
    Issue: {
      closedByPullRequestsReferences: async (i: IssueNode, args: ConnectionArgs & { includeClosedPrs?: boolean | null }, g: GraphQLContext) => {
        const found = await closingPullsOfIssue(g.ctx, g.actor, i.repo, i.issue, args.includeClosedPrs === true);
        return arrayConnection(found.map((p) => pullRequestNode(p.repo, p.pull, p.issue)), args);
      },
    },
  },
};
