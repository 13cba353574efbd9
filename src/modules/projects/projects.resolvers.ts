// GraphQL of projects: the board types, and projectCards / projectItems on issues and
// pull requests, from the same services as REST.
import { NotFoundError } from '../../domain/errors.ts';
import { encodeNodeId } from '../../domain/node-id.ts';
import { arrayConnection, type ConnectionArgs } from '../../graphql/connection.ts';
import type { GraphQLContext, Typed } from '../../graphql/context.ts';
import type { GraphQLModule } from '../../graphql/module.ts';
import { numericId, type NodeResolver } from '../../graphql/node-id.ts';
import type { IssueRecord } from '../issues/issues.model.ts';
import * as board from './board.service.ts';
import { projectsTypeDefs } from './projects.graphql.ts';
import type { ProjectCard, ProjectColumn } from './projects.model.ts';
import * as projects from './projects.service.ts';

type CardNode = ProjectCard & { __typename: 'ProjectCard' };
type ColumnNode = ProjectColumn & { __typename: 'ProjectColumn' };

const cardNode = (c: ProjectCard): CardNode => ({ __typename: 'ProjectCard', ...c });
const columnNode = (c: ProjectColumn): ColumnNode => ({ __typename: 'ProjectColumn', ...c });

async function projectNode(g: GraphQLContext, id: number) {
  const { project } = await projects.getProject(g.ctx, g.actor, id);
  return { __typename: 'Project' as const, ...project };
}

interface CardsArgs extends ConnectionArgs {
  archivedStates?: readonly ('ARCHIVED' | 'NOT_ARCHIVED')[] | null;
}

const onIssue = {
  projectCards: async (parent: { issue: IssueRecord }, args: CardsArgs, g: GraphQLContext) => {
    const states = new Set(args.archivedStates ?? ['ARCHIVED', 'NOT_ARCHIVED']);
    const cards = (await projects.cardsOfIssues(g.ctx, g.actor, [parent.issue.id]))
      .filter((c) => states.has(c.archived ? 'ARCHIVED' : 'NOT_ARCHIVED'));
    return arrayConnection(cards.map(cardNode), args);
  },
  projectItems: (_issue: unknown, args: ConnectionArgs) => arrayConnection(projects.projectItemsOfIssue(), args),
};

const cardFields = {
  id: (c: CardNode) => encodeNodeId('ProjectCard', c.id),
  isArchived: (c: CardNode) => c.archived,
  column: async (c: CardNode, _args: unknown, g: GraphQLContext) => columnNode(await board.getColumn(g.ctx, g.actor, c.columnId)),
  project: (c: CardNode, _args: unknown, g: GraphQLContext) => projectNode(g, c.projectId),
};

const columnFields = {
  id: (c: ColumnNode) => encodeNodeId('ProjectColumn', c.id),
  project: (c: ColumnNode, _args: unknown, g: GraphQLContext) => projectNode(g, c.projectId),
};

const projectFields = {
  id: (p: { id: number }) => encodeNodeId('Project', p.id),
};

/** node(id:) of a board object the caller may see (null otherwise, as for any unknown id). */
function visibleOrNull(load: (g: GraphQLContext, id: number) => Promise<Typed>): NodeResolver {
  return async (g, id) => {
    const n = numericId(id);
    if (n === null) return null;
    try {
      return await load(g, n) as Typed;
    } catch (err) {
      if (err instanceof NotFoundError) return null;
      throw err;
    }
  };
}

export const projectsGraphQL: GraphQLModule = {
  name: 'projects',
  typeDefs: projectsTypeDefs,
  resolvers: { Issue: onIssue, PullRequest: onIssue, ProjectCard: cardFields, ProjectColumn: columnFields, Project: projectFields },
  nodes: {
    Project: visibleOrNull(projectNode),
    ProjectColumn: visibleOrNull(async (g, id) => columnNode(await board.getColumn(g.ctx, g.actor, id))),
    ProjectCard: visibleOrNull(async (g, id) => cardNode(await board.getCard(g.ctx, g.actor, id))),
    ProjectV2: async () => null,
    ProjectV2Item: async () => null,
  },
};
