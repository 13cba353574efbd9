// GraphQL of projects: the board types, and projectCards / projectItems on issues and
// pull requests, from the projects service.
import { arrayConnection, type ConnectionArgs } from '../../graphql/connection.ts';
import type { GraphQLModule } from '../../graphql/module.ts';
import type { NodeResolver } from '../../graphql/node-id.ts';
import { projectsTypeDefs } from './projects.graphql.ts';
import { cardsOfIssue, projectItemsOfIssue } from './projects.service.ts';

const onIssue = {
  projectCards: (_issue: unknown, args: ConnectionArgs) => arrayConnection(cardsOfIssue(), args),
  projectItems: (_issue: unknown, args: ConnectionArgs) => arrayConnection(projectItemsOfIssue(), args),
};

/** node(id:) of a project, column, card or item: none exists while Wharf has no boards. */
const noSuchNode: NodeResolver = async () => null;

export const projectsGraphQL: GraphQLModule = {
  name: 'projects',
  typeDefs: projectsTypeDefs,
  resolvers: { Issue: onIssue, PullRequest: onIssue },
  nodes: { Project: noSuchNode, ProjectColumn: noSuchNode, ProjectCard: noSuchNode, ProjectV2: noSuchNode, ProjectV2Item: noSuchNode },
};
