// GraphQL of commit statuses: Commit.statusCheckRollup over the statuses service (the
// latest status of each context, the combined state REST's combined status gives),
// the latest check run of each name beside them), and StatusContext / StatusCheckRollup
// nodes.
import { arrayConnection, type ConnectionArgs } from '../../graphql/connection.ts';
import type { GraphQLContext } from '../../graphql/context.ts';
import { defineLoader, load } from '../../graphql/loaders.ts';
import type { GraphQLModule } from '../../graphql/module.ts';
import { encodeNodeId, numericId, splitRepositoryScoped } from '../../graphql/node-id.ts';
import { commitNode, type GitObjectNode } from '../git-data/git-data.resolvers.ts';
import type { Repo } from '../repos/repos.model.ts';
import { repositoryById } from '../repos/repos.resolvers.ts';
import { runState, type CheckRun } from '../checks/checks.model.ts';
import { checkRunNode } from '../checks/checks.resolvers.ts';
import * as checks from '../checks/checks.service.ts';
import { accountById, accountNode } from '../users/users.resolvers.ts';
import type { CommitState, CommitStatus } from './statuses.model.ts';
import * as statuses from './statuses.service.ts';
import { statusesTypeDefs } from './statuses.graphql.ts';

interface StatusContextNode {
  __typename: 'StatusContext';
  repo: Repo;
  status: CommitStatus;
}

interface RollupNode {
  __typename: 'StatusCheckRollup';
  repo: Repo;
  sha: string;
  latest: CommitStatus[];
  runs: { run: CheckRun; appId: number | null }[];
}

/** The latest check run of each name, per commit of a repository. */
const runsOf = defineLoader('latestCheckRuns',
  (g, keys: readonly GitObjectNode[]) => Promise.all(keys.map((c) => checks.latestRuns(g.ctx, c.repo.id, c.oid))),
  (c: GitObjectNode) => `${c.repo.id}:${c.oid}`);

/** The latest status of each context, per commit of a repository (one query per commit asked). */
const latestOf = defineLoader('latestStatuses',
  (g, keys: readonly GitObjectNode[]) => Promise.all(keys.map((c) => statuses.latestStatuses(g.ctx, c.repo.id, c.oid))),
  (c: GitObjectNode) => `${c.repo.id}:${c.oid}`);

/**
 * The rollup's state: any failure (or error) fails it, then anything pending keeps it
 * pending, else it succeeded — REST's combined state, with an error kept as ERROR
 * when nothing failed outright.
 */
function rollupState(latest: readonly { state: CommitState | 'success' | 'failure' | 'pending' }[]): string {
  if (latest.some((s) => s.state === 'failure')) return 'FAILURE';
  if (latest.some((s) => s.state === 'error')) return 'ERROR';
  if (latest.some((s) => s.state === 'pending')) return 'PENDING';
  return 'SUCCESS';
}

/** The latest status of each context of a commit, batched per request (pull requests' mergeStateStatus too). */
export function latestStatusesOf(g: GraphQLContext, repo: Repo, sha: string): Promise<CommitStatus[]> {
  return load(g, latestOf, commitNode(repo, sha));
}

async function rollupOf(g: GraphQLContext, c: GitObjectNode): Promise<RollupNode | null> {
  const [latest, runs] = await Promise.all([load(g, latestOf, c), load(g, runsOf, c)]);
  // Upstream answers null for a commit nothing reported on.
  return latest.length || runs.length ? { __typename: 'StatusCheckRollup', repo: c.repo, sha: c.oid, latest, runs } : null;
}

const rollupFields = {
  id: (r: RollupNode) => encodeNodeId('StatusCheckRollup', `${r.repo.id}:${r.sha}`),
  commit: (r: RollupNode) => commitNode(r.repo, r.sha),
  state: (r: RollupNode) => rollupState([...r.latest, ...r.runs.map((x) => ({ state: runState(x.run) }))]),
  contexts: async (r: RollupNode, args: ConnectionArgs) => ({
    ...(await arrayConnection([
      ...r.runs.map((x) => checkRunNode(r.repo, x.run, x.appId)),
      ...r.latest.map((status): StatusContextNode => ({ __typename: 'StatusContext', repo: r.repo, status })),
    ], args)),
    checkRunCount: r.runs.length,
    statusContextCount: r.latest.length,
  }),
};

async function creatorOf(g: GraphQLContext, s: StatusContextNode) {
  const account = s.status.creatorId === null ? null : await load(g, accountById, s.status.creatorId);
  return account ? accountNode(account) : null;
}

const statusContextFields = {
  id: (s: StatusContextNode) => encodeNodeId('StatusContext', s.status.id),
  avatarUrl: async (s: StatusContextNode, args: { size?: number | null }, g: GraphQLContext) =>
    (s.status.creatorId === null ? null : `${g.ctx.urls.avatar(s.status.creatorId)}${args.size ? `&s=${args.size}` : ''}`),
  commit: (s: StatusContextNode) => commitNode(s.repo, s.status.sha),
  context: (s: StatusContextNode) => s.status.context,
  createdAt: (s: StatusContextNode) => s.status.createdAt,
  creator: creatorOf,
  description: (s: StatusContextNode) => s.status.description,
  // No status is required while Wharf has no branch protection (issue #21).
  isRequired: () => false,
  state: (s: StatusContextNode) => s.status.state.toUpperCase(),
  targetUrl: (s: StatusContextNode) => s.status.targetUrl,
};

export const statusesGraphQL: GraphQLModule = {
  name: 'statuses',
  typeDefs: statusesTypeDefs,
  resolvers: {
    Commit: { statusCheckRollup: (c: GitObjectNode, _args: unknown, g: GraphQLContext) => rollupOf(g, c) },
    StatusCheckRollup: rollupFields,
    StatusContext: statusContextFields,
  },
  nodes: {
    StatusContext: async (g, id) => {
      const n = numericId(id);
      const status = n === null ? null : await statuses.findStatus(g.ctx, n);
      const repo = status ? (await load(g, repositoryById, status.repositoryId))?.repo : null;
      return status && repo ? { __typename: 'StatusContext', repo, status } : null;
    },
    StatusCheckRollup: async (g, id) => {
      const scoped = splitRepositoryScoped(id);
      const repo = scoped ? (await load(g, repositoryById, scoped.repositoryId))?.repo : null;
      return repo && scoped && /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(scoped.rest) ? rollupOf(g, commitNode(repo, scoped.rest)) : null;
    },
  },
};
