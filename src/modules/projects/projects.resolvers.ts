// GraphQL of projects: the classic board types, projects and project(number:) on
// organizations, repositories and users, and projectCards / projectItems on issues and
// pull requests, from the same services as REST.
import { NotFoundError } from '../../domain/errors.ts';
import { encodeNodeId } from '../../domain/node-id.ts';
import { arrayConnection, type ConnectionArgs } from '../../graphql/connection.ts';
import type { GraphQLContext, Typed } from '../../graphql/context.ts';
import type { GraphQLModule } from '../../graphql/module.ts';
import { numericId, type NodeResolver } from '../../graphql/node-id.ts';
import { issueOrPullRequestNode } from '../issues/issues.graphql-helpers.ts';
import type { IssueRecord } from '../issues/issues.model.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { Account } from '../users/users.model.ts';
import { accountNode } from '../users/users.resolvers.ts';
import * as users from '../users/users.service.ts';
import * as board from './board.service.ts';
import { projectsTypeDefs } from './projects.graphql.ts';
import type { ProjectCard, ProjectColumn, ProjectRecord, ProjectState } from './projects.model.ts';
import * as projects from './projects.service.ts';
import { projectHtmlUrl } from './projects.views.ts';

type ProjectNode = ProjectRecord & { __typename: 'Project' };
type CardNode = ProjectCard & { __typename: 'ProjectCard' };
type ColumnNode = ProjectColumn & { __typename: 'ProjectColumn' };
type Archived = 'ARCHIVED' | 'NOT_ARCHIVED';

const projectNode = (r: ProjectRecord): ProjectNode => ({ __typename: 'Project', ...r });
const cardNode = (c: ProjectCard): CardNode => ({ __typename: 'ProjectCard', ...c });
const columnNode = (c: ProjectColumn): ColumnNode => ({ __typename: 'ProjectColumn', ...c });

async function projectById(g: GraphQLContext, id: number): Promise<ProjectNode> {
  return projectNode(await projects.getProject(g.ctx, g.actor, id));
}

async function creatorOf(g: GraphQLContext, id: number | null) {
  const account = id === null ? undefined : (await users.accountsByIds(g.ctx, [id])).get(id);
  return account ? accountNode(account) : null;
}

function archivedFilter(states: readonly Archived[] | null | undefined): (c: ProjectCard) => boolean {
  const wanted = new Set(states ?? ['ARCHIVED', 'NOT_ARCHIVED']);
  return (c) => wanted.has(c.archived ? 'ARCHIVED' : 'NOT_ARCHIVED');
}

interface CardsArgs extends ConnectionArgs {
  archivedStates?: readonly Archived[] | null;
}

interface ProjectsArgs extends ConnectionArgs {
  states?: readonly ('OPEN' | 'CLOSED')[] | null;
  search?: string | null;
}

const onIssue = {
  projectCards: async (parent: { issue: IssueRecord }, args: CardsArgs, g: GraphQLContext) => {
    const cards = (await projects.cardsOfIssues(g.ctx, g.actor, [parent.issue.id])).filter(archivedFilter(args.archivedStates));
    return arrayConnection(cards.map(cardNode), args);
  },
  projectItems: (_issue: unknown, args: ConnectionArgs) => arrayConnection(projects.projectItemsOfIssue(), args),
};

/** projects and project(number:) on an owner, as `ownerOf` names it from the parent object. */
function ownerResolvers<P>(ownerOf: (parent: P) => projects.OwnerOf) {
  return {
    projects: async (parent: P, args: ProjectsArgs, g: GraphQLContext) => {
      const states = args.states?.map((s) => s.toLowerCase() as ProjectState);
      return arrayConnection((await projects.projectsOfOwner(g.ctx, g.actor, ownerOf(parent), states, args.search)).map(projectNode), args);
    },
    project: async (parent: P, args: { number: number }, g: GraphQLContext) => {
      const found = await projects.projectByNumber(g.ctx, g.actor, ownerOf(parent), args.number);
      return found ? projectNode(found) : null;
    },
  };
}

const projectFields = {
  id: (p: ProjectNode) => encodeNodeId('Project', p.project.id),
  databaseId: (p: ProjectNode) => p.project.id,
  name: (p: ProjectNode) => p.project.name,
  body: (p: ProjectNode) => p.project.body,
  number: (p: ProjectNode) => p.project.number,
  state: (p: ProjectNode) => p.project.state.toUpperCase(),
  closed: (p: ProjectNode) => p.project.state === 'closed',
  createdAt: (p: ProjectNode) => p.project.createdAt,
  updatedAt: (p: ProjectNode) => p.project.updatedAt,
  url: (p: ProjectNode, _args: unknown, g: GraphQLContext) => projectHtmlUrl(g.ctx.urls, p),
  resourcePath: (p: ProjectNode, _args: unknown, g: GraphQLContext) => new URL(projectHtmlUrl(g.ctx.urls, p)).pathname,
  creator: (p: ProjectNode, _args: unknown, g: GraphQLContext) => creatorOf(g, p.project.creatorId),
  viewerCanUpdate: async (p: ProjectNode, _args: unknown, g: GraphQLContext) => {
    const permission = await projects.viewerPermission(g.ctx, g.actor, p);
    return permission === 'write' || permission === 'admin';
  },
  columns: async (p: ProjectNode, args: ConnectionArgs, g: GraphQLContext) => {
    const { items } = await board.listColumns(g.ctx, g.actor, p.project.id, { offset: 0, perPage: Number.MAX_SAFE_INTEGER });
    return arrayConnection(items.map(columnNode), args);
  },
};

const columnFields = {
  id: (c: ColumnNode) => encodeNodeId('ProjectColumn', c.id),
  databaseId: (c: ColumnNode) => c.id,
  project: (c: ColumnNode, _args: unknown, g: GraphQLContext) => projectById(g, c.projectId),
  cards: async (c: ColumnNode, args: CardsArgs, g: GraphQLContext) => {
    const { items } = await board.listCards(g.ctx, g.actor, c.id, 'all', { offset: 0, perPage: Number.MAX_SAFE_INTEGER });
    return arrayConnection(items.filter(archivedFilter(args.archivedStates)).map(cardNode), args);
  },
};

const cardFields = {
  id: (c: CardNode) => encodeNodeId('ProjectCard', c.id),
  databaseId: (c: CardNode) => c.id,
  isArchived: (c: CardNode) => c.archived,
  creator: (c: CardNode, _args: unknown, g: GraphQLContext) => creatorOf(g, c.creatorId),
  column: async (c: CardNode, _args: unknown, g: GraphQLContext) => columnNode(await board.getColumn(g.ctx, g.actor, c.columnId)),
  content: async (c: CardNode, _args: unknown, g: GraphQLContext) => {
    const shown = await projects.contentOfCard(g.ctx, g.actor, c);
    return shown ? issueOrPullRequestNode(g, shown.issue, shown.repo, 'ProjectCardItem') : null;
  },
  project: (c: CardNode, _args: unknown, g: GraphQLContext) => projectById(g, c.projectId),
};

/** node(id:) of a board object the caller may see (null otherwise, as for any unknown id). */
function visibleOrNull(load: (g: GraphQLContext, id: number) => Promise<Typed>): NodeResolver {
  return async (g, id) => {
    const n = numericId(id);
    if (n === null) return null;
    try {
      return await load(g, n);
    } catch (err) {
      if (err instanceof NotFoundError) return null;
      throw err;
    }
  };
}

export const projectsGraphQL: GraphQLModule = {
  name: 'projects',
  typeDefs: projectsTypeDefs,
  resolvers: {
    Issue: onIssue,
    PullRequest: onIssue,
    Organization: ownerResolvers((o: { account: Account }) => ({ type: 'Organization', login: o.account.login })),
    User: ownerResolvers((u: { account: Account }) => ({ type: 'User', account: u.account })),
    Repository: ownerResolvers((r: { repo: Repo }) => ({ type: 'Repository', repo: r.repo })),
    Project: projectFields,
    ProjectColumn: columnFields,
    ProjectCard: cardFields,
  },
  nodes: {
    Project: visibleOrNull(projectById),
    ProjectColumn: visibleOrNull(async (g, id) => columnNode(await board.getColumn(g.ctx, g.actor, id))),
    ProjectCard: visibleOrNull(async (g, id) => cardNode(await board.getCard(g.ctx, g.actor, id))),
    ProjectV2: async () => null,
    ProjectV2Item: async () => null,
  },
};
