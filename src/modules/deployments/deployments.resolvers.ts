// GraphQL resolvers of deployments, on the deployments service (the one REST calls).
// A DeploymentNode is only made for a deployment of a repository the caller may read
// (reached through a RepositoryNode, or checked by node(id:)).
import { offsetConnection, reversed, type ConnectionArgs, type Fetch } from '../../graphql/connection.ts';
import type { GraphQLContext } from '../../graphql/context.ts';
import { defineLoader, defineMapLoader, load } from '../../graphql/loaders.ts';
import type { GraphQLModule } from '../../graphql/module.ts';
import { encodeNodeId, numericId } from '../../graphql/node-id.ts';
import { commitNode, findRef } from '../git-data/git-data.resolvers.ts';
import type { Repo } from '../repos/repos.model.ts';
import { repositoryById, repositoryNode, type RepositoryNode } from '../repos/repos.resolvers.ts';
import { accountById, accountNode } from '../users/users.resolvers.ts';
import { deploymentsTypeDefs } from './deployments.graphql.ts';
import type { Deployment, DeploymentState, DeploymentStatus } from './deployments.model.ts';
import * as deployments from './deployments.service.ts';

export interface DeploymentNode {
  __typename: 'Deployment';
  repo: Repo;
  deployment: Deployment;
}

export interface DeploymentStatusNode {
  __typename: 'DeploymentStatus';
  repo: Repo;
  deployment: Deployment;
  status: DeploymentStatus;
}

function deploymentNode(repo: Repo, deployment: Deployment): DeploymentNode {
  return { __typename: 'Deployment', repo, deployment };
}

function statusNode(repo: Repo, deployment: Deployment, status: DeploymentStatus): DeploymentStatusNode {
  return { __typename: 'DeploymentStatus', repo, deployment, status };
}

const latestStatus = defineMapLoader('deploymentLatestStatus',
  (g, ids: readonly number[]) => deployments.latestStatusesOf(g.ctx, ids));

const deploymentById = defineMapLoader('deploymentById', async (g, ids: readonly number[]) =>
  new Map((await deployments.deploymentsByIds(g.ctx, ids)).map((d) => [d.id, d])));

const statusById = defineLoader('deploymentStatusById', async (g, ids: readonly number[]) => {
  const found = new Map((await deployments.statusesByIds(g.ctx, ids)).map((s) => [s.id, s]));
  return ids.map((id) => found.get(id) ?? null);
});

/** A deployment's state as upstream's GraphQL names it: the latest status's, a success being ACTIVE, PENDING before any. */
const STATE: Record<DeploymentState, string> = {
  success: 'ACTIVE', inactive: 'INACTIVE', error: 'ERROR', failure: 'FAILURE', in_progress: 'IN_PROGRESS', queued: 'QUEUED', pending: 'PENDING',
};

/** Creator of a deployment or status (a deleted account leaves none). */
async function creator(g: GraphQLContext, id: number | null) {
  const account = id === null ? null : await load(g, accountById, id);
  return account ? accountNode(account) : null;
}

/** REST keeps empty strings for URLs and descriptions not given; GraphQL shows them as null. */
const orNull = (s: string) => (s === '' ? null : s);

const deploymentFields = {
  id: (d: DeploymentNode) => encodeNodeId('Deployment', d.deployment.id),
  databaseId: (d: DeploymentNode) => d.deployment.id,
  commit: (d: DeploymentNode) => commitNode(d.repo, d.deployment.sha),
  commitOid: (d: DeploymentNode) => d.deployment.sha,
  ref: (d: DeploymentNode, _args: unknown, g: GraphQLContext) => findRef(g, d.repo, d.deployment.ref),
  task: (d: DeploymentNode) => d.deployment.task,
  // Upstream's payload is the JSON text a client sent.
  payload: (d: DeploymentNode) => (typeof d.deployment.payload === 'string' ? d.deployment.payload : JSON.stringify(d.deployment.payload)),
  description: (d: DeploymentNode) => d.deployment.description,
  environment: (d: DeploymentNode) => d.deployment.environment,
  latestEnvironment: (d: DeploymentNode) => d.deployment.environment,
  originalEnvironment: (d: DeploymentNode) => d.deployment.originalEnvironment,
  state: (d: DeploymentNode) => (d.deployment.latestState === null ? 'PENDING' : STATE[d.deployment.latestState]),
  createdAt: (d: DeploymentNode) => d.deployment.createdAt,
  updatedAt: (d: DeploymentNode) => d.deployment.updatedAt,
  creator: (d: DeploymentNode, _args: unknown, g: GraphQLContext) => creator(g, d.deployment.creatorId),
  repository: (d: DeploymentNode) => repositoryNode(d.repo),
  latestStatus: async (d: DeploymentNode, _args: unknown, g: GraphQLContext) => {
    const s = await load(g, latestStatus, d.deployment.id);
    return s ? statusNode(d.repo, d.deployment, s) : null;
  },
  statuses: (d: DeploymentNode, args: ConnectionArgs, g: GraphQLContext) =>
    offsetConnection(args, async (offset, limit) => {
      const page = await deployments.listDeploymentStatuses(g.ctx, g.actor, d.repo.owner.login, d.repo.name, d.deployment.id, { perPage: limit, offset });
      return { items: page.items.map((s) => statusNode(d.repo, s.deployment, s.status)), total: page.total };
    }),
};

const statusFields = {
  id: (s: DeploymentStatusNode) => encodeNodeId('DeploymentStatus', s.status.id),
  state: (s: DeploymentStatusNode) => s.status.state.toUpperCase(),
  description: (s: DeploymentStatusNode) => orNull(s.status.description),
  environment: (s: DeploymentStatusNode) => s.status.environment,
  environmentUrl: (s: DeploymentStatusNode) => orNull(s.status.environmentUrl),
  logUrl: (s: DeploymentStatusNode) => orNull(s.status.logUrl),
  createdAt: (s: DeploymentStatusNode) => s.status.createdAt,
  updatedAt: (s: DeploymentStatusNode) => s.status.updatedAt,
  creator: (s: DeploymentStatusNode, _args: unknown, g: GraphQLContext) => creator(g, s.status.creatorId),
  deployment: (s: DeploymentStatusNode) => deploymentNode(s.repo, s.deployment),
};

interface DeploymentsArgs extends ConnectionArgs {
  environments?: string[] | null;
  orderBy?: { field: 'CREATED_AT'; direction: 'ASC' | 'DESC' } | null;
}

const repositoryFields = {
  deployments: (r: RepositoryNode, args: DeploymentsArgs, g: GraphQLContext) => {
    // The service lists newest first (REST's order); ascending reads it backwards.
    const fetch: Fetch<DeploymentNode> = async (offset, limit) => {
      const page = await deployments.listDeployments(g.ctx, g.actor, r.repo.owner.login, r.repo.name,
        { ...(args.environments ? { environments: args.environments } : {}) }, { perPage: limit, offset });
      return { items: page.items.map((d) => deploymentNode(d.repo, d.deployment)), total: page.total };
    };
    return offsetConnection(args, args.orderBy?.direction === 'DESC' ? fetch : reversed(fetch));
  },
};

/** The deployment behind an id, if its repository is one the caller may read. */
async function visibleDeployment(g: GraphQLContext, id: number): Promise<DeploymentNode | null> {
  const deployment = await load(g, deploymentById, id);
  const repo = deployment ? await load(g, repositoryById, deployment.repositoryId) : null;
  return deployment && repo ? deploymentNode(repo.repo, deployment) : null;
}

export const deploymentsGraphQL: GraphQLModule = {
  name: 'deployments',
  typeDefs: deploymentsTypeDefs,
  resolvers: {
    Repository: repositoryFields,
    Deployment: deploymentFields,
    DeploymentStatus: statusFields,
  },
  nodes: {
    Deployment: (g, id) => {
      const n = numericId(id);
      return n === null ? Promise.resolve(null) : visibleDeployment(g, n);
    },
    DeploymentStatus: async (g, id) => {
      const n = numericId(id);
      const status = n === null ? null : await load(g, statusById, n);
      const d = status ? await visibleDeployment(g, status.deploymentId) : null;
      return status && d ? statusNode(d.repo, d.deployment, status) : null;
    },
  },
};
