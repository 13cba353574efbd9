// GraphQL of checks: the types only, until Wharf records check runs (issue #21); no
// check run, suite, workflow run or workflow exists, so none resolves by node id.
import type { GraphQLModule } from '../../graphql/module.ts';
import type { NodeResolver } from '../../graphql/node-id.ts';
import { checksTypeDefs } from './checks.graphql.ts';

const noSuchNode: NodeResolver = async () => null;

export const checksGraphQL: GraphQLModule = {
  name: 'checks',
  typeDefs: checksTypeDefs,
  nodes: { CheckRun: noSuchNode, CheckSuite: noSuchNode, WorkflowRun: noSuchNode, Workflow: noSuchNode },
};
