// GraphQL of checks: CheckRun and CheckSuite nodes over the checks service (the rollup
// of a commit, statuses.resolvers.ts, holds the runs beside the statuses). Wharf has no
// Actions workflows: a suite's workflowRun is null, and no WorkflowRun or Workflow exists.
import type { GraphQLContext } from '../../graphql/context.ts';
import { load } from '../../graphql/loaders.ts';
import type { GraphQLModule } from '../../graphql/module.ts';
import { encodeNodeId, numericId, type NodeResolver } from '../../graphql/node-id.ts';
import { branchRules } from '../branch-protection/ref-rules.service.ts';
import * as pulls from '../pulls/pulls.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import { repositoryById } from '../repos/repos.resolvers.ts';
import type { CheckRun, CheckSuite } from './checks.model.ts';
import * as checks from './checks.service.ts';
import { checksTypeDefs } from './checks.graphql.ts';

export interface CheckRunNode {
  __typename: 'CheckRun';
  repo: Repo;
  run: CheckRun;
  appId: number | null;
}

interface CheckSuiteNode {
  __typename: 'CheckSuite';
  repo: Repo;
  suite: CheckSuite;
}

export function checkRunNode(repo: Repo, run: CheckRun, appId: number | null): CheckRunNode {
  return { __typename: 'CheckRun', repo, run, appId };
}

const upper = (v: string | null) => (v === null ? null : v.toUpperCase());

/** Whether the pull request's base branch requires this run's name (and, when bound, its app). */
async function isRequired(r: CheckRunNode, args: { pullRequestNumber?: number | null }, g: GraphQLContext): Promise<boolean> {
  if (args.pullRequestNumber == null) return false;
  const { pull } = await pulls.getPull(g.ctx, g.actor, r.repo.owner.login, r.repo.name, args.pullRequestNumber);
  const rules = await branchRules(g.ctx, r.repo, pull.baseRef);
  return (rules?.requiredStatusChecks?.checks ?? []).some((c) => c.context === r.run.name && (c.appId === null || c.appId === r.appId));
}

async function suiteOfRun(r: CheckRunNode, _a: unknown, g: GraphQLContext): Promise<CheckSuiteNode> {
  const suite = await checks.findSuite(g.ctx, r.run.suiteId);
  return { __typename: 'CheckSuite', repo: r.repo, suite: suite! };
}

async function repoOf(g: GraphQLContext, repositoryId: number): Promise<Repo | null> {
  return (await load(g, repositoryById, repositoryId))?.repo ?? null;
}

const runNode: NodeResolver = async (g, id) => {
  const n = numericId(id);
  const run = n === null ? null : await checks.findRun(g.ctx, n);
  const repo = run ? await repoOf(g, run.repositoryId) : null;
  const suite = run && repo ? await checks.findSuite(g.ctx, run.suiteId) : null;
  return run && repo && suite ? checkRunNode(repo, run, suite.appId) : null;
};

const suiteNode: NodeResolver = async (g, id) => {
  const n = numericId(id);
  const suite = n === null ? null : await checks.findSuite(g.ctx, n);
  const repo = suite ? await repoOf(g, suite.repositoryId) : null;
  return suite && repo ? { __typename: 'CheckSuite', repo, suite } : null;
};

const noSuchNode: NodeResolver = async () => null;

export const checksGraphQL: GraphQLModule = {
  name: 'checks',
  typeDefs: checksTypeDefs,
  resolvers: {
    CheckRun: {
      id: (r: CheckRunNode) => encodeNodeId('CheckRun', r.run.id),
      name: (r: CheckRunNode) => r.run.name,
      status: (r: CheckRunNode) => r.run.status.toUpperCase(),
      conclusion: (r: CheckRunNode) => upper(r.run.conclusion),
      detailsUrl: (r: CheckRunNode) => r.run.detailsUrl,
      startedAt: (r: CheckRunNode) => r.run.startedAt,
      completedAt: (r: CheckRunNode) => r.run.completedAt,
      isRequired,
      checkSuite: suiteOfRun,
    },
    CheckSuite: {
      id: (s: CheckSuiteNode) => encodeNodeId('CheckSuite', s.suite.id),
      status: (s: CheckSuiteNode) => s.suite.status.toUpperCase(),
      conclusion: (s: CheckSuiteNode) => upper(s.suite.conclusion),
      workflowRun: () => null,
    },
  },
  nodes: { CheckRun: runNode, CheckSuite: suiteNode, WorkflowRun: noSuchNode, Workflow: noSuchNode },
};
