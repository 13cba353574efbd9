// The modules that make up the GraphQL schema, in registration order (each area adds
// its module here; see the comment at the top of schema.ts).
import { closingGraphQL } from '../modules/closing/closing.resolvers.ts';
import { checksGraphQL } from '../modules/checks/checks.resolvers.ts';
import { deploymentsGraphQL } from '../modules/deployments/deployments.resolvers.ts';
import { releasesGraphQL } from '../modules/releases/releases.resolvers.ts';
import { rulesetsGraphQL } from '../modules/branch-protection/rulesets.resolvers.ts';
import { gitDataGraphQL } from '../modules/git-data/git-data.resolvers.ts';
import { issuesGraphQL } from '../modules/issues/issues.resolvers.ts';
import { orgsGraphQL } from '../modules/orgs/orgs.resolvers.ts';
import { projectsGraphQL } from '../modules/projects/projects.resolvers.ts';
import { pullsGraphQL } from '../modules/pulls/pulls.resolvers.ts';
import { reviewThreadsGraphQL } from '../modules/pulls/review-threads.resolvers.ts';
import { autoMergeGraphQL } from '../modules/pulls/auto-merge.resolvers.ts';
import { reactionsGraphQL } from '../modules/reactions/reactions.resolvers.ts';
import { reposGraphQL } from '../modules/repos/repos.resolvers.ts';
import { searchGraphQL } from '../modules/search/search.resolvers.ts';
import { statusesGraphQL } from '../modules/statuses/statuses.resolvers.ts';
import { teamDiscussionsGraphQL } from '../modules/team-discussions/team-discussions.resolvers.ts';
import { usersGraphQL } from '../modules/users/users.resolvers.ts';
import type { GraphQLModule } from './module.ts';

export const GRAPHQL_MODULES: readonly GraphQLModule[] = [usersGraphQL, orgsGraphQL, reposGraphQL, gitDataGraphQL, checksGraphQL, statusesGraphQL, deploymentsGraphQL, releasesGraphQL, rulesetsGraphQL, issuesGraphQL, reactionsGraphQL, pullsGraphQL, reviewThreadsGraphQL, autoMergeGraphQL, projectsGraphQL, teamDiscussionsGraphQL, searchGraphQL, closingGraphQL];
